"""Hugging Face `evaluate` modules of lgmt-tasks, shipped inside the package (ARCHITECTURE.md, "Data flow").

Each subfolder is an `evaluate` metric module laid out as a Hub metric Space: the script named like its folder, a
card (`README.md` with the Space's YAML front matter), `app.py` (the Gradio widget) and `requirements.txt`. It loads
offline from its local path and can be uploaded as a Space as it is. The scripts only read their inputs
(`lgmt_tasks.metrics.inputs`) and call the pure functions of `lgmt_tasks.scorers` that the Inspect scorers and the
lm-eval aggregations call, so the three frameworks cannot disagree:

- `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`: LGMT §4.5 (`scorers.pairwise`);
- `response_accuracy`: LogicAsker §3.3 (`scorers.logicasker_arithmetic`);
- `circular`, `partial_circular`: DivLogicEval §2.2 (`scorers.divlogiceval_arithmetic`);
- `macro_f1`: QMFOL §4, with the label-wise F1 (`scorers.qmfol_arithmetic`);
- `llmorph_confusion`: LLMorph's Table VIII for the lexical suite (`scorers.lexical_arithmetic`).

Example:
    >>> import evaluate
    >>> from lgmt_tasks.metrics import metric_path
    >>> pc = evaluate.load(metric_path("partial_circular"))
    >>> pc.compute(predictions=[[0, 0, 2, 3]], references=[0])
    {'partial_circular': 0.125}
"""

from __future__ import annotations

from pathlib import Path

from lgmt_tasks.suites import SUITES

METRICS_DIR = Path(__file__).resolve().parent
"""The folder holding one subfolder per metric module."""

METRIC_NAMES: tuple[str, ...] = tuple(name for s in SUITES for name in s.evaluate_modules)
"""The metric modules shipped (each the name of its folder, of its script and of its Space)."""


def metric_path(name: str) -> str:
    """The local path of a metric module, for `evaluate.load(path)`.

    Args:
        name: One of `METRIC_NAMES`.

    Returns:
        The module's folder, as a string.

    Raises:
        ValueError: On an unknown name (the message lists the valid ones).
    """
    if name not in METRIC_NAMES:
        raise ValueError(f"no metric module {name!r}; expected one of {', '.join(METRIC_NAMES)}")
    return str(METRICS_DIR / name)
