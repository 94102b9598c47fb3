"""The English side: the sentence pool, the templates (each proven to say what it renders), the realiser."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.english import (
    GROUP_FORMS,
    PoolSentence,
    Realiser,
    builtin_pool,
    clause,
    load_pool,
    negate,
    pool_from_pairs,
    templates,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import equivalent

SLOTS = {"implication": {"p", "q"}, "not_both": {"a", "b", "c"}, "either": {"a", "b", "c"}}


def test_builtin_pool_is_large_diverse_and_negated():
    pool = builtin_pool()
    assert len(pool) >= 500
    assert len({s.sentence for s in pool}) == len(pool)
    for entry in pool:
        assert entry.sentence.endswith(".") and entry.negation.endswith(".")
        assert entry.sentence != entry.negation and entry.sentence[0].isupper()
        assert len(entry.sentence.split()) <= 15  # simple sentences
    text = Path(__file__).parents[2] / "lgmt_tasks/divlogiceval/data/sentences.jsonl"
    topics = {json.loads(line)["topic"] for line in text.read_text(encoding="utf-8").splitlines()}
    assert len(topics) >= 20
    negated = [e for e in pool if re.search(r"\b(not|never|no longer)\b|n't", e.negation)]
    assert len(negated) >= 0.95 * len(pool)  # the rest are lexical negations ("contains some sugar")


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
