"""Which logs `lgmt report` reads: truncated logs skipped and named, unfinished runs left out, `--latest` per run.

The logs are copies of the scripted LGMT runs (`tests/report/scripted.py`): a truncated copy, copies whose status is
set to `error` / `cancelled`, and copies of one run with an older or newer start time, all written with
`inspect_ai.log.write_eval_log`.
"""

from __future__ import annotations

import csv
import math
import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from inspect_ai.log import read_eval_log, write_eval_log

from lgmt_tasks.cli import main
from lgmt_tasks.report.leaderboard import leaderboard
from lgmt_tasks.report.logs import select_logs
from tests.report.scripted import MODEL_A, RUNS, copy_with

ZERO = (MODEL_A, "zero_shot")


def folder_of_runs(runs: dict[str, Any], folder: Path) -> dict[tuple[str, str], Path]:
    """Copies of the three scripted logs in `folder`, by run."""
    folder.mkdir(parents=True, exist_ok=True)
    copies = {}
    for run, log in runs["logs"].items():
        copies[run] = folder / Path(str(log.location)).name
        shutil.copyfile(str(log.location), copies[run])
    return copies


def leaderboard_rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader((out / "leaderboard.csv").open(encoding="utf-8")))


def table_rows(text: str) -> list[str]:
    """The data rows of a Markdown table printed by `lgmt report` (after the header and the rule)."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return lines[2:]


def test_a_truncated_log_is_skipped_with_a_warning_and_the_others_are_reported(runs, tmp_path):
    folder = tmp_path / "logs"
    copies = folder_of_runs(runs, folder)
    whole = copies[ZERO].read_bytes()
    truncated = folder / "2099-01-01T00-00-00-00-00_lgmt_truncated.eval"
    truncated.write_bytes(whole[: len(whole) // 2])

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(out)])

    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(warnings) == 1 and str(truncated) in warnings[0] and warnings[0].startswith("warning: skipped")
    assert "Traceback" not in result.output
    assert len(table_rows(result.stdout)) == len(RUNS)  # the headline table of the good logs
    rows = leaderboard_rows(out)
    assert sorted(r["log"] for r in rows) == sorted(str(p) for p in copies.values())
    table4 = (out / "lgmt" / "table4_effectiveness.csv").read_text(encoding="utf-8").splitlines()
    assert len(table4) == 1 + len(RUNS)

    selection = select_logs([folder])
    assert [path for path, _ in selection.unreadable] == [str(truncated)]
    assert sorted(selection.paths) == sorted(str(p) for p in copies.values())


def test_a_truncated_log_given_alone_is_a_clear_error(runs, tmp_path):
    whole = Path(str(runs["logs"][ZERO].location)).read_bytes()
    truncated = tmp_path / "cut.eval"
    truncated.write_bytes(whole[: len(whole) // 3])
    result = CliRunner().invoke(main, ["report", str(truncated)])
    assert result.exit_code == 1
    assert str(truncated) in result.stderr and "no readable log of a finished run" in result.stderr
    assert "Traceback" not in result.output


def test_unfinished_runs_are_left_out_unless_asked_for(runs, tmp_path):
    folder = tmp_path / "logs"
    copies = folder_of_runs(runs, folder)
    source = str(copies[ZERO])
    failed = copy_with(source, folder / "failed.eval", status="error", model="mockllm/failed")
    stopped = copy_with(source, folder / "stopped.eval", status="cancelled", model="mockllm/stopped")

    out = tmp_path / "default"
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    warned = result.stderr
    assert f"{failed} of an unfinished run (status: error" in warned
    assert f"{stopped} of an unfinished run (status: cancelled" in warned
    assert "mockllm/failed" not in result.stdout and "mockllm/stopped" not in result.stdout
    rows = leaderboard_rows(out)
    assert len(rows) == len(RUNS) and {r["status"] for r in rows} == {"success"}
    table4 = (out / "lgmt" / "table4_effectiveness.csv").read_text(encoding="utf-8")
    assert "mockllm/failed" not in table4 and "mockllm/stopped" not in table4
    index = (out / "report.md").read_text(encoding="utf-8")
    assert "Left out, logs of unfinished runs: " in index and f"{failed} (status: error)" in index

    shown = tmp_path / "included"
    result = CliRunner().invoke(main, ["report", str(folder), "--out", str(shown), "--include-incomplete"])
    assert result.exit_code == 0, result.output
    assert "unfinished run" not in result.stderr
    statuses = {row.split("|")[2].strip(): row.split("|")[4].strip() for row in table_rows(result.stdout)}
    assert statuses["mockllm/failed"] == "error" and statuses["mockllm/stopped"] == "cancelled"
    assert statuses[MODEL_A] == "success"
    by_model = {(r["model"], r["prompting"]): r["status"] for r in leaderboard_rows(shown)}
    assert by_model[("mockllm/failed", "zero_shot")] == "error"
    assert by_model[("mockllm/stopped", "zero_shot")] == "cancelled"
    assert len(by_model) == len(RUNS) + 2
    table4 = (shown / "lgmt" / "table4_effectiveness.csv").read_text(encoding="utf-8")
    assert "mockllm/failed" in table4 and "mockllm/stopped" in table4

    assert len(leaderboard([str(failed), str(stopped)])) == 0
    assert set(leaderboard([str(failed), str(stopped)], include_incomplete=True)["status"]) == {"error", "cancelled"}


def test_latest_keeps_the_newest_log_of_each_task_model_and_arguments(runs, tmp_path):
    folder = tmp_path / "logs"
    copies = folder_of_runs(runs, folder)
    source = str(copies[ZERO])
    created = datetime.fromisoformat(runs["logs"][ZERO].eval.created)
    newer = copy_with(source, folder / "newer.eval", created=(created + timedelta(days=1)).isoformat())
    older = copy_with(source, folder / "older.eval", created=(created - timedelta(days=1)).isoformat())

    selection = select_logs([folder], latest=True)
    kept = {str(newer), *(str(p) for run, p in copies.items() if run != ZERO)}
    assert set(selection.paths) == kept
    assert set(selection.superseded) == {str(copies[ZERO]), str(older)}

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(folder), "--latest", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {r["log"] for r in leaderboard_rows(out)} == kept  # one row per run, the newest log of each


def test_a_json_log_cut_after_its_header_is_skipped_too(runs, tmp_path):
    """A JSON log's header still parses when the file was cut off later; the samples must not fail mid-table."""
    log = read_eval_log(str(runs["logs"][ZERO].location))
    for score in log.results.scores:  # NaN metrics (relations with no parsed group) make Inspect parse it all
        score.metrics = {name: m for name, m in score.metrics.items() if not math.isnan(m.value)}
    whole = tmp_path / "whole.json"
    write_eval_log(log, str(whole))
    text = whole.read_bytes()
    cut = tmp_path / "cut.json"
    samples = text.index(b'\n  "samples"')  # the last key of a JSON log: cut halfway through the samples
    cut.write_bytes(text[: samples + (len(text) - samples) // 2])
    assert read_eval_log(str(cut), header_only=True).status == "success"  # the header alone looks fine
    good = str(runs["logs"][(MODEL_A, "few_shot")].location)

    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(cut), good, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"warning: skipped unreadable log {cut} (")
    assert [r["log"] for r in leaderboard_rows(out)] == [good]
