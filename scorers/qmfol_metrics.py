"""QMFOL metric arithmetic in pure Python (DESIGN decision 6): accuracy, label-wise F1, macro-F1, answer distribution.

One task's outcome (`sample_outcome`) is a flat dict of 0/1 indicators: `correct`, `parsed`, and one `pair_<G>_<A>`
per gold label G and answer A (exactly one of the nine is 1 when the answer parsed). Everything QMFOL reports (§4) is
a ratio of sums of these, so it stays exact when Inspect reduces several epochs to per-key means, and the Inspect
metrics, the lm-eval aggregations and reports all compute it from the same functions.

Denominators (DESIGN decision 5: an unparsed answer is neither right nor wrong; it is counted by its own rate):

- `accuracy` = Σ correct / Σ parsed;
- per label L: precision = Σ pair_L_L / Σ_G pair_G_L, recall = Σ pair_L_L / Σ_A pair_L_A, and
  `f1_L` = 2·Σ pair_L_L / (Σ_G pair_G_L + Σ_A pair_L_A) (the harmonic mean, treating the other labels as
  negative, §4); NaN when L is neither gold nor answered among the parsed tasks;
- `macro_f1` = the mean of the defined `f1_L` (the paper's Macro-F1: equal weight to each class);
- `dist_<G>_<A>` = Σ pair_G_A / Σ_A pair_G_A: the share of answer A among parsed tasks of gold G (the paper's
  Table 3, each gold row summing to 1);
- `unparsed_rate` = Σ (1 − parsed) / tasks.

On fully parsed runs these are the paper's definitions. An empty set of tasks, or a zero denominator, gives NaN.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from lgmt_tasks.scorers.pairwise import Rate, ratio_of_sums
from lgmt_tasks.vocabulary import TRUTH_LABELS

LABELS: tuple[str, ...] = TRUTH_LABELS
"""The answer labels, in the paper's order."""

PAIR_KEYS: tuple[str, ...] = tuple(f"pair_{g}_{a}" for g in LABELS for a in LABELS)
"""One indicator per (gold, answer)."""

OUTCOME_KEYS: tuple[str, ...] = ("correct", "parsed", *PAIR_KEYS)
"""The keys of one task's outcome (the keys of the QMFOL score dict)."""

F1_NAMES: tuple[str, ...] = (*(f"f1_{label}" for label in LABELS), "macro_f1")
DIST_NAMES: tuple[str, ...] = tuple(f"dist_{g}_{a}" for g in LABELS for a in LABELS)

Outcome = Mapping[str, float]


def sample_outcome(gold: str, answer: str | None) -> dict[str, int]:
    """Score one task.

    Args:
        gold: The gold label (`True`, `False` or `Unknown`).
        answer: The parsed answer, or None if it did not parse.

    Returns:
        A dict with exactly the keys of `OUTCOME_KEYS`, each 0 or 1.

    Raises:
        ValueError: On a gold label or answer outside `LABELS`.
    """
    if gold not in LABELS:
        raise ValueError(f"gold label must be one of {', '.join(LABELS)}; got {gold!r}")
    if answer is not None and answer not in LABELS:
        raise ValueError(f"answer must be one of {', '.join(LABELS)} or None; got {answer!r}")
    out = dict.fromkeys(OUTCOME_KEYS, 0)
    if answer is not None:
        out["parsed"] = 1
        out["correct"] = int(answer == gold)
        out[f"pair_{gold}_{answer}"] = 1
    return out


def _sum(outcomes: Sequence[Outcome], key: str) -> float:
    return math.fsum(float(o[key]) for o in outcomes)


def accuracy(outcomes: Sequence[Outcome]) -> Rate:
    """Correct answers / parsed answers, with its delta-method standard error over tasks."""
    return ratio_of_sums([float(o["correct"]) for o in outcomes], [float(o["parsed"]) for o in outcomes])


def unparsed_rate(outcomes: Sequence[Outcome]) -> Rate:
    """Tasks whose answer did not parse / all tasks."""
    return ratio_of_sums([1.0 - float(o["parsed"]) for o in outcomes], [1.0] * len(outcomes))


def confusion(outcomes: Sequence[Outcome]) -> dict[tuple[str, str], float]:
    """The confusion matrix over parsed tasks: (gold, answer) → count (or sum of epoch means)."""
    return {(g, a): _sum(outcomes, f"pair_{g}_{a}") for g in LABELS for a in LABELS}


def f1_scores(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """`f1_True`, `f1_False`, `f1_Unknown` and `macro_f1` (see the module docstring)."""
    matrix = confusion(outcomes)
    out: dict[str, float] = {}
    for label in LABELS:
        hits = matrix[(label, label)]
        answered = math.fsum(matrix[(g, label)] for g in LABELS)
        gold = math.fsum(matrix[(label, a)] for a in LABELS)
        out[f"f1_{label}"] = 2 * hits / (answered + gold) if answered + gold else math.nan
    defined = [out[f"f1_{label}"] for label in LABELS if not math.isnan(out[f"f1_{label}"])]
    out["macro_f1"] = math.fsum(defined) / len(defined) if defined else math.nan
    return out


def answer_distribution(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """`dist_<gold>_<answer>`: the share of each answer among the parsed tasks of each gold label (Table 3)."""
    matrix = confusion(outcomes)
    out: dict[str, float] = {}
    for g in LABELS:
        total = math.fsum(matrix[(g, a)] for a in LABELS)
        for a in LABELS:
            out[f"dist_{g}_{a}"] = matrix[(g, a)] / total if total else math.nan
    return out


def summarize(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Every headline number: accuracy (and its standard error), the F1s, the distribution, the unparsed rate."""
    acc = accuracy(outcomes)
    return {
        "accuracy": acc.value,
        "accuracy_stderr": acc.stderr,
        **f1_scores(outcomes),
        **answer_distribution(outcomes),
        "unparsed_rate": unparsed_rate(outcomes).value,
    }
