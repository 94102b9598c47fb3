"""Unusable source input ends every `lgmt` command with one `Error:` line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "lgmt-cache"))


def _error_line(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    # Nothing but the message, after the build's stage lines (`lgmt_tasks:   reading folio records from ...`).
    lines = [line for line in result.output.splitlines() if line.strip() and not line.startswith("lgmt_tasks:")]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.fixture
def unusable(tmp_path: Path) -> Path:
    """A source file none of whose records is usable (one of an unknown layout, one with no conclusion FOL)."""
    path = tmp_path / "folio_validation.jsonl"
    records = [
        {"id": "x", "foo": 1},
        {"id": "y", "premises": ["A."], "premises_fol": ["A"], "conclusion": "B.", "label": "True"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("suite", ["lgmt", "lexical"])
def test_build_over_a_file_with_no_usable_record_is_one_error_line(suite: str, unusable: Path, tmp_path: Path) -> None:
    line = _error_line(
        ["build", suite, "--source", "folio", "--source-path", str(unusable), "--out", str(tmp_path / "o")]
    )
    assert line.startswith(f"Error: no usable folio problem in {unusable}: 2 records")
    assert not (tmp_path / "o").exists()


def test_a_folder_without_data_files_is_one_error_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    line = _error_line(["audit-source", "folio", str(tmp_path / "empty"), "--no-progress"])
    assert line == f"Error: no .json or .jsonl files in {tmp_path / 'empty'}"


def test_audit_source_help_has_no_literal_paragraph_marker() -> None:
    result = CliRunner().invoke(main, ["audit-source", "--help"])
    assert result.exit_code == 0
    assert "\\b" not in result.output and "\b" not in result.output
    assert "\n  Examples:\n    lgmt audit-source folio" in result.output  # the example block is kept as written
