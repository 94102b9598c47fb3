"""LogicAsker's paper tables (`report.logicasker.suite_report`) on two scripted runs of the small build.

Run 1 (zero-shot) answers with `test_task.reply_for`: modus ponens always right, universal modus tollens always
"Yes.", quantifier negation always "No.", affirming the consequent never a yes/no. Run 2 (random demonstrations)
answers "Yes." to everything. The expected numbers are computed here from the built rows and these two rules,
never read from the report.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from PIL import Image

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logicasker.report import suite_report
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.report.suite_report import write_tables
from tests.logicasker.test_task import NOW, reply_for

Reply = Callable[[str, str], str]


def always_yes(rule: str, gold: str) -> str:
    return "Yes."


def run(repo: Path, log_dir: Path, reply: Reply, **params: Any) -> EvalLog:
    by_question = {row["question"]: (row["rule"], row["answer"]) for row in load_dataset_repo(repo)}

    async def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        rule, gold = by_question[messages[-1].text.rsplit(NOW, 1)[-1]]
        output = ModelOutput.from_content(model="mockllm/model", content=reply(rule, gold))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    [log] = eval(
        logicasker(dataset=str(repo), **params),
        model=get_model("mockllm/model", custom_outputs=answer),
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return log


def expected_outcome(rule: str, gold: str, reply: Reply) -> tuple[int, int]:
    """(correct, answered) of one test, from the scripted rule alone (not from the parser or the scorer)."""
    if reply is always_yes:
        return int(gold == "yes"), 1
    if rule == "affirming the consequent":
        return 0, 0
    said = {"modus ponens": gold, "universal modus tollens": "yes", "quantifier negation": "no"}[rule]
    return int(said == gold), 1


def expected(repo: Path, reply: Reply, key: str | None) -> dict[Any, tuple[int, int, int]]:
    """Per value of the row column `key` (None: everything): (tests, answered, correct)."""
    out: dict[Any, list[int]] = {}
    for row in load_dataset_repo(repo):
        group = out.setdefault(row[key] if key else "all", [0, 0, 0])
        correct, answered = expected_outcome(row["rule"], row["answer"], reply)
        group[0] += 1
        group[1] += answered
        group[2] += correct
    return {k: (t, a, c) for k, (t, a, c) in out.items()}


@pytest.fixture(scope="module")
def logs(small_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> list[EvalLog]:
    folder = tmp_path_factory.mktemp("suite-logs")
    return [run(small_repo, folder, reply_for), run(small_repo, folder, always_yes, demonstrations="random")]


@pytest.fixture(scope="module")
def report(logs: list[EvalLog], tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("report")
    return suite_report([str(log.location) for log in logs], out), out


def test_overall_is_response_accuracy_next_to_unparsed(report, small_repo):
    overall = report[0].tables["overall"].set_index("demonstrations")
    for mode, reply in (("none", reply_for), ("random", always_yes)):
        [(tests, answered, correct)] = expected(small_repo, reply, None).values()
        row = overall.loc[mode]
        assert row["model"] == "mockllm/model"
        assert (row["tests"], row["answered"], row["unparsed"], row["correct"]) == (
            tests, answered, tests - answered, correct,
        )  # fmt: skip
        assert row["response_accuracy"] == pytest.approx(correct / answered)
        assert row["instruction_following"] == pytest.approx(answered / tests)
        assert row["ci_low"] < row["response_accuracy"] < row["ci_high"]
    assert overall.loc["none", ["tests", "answered", "correct"]].tolist() == [32, 24, 16]  # the pattern, by hand


@pytest.mark.parametrize(
    ("stem", "column", "row_key"),
    [
        ("by_logic", "logic", "logic"),
        ("by_category", "category", "category"),
        ("by_problem_type", "problem_type", "problem_type"),
        ("by_length", "length", "length"),
        ("by_label", "label", "answer"),
    ],
)
def test_attribute_tables(report, small_repo, stem, column, row_key):
    table = report[0].tables[stem]
    for mode, reply in (("none", reply_for), ("random", always_yes)):
        part = table[table["demonstrations"] == mode].set_index(column)
        want = expected(small_repo, reply, row_key)
        assert sorted(map(str, part.index)) == sorted(map(str, want))
        for value, (tests, answered, correct) in want.items():
            row = part.loc[value]
            assert (row["tests"], row["answered"], row["correct"]) == (tests, answered, correct)
            if answered:
                assert row["response_accuracy"] == pytest.approx(correct / answered)
            else:
                assert math.isnan(row["response_accuracy"])


def test_label_table_by_hand(report):
    part = report[0].tables["by_label"].query("demonstrations == 'none'").set_index("label")
    # gold yes: MP 4 right, UMT 4 right, QN 4 wrong, AC 4 unanswered; gold no: MP 4 right, UMT 4 wrong, QN 4 right
    assert part.loc["yes", ["answered", "correct"]].tolist() == [12, 8]
    assert part.loc["no", ["answered", "correct"]].tolist() == [12, 8]


def test_skills_and_weakest_leaves(report):
    skills = report[0].tables["skills"]
    zero = skills[skills["demonstrations"] == "none"]
    assert list(zero["rule"]) == [
        "quantifier negation", "universal modus tollens", "modus ponens", "affirming the consequent",
    ]  # fmt: skip  # 4/8 (tie broken by name), 4/8, 8/8, then nothing answered
    assert zero["accuracy"].tolist()[:3] == [0.5, 0.5, 1.0] and math.isnan(zero["accuracy"].tolist()[3])
    leaves = report[0].tables["weakest_leaves"]
    first = leaves[leaves["demonstrations"] == "none"].iloc[0]
    assert (first["rule"], first["problem_type"], first["correct"], first["answered"]) == (
        "quantifier negation", "valid", 0, 4,
    )  # fmt: skip
    assert leaves["accuracy"].notna().all()  # unanswered leaves are never weaknesses


def test_demonstrations_table_is_table_6(report):
    table = report[0].tables["demonstrations"]
    assert list(table.columns) == ["model", "zero-shot", "random demonstrations"]
    assert table.iloc[0].tolist() == ["mockllm/model", pytest.approx(16 / 24), pytest.approx(16 / 32)]
    assert "Table 6" in report[0].titles["demonstrations"]


def test_plots_and_files(report, logs, tmp_path):
    result, out = report
    assert [p.name for p in result.plots] == ["skills_mockllm_model_none.png", "skills_mockllm_model_random.png"]
    for png in result.plots:
        assert png.parent == out / "logicasker" and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(png) as image:
            assert image.format == "PNG" and image.size[0] > 300
    again = suite_report([logs[0]], tmp_path)  # loaded logs work too, and the image is byte-identical
    assert again.plots[0].read_bytes() == result.plots[0].read_bytes()
    written = write_tables(result, tmp_path)
    assert (tmp_path / "logicasker" / "by_length.md").read_text(encoding="utf-8").startswith("## Table 3")
    assert len(written) == 2 * len(result.tables)
    assert set(result.titles) == set(result.tables)


def test_other_logs_give_no_tables(tmp_path):
    assert suite_report([], tmp_path).tables == {}
