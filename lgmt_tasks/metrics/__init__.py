"""Hugging Face `evaluate` modules of lgmt-tasks, shipped inside the package (DESIGN decision 6).

Each subfolder is an `evaluate` metric module (a script named like its folder, and a card), loadable offline from its
local path and publishable as a Hub metric Space. The scripts only wrap the pure functions of
`lgmt_tasks.scorers.divlogiceval_metrics`, the same ones the Inspect scorer and the lm-eval aggregations call.

Example:
    >>> import evaluate
    >>> from lgmt_tasks.metrics import metric_path
    >>> pc = evaluate.load(metric_path("partial_circular"))
    >>> pc.compute(predictions=[[0, 0, 2, 3]], references=[0])
    {'partial_circular': 0.125}
"""

from __future__ import annotations

from pathlib import Path

METRICS_DIR = Path(__file__).resolve().parent
"""The folder holding one subfolder per metric module."""

METRIC_NAMES: tuple[str, ...] = ("partial_circular", "circular")
"""The metric modules shipped."""


def metric_path(name: str) -> str:
    """The local path of a metric module, for `evaluate.load(path)`.

    Args:
        name: `partial_circular` or `circular`.

    Returns:
        The module's folder, as a string.

    Raises:
        ValueError: On an unknown name (the message lists the valid ones).
    """
    if name not in METRIC_NAMES:
        raise ValueError(f"no metric module {name!r}; expected one of {', '.join(METRIC_NAMES)}")
    return str(METRICS_DIR / name)
