"""The English side: the sentence pool, the templates (each proven to say what it renders), the realiser."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.english import (
    GROUP_FORMS,
    QUESTIONS,
    PoolSentence,
    Realiser,
    builtin_pool,
    clause,
    entry_sentences,
    generate_pool,
    handwritten_pool,
    indefinite,
    lexicon,
    load_pool,
    negate,
    pool_from_pairs,
    templates,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import equivalent

SLOTS = {"implication": {"p", "q"}, "not_both": {"a", "b", "c"}, "either": {"a", "b", "c"}}


NEGATION = re.compile(r"\b(?:no|not|nobody|none|never|false)\b|\bno one\b|n't\b", re.IGNORECASE)
FRAME = re.compile(
    r'(?P<lead>.*?)\b(?:an? |no )?(?P<work>[a-z]+(?: [a-z]+)?) titled "(?P<title>The [A-Z][a-z]+(?:-[A-Z][a-z]+)* '
    r'[A-Z][a-z]+)" (?:that compares|comparing) the (?P<n1>[a-z]+) to the (?P<n2>[a-z]+)(?P<tail>.*)\.$'
)
"""The shape every sentence of the builtin pool has (a grammar check: nothing but the frame's words and slots)."""


def test_builtin_pool_is_large_and_every_variable_has_several_renderings():
    pool = builtin_pool()
    assert len(pool) >= 2000
    assert len({s.sentence for s in pool}) == len(pool)
    for entry in pool:
        assert len(entry.paraphrases) >= 3 and len(entry.contradictions) >= 4
        forms = entry.positive_forms() + entry.negative_forms()
        assert len(set(forms)) == len(forms)
        for sentence in forms:
            assert sentence[0].isupper() and sentence.endswith(".")
            assert FRAME.fullmatch(sentence), sentence
            assert all(word in sentence.lower() for word in entry.topic_words), sentence  # the same proposition


def test_builtin_pool_entries_never_share_a_topic_word():
    seen: dict[str, int] = {}
    for i, entry in enumerate(builtin_pool()):
        assert len(entry.topic_words) == 3
        for word in entry.topic_words:
            assert seen.setdefault(word, i) == i, f"{word!r} is a topic of entries {seen[word]} and {i}"
    subjects = {p for p in lexicon().people}
    assert not subjects & set(seen)  # a person of one variable is never the topic of another


def test_paraphrases_are_positive_and_contradictions_negate():
    for entry in builtin_pool():
        for sentence in entry.positive_forms():
            assert not NEGATION.search(sentence), sentence
        for sentence in entry.negative_forms():
            assert len(NEGATION.findall(sentence)) == 1, sentence  # exactly one negation: no double negation


def test_pool_renderings_are_the_fixed_transformations():
    positives, negatives = entry_sentences(
        ("a nurse", "no nurse", "any nurse", "no nurse"),
        "wrote",
        "written",
        "essay",
        "The Odd Kettle",
        ("heifer", "pegboard"),
        "not true",
    )
    assert positives == [
        'A nurse wrote an essay titled "The Odd Kettle" that compares the heifer to the pegboard.',
        'A nurse wrote an essay titled "The Odd Kettle" comparing the heifer to the pegboard.',
        'An essay titled "The Odd Kettle" that compares the heifer to the pegboard was written by a nurse.',
        'There is a nurse who wrote an essay titled "The Odd Kettle" that compares the heifer to the pegboard.',
    ]
    assert negatives[0] == 'No nurse wrote an essay titled "The Odd Kettle" that compares the heifer to the pegboard.'
    assert negatives[2].endswith("was written by any nurse.")
    assert negatives[-1] == f"It is not true that {clause(positives[0])}."


@pytest.mark.parametrize(("word", "article"), [("essay", "an"), ("poem", "a"), ("ode", "an"), ("eulogy", "a")])
def test_indefinite_article(word, article):
    assert indefinite(word) == article


def test_pool_generation_is_seeded():
    words = lexicon()
    assert generate_pool(words) == list(builtin_pool())
    assert generate_pool(words, seed=1) != generate_pool(words)


def test_the_handwritten_pool_still_loads_as_a_user_pool():
    path = Path(__file__).parents[2] / "lgmt_tasks/divlogiceval/data/sentences.jsonl"
    pool, report = load_pool(str(path))
    assert report.kept == len(handwritten_pool()) >= 500 and not report.skipped
    assert all(not p.paraphrases and not p.contradictions for p in pool)


def test_realiser_draws_several_renderings_of_one_variable():
    entry = builtin_pool()[0]
    realiser = Realiser({"A": entry}, random.Random(3))
    said = {realiser.literal(parse("A")) for _ in range(40)}
    negated = {realiser.literal(parse("¬A")) for _ in range(40)}
    assert said == {clause(s) for s in entry.positive_forms()}
    assert negated == {clause(s) for s in entry.negative_forms()}


def test_a_pool_without_renderings_draws_nothing():
    rng = random.Random(5)
    state = rng.getstate()
    realiser = Realiser({"A": PoolSentence("The cat sleeps.", "The cat does not sleep.")}, rng)
    assert realiser.literal(parse("¬A")) == "the cat does not sleep"
    assert rng.getstate() == state  # user pools realise exactly as before


# The authors' code has 16 / 16 / 13 wordings (ILogicEval to_train_test_val.py, lists qe, qc, qmp).
WORDINGS = {"3c1e": 16, "3e1c": 16, "missing": 13}
NOT_WORDS = re.compile(r"\b(?:not|NOT|cannot|least|false|invalid|need not|EXCEPT)\b|does not")


@pytest.mark.parametrize("question_type", sorted(WORDINGS))
def test_question_wordings(question_type):
    wordings = QUESTIONS[question_type]
    assert len(wordings) == WORDINGS[question_type] == len(set(wordings))
    for wording in wordings:
        assert wording[0].isupper() and "  " not in wording
        assert wording.endswith("?") or wording.endswith("EXCEPT:"), wording
        asks = wording.rsplit(". ", 1)[-1]  # the question itself (after an optional lead sentence)
        assert re.match(r"(?:Which|What|If|Given|Based|Assuming|Taking|According|From|To)\b", asks), wording
        if question_type == "3c1e":
            assert not NOT_WORDS.search(wording), wording  # asks for what follows
        elif question_type == "3e1c":
            assert len(NOT_WORDS.findall(asks)) == 1, wording  # asks for what does not follow, negated once
        else:
            assert "conclusion" in wording or "argument" in wording, wording
            assert re.search(r"premise|assum|added|complete|supplied", wording), wording


def test_build_draws_from_these_wordings():
    from lgmt_tasks.divlogiceval import build

    assert build.QUESTIONS is QUESTIONS


@pytest.mark.parametrize("group", sorted(GROUP_FORMS))
def test_every_template_says_what_it_renders(group):
    form = parse(GROUP_FORMS[group])
    entries = templates()[group]
    assert len(entries) >= 10 and len({t.id for t in entries}) == len(entries)
    for template in entries:
        assert equivalent(parse(template.reads_as), form) is True, template.id
        used = {m.group(2) for m in re.finditer(r"\{(not_)?([a-z])\}", template.text)}
        assert used == SLOTS[group], template.id  # every slot is rendered (plainly or negated)
        assert template.text[0].islower() or template.text.startswith("{"), template.id


def test_the_papers_template_wordings_are_present():
    texts = {t.text for t in templates()["implication"]}
    assert "{q} if {p}" in texts
    assert "given that {p}, it can be concluded that {q}" in texts
    assert any("sufficient condition" in t for t in texts) and any("implies" in t for t in texts)


@pytest.mark.parametrize(
    ("sentence", "negation"),
    [
        ("The dog is asleep on the sofa.", "The dog is not asleep on the sofa."),
        ("Two boys can swim across the lake", "Two boys can not swim across the lake."),
        ("A man plays the guitar.", "It is not the case that a man plays the guitar."),
        ("The shop is not open.", "It is not the case that the shop is not open."),
        ("Maria has a red car.", "It is not the case that Maria has a red car."),
    ],
)
def test_rule_negation(sentence, negation):
    assert negate(sentence) == negation


def test_clause_keeps_names():
    assert clause("The Nile floods.") == "the Nile floods"
    assert clause("Maria sings.", proper_start=True) == "Maria sings"


def test_pool_from_pairs_filters_and_dedupes():
    pool, report = pool_from_pairs(
        [("the cat sleeps on the mat", None), ("The cat sleeps on the mat.", None), ("Hi", None), ("Is it?", None)]
    )
    assert [p.sentence for p in pool] == ["The cat sleeps on the mat."]
    assert report.skipped == {"duplicate": 1, "fewer than 3 words": 1, "a question": 1}


def test_pool_from_a_dataset_column(tmp_path: Path):
    folder = tmp_path / "sentences"
    folder.mkdir()
    rows = [{"text": f"The {w} is on the shelf.", "id": i} for i, w in enumerate(["box", "jar", "cup"])]
    (folder / "train.jsonl").write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    pool, report = load_pool(str(folder), column="text")
    assert [p.negation for p in pool][0] == "The box is not on the shelf."
    assert report.kept == 3
    with pytest.raises(ValueError, match="no column 'sentence'"):
        load_pool(str(folder))


def test_realiser_renders_literals_negations_and_rules():
    sentences = {
        "A": PoolSentence("The cat sleeps.", "The cat does not sleep."),
        "B": PoolSentence("Maria sings.", "Maria does not sing.", proper_start=True),
        "C": PoolSentence("It rains.", "It does not rain."),
    }
    realiser = Realiser(sentences, random.Random(0))
    assert realiser.sentence(parse("¬A")) == ("The cat does not sleep.", "literal")
    assert realiser.negated_literal(parse("¬B")) == "Maria sings"
    seen = set()
    for _ in range(30):
        text, template = realiser.render(parse("(A ∨ B) → C"))
        seen.add(template)
        assert "it rains" in text or "it does not rain" in text
    assert seen == {t.id for t in templates()["either"]}  # no repetition until a group is used up
    with pytest.raises(ValueError, match="no template"):
        realiser.render(parse("A ∧ B"))
