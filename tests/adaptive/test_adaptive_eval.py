"""Adaptive Inspect runs end to end (issue #37): a scripted model with planted rates, the saving, the reports.

The done-when test of the issue runs `lgmt_tasks/lgmt -T adaptive=threshold` (all 20 relations, the shipped build,
Inspect's default concurrency) on `tests.adaptive.planted.PlantedModel`: a third of the relations clean, the others
violating at 0.30 or 0.50. Every relation must be decided correctly (none wrong beyond the margin, at most two
undecided) with at most half the model calls of the same task run uniformly. A uniform run makes one call per member
of every group; that count is computed from the dataset, and checked once against a real uniform run of a small task.
The clean relations are those with pools of 200 groups: a clean relation needs about 63 groups to be called `below`
at alpha 0.05 over 20 relations, more than the 33 to 45 groups of MR-E1.5, MR-E1.6 and MR-E2.1–E2.3, which get
rate 0.5 (about ten groups decide them).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import Task, eval, eval_retry
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.adaptive.design import Settings
from lgmt_tasks.adaptive.report import ADAPTIVE_COLUMNS, CAVEAT, AdaptiveSummary, adaptive_summary
from lgmt_tasks.adaptive.simulate import wrong_decision
from lgmt_tasks.adaptive.stopping import group_calls
from lgmt_tasks.cli import main
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt
from lgmt_tasks.lgmt.task import lgmt, mr_p, mr_s
from lgmt_tasks.task_params import TaskParameterError
from tests.adaptive.planted import PlantedModel, members_by_prompt

CLEAN = ("MR-E1.1", "MR-E1.4", "MR-S1", "MR-P1", "MR-P3", "MR-C1", "MR-C3")
"""A third of the 20 relations (7), each with a pool of 200 groups."""

HALF = ("MR-E1.5", "MR-E1.6", "MR-E2.1", "MR-E2.2", "MR-E2.3", "MR-S2")
"""Violating at 0.5: the five small pools, and MR-S2; the other seven violate at 0.3."""

RATES = {mr: 0.0 if mr in CLEAN else 0.5 if mr in HALF else 0.3 for mr in MR_SETS["lgmt"]}


@dataclass(frozen=True)
class Run:
    """An eval of a task on the planted model: its log (read back from disk), the prompts asked, the task's samples."""

    log: EvalLog
    calls: list[str]
    task: Task

    @property
    def summary(self) -> AdaptiveSummary:
        summary = adaptive_summary(self.log)
        assert summary is not None
        return summary

    @property
    def uniform_calls(self) -> int:
        """The calls of a uniform run of the same task: every group's members."""
        return sum(group_calls(sample) for sample in self.task.dataset)


def evaluate(task: Task, rates: dict[str, float], log_dir: Path, **options: object) -> Run:
    model = PlantedModel(members_by_prompt(task.dataset), rates)
    (log,) = eval(task, model=model.register(), log_dir=str(log_dir), display="none", **options)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return Run(read_eval_log(log.location), model.calls, task)


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A build cache of this module's own, offline (as `tests/conftest.py`'s `offline_cache`, for module fixtures)."""
    folder = tmp_path_factory.mktemp("adaptive")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LGMT_CACHE_DIR", str(folder / "cache"))
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_DATASETS_OFFLINE", "1")
        yield folder


@pytest.fixture(scope="module")
def threshold_run(offline: Path) -> Run:
    """`inspect eval lgmt_tasks/lgmt -T adaptive=threshold` on the planted model (Inspect's default concurrency)."""
    return evaluate(lgmt(adaptive="threshold"), RATES, offline / "threshold")


def test_threshold_decides_every_relation_correctly_with_at_most_half_the_calls(threshold_run: Run) -> None:
    summary = threshold_run.summary
    settings = Settings("threshold")
    decisions = {row["relation"]: row["decision"] for row in summary.relations}
    assert list(decisions) == list(MR_SETS["lgmt"])
    wrong = [r for r, d in decisions.items() if wrong_decision(d, RATES[r], list(RATES.values()), settings)]
    assert wrong == []
    undecided = [r for r, d in decisions.items() if d == "undecided"]
    assert len(undecided) <= 2, undecided
    assert all(d == ("below" if RATES[r] == 0 else "above") for r, d in decisions.items() if r not in undecided)
    # the calls: as many as the model was asked, at most half of the uniform run's (every member of 2,854 groups)
    assert threshold_run.uniform_calls == summary.calls_uniform == 2 * 2854
    assert len(threshold_run.calls) == summary.calls_made <= summary.calls_uniform / 2


def test_the_log_holds_exactly_the_groups_run(threshold_run: Run) -> None:
    summary, log = threshold_run.summary, threshold_run.log
    assert log.samples is not None and len(log.samples) == summary.groups_run
    ran = Counter(sample.metadata["mr"] for sample in log.samples)
    assert {row["relation"]: row["run"] for row in summary.relations} == ran
    assert log.results is not None and log.results.early_stopping is not None
    assert len(log.results.early_stopping.early_stops) == summary.groups_skipped == 2854 - summary.groups_run
    assert log.eval.metadata is not None
    assert log.eval.metadata["adaptive"] == {"design": "threshold", "tau": 0.1, "margin": 0.05, "alpha": 0.05}


def test_a_uniform_run_makes_one_call_per_member_of_every_group(offline: Path) -> None:
    run = evaluate(mr_s(per_mr=5), {"MR-S1": 0.5}, offline / "uniform")
    assert len(run.calls) == run.uniform_calls == 2 * 10
    assert run.log.results is not None and run.log.results.early_stopping is None
    assert run.log.eval.metadata is not None and "adaptive" not in run.log.eval.metadata
    assert run.log.eval.task_args["adaptive"] == "none"


def test_adaptive_none_is_todays_task(offline: Path) -> None:
    loaded = load_lgmt(MR_SETS["mr_s"], per_mr=5)
    today = [row["id"] for row in loaded.rows]  # the order the task used before the option existed: the loader's
    default = mr_s(per_mr=5)
    explicit = mr_s(per_mr=5, adaptive="none", tau=0.1, margin=0.05, alpha=0.05)
    for task in (default, explicit):
        assert [sample.id for sample in task.dataset] == today
        assert task.early_stopping is None
        assert task.metadata == loaded.task_metadata
    assert [s.metadata for s in default.dataset] == [s.metadata for s in explicit.dataset]
    adaptive = mr_s(per_mr=5, adaptive="threshold")
    assert sorted(s.id for s in adaptive.dataset) == sorted(today)  # the same groups, interleaved
    assert adaptive.metadata == {**loaded.task_metadata, "adaptive": {"design": "threshold", **DEFAULTS}}


DEFAULTS = {"tau": 0.1, "margin": 0.05, "alpha": 0.05}


def test_eval_retry_of_an_adaptive_run_covers_the_whole_run(offline: Path) -> None:
    """A run that lost groups to model errors, retried: the reused groups count as run, the rest as decided again."""
    task = mr_s(per_mr=60, adaptive="threshold")
    model = PlantedModel(members_by_prompt(task.dataset), {"MR-S1": 0.5})
    answer, calls = model.respond, {"n": 0, "failing": True}

    def flaky(prompt: str) -> str:
        calls["n"] += 1
        if calls["failing"] and calls["n"] % 7 == 0:
            raise RuntimeError("scripted outage")
        return answer(prompt)

    model.respond = flaky  # type: ignore[method-assign]
    name = model.register()
    (first,) = eval(task, model=name, log_dir=str(offline / "retry"), display="none", fail_on_error=False)
    assert first.samples is not None and any(sample.error for sample in first.samples)
    calls["failing"] = False
    (retried,) = eval_retry(first.location, log_dir=str(offline / "retry"), display="none")
    summary = adaptive_summary(read_eval_log(retried.location))
    assert summary is not None
    rows = {row["relation"]: row for row in summary.relations}
    assert {r: row["decision"] for r, row in rows.items()} == {"MR-S1": "above", "MR-S2": "below"}
    assert all(row["run"] + row["skipped"] == row["pool"] for row in rows.values())  # every group accounted for
    assert all(row["groups"] <= row["run"] for row in rows.values())
    assert summary.calls_made == 2 * sum(row["run"] for row in rows.values())


def test_weakest_picks_the_relation_with_the_highest_rate(offline: Path) -> None:
    rates = {"MR-P1": 0.1, "MR-P2": 0.7, "MR-P3": 0.0, "MR-P4": 0.2, "MR-P5": 0.0}
    run = evaluate(mr_p(adaptive="weakest"), rates, offline / "weakest")
    decisions = {row["relation"]: row["decision"] for row in run.summary.relations}
    assert [r for r, d in decisions.items() if d == "weakest"] == ["MR-P2"]
    assert set(decisions.values()) <= {"weakest", "tied", "eliminated"}  # `tied`: it cannot beat MR-P2 by the margin
    settings = Settings("weakest")
    assert not any(wrong_decision(d, rates[r], list(rates.values()), settings) for r, d in decisions.items())
    assert len(run.calls) == run.summary.calls_made < run.uniform_calls / 2


def test_the_report_prints_the_table_and_writes_adaptive_csv(threshold_run: Run, tmp_path: Path) -> None:
    log = str(threshold_run.log.location)
    result = CliRunner().invoke(main, ["report", log, "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    summary = threshold_run.summary
    assert "| relation | groups | violations | lower | upper | decision | run | skipped |" in result.output
    assert f"Model calls: {summary.calls_made} of the uniform run's {summary.calls_uniform}" in result.output
    assert CAVEAT in result.output
    headline = result.output.split("\n\n")[0]
    assert "threshold" in headline and "±" not in headline  # no fixed-n standard error beside an adaptive run's MVR
    assert "errored" in headline and "|         0 |" in headline  # skipped groups are not errors
    with (tmp_path / "report" / "lgmt" / "adaptive.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == ADAPTIVE_COLUMNS
    expected = [[str(row[c]) for c in ADAPTIVE_COLUMNS] for row in summary.relations]
    assert [row[:3] + row[5:] for row in rows[1:]] == [row[:3] + row[5:] for row in expected]
    assert [[float(v) for v in row[3:5]] for row in rows[1:]] == [[float(v) for v in row[3:5]] for row in expected]
    with (tmp_path / "report" / "leaderboard.csv").open(encoding="utf-8") as handle:
        board = list(csv.DictReader(handle))
    assert board and all(row["mvr"] and not row["mvr_stderr"] for row in board)  # no fixed-n error for adaptive runs
    index = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "[lgmt/adaptive.csv](lgmt/adaptive.csv)" in index and "valid intervals: adaptive.csv" in index
    report = CliRunner().invoke(main, ["report", log, "--eval-report"])
    assert report.exit_code == 0 and "**Adaptive run:**" in report.output and "±" not in report.output


def test_the_lexical_task_runs_adaptively_too(offline: Path, tmp_path: Path) -> None:
    task = lexical(mr="MR-1,MR-49", per_mr=30, adaptive="threshold")
    run = evaluate(task, {}, offline / "lexical", max_samples=4)  # few in flight: a small pool outlasts the lag
    rows = {row["relation"]: row for row in run.summary.relations}
    assert list(rows) == ["MR-1", "MR-49"]
    # no violation: MR-1 (3 parts × 30 groups) is decided below tau; MR-49's 30 groups are too few to decide
    assert rows["MR-1"]["decision"] == "below" and rows["MR-1"]["skipped"] > 0
    assert rows["MR-49"]["decision"] == "undecided" and rows["MR-49"]["run"] == 30
    assert len(run.calls) == run.summary.calls_made
    result = CliRunner().invoke(main, ["report", str(run.log.location), "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    header = (tmp_path / "report" / "lexical" / "adaptive.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == ",".join(ADAPTIVE_COLUMNS)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: mr_s(tau=0.2), "mr_s: tau=0.2 without an adaptive design: set -T adaptive=threshold or -T adaptive="),
        (lambda: mr_s(adaptive="sometimes"), "mr_s: adaptive='sometimes': expected one of none, threshold, weakest"),
        (lambda: mr_s(adaptive="threshold", alpha=1.5), "mr_s: alpha=1.5: expected a number strictly between 0 and 1"),
        (lambda: lexical(margin=0.1), "lexical: margin=0.1 without an adaptive design"),
        (lambda: lexical(adaptive="weakest", tau=0), "lexical: tau=0.0: expected a rate strictly between 0 and 1"),
    ],
)
def test_bad_values_are_refused_in_one_line(build: object, message: str) -> None:
    with pytest.raises(TaskParameterError) as raised:
        build()  # type: ignore[operator]
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)
