"""Constants are proper names in template English: capitalised wherever they stand, and still read back exactly.

Before, a name was capitalised only as a sentence's first word ("Either ursula writes poetry or ..."), so inside a
sentence a person read like a common noun.
"""

from __future__ import annotations

import re

import pytest

from lgmt_tasks.logic.lexicon import LexiconError, lexicon_for
from lgmt_tasks.logic.phrasing import proper_name
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.logic.syntax import And, Atom, Const, Exists, Forall, Formula, Implies, Not, Or, Var, Xor
from lgmt_tasks.sources.generated import load_vocabulary

x = Var("x")


def P(name: str, *args: str | Var) -> Atom:
    return Atom(name, tuple(Const(a) if isinstance(a, str) else a for a in args))


def say_and_read(f: Formula) -> str:
    """Realise `f` with its own natural lexicon and assert that the sentence reads back to `f`."""
    lx = lexicon_for([f])
    text = realize(f, lx)
    assert read(text, lx) == f, text
    return text


@pytest.mark.parametrize(
    ("formula", "english"),
    [
        (Or((P("WritesPoetry", "ursula"), P("Funny", "xena"))), "Either Ursula writes poetry or Xena is funny."),
        (Not(P("Funny", "xena")), "It is not the case that Xena is funny."),
        (Not(P("Proud", "victor")), "It is not the case that Victor is proud."),
        (
            Xor(P("Bilingual", "ivan"), P("Likes", "ivan", "judy")),
            "Either Ivan is bilingual or Ivan likes Judy, but not both.",
        ),
        (Forall("x", Implies(P("Likes", "alice", x), P("Happy", x))), "For all x, if Alice likes x, then x is happy."),
        (Exists("y", P("Knows", Var("y"), "bob")), "There exists at least one y such that y knows Bob."),
        (P("ResidentOf", "tom", "lawtonPark"), "Tom is resident of Lawton Park."),
        (P("Happy", "nationalLibraryOfMedicine"), "National Library of Medicine is happy."),
        (Not(P("Happy", "theBeatles")), "It is not the case that The Beatles is happy."),
        (Not(P("BornIn1965", "mr.smith")), "It is not the case that Mr. Smith is born in 1965."),
    ],
)
def test_constants_are_capitalised_inside_sentences_and_read_back(formula: Formula, english: str) -> None:
    assert say_and_read(formula) == english


def test_every_generated_person_is_capitalised_mid_sentence_and_reads_back() -> None:
    people = load_vocabulary().people
    for person in people:
        f = Not(P("Happy", person))
        text = say_and_read(f)
        assert text == f"It is not the case that {person.capitalize()} is happy.", text
        assert re.search(rf"\b{person}\b", text) is None, text


def test_names_that_look_abstract_and_the_abstract_style_keep_their_spelling() -> None:
    f = And((P("Happy", "c1"), P("Happy", "Con2")))
    assert say_and_read(f) == "Both c1 is happy and Con2 is happy."
    lx = lexicon_for([P("Likes", "alice", "bob")], style="abstract")
    assert realize(P("Likes", "alice", "bob"), lx) == "Alice bears relation Likes to bob."


def test_lower_case_name_is_not_read_as_the_constant() -> None:
    """The reader takes the phrase exactly as written: a lower-case name inside a sentence is not the constant."""
    f = Not(P("Funny", "xena"))
    lx = lexicon_for([f])
    assert read("It is not the case that Xena is funny.", lx) == f
    with pytest.raises(ValueError, match="column 24"):
        read("It is not the case that xena is funny.", lx)


def test_proper_name_keeps_articles_and_prepositions_lower_case_after_the_first_word() -> None:
    assert proper_name(("the", "university", "of", "the", "arts")) == ("The", "University", "of", "the", "Arts")
    assert proper_name(("l-2021",)) == ("L-2021",)
    assert proper_name(("2008", "summer", "olympics")) == ("2008", "Summer", "Olympics")


def test_connective_words_still_keep_a_name_out_of_the_natural_phrasing() -> None:
    """Capitalising would hide "and"/"or" from the reader's word check, so the check runs on the lower-case words."""
    lx = lexicon_for([P("Happy", "rockOrRoll")])
    assert lx.constant_phrase("rockOrRoll") == "rockOrRoll"


def test_a_lower_case_override_is_kept_as_given() -> None:
    f = P("Happy", "lawtonPark")
    lx = lexicon_for([f], overrides={"lawtonPark": "lawton park"})
    assert realize(f, lx) == "Lawton park is happy."
    assert read("Lawton park is happy.", lx) == f
    with pytest.raises(LexiconError):
        lexicon_for([f], overrides={"lawtonPark": "and park"})


def test_constants_named_as_common_nouns_keep_the_lower_case_and_read_back() -> None:
    f = And((P("Hires", "company", "tom"), Not(P("Hires", "company", "lawtonPark"))))
    lx = lexicon_for([f], common_nouns={"company", "notASymbol"})
    text = realize(f, lx)
    assert text == "Both company hires Tom and it is not the case that company hires Lawton Park."
    assert read(text, lx) == f
