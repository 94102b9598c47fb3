"""Real morphology for names taken from data (issue #26): word classes, inflection, the source's usage, names."""

from __future__ import annotations

import pytest

from lgmt_tasks.logic.lexicon import lexicon_for
from lgmt_tasks.logic.morphology import Usage, indefinite_article, third_person, usage_hint
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.phrasing import natural_template, split_name, template_pattern
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize


def pattern(name: str, arity: int, usage: Usage | None = None) -> str | None:
    template = natural_template(name, arity, usage)
    return None if template is None else template_pattern(template)


@pytest.mark.parametrize(
    ("name", "arity", "expected"),
    [
        # nouns get an article; a plural head is made singular
        ("Mammal", 1, "{0} is a mammal"),
        ("AnimalLover", 1, "{0} is an animal lover"),
        ("FederationOfficial", 1, "{0} is a federation official"),
        ("DeadlyDiseases", 1, "{0} is a deadly disease"),
        ("RealityTVShow", 1, "{0} is a reality TV show"),
        ("SecondLargestChineseCity", 1, "{0} is the second largest chinese city"),
        # verbs are conjugated, in the tense the name gives
        ("Jump", 1, "{0} jumps"),
        ("Suck", 1, "{0} sucks"),
        ("create_unique_art", 1, "{0} creates unique art"),
        ("AppearIn", 2, "{0} appears in {1}"),
        ("LostTo", 2, "{0} lost to {1}"),
        ("GrewUpIn", 2, "{0} grew up in {1}"),
        ("Hosted", 2, "{0} hosted {1}"),
        ("RegularlyEat", 2, "{0} regularly eats {1}"),
        ("ShareWith", 3, "{0} shares {1} with {2}"),
        ("CanFly", 1, "{0} can fly"),
        # participles before a preposition read as passive, unless the verb is intransitive
        ("LocatedIn", 2, "{0} is located in {1}"),
        ("PublishedBy", 2, "{0} is published by {1}"),
        ("CommonlyKnownAs", 2, "{0} is commonly known as {1}"),
        ("MovedTo", 2, "{0} moved to {1}"),
        ("Donated", 1, "{0} is donated"),
        # adjectives stay bare; comparatives and some adjectives take their preposition
        ("Calm", 1, "{0} is calm"),
        ("AfraidOfSpiders", 1, "{0} is afraid of spiders"),
        ("ColorBlind", 1, "{0} is color blind"),
        ("Taller", 2, "{0} is taller than {1}"),
        ("Related", 2, "{0} is related to {1}"),
        ("MeanTo", 2, "{0} is mean to {1}"),
        # relational nouns
        ("Member", 2, "{0} is a member of {1}"),
        ("Sibling", 2, "{0} is a sibling of {1}"),
        ("SameClass", 2, "{0} is the same class as {1}"),
        ("Mentor", 2, "{0} is a mentor of {1}"),
        # a possessive "s" the name kept as a word
        ("PeterSPet", 1, "{0} is peter's pet"),
        # what has no good reading falls back to the paper's formal phrasing (None here)
        ("Writtenby", 2, None),
        ("MostMedals", 2, None),
    ],
)
def test_data_names_are_spoken_with_their_word_class(name: str, arity: int, expected: str | None) -> None:
    assert pattern(name, arity) == expected


@pytest.mark.parametrize(
    ("words", "text", "expected"),
    [
        (("pet",), "Rock is Peter's pet. Every pet is a mammal.", Usage("noun")),
        (("bark",), "Jane does not like any animals that bark.", Usage("verb")),
        (("jump",), "Some animals jump.", Usage("verb")),
        (("calm",), "If Rockie is calm, then it is cute.", Usage("copula")),
        (("animal",), "Rock is an animal. All monkeys are animals.", Usage("noun")),
        (("peters", "pet"), "If Rock is Peter's pet, it is a mammal.", Usage("noun", ("Peter's", "pet"))),
        (
            ("worlds", "most", "populous", "nation"),
            "China is the world's most populous nation.",
            Usage("noun", ("the", "world's", "most", "populous", "nation")),
        ),
        (("greek",), "Socrates is a Greek.", Usage("noun", ("Greek",))),
        (("mine",), "Diamond Mine is a professional wrestling stable.", None),  # part of a name, not a use
        (("gain", "knowledge"), "Harry gains knowledge.", Usage("verb")),
        (("unknown",), "Nothing here mentions it.", None),
    ],
)
def test_the_source_english_settles_the_word_class(words: tuple[str, ...], text: str, expected: Usage | None) -> None:
    assert usage_hint(words, text) == expected


@pytest.mark.parametrize(
    ("name", "arity", "usage", "expected"),
    [
        ("Pet", 1, Usage("noun"), "{0} is a pet"),
        ("Bark", 1, Usage("verb"), "{0} barks"),
        ("Animal", 1, Usage("noun"), "{0} is an animal"),
        ("PetersPet", 1, Usage("noun", ("Peter's", "pet")), "{0} is Peter's pet"),
        (
            "WorldsMostPopulousNation",
            1,
            Usage("noun", ("the", "world's", "most", "populous", "nation")),
            "{0} is the world's most populous nation",
        ),
        ("GainKnowledge", 1, Usage("verb"), "{0} gains knowledge"),
        ("find_inner_strength", 1, Usage("verb"), "{0} finds inner strength"),
        ("BingeWatch", 2, Usage("verb"), "{0} binge watches {1}"),
        ("Greek", 1, Usage("noun", ("Greek",)), "{0} is a Greek"),
    ],
)
def test_usage_changes_the_template(name: str, arity: int, usage: Usage, expected: str) -> None:
    assert pattern(name, arity, usage) == expected


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("bBCThree", ("BBC", "three")),
        ("lGAAirport", ("LGA", "airport")),
        ("wWE", ("WWE",)),
        ("kO", ("KO",)),
        ("iPhone", ("i", "phone")),
    ],
)
def test_a_lower_case_letter_before_capitals_belongs_to_the_acronym(name: str, words: tuple[str, ...]) -> None:
    assert split_name(name, keep_acronyms=True) == words
    assert split_name(name) == tuple(w.lower() for w in words)


def test_constants_keep_acronyms_whole() -> None:
    f = parse("Airs(strangerThings, bBCThree) ∧ LocatedAt(susan, lGAAirport)")
    english = realize(f, lexicon_for([f]))
    assert "BBC Three" in english and "LGA Airport" in english
    assert read(english, lexicon_for([f])) == f


def test_inflection_and_articles() -> None:
    assert [third_person(v) for v in ("fly", "watch", "go", "be", "have", "carry")] == [
        "flies",
        "watches",
        "goes",
        "is",
        "has",
        "carries",
    ]
    assert [indefinite_article(w) for w in ("hour", "university", "apple", "NBA", "TV", "one")] == [
        "an",
        "a",
        "an",
        "an",
        "a",
        "a",
    ]


def test_usage_keeps_read_back_exact() -> None:
    """A lexicon built with the source's usage still reads every sentence back to its formula."""
    f = parse("∀x (Pet(x) → (Bark(x) ∧ ¬Animal(x) ∧ PetersPet(x)))")
    usage = {
        ("Pet", 1): Usage("noun"),
        ("Bark", 1): Usage("verb"),
        ("Animal", 1): Usage("noun"),
        ("PetersPet", 1): Usage("noun", ("Peter's", "pet")),
    }
    lx = lexicon_for([f], usage=usage)
    english = realize(f, lx)
    assert english == (
        "For all x, if x is a pet, then all of x barks, it is not the case that x is an animal, and x is Peter's pet."
    )
    assert read(english, lx) == f
