"""QMFOL English: topic data, the §3.2 sentence forms, and the exact round trip read(realise(f)) == f."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.qmfol.construction import LABELS, make_logic_task, predicate_count
from lgmt_tasks.qmfol.english import (
    MIN_PHRASES,
    TOPICS,
    EnglishError,
    Phrase,
    QmfolLexicon,
    Topic,
    load_topic,
    read,
    realise,
    task_lexicon,
)


@pytest.mark.parametrize("name", TOPICS)
def test_topic_files_meet_the_bar(name: str) -> None:
    topic = load_topic(name)
    assert topic.name == name and len(topic.phrases) >= MIN_PHRASES
    assert len({p.phrase for p in topic.phrases}) == len(topic.phrases)
    for p in topic.phrases:  # affirmative, with a negation that says "not"
        assert " not " not in f" {p.phrase} " and "cannot" not in p.phrase, p
        assert " not " in f" {p.negation} " or p.negation.startswith("cannot "), p
    raw = json.loads(resources.files("lgmt_tasks.qmfol").joinpath("data", f"{name.lower()}.json").read_text())
    assert (
        {"topic", "entity", "article", "constants", "phrases"}
        <= set(raw)
        <= {
            "topic",
            "entity",
            "article",
            "constants",
            "phrases",
            "exclusive",
            "note",
        }
    )


def test_unknown_topic_is_refused() -> None:
    with pytest.raises(ValueError, match="Food, Animal, University, Mathematics"):
        load_topic("Sports")


def lexicon() -> QmfolLexicon:
    return QmfolLexicon(
        entity="food item",
        article="a",
        predicates=(
            ("P0", Phrase("is perishable", "is not perishable")),
            ("P1", Phrase("contains garlic", "does not contain garlic")),
            ("P2", Phrase("is sour", "is not sour")),
        ),
        constants=(("a", "Velmora"),),
    )


@pytest.mark.parametrize(
    ("fol", "english"),
    [
        (
            "∀x ((P0(x) ∧ ¬P1(x)) → (P2(x) ∨ P1(x)))",
            "For every food item, if the food item is perishable and the food item does not contain garlic, then the "
            "food item is sour or the food item contains garlic.",
        ),
        (
            "∀x ((P0(x) ∨ P2(x)) → (P1(x) ∧ ¬P2(x)))",
            "For every food item, if the food item is perishable or the food item is sour, then the food item contains "
            "garlic and the food item is not sour.",
        ),
        ("∃x (¬P0(x) ∧ P1(x))", "There exists a food item that is not perishable and contains garlic."),
        ("P0(a) ∧ ¬P2(a)", "Velmora is perishable and Velmora is not sour."),
        ("¬P1(a)", "Velmora does not contain garlic."),
        ("P1(a) ∨ P2(a)", "Velmora contains garlic or Velmora is sour."),
        ("P0(a) → (P1(a) ∨ ¬P2(a))", "If Velmora is perishable, then Velmora contains garlic or Velmora is not sour."),
    ],
)
def test_sentence_forms_of_section_3_2(fol: str, english: str) -> None:
    f = parse(fol)
    assert realise(f, lexicon()) == english
    assert read(english, lexicon()) == f


def test_a_lower_case_object_name_is_capitalised_and_read_back() -> None:
    lx = task_lexicon("Mathematics", 3, 0)
    name = lx.name("a")
    assert name.startswith("the number ")
    text = realise(parse("P0(a) ∧ P1(a)"), lx)
    assert text.startswith("The number ") and read(text, lx) == parse("P0(a) ∧ P1(a)")


@pytest.mark.parametrize("topic", TOPICS)
def test_every_generated_sentence_reads_back(topic: str) -> None:
    for depth, width, n in [(1, 0, 0), (3, 4, 6), (20, 20, 20)]:
        for label in LABELS:
            task = make_logic_task(depth, width, 1, label, n)
            lx = task_lexicon(topic, predicate_count(depth, width, n), 1, depth, width)
            for f in (*task.presented, task.conclusion):
                assert read(realise(f, lx), lx) == f


def test_a_predicate_reads_the_same_with_more_distractors() -> None:
    small = task_lexicon("Animal", 10, 3, 5, 5)
    large = task_lexicon("Animal", 60, 3, 5, 5)
    assert large.predicates[:10] == small.predicates and large.constants == small.constants
    assert task_lexicon("Animal", 10, 4, 5, 5).predicates != small.predicates


def test_a_task_needing_more_phrases_than_the_topic_has_is_refused() -> None:
    with pytest.raises(EnglishError, match="phrases"):
        task_lexicon("Food", 10_000, 0)


@pytest.mark.parametrize(
    "phrases",
    [
        (Phrase("is sweet and sour", "is not sweet and sour"),),  # a grammar word inside a phrase
        (Phrase("is sour", "is not sour"), Phrase("is sour", "is not bitter")),  # not distinct
        (Phrase("is sour, mostly", "is not sour"),),  # punctuation
    ],
)
def test_an_ambiguous_lexicon_is_refused(phrases: tuple[Phrase, ...]) -> None:
    with pytest.raises(EnglishError):
        QmfolLexicon("food item", "a", tuple((f"P{i}", p) for i, p in enumerate(phrases)), (("a", "Velmora"),))
    with pytest.raises(EnglishError):
        Topic("Food", "food item", "a", ("Velmora",), phrases)


def test_confusable_object_names_are_refused() -> None:
    with pytest.raises(EnglishError, match="confused"):
        Topic("Food", "food item", "a", ("Velmora", "Velmora Grande"), (Phrase("is sour", "is not sour"),))


@pytest.mark.parametrize(
    "text",
    [
        "Velmora is perishable",  # no period
        "Velmora is crunchy.",  # unknown phrase
        "For every food item, if the food item is sour and the food item is perishable or the food item is sour, "
        "then the food item contains garlic.",  # mixes and/or on one side
        "For every food item, if it is sour, then the food item contains garlic.",  # a pronoun
        "Tavosh is sour.",  # unknown object
    ],
)
def test_read_refuses_sentences_outside_the_fragment(text: str) -> None:
    with pytest.raises(EnglishError):
        read(text, lexicon())


def test_quantified_facts_and_conclusions_read_back() -> None:
    lx = task_lexicon("Food", 4, 3)
    for text in (
        "∀x (P0(x) ∧ ¬P1(x))",
        "∀x (P2(x))",
        "∃x (P0(x) ∨ ¬P3(x))",
        "∃x ((P0(x) ∧ P1(x)) → ¬P2(x))",
        "∃x ((P0(x) ∨ P1(x)) → (P2(x) ∧ ¬P3(x)))",
    ):
        f = parse(text)
        sentence = realise(f, lx)
        assert sentence.startswith(("For every food item, ", "There exists a food item "))
        assert read(sentence, lx) == f, sentence
    assert realise(parse("∀x (P0(x) ∧ ¬P1(x))"), lx) == (
        f"For every food item, the food item {lx.phrase('P0').phrase} and the food item {lx.phrase('P1').negation}."
    )
