"""Issue #36, second round: templates and constant phrases that the name alone would make ungrammatical.

Each rule is general (a word class, a number, a kind of name), and every lexicon still reads back exactly.
"""

from __future__ import annotations

import pytest

from lgmt_tasks.logic.lexicon import lexicon_for, name_cased
from lgmt_tasks.logic.morphology import Usage, usage_hint
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.phrasing import natural_template, numeral_phrase, template_pattern
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize


def pattern(name: str, arity: int, usage: Usage | None = None) -> str | None:
    template = natural_template(name, arity, usage)
    return None if template is None else template_pattern(template)


def test_a_verb_first_name_with_a_participle_is_conjugated() -> None:
    assert pattern("KeepUpdatedOn", 2) == "{0} keeps updated on {1}"


def test_a_unary_name_that_lost_its_object_is_spoken_formally() -> None:
    assert pattern("During", 1) is None  # not "the regular time is during"
    assert pattern("LiveIn", 1) is None  # not "x lives in"
    assert pattern("GiveUp", 1) == "{0} gives up"  # a particle ends a verb phrase


def test_a_name_that_starts_with_a_preposition_gets_no_article_before_it() -> None:
    assert pattern("InUrbanArea", 1, Usage("noun", None)) == "{0} is in urban area"
    assert pattern("InBeijing", 1, Usage(None, ("in", "Beijing"))) == "{0} is in Beijing"


def test_a_naming_participle_is_passive() -> None:
    assert pattern("Named", 2) == "{0} is named {1}"
    assert pattern("Called", 2) == "{0} is called {1}"


def test_an_adjective_the_english_uses_after_a_copula_is_no_relation_noun() -> None:
    assert pattern("Compatible", 2, Usage("copula", None)) is None  # not "x is a compatible of y"
    assert pattern("Multicellular", 1) == "{0} is multicellular"  # "-ular" is an adjective's ending


def test_a_binary_verb_name_whose_object_place_is_not_at_its_end_is_spoken_formally() -> None:
    assert pattern("PlayExtra", 2) is None  # not "x plays extra y"
    assert pattern("UpgradeToEveryYear", 2) is None  # not "x upgrades to every year y"
    assert pattern("ConsidersMostImportantLoveLanguage", 2) is None
    assert pattern("UseZipCode", 2) == "{0} uses zip code {1}"
    assert pattern("EnjoyReading", 2) == "{0} enjoys reading {1}"
    assert pattern("GiveUp", 2) == "{0} gives up {1}"


def test_a_number_constant_is_spoken_as_its_number() -> None:
    assert numeral_phrase("num98199") == ("98199",)
    assert numeral_phrase("yr1997") == ("1997",)
    assert numeral_phrase("year2013Final") is None
    assert numeral_phrase("con1") is None
    f = parse("∀x (GreaterThan(x, num160) → Heavy(x))")
    lx = lexicon_for(f)
    assert lx.constant_phrase("num160") == "160"
    assert read(realize(f, lx), lx) == f


def test_a_constant_made_of_number_words_is_not_a_proper_name() -> None:
    f = parse("∃y (MoreThan(y, oneMillion) ∧ Sold(book, y))")
    lx = lexicon_for(f, common_nouns={"book"})
    assert lx.constant_phrase("oneMillion") == "one million"
    assert read(realize(f, lx), lx) == f


def test_constants_that_differ_only_in_case_both_keep_the_english_word() -> None:
    f = parse("MechanicalWatch(moonWatch) ∧ ¬Digital(moonwatch)")
    spellings = {"moonWatch": ("Moonwatch",), "moonwatch": ("Moonwatch",)}
    lx = lexicon_for(f, spellings=spellings)
    phrases = {lx.constant_phrase("moonWatch"), lx.constant_phrase("moonwatch")}
    assert phrases == {"Moonwatch", "MoonWatch"}  # not a raw `moonwatch_2`
    assert read(realize(f, lx), lx) == f
    assert name_cased(("the", "PlayStation", "Camera"), "playstationCamera") == ("the", "Playstation", "Camera")
    assert name_cased(("Moonwatch",), "other") is None


@pytest.mark.parametrize(
    ("words", "text", "reading"),
    [
        (("certified", "gold"), "A certified gold album is one which sold well.", "copula"),
        (("noninvasive",), "It is a noninvasive neuroimaging technique.", "copula"),
    ],
)
def test_a_name_that_modifies_a_longer_noun_is_a_quality(words: tuple[str, ...], text: str, reading: str) -> None:
    hint = usage_hint(words, text)
    assert hint is not None and hint.reading == reading


def test_a_word_at_the_start_of_a_longer_capitalised_name_gives_no_capitals() -> None:
    hint = usage_hint(("loves",), "Adam is in Love City. Adam loves animals.")
    assert hint is None or hint.words is None  # not "Adam Loves animals"
