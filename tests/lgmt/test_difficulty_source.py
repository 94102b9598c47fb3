"""LGMT on QMFOL sources end to end: `-T source=qmfol -T depth=… -T width=…`, real Inspect runs, the report's grid.

Two scripted models answer every member of every group: `perfect` gives each member's proven label (every LGMT
relation keeps the label), `shallow` does the same except on the follow-ups of depth-3 sources, where it gives
another label. The report's depth × width table must then show MVR 0 in every cell for the first, and MVR 0 at
depth 1 and 1 at depth 3 for the second, with each cell's group count that of the run's samples of that cell.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.task import mr_c
from lgmt_tasks.sources.qmfol import difficulty_of
from lgmt_tasks.task_params import TaskParameterError
from tests.difficulty_models import PERFECT, SHALLOW, scripted


def _depth(source_id: str) -> int | None:
    cell = difficulty_of(source_id)
    return None if cell is None else cell[0]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("difficulty")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LGMT_CACHE_DIR", str(root / "cache"))
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_DATASETS_OFFLINE", "1")
        task = mr_c(source="qmfol", depth=[3, 1], width="1", per_mr=6)
        samples = list(task.dataset)
        for name in (PERFECT, SHALLOW):
            (log,) = eval(task, model=scripted(name, samples, _depth), log_dir=str(root / "logs"), display="none")
            assert log.status == "success", log.error
        result = CliRunner().invoke(main, ["report", str(root / "logs"), "--out", str(root / "report")])
    assert result.exit_code == 0, result.output
    with (root / "report" / "lgmt" / "difficulty_depth_width.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    return {"samples": samples, "table": table, "folder": root / "report" / "lgmt"}


def test_the_task_builds_groups_of_every_requested_cell_and_only_those(report):
    cells = Counter(difficulty_of(s.metadata["source_id"]) for s in report["samples"])
    # per_mr=6 over 3 relations, candidates stratified over cells and labels: 3 groups per cell and relation
    assert cells == Counter({(1, 1): 9, (3, 1): 9})
    assert {s.metadata["source_dataset"] for s in report["samples"]} == {"qmfol"}


def test_the_report_has_one_row_per_model_and_cell_with_the_runs_counts(report):
    cells = Counter(difficulty_of(s.metadata["source_id"]) for s in report["samples"])
    rows = {(r["model"], int(r["depth"]), int(r["width"])): r for r in report["table"]}
    assert set(rows) == {(m, d, w) for m in (PERFECT, SHALLOW) for d, w in cells}
    for (_, depth, width), row in rows.items():
        assert int(row["groups"]) == cells[(depth, width)] == int(row["parsed"])


def test_a_perfect_model_has_mvr_zero_and_full_consistent_accuracy_in_every_cell(report):
    perfect = [r for r in report["table"] if r["model"] == PERFECT]
    assert perfect and all(float(r["mvr"]) == 0.0 and float(r["acc_cons"]) == 1.0 for r in perfect)


def test_a_model_that_fails_deep_problems_violates_exactly_in_the_deep_cells(report):
    shallow = {int(r["depth"]): r for r in report["table"] if r["model"] == SHALLOW}
    assert float(shallow[1]["mvr"]) == 0.0 and float(shallow[1]["acc_cons"]) == 1.0
    assert float(shallow[3]["mvr"]) == 1.0 and float(shallow[3]["acc_cons"]) == 0.0
    assert int(shallow[3]["violations"]) == int(shallow[3]["groups"])


def test_the_report_draws_one_heatmap_per_model(report):
    images = sorted(p.name for p in report["folder"].glob("difficulty_*.png"))
    assert images == ["difficulty_mockllm_perfect_zero_shot_cot.png", "difficulty_mockllm_shallow_zero_shot_cot.png"]
    assert "Acc_cons per depth × width" in (report["folder"] / "difficulty_depth_width.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"source": "qmfol", "depth": 0}, "mr_c: depth=0: 0 outside the range; expected integers from 1 to 20"),
        ({"source": "qmfol", "width": "1,30"}, "mr_c: width='1,30': 30 outside the range; expected integers from 0"),
        ({"depth": 2}, "mr_c: depth: only used with source=qmfol"),
        ({"source": "qmfol", "depth": 2, "dataset": "x"}, "mr_c: depth: the difficulty grid of source=qmfol is a"),
    ],
)
def test_a_bad_or_misplaced_depth_or_width_is_one_clear_error(args, message, tmp_path, monkeypatch):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(TaskParameterError) as raised:
        mr_c(**args)
    assert str(raised.value).startswith(message)


def test_the_report_of_other_sources_has_no_difficulty_table(tmp_path: Path):
    import pandas as pd

    from lgmt_tasks.lgmt.difficulty import difficulty_table

    groups = pd.DataFrame({"source_dataset": ["generated"], "source_id": ["d1-w1/looks-alike"], "model": ["m"]})
    assert difficulty_table(groups).empty


def test_every_cell_shows_its_groups_and_relations_and_holds_each_relation_alike(report):
    # Issue #28: cells must not mix difficulty with relation; each row says how many relations it holds.
    per_cell = Counter((difficulty_of(s.metadata["source_id"]), s.metadata["mr"]) for s in report["samples"])
    assert set(per_cell.values()) == {3}  # per_mr=6 over 2 cells: 3 groups of each relation in each cell
    for row in report["table"]:
        assert int(row["relations"]) == 3 and int(row["groups"]) == 9
