"""Every unusable source record is located as an editor's `file:line:column` (1-based).

In the load report, the audit report and `build_stats.json`; a syntax error's column inside its formula is 1-based
too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.sources.common import RecordLocation
from lgmt_tasks.sources.load import load_source
from lgmt_tasks.sources.record_files import read_located_records


def _record(rid: str, premise_fol: str = "Cat(tom)", **change: Any) -> dict[str, Any]:
    record = {
        "id": rid,
        "dataset": "folio",
        "premises": ["All cats are animals.", "Tom is a cat."],
        "premises_fol": ["∀x (Cat(x) → Animal(x))", premise_fol],
        "conclusion": "Tom is an animal.",
        "conclusion_fol": "Animal(tom)",
        "label": "True",
    }
    record.update(change)
    return record


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """Line 1 good; line 2 blank; line 3 indented by two spaces, with a bad formula; line 4 has no id."""
    no_id = _record("unused")
    del no_id["id"]
    lines = [
        json.dumps(_record("good"), ensure_ascii=False),
        "",
        "  " + json.dumps(_record("bad_formula", "Cat(tom) ) )"), ensure_ascii=False),
        json.dumps(no_id, ensure_ascii=False),
    ]
    path = tmp_path / "folio_validation.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "lgmt-cache"))


def test_load_report_locates_each_skip(source: Path) -> None:
    _, report = load_source("folio", source)
    located = {d.id: (d.field, d.file, d.line, d.column) for d in report.details}
    assert located == {
        "bad_formula": ("premises_fol[1]", source.name, 3, 3),
        f"{source.name}:4": ("id", source.name, 4, 1),  # no id: named by its file and 1-based line
    }
    bad = next(d for d in report.details if d.id == "bad_formula")
    assert "syntax error at column 10:" in bad.reason  # the first stray ')' is the 10th character


def test_audit_report_gives_id_field_line_and_column(source: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.jsonl"
    args = ["audit-source", "folio", str(source), "--no-progress", "--report", str(report)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    unusable = [line for line in lines if line["kind"] == "unusable"]
    assert sorted((u["id"], u["field"], u["file"], u["line"], u["column"]) for u in unusable) == [
        ("bad_formula", "premises_fol[1]", source.name, 3, 3),
        (f"{source.name}:4", "id", source.name, 4, 1),
    ]


def test_records_of_a_json_array_are_located_where_they_start(tmp_path: Path) -> None:
    path = tmp_path / "hard.json"
    text = json.dumps([{"id": 0}, {"id": 1, "nested": {"a": [1, 2]}}, {"id": 2}], indent=2)
    path.write_text(text, encoding="utf-8")
    starts = [number for number, line in enumerate(text.split("\n"), start=1) if line == "  {"]
    located = [location for *_, location in read_located_records(path)]
    assert located == [RecordLocation("hard.json", line, 3) for line in starts]


def test_build_stats_locate_each_unusable_record(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["build", "lgmt", "--source", "folio", "--source-path", str(source), "--mr", "MR-E1.1", "--per-mr", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    stats = json.loads((out / "build_stats.json").read_text(encoding="utf-8"))
    skips = {s["id"]: (s["field"], s["file"], s["line"], s["column"]) for s in stats["notes"]["source_skips"]}
    assert skips == {
        "bad_formula": ("premises_fol[1]", source.name, 3, 3),
        f"{source.name}:4": ("id", source.name, 4, 1),
    }
    assert sorted(i for ids in stats["dropped_ids"]["source"].values() for i in ids) == sorted(skips)
