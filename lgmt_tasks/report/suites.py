"""The registry as reports see it: which suite a log belongs to, its metrics, and its report function (found lazily).

`lgmt report` receives logs of any of our tasks mixed together. It groups them by suite (the task name decides) and
hands each group to that suite's `suite_report` (in `lgmt_tasks/<suite>/report.py`), imported only when a suite has
logs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from inspect_ai.log import read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.report.suite_report import SuiteReport

LGMT_TASKS: tuple[str, ...] = registry.suite("lgmt").tasks
"""The Inspect task names of the LGMT suite."""

SUITE_METRICS: dict[str, dict[str, str]] = {s.name: dict(s.leaderboard_metrics) for s in registry.SUITES}
"""Per suite: leaderboard column → the metric's name in that suite's logs and lm-eval results (from the registry)."""

SuiteReportFn = Callable[[list[str], "Path | None"], SuiteReport]


def task_name(task: str) -> str:
    """A task name without the registry prefix (`lgmt_tasks/mr_e` → `mr_e`)."""
    return task.split("/")[-1]


def suite_of(task: str) -> str | None:
    """The suite of an Inspect task name (with or without the `lgmt_tasks/` prefix); None for other tasks."""
    entry = registry.suite_of_task(task)
    return None if entry is None else entry.name


def prompting_of(suite: str, task_args: dict[str, Any] | None) -> str:
    """A run's prompting setting as text (`zero_shot`, `weakness`, `3`); empty for suites without one."""
    entry = registry.suite(suite)
    if entry.prompting_arg is None:
        return ""
    value = (task_args or {}).get(entry.prompting_arg)
    return str(entry.prompting_default) if value is None else str(value)


def group_by_suite(paths: Iterable[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Split log files by suite (reads headers only).

    Returns:
        Suite → its log files (in the order given; suites in the registry's order), and the files of tasks that are
        not ours (reported, never silently dropped).
    """
    by_suite: dict[str, list[str]] = {}
    foreign: list[str] = []
    for path in paths:
        suite = suite_of(read_eval_log(path, header_only=True).eval.task)
        if suite is None:
            foreign.append(path)
        else:
            by_suite.setdefault(suite, []).append(path)
    return {s: by_suite[s] for s in registry.SUITE_NAMES if s in by_suite}, foreign


def suite_report_function(suite: str) -> SuiteReportFn:
    """`lgmt_tasks.<suite>.report.suite_report`, imported only when that suite has logs (keeps the CLI light).

    Raises:
        ValueError: For a name that is not a suite (lists the suites).
    """
    function: SuiteReportFn = registry.suite(suite).attr("report", "suite_report")
    return function
