"""Malformed input rows: one skip per row, named by the row's id, never a crash, never a silently shipped item.

Real rows from ../shared/data are copied into a temporary file and broken one way each (missing field, wrong
type, unparsable FOL, not an object, not JSON); the good rows must still arrive.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.divlogiceval.english import load_pool
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.sources.common import (
    SKIP_INVALID_JSON,
    SKIP_LAYOUT,
    SKIP_MISSING_FIELD,
    SKIP_UNPARSABLE,
    SKIP_WRONG_TYPE,
)
from lgmt_tasks.sources.load import load_source

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
FILES = {
    "folio": DATA / "folio" / "folio_v2_validation.jsonl",
    "proverqa": DATA / "proverqa" / "proverqa_dev_easy.jsonl",
    "logicnli": DATA / "logicnli" / "logicnli_dev.jsonl",
}
GOOD = 3


def real_rows(source: str) -> list[dict[str, Any]]:
    path = FILES[source]
    if not path.exists():
        pytest.skip("../shared/data is absent")
    rows = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            rows.append(json.loads(line))
            if len(rows) == 40:
                break
    return rows


def _write(rows: list[Any], path: Path, extra_lines: tuple[str, ...] = ()) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in rows] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def breakages(row: dict[str, Any]) -> dict[str, tuple[dict[str, Any], str]]:
    """One broken copy of `row` per kind of damage: `{id: (row, expected skip category)}`."""

    def broken(kind: str, change: dict[str, Any], category: str, drop: tuple[str, ...] = ()) -> None:
        new = copy.deepcopy(row)
        new["id"] = f"bad_{kind}"
        new.update(change)
        for key in drop:
            del new[key]
        out[new["id"]] = (new, category)

    out: dict[str, tuple[dict[str, Any], str]] = {}
    broken("premises_missing", {}, SKIP_MISSING_FIELD, drop=("premises",))
    broken("premises_not_list", {"premises": "one string"}, SKIP_WRONG_TYPE)
    broken("premise_number", {"premises": [7, *row["premises"][1:]]}, SKIP_WRONG_TYPE)
    broken("premise_fol_number", {"premises_fol": [5, *row["premises_fol"][1:]]}, SKIP_WRONG_TYPE)
    broken("conclusion_fol_number", {"conclusion_fol": 5}, SKIP_WRONG_TYPE)  # `str(5)` would parse as an atom
    broken("conclusion_fol_list", {"conclusion_fol": [row["conclusion_fol"]]}, SKIP_WRONG_TYPE)
    broken("conclusion_missing", {"conclusion": None}, SKIP_MISSING_FIELD)
    broken("conclusion_dict", {"conclusion": {"text": row["conclusion"]}}, SKIP_WRONG_TYPE)
    broken(
        "fol_unparsable", {"premises_fol": [row["premises_fol"][0] + " ∧ (", *row["premises_fol"][1:]]}, SKIP_UNPARSABLE
    )
    return out


@pytest.mark.parametrize("source", ["folio", "proverqa", "logicnli"])
def test_each_malformed_row_is_one_named_skip(source, tmp_path):
    rows = real_rows(source)
    baseline_cases, baseline = load_source(source, _write(rows, tmp_path / f"{source}_clean.jsonl"))
    loaded = {c.source_id for c in baseline_cases}
    template = next(r for r in rows if r["id"] in loaded)  # a row that loads, so each breakage is the only fault
    bad = breakages(template)
    no_id = copy.deepcopy(template)
    del no_id["id"]
    wrong_id = {**copy.deepcopy(template), "id": {"nested": 1}}
    records: list[Any] = [*rows, *(r for r, _ in bad.values()), no_id, wrong_id, ["not", "an", "object"], None]
    path = _write(records, tmp_path / f"{source}_dev.jsonl", extra_lines=('{"id": "truncated", "premises": [',))
    first_bad = len(rows)

    cases, report = load_source(source, path)

    # The good rows arrive exactly as without the bad ones.
    assert [c.source_id for c in cases] == [c.source_id for c in baseline_cases]
    assert cases == baseline_cases
    # Every bad row is one skip, under its category, named by its id (or its file and 1-based line when it has
    # none), and located: its file, 1-based line and column (one record per line here, so line = position + 1).
    details = {d.id: d for d in report.details}
    for position, (rid, (_, category)) in enumerate(bad.items(), start=first_bad):
        assert details[rid].category == category, (rid, details[rid])
        assert (details[rid].file, details[rid].line, details[rid].column) == (path.name, position + 1, 1)
    n = len(records)
    name = path.name
    assert details[f"{name}:{first_bad + len(bad) + 1}"].category == SKIP_MISSING_FIELD  # no id
    assert details[f"{name}:{first_bad + len(bad) + 2}"].category == SKIP_WRONG_TYPE  # id is an object
    assert details[f"{name}:{n - 1}"].category == SKIP_LAYOUT  # a JSON array, not an object
    assert details[f"{name}:{n}"].category == SKIP_LAYOUT  # null
    truncated = details[f"{name}:{n + 1}"]
    assert truncated.category == SKIP_INVALID_JSON  # a truncated line
    assert (truncated.line, truncated.column) == (n + 1, len('{"id": "truncated", "premises": [') + 1)
    skipped_bad = len(report.details) - len(baseline.details)
    assert skipped_bad == len(bad) + 5
    assert report.records == report.loaded + sum(report.skipped.values())
    assert not {c.source_id for c in cases} & set(bad)


def test_lgmt_build_over_malformed_rows_names_them_and_ships_only_good_ones(tmp_path):
    rows = real_rows("folio")[:12]
    cases, _ = load_source("folio", _write(rows, tmp_path / "clean.jsonl"))
    bad = breakages(next(r for r in rows if r["id"] == cases[0].source_id))
    path = _write(
        [*rows, *(r for r, _ in bad.values())], tmp_path / "folio_v2_validation.jsonl", extra_lines=("{oops",)
    )
    build = build_lgmt(LgmtConfig(source="folio", source_path=str(path), per_mr=2, mrs=("MR-E1.1", "MR-P4")))
    names = build.stats.to_dict()["dropped_ids"]["source"]
    named = {i for ids in names.values() for i in ids}
    assert set(bad) <= named
    assert f"{path.name}:{len(rows) + len(bad) + 1}" in named  # the line that is not JSON (1-based)
    located = {d["id"]: d for d in build.stats.to_dict()["notes"]["source_skips"]}
    assert set(bad) | {f"{path.name}:{len(rows) + len(bad) + 1}"} <= set(located) <= named
    for position, rid in enumerate(bad, start=len(rows) + 1):
        assert (located[rid]["file"], located[rid]["line"], located[rid]["column"]) == (path.name, position, 1)
    for reason, n in build.stats.dropped["source"].items():
        assert len(names[reason]) == n, reason  # every source drop is named once
    assert len(build.dataset) > 0
    assert not {r["source_id"] for r in build.dataset} & set(bad)


def test_sentence_pool_skips_malformed_rows_by_name(tmp_path):
    good = [
        {"sentence": "The dog is asleep on the mat.", "negation": "The dog is not asleep on the mat."},
        {"sentence": "Mary drinks coffee every morning."},
    ]
    rows: list[Any] = [
        *good,
        {"sentence": ["The", "cat", "is", "on", "the", "roof."]},  # a list is not a sentence
        {"sentence": 12345},
        {"sentence": "The bird sings at dawn today.", "negation": {"text": "no"}},
        ["not", "an", "object"],
    ]
    path = _write(rows, tmp_path / "pool.jsonl", extra_lines=('{"sentence": "The sun',))
    pool, report = load_pool(str(path))
    assert [p.sentence for p in pool] == [g["sentence"] for g in good]
    assert report.skipped_ids == {
        "wrong type": ["pool.jsonl#2", "pool.jsonl#3", "pool.jsonl#4"],
        "not a JSON object": ["pool.jsonl#5"],
        "invalid JSON": ["pool.jsonl#6"],
    }
    assert sum(report.skipped.values()) == 5
