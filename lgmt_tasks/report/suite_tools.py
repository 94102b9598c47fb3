"""Small helpers the suites' paper reports share: loading logs once, and deterministic bar plots with intervals.

Every `suite_report` reads the same kind of input (log files, folders of logs, or logs already loaded) and skips the
logs of other suites, so `lgmt report` can hand every suite the whole list. Plots are drawn with matplotlib's Agg
backend and saved without the `Software` PNG chunk, so the same logs give byte-identical images.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.report.headline import log_paths

LogLike = str | Path | EvalLog


def load_logs(paths: Iterable[LogLike]) -> list[EvalLog]:
    """Load logs with their samples: files, folders (searched recursively) or `EvalLog`s already loaded.

    Raises:
        FileNotFoundError: If a path does not exist.
        ValueError: If a loaded log was read without its samples.
    """
    logs: list[EvalLog] = []
    for item in paths:
        if isinstance(item, EvalLog):
            if item.samples is None:
                raise ValueError(f"log {item.location!r} has no samples (read it without header_only)")
            logs.append(item)
        else:
            logs.extend(read_eval_log(path) for path in log_paths([item]))
    return logs


def slug(text: str) -> str:
    """A file-name-safe version of a model name or setting (`openai/gpt-4o` → `openai_gpt-4o`)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def save_png(fig: Any, path: Path) -> Path:
    """Save a figure as PNG without the `Software` chunk (byte-identical for identical data) and close it."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def pyplot() -> Any:
    """Return matplotlib's pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def interval_bars(
    labels: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    title: str,
    xlabel: str,
    colors: Sequence[str] | None = None,
    reference: float | None = None,
    reference_label: str = "",
    xlim: tuple[float, float] | None = (0.0, 1.0),
    legend: dict[str, str] | None = None,
) -> Any:
    """A horizontal bar chart, one bar per label (first label on top), with interval whiskers.

    Bars whose value is NaN are drawn empty and marked `n/a`, so that a missing figure is not read as zero.

    Args:
        labels: Bar labels.
        values: Bar lengths.
        lows: Lower interval bounds (NaN: no whisker).
        highs: Upper interval bounds.
        title: Figure title.
        xlabel: Axis label.
        colors: One colour per bar (default: one colour).
        reference: A vertical reference line (e.g. a noise floor), if any.
        reference_label: Its legend label.
        xlim: Axis limits (None: automatic).
        legend: Legend entries, label → colour (e.g. what the bar colours mean).

    Returns:
        The figure (save it with `save_png`).
    """
    plt = pyplot()
    n = len(labels)
    fig, ax = plt.subplots(figsize=(7.5, max(2.2, 0.28 * n + 1.2)))
    ys = list(range(n))[::-1]
    shown = [0.0 if math.isnan(v) else v for v in values]
    ax.barh(ys, shown, color=list(colors) if colors else "tab:blue", height=0.7)
    for y, v, lo, hi in zip(ys, values, lows, highs, strict=True):
        if math.isnan(v):
            ax.text(0.01, y, "n/a", va="center", fontsize=7)
        elif not (math.isnan(lo) or math.isnan(hi)):
            ax.errorbar(v, y, xerr=[[max(0.0, v - lo)], [max(0.0, hi - v)]], fmt="none", ecolor="black", capsize=2)
    if reference is not None and not math.isnan(reference):
        ax.axvline(reference, color="tab:red", linestyle="--", linewidth=1, label=reference_label or None)
    for name, colour in (legend or {}).items():
        ax.bar([0], [0], color=colour, label=name)  # an empty bar: a legend entry only
    if legend or (reference_label and reference is not None and not math.isnan(reference)):
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    ax.set_yticks(ys, list(labels), fontsize=7 if n > 20 else 9)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
