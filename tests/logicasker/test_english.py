"""LogicAsker English: Appendix D vocabulary, tenses and negation, grouping, and the Appendix G question."""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.logic.parse import is_identifier, parse
from lgmt_tasks.logicasker.english import (
    EnglishError,
    Phrase,
    Wording,
    assign_vocabulary,
    question,
    sentence,
    vocabulary,
)

COOK = Phrase("action", ("cook", "cooks", "cooking"))
DRIVE = Phrase("action", ("drive a car", "drives a car", "driving a car"))
DOCTOR = Phrase("copula", ("a doctor",))
SNOW = Phrase("weather_verb", ("snow", "snows", "snowing"))
SUNNY = Phrase("weather_adjective", ("sunny",))

WORDING = Wording(
    propositions={"snowing": (None, SNOW), "sunny": (None, SUNNY), "mary_cooks": ("Mary", COOK)},
    predicates={"Doctor": DOCTOR, "DrivesACar": DRIVE, "Cooks": COOK},
    constants={"john": "John"},
)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        (COOK, ["Mary is cooking", "Mary cooks", "Mary will cook", "Mary is not cooking", "Mary does not cook",
                "Mary will not cook"]),
        (DOCTOR, ["Mary is a doctor"] * 3 + ["Mary is not a doctor"] * 3),
        (SNOW, ["it is snowing", "it snows", "it will snow", "it is not snowing", "it does not snow",
                "it will not snow"]),
        (SUNNY, ["it is sunny", "it is sunny", "it will be sunny", "it is not sunny", "it is not sunny",
                 "it will not be sunny"]),
    ],
)  # fmt: skip
def test_tenses_and_negation(phrase, expected):
    subject = "it" if phrase.kind.startswith("weather") else "Mary"
    said = [phrase.say(subject, form, neg) for neg in (False, True) for form in ("assert", "if", "then")]
    assert said == expected


@pytest.mark.parametrize(
    ("fol", "english"),
    [
        # Appendix E, word for word (with u as the variable, as there)
        ("∀u (¬Doctor(u))", "For all u, u is not a doctor."),
        (
            "∃u (¬(Doctor(u) ∧ DrivesACar(u)))",
            "There is at least one u for which the claim that u is a doctor and the claim that u will drive a car "
            "cannot both be true.",
        ),
        ("∃x (DrivesACar(x))", "There is at least one x for which x will drive a car."),
        ("snowing → mary_cooks", "If it snows, then Mary will cook."),
        ("¬¬snowing", "It is not the case that it is not snowing."),
        ("¬(snowing ∨ mary_cooks)", "Neither it is snowing nor Mary is cooking."),
        ("¬∃x (Doctor(x))", "There is no x for which x is a doctor."),
        ("¬∀x (Doctor(x))", "It is not the case that for all x, x is a doctor."),
        ("¬(snowing → sunny)", "It is not the case that if it snows, then it will be sunny."),
        ("snowing ↔ Doctor(john)", "It is snowing if and only if John is a doctor."),
        ("∀x (Cooks(x) → Doctor(x))", "For all x, if x cooks, then x is a doctor."),
        ("∃x (Doctor(x)) → sunny", "If there is at least one x for which x is a doctor, then it will be sunny."),
        ("sunny ∧ ⊤", "It is sunny and it is logically true."),
        # grouping survives: the two sides of the associative and distributive laws read differently
        ("(snowing ∨ sunny) ∨ mary_cooks", "Either it is snowing or it is sunny, or Mary is cooking."),
        ("snowing ∨ (sunny ∨ mary_cooks)", "It is snowing or either it is sunny or Mary is cooking."),
        ("snowing ∧ (sunny ∨ mary_cooks)", "It is snowing and either it is sunny or Mary is cooking."),
        (
            "(snowing ∧ sunny) ∨ (snowing ∧ mary_cooks)",
            "Both it is snowing and it is sunny, or both it is snowing and Mary is cooking.",
        ),
        ("(snowing → sunny) ∧ (sunny → snowing)", "It will be sunny if it snows, and it will snow if it is sunny."),
        # a nest of one connective inside another reads as a list
        (
            "sunny → ((snowing ∧ mary_cooks) ∧ Doctor(john))",
            "If it is sunny, then all of it will snow, Mary will cook, and John is a doctor.",
        ),
        (
            "sunny → (snowing ∨ (mary_cooks ∨ Doctor(john)))",
            "If it is sunny, then at least one of it will snow, Mary will cook, or John is a doctor.",
        ),
    ],
)
def test_sentences(fol, english):
    assert sentence(parse(fol), WORDING) == english


def test_unknown_symbols_and_unsupported_constructs_are_errors():
    with pytest.raises(EnglishError, match="no English"):
        sentence(parse("raining"), WORDING)
    with pytest.raises(EnglishError, match="unary"):
        sentence(parse("Likes(john, john)"), WORDING)
    with pytest.raises(EnglishError):
        sentence(parse("snowing ⊕ sunny"), WORDING)


def test_question_is_the_papers_prompt():
    assert question(["If it snows, then Mary will cook.", "It is snowing."], "Mary is cooking.") == (
        "Consider the following premises: If it snows, then Mary will cook. It is snowing. Can we infer the "
        "following from them? Answer yes or no: Mary is cooking."
    )


def test_assign_vocabulary_is_seeded_unique_and_avoids_antonyms():
    atoms, preds, consts = [f"A{i}" for i in range(12)], [f"P{i}" for i in range(8)], ["c1", "c2"]
    first = assign_vocabulary(atoms, preds, consts, random.Random(7))
    assert first == assign_vocabulary(atoms, preds, consts, random.Random(7))
    assert first != assign_vocabulary(atoms, preds, consts, random.Random(8))
    words = first.wording
    phrases = [p.key for _, p in words.propositions.values()] + [p.key for p in words.predicates.values()]
    assert len(set(phrases)) == len(phrases) == 20  # no phrase twice in one test
    for group in vocabulary().antonyms:
        assert len(group & set(phrases)) <= 1
    subjects = [s for s, _ in words.propositions.values() if s] + list(words.constants.values())
    assert len(set(subjects)) == len(subjects)
    names = [*first.propositions.values(), *first.predicates.values(), *first.constants.values()]
    assert all(is_identifier(n) for n in names) and len(set(names)) == len(names)
    assert all(n.lower() == n for n in first.constants.values())


def test_vocabulary_is_appendix_d():
    vocab = vocabulary()
    assert len(vocab.names) == 28 and "Elisabeth" in vocab.names
    assert {p.words[0] for p in vocab.predicates} >= {"a cashier", "creative", "make tea", "paint a picture"}
    assert {p.key for p in vocab.weather} == {"snow", "rain", "sunny", "cloudy", "windy", "cold", "late", "overcast",
                                              "foggy", "humid"}  # fmt: skip
