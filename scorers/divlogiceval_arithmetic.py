"""Metric arithmetic of circular evaluation (DivLogicEval §2.2, Appendices F–G), in pure Python.

DESIGN decision 6: no framework imports here. The Inspect scorer (`scorers.divlogiceval`), the lm-eval aggregations
(`task_configs/divlogiceval/utils.py`) and the Hugging Face `evaluate` modules (`lgmt_tasks/metrics/partial_circular`,
`lgmt_tasks/metrics/circular`) all call these functions, so the three cannot disagree.

Rotations. An instance with options (o₁, o₂, o₃, o₄) is asked four times, with the options rotated: rotation r
shows (o₍ᵣ₊₁₎, …) — i.e. original option (r + k) mod 4 at position k — so rotation 0 is the original order
(o₁o₂o₃o₄, o₂o₃o₄o₁, o₃o₄o₁o₂, o₄o₁o₂o₃). Each answer is mapped back to the *original* option index, so one
instance gives four predictions `[i₁, i₂, i₃, i₄]` (rotation order) of original indices, `NO_ANSWER_INDEX` (−1)
where an answer could not be read.

Per instance, with gold g and c = #{r : iᵣ = g}:

- Accuracy (ACC) = [i₁ = g]: the original order only;
- Circular (CIR) = [c = 4]: every rotation right;
- PartialCircular (Eq. 2) = c/4 · (1 + Σₒ p(o) log₄ p(o)) = c/4 · (1 − H), with p the frequency distribution of the
  four predicted original options and H its entropy in base 4 (so 0 ≤ H ≤ 1: four predictions have at most four
  distinct values);
- PC_α (Appendix F) = c/4 · [(1 − α) + α(1 − H)]; α = 1 is Eq. (2), α = 0 is c/4 (accuracy over rotations).

Unparsed answers count as wrong (they are never g), as in the paper, and for the entropy all unparsed answers of an
instance are one outcome, "no answer", as if they were one more (wrong) option: a model that always fails to answer
is consistent, not uncertain. They are reported separately as the unparsed rate (unparsed answers / all answers),
and accuracy over the instances whose original-order answer parsed, `acc_parsed` = Σ acc / Σ original_parsed, beside
ACC (named apart: a model that answers little can score high on it).

A metric over a set of instances is the mean of the per-instance values (the paper's Table 9 reports these as
percentages), with the standard error of that mean (`instance_mean`). Empty input gives NaN: no instances, no
accuracy (0.0 would read as a measured failure).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence

from lgmt_tasks.rotation import ROTATIONS
from lgmt_tasks.scorers.pairwise import Rate, outcome_column, ratio_of_sums

NO_ANSWER_INDEX = -1
"""The prediction (an original option index) of an answer that could not be read: no option's index.

Not `vocabulary.UNPARSED`, the string a scorer records as the answer of an unread reply: a prediction is an index."""

UNPARSED = NO_ANSWER_INDEX
"""Deprecated name of `NO_ANSWER_INDEX`, kept for the `evaluate` modules (`lgmt_tasks/metrics/circular`,
`lgmt_tasks/metrics/partial_circular`) until they import the new name."""

OUTCOME_KEYS: tuple[str, ...] = ("acc", "circular", "partial_circular", "rotation_acc", "unparsed", "original_parsed")
"""The keys of one instance's outcome (the keys of the Inspect score dict)."""

METRIC_NAMES: tuple[str, ...] = ("acc", "circular", "partial_circular", "rotation_acc", "unparsed_rate")
"""The metrics over instances, under the names they have in logs (`unparsed_rate` is the mean of `unparsed`)."""


def _check(predictions: Sequence[int], gold: int) -> None:
    if len(predictions) != ROTATIONS:
        raise ValueError(f"expected {ROTATIONS} predictions (one per rotation), got {len(predictions)}")
    bad = [p for p in predictions if p != NO_ANSWER_INDEX and not 0 <= p < ROTATIONS]
    if bad:
        raise ValueError(f"predictions must be option indices 0–{ROTATIONS - 1} or {NO_ANSWER_INDEX}; got {bad}")
    if not 0 <= gold < ROTATIONS:
        raise ValueError(f"gold must be an option index 0–{ROTATIONS - 1}; got {gold}")


def correct_count(predictions: Sequence[int], gold: int) -> int:
    """c: how many rotations were answered with the gold option."""
    _check(predictions, gold)
    return sum(p == gold for p in predictions)


def accuracy(predictions: Sequence[int], gold: int) -> int:
    """ACC of one instance: 1 if the original order (rotation 0) was answered right."""
    _check(predictions, gold)
    return int(predictions[0] == gold)


def circular(predictions: Sequence[int], gold: int) -> int:
    """Circular of one instance: 1 if every rotation was answered right."""
    return int(correct_count(predictions, gold) == ROTATIONS)


def entropy(predictions: Sequence[int]) -> float:
    """H: the base-4 entropy of the frequency distribution of the predicted options (unparsed: one outcome).

    Args:
        predictions: The four predicted original indices.

    Returns:
        −Σₒ p(o) log₄ p(o), in [0, 1]: 0 when all four agree, 1 when all four differ.
    """
    counts = Counter(predictions)
    total = len(predictions)
    h = -math.fsum((k / total) * math.log(k / total, ROTATIONS) for k in counts.values())
    return max(0.0, h) + 0.0  # −0.0 and tiny negative rounding become 0.0


def partial_circular(predictions: Sequence[int], gold: int, alpha: float = 1.0) -> float:
    """PartialCircular of one instance: PC_α = c/4 · [(1 − α) + α(1 − H)] (Eq. 2 at α = 1; Appendix F).

    Args:
        predictions: The four predicted original indices (rotation order), `NO_ANSWER_INDEX` for unread answers.
        gold: The gold original index.
        alpha: Weight of the entropy penalty, in [0, 1]: 1 (default) is the paper's Eq. (2), 0 gives c/4.

    Returns:
        A value in [0, 1]; 1 only when all four rotations were answered right (then H = 0).

    Raises:
        ValueError: On malformed predictions or gold, or alpha outside [0, 1].
    """
    check_alpha(alpha)
    c = correct_count(predictions, gold)
    if c == 0:
        return 0.0
    return c / ROTATIONS * ((1.0 - alpha) + alpha * (1.0 - entropy(predictions)))


def check_alpha(alpha: float) -> float:
    """Return alpha if it lies in [0, 1] (Appendix F), else raise a ValueError saying so."""
    if not 0.0 <= float(alpha) <= 1.0:
        raise ValueError(f"alpha={alpha!r}: must lie in [0, 1] (1 is the paper's PartialCircular, 0 gives c/4)")
    return float(alpha)


def instance_outcome(predictions: Sequence[int], gold: int, alpha: float = 1.0) -> dict[str, float]:
    """Every per-instance quantity, flat (the Inspect score dict and the lm-eval per-document value).

    Returns:
        `acc`, `circular` (0/1), `partial_circular` (PC_α), `rotation_acc` (c/4, i.e. PC_0), `unparsed` (the
        share of the four answers that could not be read) and `original_parsed` (the original order's answer parsed).
    """
    c = correct_count(predictions, gold)
    return {
        "acc": float(accuracy(predictions, gold)),
        "circular": float(c == ROTATIONS),
        "partial_circular": partial_circular(predictions, gold, alpha),
        "rotation_acc": c / ROTATIONS,
        "unparsed": sum(p == NO_ANSWER_INDEX for p in predictions) / ROTATIONS,
        "original_parsed": float(predictions[0] != NO_ANSWER_INDEX),
    }


def mean(values: Sequence[float]) -> float:
    """The mean, NaN for no values."""
    return math.fsum(values) / len(values) if values else math.nan


def stderr(values: Sequence[float]) -> float:
    """The standard error of the mean (sample standard deviation / √n), NaN for fewer than two values."""
    n = len(values)
    if n < 2:
        return math.nan
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1) / n)


def metric_values(outcomes: Sequence[Mapping[str, float]], name: str) -> list[float]:
    """The per-instance values of one metric (`unparsed_rate` reads the `unparsed` key).

    Raises:
        ValueError: If an outcome lacks the key, naming its position.
    """
    key = "unparsed" if name == "unparsed_rate" else name
    if key not in OUTCOME_KEYS:
        raise ValueError(f"unknown metric {name!r}; expected one of {', '.join(METRIC_NAMES)}")
    return outcome_column(outcomes, key, f"expected the keys {', '.join(OUTCOME_KEYS)}")


def instance_mean(outcomes: Sequence[Mapping[str, float]], name: str) -> Rate:
    """One metric over a set of instances: the mean of its per-instance values, with the standard error of the mean.

    Args:
        outcomes: Per-instance outcomes (`instance_outcome`, or their means over epochs).
        name: One of `METRIC_NAMES`.

    Returns:
        The estimate: value `mean`, standard error `stderr`, numerator the sum of the values, denominator the number
        of instances (NaN value and standard error for no instances; NaN standard error for one).
    """
    values = metric_values(outcomes, name)
    return Rate(mean(values), stderr(values), math.fsum(values), float(len(values)))


def acc_parsed(outcomes: Sequence[Mapping[str, float]]) -> Rate:
    """Accuracy over the instances whose original-order answer parsed: Σ acc / Σ original_parsed (NaN if none did)."""
    return ratio_of_sums(metric_values(outcomes, "acc"), outcome_column(outcomes, "original_parsed", "DivLogicEval"))


def summarize(predictions: Sequence[Sequence[int]], golds: Sequence[int], alpha: float = 1.0) -> dict[str, float]:
    """Every metric over a set of instances, with standard errors: `acc`, `acc_stderr`, …, `unparsed_rate_stderr`.

    Args:
        predictions: Per instance, the four predicted original indices in rotation order (`NO_ANSWER_INDEX` = −1).
        golds: Per instance, the gold original index.
        alpha: PC_α's alpha.

    Returns:
        A flat dict of floats in `METRIC_NAMES` order, then `acc_parsed` and its standard error.

    Raises:
        ValueError: If the two sequences differ in length, or on malformed input.
    """
    if len(predictions) != len(golds):
        raise ValueError(f"{len(predictions)} predictions but {len(golds)} references")
    outcomes = [instance_outcome(p, g, alpha) for p, g in zip(predictions, golds, strict=True)]
    out: dict[str, float] = {}
    for name in METRIC_NAMES:
        estimate = instance_mean(outcomes, name)
        out[name] = estimate.value
        out[f"{name}_stderr"] = estimate.stderr
    parsed = acc_parsed(outcomes)
    out["acc_parsed"], out["acc_parsed_stderr"] = parsed.value, parsed.stderr
    return out
