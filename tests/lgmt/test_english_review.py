"""The follow-up English on FOLIO, measured (issue #26): the reviewed sample is the current one, and its targets hold.

The review itself is a person's (or a model's) reading against `lgmt_tasks/lgmt/english_checklist.md`, stored as
verdicts in `tests/lgmt/data/english_review.jsonl`. These tests make sure the verdicts are about the sentences the
current realiser writes (a change to the English that alters the sample makes them fail until it is reviewed
again), that at most 10 of the 100 are ungrammatical, and that the formal relation phrasing for named predicates
stays under 3% of follow-ups.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english_review import (
    REVIEW_SIZE,
    changed_sentences,
    formal_relation_symbols,
    review_sample,
    style_markers,
)

ROOT = Path(__file__).resolve().parents[2]
FOLIO = ROOT.parent / "shared" / "data" / "folio" / "folio_v2_validation.jsonl"
VERDICTS = Path(__file__).parent / "data" / "english_review.jsonl"
ITEMS = {f"U{i}" for i in range(1, 8)}


@pytest.fixture(scope="module")
def folio_rows() -> list[dict[str, Any]]:
    if not FOLIO.exists():
        pytest.skip(f"needs the shared data folder beside the repository ({FOLIO})")
    return build_lgmt(LgmtConfig(source="folio", source_path=str(FOLIO), per_mr="all")).dataset.to_list()


def verdicts() -> list[dict[str, Any]]:
    return [json.loads(line) for line in VERDICTS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_verdicts_are_on_the_sample_the_current_code_draws(folio_rows: list[dict[str, Any]]) -> None:
    sample = review_sample(folio_rows)
    assert len(sample) == REVIEW_SIZE
    assert [v["sentence"] for v in verdicts()] == [s.sentence for s in sample]


def test_at_most_ten_of_the_reviewed_sentences_are_ungrammatical() -> None:
    found = verdicts()
    assert len(found) == REVIEW_SIZE
    for v in found:
        assert v["verdict"] in ("ok", "ungrammatical"), v
        assert set(v["items"]) <= ITEMS | {"C"}, v
        assert (v["verdict"] == "ungrammatical") == bool(set(v["items"]) & ITEMS), v
        assert v["note"].strip() or v["verdict"] == "ok", v
    assert sum(v["verdict"] == "ungrammatical" for v in found) <= 10


def test_named_predicates_rarely_keep_the_formal_relation_phrasing(folio_rows: list[dict[str, Any]]) -> None:
    markers = style_markers(folio_rows)
    assert markers["groups"] == len(folio_rows) > 1000
    assert markers["named_share"] <= 0.03
    # the placeholders MR-S2 and MR-P3 introduce are spoken formally by design (the paper's prompt), nowhere else
    assert {mr for mr, n in markers["per_relation"].items() if n["placeholder"]} <= {"MR-S2", "MR-P3", "MR-S1"}


def test_changed_sentences_exclude_the_source_sentences() -> None:
    row = {
        "id": "r1",
        "mr": "MR-C1",
        "premises": ["Tom is a cat."],
        "conclusion": "Tom purrs.",
        "followup_premises": ["Tom is a cat."],
        "followup_conclusion": "Both Tom purrs and it is logically true.",
        "extra_followups": [],
    }
    assert [c.sentence for c in changed_sentences([row, {**row, "id": "r2"}])] == [
        "Both Tom purrs and it is logically true."
    ]


def test_formal_relation_symbols_and_markers() -> None:
    assert formal_relation_symbols("Tom bears relation Friend to Bob, and Con1 bears relation Pre1 to Con2.") == [
        "Friend",
        "Pre1",
    ]
    assert formal_relation_symbols("Ann, Bob and Cy stand in relation Pre2.") == ["Pre2"]
    rows = [
        {"id": "a", "mr": "MR-S2", "followup_premises": ["Tom bears relation Pre1 to Bob."], "followup_conclusion": ""},
        {
            "id": "b",
            "mr": "MR-E1.1",
            "followup_premises": ["Tom bears relation Friend to Bob."],
            "followup_conclusion": "",
        },
        {"id": "c", "mr": "MR-E1.1", "followup_premises": ["Tom likes Bob."], "followup_conclusion": ""},
    ]
    markers = style_markers(rows)
    assert (markers["named"], markers["placeholder"]) == (1, 1)
    assert markers["per_relation"]["MR-E1.1"] == {"groups": 2, "named": 1, "placeholder": 0}
