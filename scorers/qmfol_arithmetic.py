"""QMFOL metric arithmetic in pure Python (DESIGN decision 6): accuracy, label-wise F1, macro-F1, answer distribution.

One task's outcome (`sample_outcome`) is a flat dict of 0/1 indicators: `correct`, `parsed`, one `gold_<G>` per
label (1 for the task's gold label), and one `pair_<G>_<A>` per gold label G and answer A (exactly one of the nine
is 1 when the answer parsed). Everything QMFOL reports (§4) is a ratio of sums of these, so it stays exact when
Inspect reduces several epochs to per-key means, and the Inspect metrics, the lm-eval aggregations and reports all
compute it from the same functions.

Headline figures count an unparsed answer as wrong, as the paper does (an answer it cannot use scores nothing); the
same figure over parsed answers only is reported beside it under a name ending in `_parsed`, and the unparsed rate
beside both, so that a model that fails to answer cannot look accurate:

- `accuracy` = Σ correct / tasks; `accuracy_parsed` = Σ correct / Σ parsed;
- per label L: `f1_L` = 2·Σ pair_L_L / (Σ_G pair_G_L + Σ gold_L), the harmonic mean of precision (among answers
  L) and recall (among all tasks of gold L, so an unparsed answer to a task of gold L is a miss), treating the
  other labels as negative (§4); `f1_L_parsed` uses the parsed tasks of gold L (Σ_A pair_L_A) instead; NaN when L
  is neither gold nor answered;
- `macro_f1` = the mean of the defined `f1_L` (the paper's Macro-F1: equal weight to each class);
  `macro_f1_parsed` the mean of the `f1_L_parsed`;
- `dist_<G>_<A>` = Σ pair_G_A / Σ gold_G: the share of answer A among all tasks of gold G (the paper's Table 3),
  with `dist_<G>_unparsed` the share of those not answered, so that each gold row sums to 1;
- `unparsed_rate` = Σ (1 − parsed) / tasks.

On fully parsed runs each figure equals its `_parsed` twin and the paper's definition. An empty set of tasks, or a
zero denominator, gives NaN.
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

GOLD_KEYS: tuple[str, ...] = tuple(f"gold_{g}" for g in LABELS)
"""One indicator per gold label (the recall denominators, unparsed answers included)."""

OUTCOME_KEYS: tuple[str, ...] = ("correct", "parsed", *GOLD_KEYS, *PAIR_KEYS)
"""The keys of one task's outcome (the keys of the QMFOL score dict)."""

F1_NAMES: tuple[str, ...] = (*(f"f1_{label}" for label in LABELS), "macro_f1")
"""The headline F1s (an unparsed answer is a miss)."""

F1_PARSED_NAMES: tuple[str, ...] = tuple(f"{name}_parsed" for name in F1_NAMES)
"""The same F1s over parsed answers only."""

DIST_NAMES: tuple[str, ...] = tuple(f"dist_{g}_{a}" for g in LABELS for a in (*LABELS, "unparsed"))
"""The answer distribution per gold label, with the unparsed share (each gold row sums to 1)."""

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
    out[f"gold_{gold}"] = 1
    if answer is not None:
        out["parsed"] = 1
        out["correct"] = int(answer == gold)
        out[f"pair_{gold}_{answer}"] = 1
    return out


def _sum(outcomes: Sequence[Outcome], key: str) -> float:
    return math.fsum(float(o[key]) for o in outcomes)


def accuracy(outcomes: Sequence[Outcome]) -> Rate:
    """Correct answers / all tasks (an unparsed answer is wrong), with its delta-method standard error over tasks."""
    return ratio_of_sums([float(o["correct"]) for o in outcomes], [1.0] * len(outcomes))


def accuracy_parsed(outcomes: Sequence[Outcome]) -> Rate:
    """Correct answers / parsed answers: the figure over parsed answers only, reported beside `accuracy`."""
    return ratio_of_sums([float(o["correct"]) for o in outcomes], [float(o["parsed"]) for o in outcomes])


def unparsed_rate(outcomes: Sequence[Outcome]) -> Rate:
    """Tasks whose answer did not parse / all tasks."""
    return ratio_of_sums([1.0 - float(o["parsed"]) for o in outcomes], [1.0] * len(outcomes))


def confusion(outcomes: Sequence[Outcome]) -> dict[tuple[str, str], float]:
    """The confusion matrix over parsed tasks: (gold, answer) → count (or sum of epoch means)."""
    return {(g, a): _sum(outcomes, f"pair_{g}_{a}") for g in LABELS for a in LABELS}


def gold_counts(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Tasks per gold label, answered or not (count, or sum of epoch means)."""
    return {g: _sum(outcomes, f"gold_{g}") for g in LABELS}


def _f1s(matrix: Mapping[tuple[str, str], float], gold_totals: Mapping[str, float], suffix: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for label in LABELS:
        hits = matrix[(label, label)]
        answered = math.fsum(matrix[(g, label)] for g in LABELS)
        gold = gold_totals[label]
        out[f"f1_{label}{suffix}"] = 2 * hits / (answered + gold) if answered + gold else math.nan
    defined = [out[f"f1_{label}{suffix}"] for label in LABELS if not math.isnan(out[f"f1_{label}{suffix}"])]
    out[f"macro_f1{suffix}"] = math.fsum(defined) / len(defined) if defined else math.nan
    return out


def f1_scores(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """`f1_True`, `f1_False`, `f1_Unknown`, `macro_f1` (an unparsed answer is a miss) and their `_parsed` twins."""
    matrix = confusion(outcomes)
    parsed_gold = {g: math.fsum(matrix[(g, a)] for a in LABELS) for g in LABELS}
    return {**_f1s(matrix, gold_counts(outcomes), ""), **_f1s(matrix, parsed_gold, "_parsed")}


def answer_distribution(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """`dist_<gold>_<answer>` and `dist_<gold>_unparsed`: each answer's share among all tasks of each gold label."""
    matrix = confusion(outcomes)
    totals = gold_counts(outcomes)
    out: dict[str, float] = {}
    for g in LABELS:
        total = totals[g]
        answered = math.fsum(matrix[(g, a)] for a in LABELS)
        for a in LABELS:
            out[f"dist_{g}_{a}"] = matrix[(g, a)] / total if total else math.nan
        out[f"dist_{g}_unparsed"] = (total - answered) / total if total else math.nan
    return out


def summarize(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Every headline number, its over-parsed twin, the F1s, the distribution and the unparsed rate."""
    acc = accuracy(outcomes)
    parsed = accuracy_parsed(outcomes)
    return {
        "accuracy": acc.value,
        "accuracy_stderr": acc.stderr,
        "accuracy_parsed": parsed.value,
        "accuracy_parsed_stderr": parsed.stderr,
        **f1_scores(outcomes),
        **answer_distribution(outcomes),
        "unparsed_rate": unparsed_rate(outcomes).value,
    }
