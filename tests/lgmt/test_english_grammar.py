"""Issue #36, second round: phrases learned from the source's English where the FOL name alone says them badly.

Prepositions the name lost ("lives in an apartment in"), the preposition after an adjective ("compatible with"), a
place said with its article ("in an urban area"), names the FOL prefixed ("Odell" for `nameODell`, "the 2013 final"
for `year2013Final`), constants that differ only in case, a period inside a closing quote, and a renamed plural
subject. Every lexicon still reads back exactly.
"""

from __future__ import annotations

from lgmt_tasks.lgmt.english import (
    case_lexicon,
    constant_spellings,
    learned_templates,
    splice_clause,
    substitute_constant,
    without_period,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.phrasing import abstract_template, template_pattern
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.sources.case import Case

EMILY = Case(
    premises_fol=(
        parse("∀x (InEmmasFamily(x) → LiveIn(x, apartment, bigMetropolitanCity))"),
        parse("∀x (Skyscraper(x) → InUrbanArea(x))"),
        parse("Compatible(playStationEye, playStation2)"),
        parse("∀x (SoldOver(x, 500, 000) → CertifiedGold(x))"),
    ),
    conclusion_fol=parse("LiveIn(emily, apartment, bigMetropolitanCity)"),
    premises=(
        "Everybody in Emma's family lives in an apartment in a big metropolitan city.",
        "All skyscrapers are in urban areas.",
        "The PlayStation Eye is compatible with the PlayStation 2.",
        "A certified gold album is one which sold over half a million copies.",
    ),
    conclusion="Emily lives in an apartment in a big metropolitan city.",
)

ODELL = Case(
    premises_fol=(
        parse("MistakenSpellingOf(nameO'Dell, nameODell)"),
        parse("Named(amyODell, nameODell)"),
        parse("WonCup(aberdeen, year2013Final)"),
    ),
    conclusion_fol=parse("Named(amyODell, nameO'Dell)"),
    premises=(
        "In some families, Odell is spelled O'Dell in a mistaken Irish adaptation.",
        "Odell is Amy Odell's surname.",
        "Aberdeen won the cup in the 2013 final.",
    ),
    conclusion="Amy Odell is also Amy O'Dell.",
)


def test_a_ternary_verb_keeps_the_preposition_the_english_says_after_it() -> None:
    learned = learned_templates(EMILY)
    assert template_pattern(learned[("LiveIn", 3)]) == "{0} lives in {1} in {2}"
    lx = case_lexicon(EMILY)
    f = EMILY.conclusion_fol
    assert realize(f, lx) == "Emily lives in an apartment in a big metropolitan city."
    assert read(realize(f, lx), lx) == f


def test_a_ternary_name_whose_arguments_have_no_place_in_the_english_is_spoken_formally() -> None:
    assert learned_templates(EMILY)[("SoldOver", 3)] == abstract_template("SoldOver", 3)  # not "x sold 500 over 000"
    lx = case_lexicon(EMILY)
    assert lx.predicate_pattern("SoldOver", 3) == "{0}, {1} and {2} stand in relation SoldOver"
    assert lx.predicate_pattern("CertifiedGold", 1) == "{0} is certified gold"  # not "a certified gold"


def test_a_place_is_said_with_the_article_its_noun_needs() -> None:
    assert template_pattern(learned_templates(EMILY)[("InUrbanArea", 1)]) == "{0} is in an urban area"


def test_an_adjective_keeps_the_preposition_the_english_puts_after_it() -> None:
    assert template_pattern(learned_templates(EMILY)[("Compatible", 2)]) == "{0} is compatible with {1}"


def test_a_name_prefixed_by_the_fol_is_spoken_as_the_english_writes_it() -> None:
    lx = case_lexicon(ODELL)
    assert lx.constant_phrase("nameODell") == "Odell"
    assert lx.constant_phrase("nameO'Dell") == "O'Dell"
    assert lx.constant_phrase("year2013Final") == "the 2013 final"
    assert lx.predicate_pattern("Named", 2) == "{0} is named {1}"
    for f in (*ODELL.premises_fol, ODELL.conclusion_fol):
        assert read(realize(f, lx), lx) == f


def test_constants_that_differ_only_in_case_are_both_spoken_from_the_english() -> None:
    case = Case(
        premises_fol=(parse("MechanicalWatch(moonWatch)"), parse("Watch(moonwatch)")),
        conclusion_fol=parse("¬(moonWatch = moonwatch)"),
        premises=("Moonwatch is a mechanical watch.", "The Moonwatch is a watch."),
        conclusion="Moonwatch is not the Moonwatch.",
    )
    lx = case_lexicon(case)
    phrases = {lx.constant_phrase("moonWatch"), lx.constant_phrase("moonwatch")}
    assert not any("_" in p for p in phrases)
    assert read(realize(case.conclusion_fol, lx), lx) == case.conclusion_fol


def test_a_name_with_a_lower_case_first_letter_keeps_it_when_the_english_only_starts_sentences_with_it() -> None:
    case = Case(
        premises_fol=(parse("NeuroimagingTechnique(fMRI)"),),
        conclusion_fol=parse("Noninvasive(fMRI)"),
        premises=("FMRI is a neuroimaging technique.",),
        conclusion="FMRI is a noninvasive neuroimaging technique.",
    )
    assert constant_spellings(case)["fMRI"] == ("fMRI",)


def test_a_period_inside_a_closing_quote_is_dropped_from_a_spliced_clause() -> None:
    sentence = 'Knuth has been called the "father of the analysis of algorithms."'
    assert without_period(sentence) == 'Knuth has been called the "father of the analysis of algorithms"'
    assert splice_clause(sentence, frozenset({"knuth"})).endswith('algorithms"')
    assert without_period("Space sucks.") == "Space sucks"


def test_a_renamed_plural_subject_is_not_left_with_a_plural_verb() -> None:
    assert substitute_constant("Bananas are grasses or fruits.", "banana", "Con1") is None  # realised instead
    assert substitute_constant("The banana is a fruit.", "banana", "Con1") == "Con1 is a fruit."
    assert substitute_constant("James attends the conference.", "james", "Con1") == "Con1 attends the conference."
