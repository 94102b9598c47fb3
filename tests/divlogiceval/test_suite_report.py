"""DivLogicEval's Table 9 (`report.divlogiceval.suite_report`) on two scripted runs of the small build.

0-shot run, by question type (two instances each), the answer to the four rotations:

- 3c1e: the gold every time → ACC 1, CIR 1, PC 1, c/4 1;
- 3e1c: the same wrong option every time → 0, 0, 0, 0;
- missing: gold, gold, two different wrong options (the paper's worked example) → ACC 1, CIR 0, PC 0.125, c/4 0.5.

3-shot run: never a readable answer → every metric 0, unparsed 1.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from PIL import Image

from lgmt_tasks.divlogiceval.report import suite_report
from lgmt_tasks.divlogiceval.task import divlogiceval
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.report.suite_report import write_tables
from tests.divlogiceval.test_inspect import ScriptedModel

PLAN_BY_TYPE: dict[str, list[Any]] = {
    "3c1e": ["g", "g", "g", "g"],
    "3e1c": ["w1", "w1", "w1", "w1"],
    "missing": ["g", "g", "w1", "w2"],
}
# per type: ACC, CIR, PC, c/4 (worked out by hand from the plan above: PC = c/4 · (1 − H), H base-4 entropy)
BY_HAND: dict[str, tuple[float, float, float, float]] = {
    "3c1e": (1.0, 1.0, 1.0, 1.0),
    "3e1c": (0.0, 0.0, 0.0, 0.0),
    "missing": (1.0, 0.0, 2 / 4 * (1 + 1 / 2 * math.log(1 / 2, 4) + 2 * (1 / 4) * math.log(1 / 4, 4)), 0.5),
}


class TypeScriptedModel(ScriptedModel):
    """`test_inspect.ScriptedModel`, with the plan chosen by the instance's question type."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = {row["content"]: (row, PLAN_BY_TYPE[row["question_type"]]) for row in rows}
        self.calls = Counter()


def unreadable(messages: list[ChatMessage], *_: Any) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm/model", content="I cannot tell.")
    output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
    return output


@pytest.fixture(scope="module")
def logs(small_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> list[EvalLog]:
    rows = [dict(r) for r in load_dataset_repo(small_repo)]
    folder = tmp_path_factory.mktemp("suite-logs")
    out = []
    for model, shots in ((TypeScriptedModel(rows), 0), (unreadable, 3)):
        [log] = eval(
            divlogiceval(dataset=str(small_repo), shots=shots),
            model=get_model("mockllm/model", custom_outputs=model),
            log_dir=str(folder),
            display="none",
        )
        assert log.status == "success", log.error
        out.append(log)
    return out


@pytest.fixture(scope="module")
def report(logs: list[EvalLog], tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("report")
    return suite_report([str(log.location) for log in logs], out), out


def test_the_worked_example_is_0_125():
    assert BY_HAND["missing"][2] == pytest.approx(0.125)


def test_table9_per_question_type(report):
    table = report[0].tables["table9"]
    assert list(table.columns) == ["model", "setting", "metric", "Test", "Test-3e1c", "Test-3c1e", "Test-missing"]
    zero = table[table["setting"] == "0-shot"].set_index("metric")
    assert list(zero.index) == ["ACC", "CIR", "PC"]
    for i, metric in enumerate(("ACC", "CIR", "PC")):
        for question_type, values in BY_HAND.items():
            assert zero.loc[metric, f"Test-{question_type}"] == pytest.approx(values[i], abs=1e-12)
        overall = sum(values[i] for values in BY_HAND.values()) / 3  # two instances of each type
        assert zero.loc[metric, "Test"] == pytest.approx(overall, abs=1e-12)
    three = table[table["setting"] == "3-shot"]
    assert three[["Test", "Test-3e1c", "Test-3c1e", "Test-missing"]].to_numpy().tolist() == [[0.0] * 4] * 3


def test_by_question_type_has_counts_rotations_and_unparsed(report, logs):
    table = report[0].tables["by_question_type"]
    zero = table[table["setting"] == "0-shot"].set_index("question_type")
    assert list(zero.index) == ["3e1c", "3c1e", "missing", "all"]
    assert zero["instances"].tolist() == [2, 2, 2, 6]
    assert zero.loc["missing", "rotation_acc"] == 0.5 and zero.loc["all", "rotation_acc"] == pytest.approx(0.5)
    assert (zero["unparsed_rate"] == 0).all()
    assert zero.loc["3c1e", "acc_stderr"] == 0.0  # two identical instances
    three = table[table["setting"] == "3-shot"].set_index("question_type")
    assert (three["unparsed_rate"] == 1.0).all() and (three["acc"] == 0.0).all()
    # the same numbers as the logged metrics
    assert logs[0].results is not None
    logged = {name: m.value for name, m in logs[0].results.scores[0].metrics.items()}
    assert zero.loc["all", "partial_circular"] == pytest.approx(logged["partial_circular"], abs=1e-12)
    assert zero.loc["missing", "circular"] == logged["circular_missing"]


def test_plots_and_files(report, tmp_path):
    result, out = report
    assert sorted(p.name for p in result.plots) == [
        "question_types_mockllm_model_0-shot.png",
        "question_types_mockllm_model_3-shot.png",
    ]
    for png in result.plots:
        assert png.parent == out / "divlogiceval" and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(png) as image:
            assert image.format == "PNG"
    write_tables(result, tmp_path)
    assert (tmp_path / "divlogiceval" / "table9.md").read_text(encoding="utf-8").startswith("## Table 9")


def test_other_logs_give_no_tables():
    assert suite_report([], None).tables == {}


# ------------------------------------------------------------------------------------------ run-to-run variation

EPOCH_PLANS: list[list[Any]] = [
    ["g", "g", "g", "g"],  # run 1: ACC 1, CIR 1, PC 1
    ["g", "g", "w1", "w2"],  # run 2: the paper's example, ACC 1, CIR 0, PC 0.125
    ["w1", "w1", "w1", "w1"],  # run 3: ACC 0, CIR 0, PC 0
]
"""Every instance answers by this plan in its k-th epoch, so each run's metrics are the plan's."""


class EpochScriptedModel(ScriptedModel):
    """`test_inspect.ScriptedModel`, with the plan of the epoch an instance is in (counted from its calls)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = {row["content"]: (row, EPOCH_PLANS[0]) for row in rows}
        self.calls = Counter()

    def __call__(self, messages: list[ChatMessage], *args: Any) -> ModelOutput:
        content = messages[0].text.splitlines()[1]
        row, _ = self.rows[content]
        self.rows[content] = (row, EPOCH_PLANS[self.calls[row["id"]] // 4])
        return super().__call__(messages, *args)


def population_cv(values: list[float]) -> float:
    average = sum(values) / len(values)
    return 100 * math.sqrt(sum((v - average) ** 2 for v in values) / len(values)) / average


def test_run_variation_over_epochs(small_repo, tmp_path, report):
    rows = [dict(r) for r in load_dataset_repo(small_repo)]
    [log] = eval(
        divlogiceval(dataset=str(small_repo)),
        model=get_model("mockllm/model", custom_outputs=EpochScriptedModel(rows)),
        epochs=3,
        max_samples=1,  # one instance at a time, so an instance's k-th epoch is its k-th group of four calls
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    result = suite_report([str(log.location)], None)
    table = result.tables["run_variation"].set_index("metric")
    assert list(table.columns) == ["model", "setting", "run1", "run2", "run3", "mean", "CV (%)"]
    by_hand = {"ACC": [1.0, 1.0, 0.0], "CIR": [1.0, 0.0, 0.0], "PC": [1.0, 0.125, 0.0]}
    for metric, runs in by_hand.items():
        assert table.loc[metric, ["run1", "run2", "run3"]].tolist() == pytest.approx(runs, abs=1e-12)
        assert table.loc[metric, "CV (%)"] == pytest.approx(population_cv(runs), abs=1e-9)
    assert table.loc["ACC", "CV (%)"] == pytest.approx(100 * math.sqrt(2) / 2)  # std √2/3 over mean 2/3
    assert result.titles["run_variation"].startswith("Table 3")
    # the pooled Table 9 is the mean over the three runs; a single run gives no variation table
    table9 = result.tables["table9"].set_index("metric")
    assert table9.loc["PC", "Test"] == pytest.approx((1 + 0.125 + 0) / 3, abs=1e-12)
    assert "run_variation" not in report[0].tables


def test_cv_of_table_3():
    """The paper's Table 3 runs give its CV for ACC and CIR with the population standard deviation."""
    from lgmt_tasks.divlogiceval.report import coefficient_of_variation

    assert round(coefficient_of_variation([30.0, 32.0, 32.4, 30.1, 32.0]), 1) == 3.3
    assert round(coefficient_of_variation([7.4, 8.1, 8.0, 8.0, 9.0]), 1) == 6.3
    assert math.isnan(coefficient_of_variation([0.0, 0.0])) and math.isnan(coefficient_of_variation([]))
