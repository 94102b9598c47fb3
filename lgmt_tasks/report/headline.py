"""Headline metrics of Inspect logs: one row per log, plus per-category and per-relation breakdowns.

Our scorers log each rate `r` with a separate `r_stderr` metric and breakdowns as `r_<group>` (see
`scorers/lgmt.py`); this module turns that flat metric namespace back into tables people read.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.report.logs import errored_samples, find_logs, newest_per_run, read_header
from lgmt_tasks.report.suite_report import NO_PARSED_GROUP
from lgmt_tasks.report.suites import SUITE_METRICS, prompting_of, suite_of
from lgmt_tasks.suites import SUITE_NAMES
from lgmt_tasks.suites import suite as suite_record

HEADLINE_RATES = ("mvr", "acc_static", "acc_cons", "hdr", "fur", "unparsed_rate")


def log_paths(paths: Iterable[str | Path], latest: bool = False) -> list[str]:
    """Expand folders into the logs they hold (newest first); `latest` keeps the newest log of each run.

    A run is a (task, model, task arguments) triple (`lgmt_tasks.report.logs.run_key`). `lgmt report` selects its
    logs with `lgmt_tasks.report.logs.select_logs` instead, which also skips unreadable and unfinished logs.

    Raises:
        FileNotFoundError: If a path does not exist.
        ValueError: With `latest`, if a log cannot be read (names it).
    """
    found = find_logs(paths)
    if not latest:
        return found
    return [path for path, _ in newest_per_run((path, read_header(path)) for path in found)]


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of a log by its short name (`lgmt_tasks/mvr` → `mvr`)."""
    out: dict[str, float] = {}
    for score in log.results.scores if log.results else []:
        for name, metric in score.metrics.items():
            out[name.split("/")[-1]] = metric.value
    return out


def metrics_row(log: EvalLog) -> dict[str, object]:
    """Task, model, prompting, sample counts (scored, errored and not scored, in the dataset) and every metric.

    A log of an adaptive run (`-T adaptive`) also has `adaptive`: its design (a column only when such a log is read).
    """
    from lgmt_tasks.adaptive.report import adaptive_summary

    row: dict[str, object] = {
        "task": log.eval.task.removeprefix("lgmt_tasks/"),
        "model": log.eval.model,
        "prompting": _prompting(log),
        "task_version": log.eval.task_version,
        "status": log.status,
        "samples": log.results.completed_samples if log.results else 0,
        "errored": errored_samples(log),
        "total": log.eval.dataset.samples,
        "created": log.eval.created,
    }
    summary = adaptive_summary(log)
    if summary is not None:
        row["adaptive"] = summary.design
    row.update(log_metrics(log))
    return row


def _prompting(log: EvalLog) -> str:
    """The run's prompting setting as the leaderboard names it (empty for suites without one)."""
    suite = suite_of(log.eval.task)
    return prompting_of(suite, log.eval.task_args) if suite else str((log.eval.task_args or {}).get("prompting", ""))


def headline_table(paths: Iterable[str | Path], latest: bool = False) -> pd.DataFrame:
    """One row per log with all its metrics (raw numbers, for CSV and leaderboards), and `variant` where they differ.

    A `variant` column (after `prompting`) appears when the LGMT logs' groups do not all apply one variant of the laws
    (`variant_labels`), so that a log's figures are never read as another variant's.
    """
    selected = log_paths(paths, latest)
    table = pd.DataFrame([metrics_row(read_eval_log(p, header_only=True)) for p in selected])
    labels = variant_labels(selected, list(table["task"]) if "task" in table else [])
    if labels is not None:
        table.insert(list(table.columns).index("prompting") + 1, "variant", labels)
    return table


def variant_labels(paths: Sequence[str], tasks: Sequence[str]) -> list[str] | None:
    """Each log's variant of the laws, or None when every LGMT log's groups apply the same single one (no column).

    An LGMT log of one variant gets its name (`paper`, `extended`, ...); one of several `all (mixed)` (its figures
    pool them; the leaderboard and the LGMT tables split them, issue #38); other suites' logs an empty label.
    """
    record = suite_record("lgmt")  # through the registry: shared report code imports no suite
    log_variants, mixed = record.attr("frame", "log_variants"), record.attr("report", "MIXED")
    from lgmt_tasks.report.suites import LGMT_TASKS

    found = [log_variants(path) if task in LGMT_TASKS else None for path, task in zip(paths, tasks, strict=True)]
    lgmt = [variants for variants in found if variants is not None]
    if all(len(v) <= 1 for v in lgmt) and len({tuple(v) for v in lgmt if v}) <= 1:
        return None
    return ["" if v is None or not v else (v[0] if len(v) == 1 else mixed) for v in found]


def _pm(value: object, stderr: object, samples: object = 0) -> str:
    """`value ± stderr`; a NaN rate of a log with scored samples is a rate over no parsed group, and says so."""
    if isinstance(value, (int, float)) and math.isnan(value):
        return NO_PARSED_GROUP if isinstance(samples, (int, float)) and samples > 0 else "-"
    if not isinstance(value, (int, float)):
        return "-"
    if isinstance(stderr, (int, float)) and not math.isnan(stderr):
        return f"{value:.3f} ± {stderr:.3f}"
    return f"{value:.3f}"


def headline_metrics(tasks: Iterable[str]) -> list[str]:
    """The headline metric names of the suites these tasks belong to, in suite order (LGMT's rates first)."""
    present = {suite_of(t) for t in tasks}
    names: list[str] = []
    for suite in SUITE_NAMES:
        if suite in present:
            names += [m for m in SUITE_METRICS[suite].values() if not m.endswith("_stderr") and m not in names]
    return names or list(HEADLINE_RATES)


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """Each log's headline metrics (its suite's, as on the leaderboard) as `value ± stderr` strings, one row per log.

    An adaptive run's row (column `adaptive`: its design) shows its rates without `± stderr`: a fixed-n standard error
    does not hold for a sample chosen adaptively (`lgmt_tasks.adaptive.report`).
    """
    keep = ["task", "model", "prompting", "variant", "adaptive", "status", "samples", "errored", "total"]
    out = table[[c for c in keep if c in table]].copy()
    if "adaptive" in out:
        out["adaptive"] = [design if isinstance(design, str) else "" for design in out["adaptive"]]
    adaptive = list(out["adaptive"] != "") if "adaptive" in out else [False] * len(table)
    for rate in headline_metrics(table["task"] if "task" in table else []):
        if rate in table:
            stderrs = table.get(f"{rate}_stderr", [None] * len(table))
            stderrs = [None if fixed_n_invalid else s for s, fixed_n_invalid in zip(stderrs, adaptive, strict=True)]
            samples = table.get("samples", [0] * len(table))
            out[rate] = [_pm(v, s, n) for v, s, n in zip(table[rate], stderrs, samples, strict=True)]
    return out


def breakdown(metrics: dict[str, float], groups: Iterable[str]) -> pd.DataFrame:
    """A group × rate table from breakdown metrics named `<rate>_<group>` (empty cells where not logged)."""
    rows = []
    for group in groups:
        row: dict[str, object] = {"group": group}
        for rate in HEADLINE_RATES:
            if f"{rate}_{group}" in metrics:
                row[rate] = metrics[f"{rate}_{group}"]
        rows.append(row)
    return pd.DataFrame(rows)


def breakdown_groups(metrics: dict[str, float]) -> tuple[list[str], list[str]]:
    """Category names (`MR-E`) and relation names (`MR-E1.1`, chains) that have breakdown metrics."""
    names = {k.removeprefix("mvr_") for k in metrics if k.startswith("mvr_") and k != "mvr_stderr"}
    categories = sorted(n for n in names if n.count("-") == 1 and "." not in n and n[-1].isalpha())
    relations = sorted(n for n in names if n not in categories)
    return categories, relations
