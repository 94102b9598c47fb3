"""QMFOL reports from Inspect logs: per-sample time and tokens, depth × width tables, and Figure 4's heatmaps.

The paper reports accuracy together with two overheads per task, time (s) and tokens, over the 4 × 4 depth × width
subsets (Figure 4). Inspect records both for every sample, so they are read from the log rather than measured by
the task:

- time: the sample's `working_time` (seconds the sample was working, without time spent waiting for a connection
  or a rate limit, so it does not grow with `--max-connections`); `total_time` (wall clock) is kept as well;
- tokens: the sample's model usage summed over models: `output_tokens` (the completion, reasoning included for
  providers that count it there; the paper's token overhead), with `input_tokens`, `reasoning_tokens` and
  `total_tokens` kept as well. The input tokens of a run with and without distractors also tell how much filler the
  length ablation needs (`-T padding_tokens=N`, §4.2.2).

`qmfol_samples` gives one row per sample and epoch; `depth_width_table` aggregates it; `qmfol_heatmaps` draws one
PNG per log (model) with three panels, accuracy (%), time (s) and output tokens, as Figure 4 does. `lgmt report`
calls `qmfol_heatmaps(log_paths, out_dir)`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.report.headline import log_paths as expand_log_paths
from lgmt_tasks.scorers.qmfol_metrics import OUTCOME_KEYS

SCORER = "qmfol_scorer"
"""The name of the QMFOL scorer in logs."""

COLUMNS: tuple[str, ...] = (
    "log",
    "model",
    "id",
    "epoch",
    "depth",
    "width",
    "distractors",
    "topic",
    "label",
    "construction",
    "answer",
    "correct",
    "parsed",
    "working_time",
    "total_time",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "total_tokens",
)
"""The columns of `qmfol_samples`."""

PANELS: tuple[tuple[str, str, str], ...] = (
    ("accuracy", "Accuracy (%)", "Greens"),
    ("time", "Time (s)", "Oranges"),
    ("tokens", "Output tokens", "Blues"),
)
"""The heatmap panels: column of `depth_width_table`, title, colour map."""


def _score_value(sample: Any) -> Mapping[str, Any] | None:
    scores = sample.scores or {}
    score = scores.get(SCORER) or next(
        (s for s in scores.values() if isinstance(s.value, Mapping) and set(OUTCOME_KEYS) <= set(s.value)), None
    )
    return score.value if score is not None and isinstance(score.value, Mapping) else None


def _is_qmfol(log: EvalLog) -> bool:
    return log.eval.task.split("/")[-1] == "qmfol"


def samples_of(log: EvalLog, name: str = "") -> list[dict[str, Any]]:
    """The rows of one log (one per sample and epoch; samples without a QMFOL score are skipped)."""
    rows = []
    for sample in log.samples or []:
        value = _score_value(sample)
        if value is None:
            continue
        meta = sample.metadata or {}
        usage = list((sample.model_usage or {}).values())
        score = (sample.scores or {}).get(SCORER)
        rows.append(
            {
                "log": name,
                "model": log.eval.model,
                "id": sample.id,
                "epoch": sample.epoch,
                "depth": meta.get("depth"),
                "width": meta.get("width"),
                "distractors": meta.get("distractors"),
                "topic": meta.get("topic"),
                "label": meta.get("label", sample.target),
                "construction": meta.get("construction"),
                "answer": score.answer if score is not None else None,
                "correct": float(value["correct"]),
                "parsed": float(value["parsed"]),
                "working_time": sample.working_time,
                "total_time": sample.total_time,
                "input_tokens": sum(u.input_tokens for u in usage),
                "output_tokens": sum(u.output_tokens for u in usage),
                "reasoning_tokens": sum(u.reasoning_tokens or 0 for u in usage),
                "total_tokens": sum(u.total_tokens for u in usage),
            }
        )
    return rows


def qmfol_samples(log_paths: Iterable[str | Path]) -> pd.DataFrame:
    """One row per QMFOL sample (and epoch) of the logs: configuration, answer, correctness, time and tokens.

    Args:
        log_paths: Log files or folders (folders are searched recursively); logs of other tasks are skipped.

    Returns:
        A frame with the columns of `COLUMNS` (empty if no QMFOL sample was found).
    """
    rows: list[dict[str, Any]] = []
    for path in expand_log_paths(log_paths):
        log = read_eval_log(path)
        if _is_qmfol(log):
            rows.extend(samples_of(log, Path(path).name))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def depth_width_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (correct / parsed), mean time and mean output tokens per log, model, depth and width.

    Args:
        samples: Rows of `qmfol_samples`.

    Returns:
        One row per (log, model, depth, width) with `accuracy` (in [0, 1], NaN when nothing parsed), `time`
        (mean working time, s), `tokens` (mean output tokens), `samples`.
    """
    keys = ["log", "model", "depth", "width"]
    if samples.empty:
        return pd.DataFrame(columns=[*keys, "accuracy", "time", "tokens", "samples"])
    grouped = samples.groupby(keys, sort=True)
    table = grouped.agg(
        correct=("correct", "sum"),
        parsed=("parsed", "sum"),
        time=("working_time", "mean"),
        tokens=("output_tokens", "mean"),
        samples=("id", "size"),
    ).reset_index()
    table["accuracy"] = [c / p if p else math.nan for c, p in zip(table["correct"], table["parsed"], strict=True)]
    return table[[*keys, "accuracy", "time", "tokens", "samples"]]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "model"


def qmfol_heatmaps(log_paths: Iterable[str | Path], out_dir: str | Path) -> list[Path]:
    """Draw Figure 4 of the paper from Inspect logs: accuracy, time and tokens over depth × width, one PNG per log.

    Args:
        log_paths: QMFOL log files or folders (other tasks' logs are skipped).
        out_dir: Folder for the images (created), and for `qmfol_depth_width.csv` with the numbers drawn.

    Returns:
        The image paths (`qmfol_<model>_<log>.png`), in log order; empty if no QMFOL sample was found.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = depth_width_table(qmfol_samples(log_paths))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if table.empty:
        return []
    table.to_csv(out / "qmfol_depth_width.csv", index=False)
    written: list[Path] = []
    for (log, model), part in table.groupby(["log", "model"], sort=False):
        fig, axes = plt.subplots(1, len(PANELS), figsize=(4.2 * len(PANELS), 3.8))
        for ax, (column, title, cmap) in zip(axes, PANELS, strict=True):
            grid = part.pivot(index="depth", columns="width", values=column).sort_index().sort_index(axis=1)
            values = grid.to_numpy(dtype=float) * (100.0 if column == "accuracy" else 1.0)
            limits = {"vmin": 0.0, "vmax": 100.0} if column == "accuracy" else {}
            image = ax.imshow(values, cmap=cmap, aspect="auto", **limits)
            ax.set_xticks(range(len(grid.columns)), [f"W{w}" for w in grid.columns])
            ax.set_yticks(range(len(grid.index)), [f"D{d}" for d in grid.index])
            ax.set_title(title)
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    v = values[i, j]
                    ax.text(
                        j,
                        i,
                        "–" if math.isnan(v) else f"{v:.1f}" if column != "tokens" else f"{v:.0f}",
                        ha="center",
                        va="center",
                        fontsize=8,
                    )
            fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        fig.suptitle(f"QMFOL: {model}")
        fig.tight_layout()
        path = out / f"qmfol_{_slug(str(model))}_{_slug(Path(str(log)).stem)}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        written.append(path)
    return written
