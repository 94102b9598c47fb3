"""The follow-up English on FOLIO, measured (issues #26, #36): the reviewed sample is current, its targets hold.

The review itself is a person's (or a model's) reading against `lgmt_tasks/lgmt/english_checklist.md`. Since issue #36
it is a stratified sample, 25 changed sentences per relation category drawn from FOLIO v2 train, with the verdicts
stored in `tests/lgmt/data/english_review_sample_36.jsonl`. These tests make sure the verdicts are about the
sentences the current realiser writes (a change to the English that alters the sample makes them fail until it is
reviewed again), that at most 5% of each category is ungrammatical, and how often the formal relation phrasing is
left for a named predicate. (Issue #26's earlier review of 100 sentences on FOLIO v2 validation,
`tests/lgmt/data/english_review.jsonl`, is kept as a record of the realiser it reviewed.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english_review import (
    CATEGORIES,
    PER_CATEGORY,
    changed_sentences,
    formal_relation_symbols,
    sample_records,
    stratified_sample,
    style_markers,
)

ROOT = Path(__file__).resolve().parents[2]
FOLIO_TRAIN = ROOT.parent / "shared" / "data" / "folio" / "folio_v2_train.jsonl"
SAMPLE_36 = Path(__file__).parent / "data" / "english_review_sample_36.jsonl"
"""Issue #36's stratified sample (FOLIO v2 train, `per_mr=30`, seed 0): 25 changed sentences per relation category,
with the verdict fields an independent reviewer fills (`english_checklist.md`)."""
ITEMS = {f"U{i}" for i in range(1, 8)}


@pytest.fixture(scope="module")
def folio_rows() -> list[dict[str, Any]]:
    """The build the stratified sample is drawn from: FOLIO v2 train, every relation, 30 groups each (seed 0)."""
    if not FOLIO_TRAIN.exists():
        pytest.skip(f"needs the shared data folder beside the repository ({FOLIO_TRAIN})")
    return build_lgmt(LgmtConfig(source="folio", source_path=str(FOLIO_TRAIN), per_mr=30)).dataset.to_list()


def test_named_predicates_rarely_keep_the_formal_relation_phrasing(folio_rows: list[dict[str, Any]]) -> None:
    markers = style_markers(folio_rows)
    assert markers["groups"] == len(folio_rows) > 400
    # 8.5% measured (issue #36): a FOLIO name whose words leave no place for its object is spoken in the paper's
    # formal phrasing rather than as word salad ("x sold 500 over 000"); 0.5% on FOLIO v2 validation before that.
    assert markers["named_share"] <= 0.10
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


# ------------------------------------------------------------------------------------------ issue #36: per category


def sample_36() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SAMPLE_36.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_stratified_sample_file_has_25_per_category() -> None:
    found = sample_36()
    assert len(found) == PER_CATEGORY * len(CATEGORIES) == 100
    for cat in CATEGORIES:
        assert sum(v["category"] == cat for v in found) == PER_CATEGORY
    for v in found:
        assert set(v) == {"id", "mr", "category", "sentence", "verdict", "items", "note"}, v
        assert v["mr"].startswith(v["category"]), v


def test_the_stratified_sample_file_is_the_one_the_current_code_draws(folio_rows: list[dict[str, Any]]) -> None:
    drawn = sample_records(stratified_sample(folio_rows))
    assert [(v["id"], v["sentence"]) for v in sample_36()] == [(v["id"], v["sentence"]) for v in drawn]


def test_at_most_five_percent_per_category_once_reviewed() -> None:
    """The target of issue #36, checked once a reviewer (not the realiser's author) has filled every verdict."""
    found = sample_36()
    if any(v["verdict"] == "" for v in found):
        pytest.skip("the stratified sample awaits its independent review (empty verdicts)")
    for v in found:
        assert v["verdict"] in ("ok", "ungrammatical"), v
        assert set(v["items"]) <= ITEMS | {"C"}, v
        assert (v["verdict"] == "ungrammatical") == bool(set(v["items"]) & ITEMS), v
    for cat in CATEGORIES:
        rows = [v for v in found if v["category"] == cat]
        bad = sum(v["verdict"] == "ungrammatical" for v in rows)
        assert bad <= 0.05 * len(rows), (cat, bad, len(rows))
