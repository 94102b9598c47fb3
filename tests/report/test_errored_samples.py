"""A run that went on past model errors (`fail_on_error` off): its errored samples are counted wherever it is reported.

Inspect gives such a run status `success` and metrics over the completed samples only, so a report that showed only
`samples` would read 2 scored groups of 6 run as a clean run of 2. The count is in the headline table, the
leaderboard, and a warning of `lgmt report`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from lgmt_tasks.cli import main
from lgmt_tasks.report.headline import display_table, headline_table
from lgmt_tasks.report.leaderboard import leaderboard
from lgmt_tasks.report.logs import select_logs

RUN = 6


def answer(*_: Any) -> ModelOutput:
    """Always True, with its token counts (mockllm without them would download a tokenizer)."""
    output = ModelOutput.from_content("mockllm/model", '{"label": "True"}')
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


@pytest.fixture(scope="module")
def log_path(tmp_path_factory: pytest.TempPathFactory, built_dataset: str) -> str:
    """`mr_e` on six groups; every third model call raises, so some groups error and the run goes on."""
    from lgmt_tasks.lgmt.task import mr_e

    calls: list[int] = []

    def reply(*args: Any) -> ModelOutput:
        calls.append(1)
        if len(calls) % 3 == 1:
            raise RuntimeError("scripted failure (connection dropped)")
        return answer(*args)

    [log] = eval(
        mr_e(dataset=built_dataset),
        model=get_model("mockllm/model", custom_outputs=reply),
        limit=RUN,
        fail_on_error=False,
        max_connections=1,
        log_dir=str(tmp_path_factory.mktemp("errored-logs")),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    errored = sum(1 for sample in log.samples if sample.error)
    assert 0 < errored < RUN  # the premise: some groups errored, some were scored
    return str(log.location)


def errored_in_log(path: str) -> int:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(path)
    return sum(1 for sample in log.samples or [] if sample.error)


def test_the_headline_counts_the_errored_samples_beside_the_scored(log_path: str) -> None:
    [row] = headline_table([log_path]).to_dict("records")
    errored = errored_in_log(log_path)
    assert (row["samples"], row["errored"]) == (RUN - errored, errored)
    assert list(display_table(headline_table([log_path])).columns)[4:7] == ["samples", "errored", "total"]


def test_the_leaderboard_counts_them_too(log_path: str) -> None:
    [row] = leaderboard([log_path]).to_dict("records")
    assert (row["samples"], row["errored"]) == (RUN - errored_in_log(log_path), errored_in_log(log_path))


def test_lgmt_report_warns_naming_the_log_and_the_count(log_path: str) -> None:
    errored = errored_in_log(log_path)
    [line] = [w for w in select_logs([log_path]).warnings() if "errored" in w]
    assert line.startswith(f"warning: {errored} of the {RUN} samples of {log_path} errored")
    result = CliRunner().invoke(main, ["report", log_path])
    assert result.exit_code == 0, result.output
    assert line in result.stderr
    assert "errored" in result.stdout  # the column of the printed headline table


def test_a_clean_log_gives_no_warning_and_zero(built_dataset: str, tmp_path: Path) -> None:
    from lgmt_tasks.lgmt.task import mr_e

    model = get_model("mockllm/model", custom_outputs=answer)
    [log] = eval(mr_e(dataset=built_dataset), model=model, limit=2, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    assert select_logs([str(log.location)]).warnings() == []
    assert headline_table([str(log.location)])["errored"].tolist() == [0]


def test_the_evaluation_report_says_how_the_embedded_model_decoded() -> None:
    """Greedy at temperature 0 (or none set); the sampling temperature otherwise (QMFOL's default is 1)."""
    from types import SimpleNamespace

    from lgmt_tasks.report.eval_report import decoding

    def log(temperature: float | None) -> Any:
        return SimpleNamespace(plan=SimpleNamespace(config=SimpleNamespace(temperature=temperature)))

    assert [decoding(log(t)) for t in (None, 0.0, 1.0, 0.7)] == [
        "greedy",
        "greedy",
        "sampled at temperature 1",
        "sampled at temperature 0.7",
    ]
