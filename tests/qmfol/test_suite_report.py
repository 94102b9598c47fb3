"""QMFOL's paper tables (`report.qmfol.suite_report`) on a scripted run over depths 3 and 4, 0 and 2 distractors,
topics Food and Animal (24 tasks: one per topic, depth, distractor level and label).

The script answers by the task's configuration, not by its position:

- Food: always the gold label;
- Animal without distractors: the gold label;
- Animal with 2 distractors: always "Unknown", except depth 4 with gold False: no answer at all.

So: T→T 6, T→U 2; F→F 6, F→U 1, F→unparsed 1; U→U 8. Accuracy 20/24 (an unparsed answer is wrong). Output
tokens are 10 × depth. Every expected number below is worked out from these rules by hand or by counting rows.
"""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from PIL import Image

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.report import suite_report
from lgmt_tasks.qmfol.task import qmfol
from lgmt_tasks.report.suite_report import write_tables
from lgmt_tasks.solvers.qmfol import render_prompt
from tests.qmfol.test_task import completion


def scripted_answer(row: dict[str, Any]) -> str | None:
    if row["topic"] == "Food" or row["distractors"] == 0:
        return str(row["label"])
    if row["depth"] == 4 and row["label"] == "False":
        return None
    return "Unknown"


@pytest.fixture(scope="module")
def rows_and_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], EvalLog]:
    config = QmfolConfig(depths=(3, 4), widths=(2,), distractors=(0, 2), topics=("Food", "Animal"), seeds=1)
    repo = tmp_path_factory.mktemp("qmfol-report") / "repo"
    write_qmfol_repo(build_qmfol(config), repo)
    rows = [dict(r) for r in load_dataset_repo(repo)]
    script = {render_prompt(r["premises"], r["conclusion"]): r for r in rows}

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        row = script[messages[-1].text]
        output = ModelOutput.from_content(model="mockllm/model", content=completion(scripted_answer(row), row["seed"]))
        output.usage = ModelUsage(
            input_tokens=100, output_tokens=10 * row["depth"], total_tokens=100 + 10 * row["depth"]
        )
        return output

    [log] = eval(
        qmfol(dataset=str(repo)),
        model=get_model("mockllm/model", custom_outputs=answer),
        log_dir=str(tmp_path_factory.mktemp("logs")),
        display="none",
    )
    assert log.status == "success", log.error
    return rows, log


@pytest.fixture(scope="module")
def report(rows_and_log, tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("report")
    return suite_report([rows_and_log[1].location], out), out


def only_row(table):
    assert len(table) == 1
    return table.iloc[0]


def test_overall(report, rows_and_log):
    rows = rows_and_log[0]
    assert len(rows) == 24
    row = only_row(report[0].tables["overall"])
    assert (row["model"], row["tasks"]) == ("mockllm/model", 24)
    assert row["unparsed_rate"] == pytest.approx(1 / 24)
    assert row["accuracy"] == pytest.approx(20 / 24)
    assert row["output_tokens"] == pytest.approx(35.0) and row["input_tokens"] == 100.0 and row["time_s"] > 0


def test_table2_f1(report):
    row = only_row(report[0].tables["table2_f1"])
    # 2·TP / (answered + gold), the unparsed False task a miss of False
    f1 = {"True": 2 * 6 / (6 + 8), "False": 2 * 6 / (6 + 8), "Unknown": 2 * 8 / (11 + 8)}
    for label, value in f1.items():
        assert row[label] == pytest.approx(value)
    assert row["Macro"] == pytest.approx(sum(f1.values()) / 3)


def test_table3_answer_distribution(report):
    table = report[0].tables["table3_answer_distribution"].set_index("gold")
    answered = ["answered True", "answered False", "answered Unknown"]
    assert table.loc["True", answered].tolist() == pytest.approx([6 / 8, 0, 2 / 8])
    assert table.loc["False", answered].tolist() == pytest.approx([0, 6 / 8, 1 / 8])  # shares of all 8 tasks
    assert table.loc["Unknown", answered].tolist() == pytest.approx([0, 0, 1])
    assert table["unparsed"].tolist() == [0, 1, 0] and table["tasks"].tolist() == [8, 8, 8]


def test_table5_and_table6(report):
    distractors = only_row(report[0].tables["table5_distractors"])
    assert (distractors["D0"], distractors["D2"]) == (1.0, pytest.approx(8 / 12))
    topics = report[0].tables["table6_topics"]
    assert list(topics.columns) == ["model", "log", "Food", "Animal", "overall"]
    row = only_row(topics)
    assert (row["Food"], row["Animal"], row["overall"]) == (1.0, pytest.approx(8 / 12), pytest.approx(20 / 24))


def test_figure4_and_figure5(report):
    grid = report[0].tables["figure4_depth_width"].set_index("depth")
    # an unparsed answer is wrong here too: depth 4 holds the unanswered task (10 right of 12)
    assert grid.loc[3, "accuracy"] == pytest.approx(10 / 12) and grid.loc[4, "accuracy"] == pytest.approx(10 / 12)
    assert grid["tokens"].tolist() == [30.0, 40.0] and grid["samples"].tolist() == [12, 12]
    row = only_row(report[0].tables["figure5_distractor_changes"])
    assert row["distractors"] == "D2" and row["pairs"] == 12
    counts = ["correct→correct", "correct→wrong", "wrong→correct", "wrong→wrong", "unparsed pairs"]
    assert row[counts].tolist() == [8, 3, 0, 0, 1]


def test_heatmap_and_files(report, tmp_path):
    result, out = report
    [png] = result.plots
    assert png.parent == out / "qmfol" and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(png) as image:
        assert image.format == "PNG"
    written = write_tables(result, tmp_path)
    assert len(written) == 2 * 7 and set(result.titles) == set(result.tables)
    assert (tmp_path / "qmfol" / "table2_f1.md").read_text(encoding="utf-8").startswith("## Table 2")


def test_other_logs_give_no_tables():
    assert suite_report([], None).tables == {}
