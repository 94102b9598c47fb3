"""Headline metrics of Inspect logs as one table (one row per log, one column per metric)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log


def log_paths(paths: Iterable[str | Path], latest: bool = False) -> list[str]:
    """Expand folders into the `.eval`/`.json` logs they hold (newest first); `latest` keeps one per folder."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            infos = list_eval_logs(str(path), recursive=True)
            names = [i.name for i in infos]
            out.extend(names[:1] if latest else names)
        elif path.exists():
            out.append(str(path))
        else:
            raise FileNotFoundError(f"no log at {p}")
    return out


def metrics_row(log: EvalLog) -> dict[str, object]:
    """Task, model, samples and every metric of one log (names without the `lgmt_tasks/` prefix)."""
    row: dict[str, object] = {
        "task": log.eval.task.removeprefix("lgmt_tasks/"),
        "model": log.eval.model,
        "task_version": log.eval.task_version,
        "status": log.status,
        "samples": log.results.completed_samples if log.results else 0,
        "total": log.eval.dataset.samples,
        "created": log.eval.created,
    }
    prompting = (log.eval.task_args or {}).get("prompting")
    if prompting is not None:
        row["prompting"] = prompting
    for score in log.results.scores if log.results else []:
        for name, metric in score.metrics.items():
            row[name.split("/")[-1]] = metric.value
    return row


def headline_table(paths: Iterable[str | Path], latest: bool = False) -> pd.DataFrame:
    """One row per log with its headline metrics."""
    return pd.DataFrame([metrics_row(read_eval_log(p, header_only=True)) for p in log_paths(paths, latest)])
