"""The card's intervals, made from the counts the suites' reports already computed: no rate is recomputed here.

Every function takes a rate (or the counts a report gives) and returns an `Estimate`. The interval arithmetic is the
package's own: Wilson's score interval (`lgmt_tasks.scorers.intervals.wilson_interval`) for a proportion of 0/1
outcomes, at a Bonferroni-adjusted z for a strip of simultaneous intervals, and an adaptive run's confidence sequences
as `lgmt_tasks.adaptive` logged them. What is new is only how they combine:

- `wilson(..., family=k)`: the LGMT strip shows up to 20 relations; read one at a time, each 95% interval misses 1
  time in 20, so among 20 relations one miss is expected. At level 1 − 0.05 / k each, all k cover at once with
  probability at least 95% (Bonferroni). Holm's step-down sharpens tests, not intervals (its intervals are as wide as
  Bonferroni's for the first relation), so the strip's intervals are Bonferroni's and its tests (the noise floor's
  `above_control`) Holm's.
- `pooled_sequence`: an adaptive run logs one confidence sequence per relation, simultaneous over the relations at its
  alpha. Its pooled MVR is the group-weighted mean of the relations' rates; whenever every relation's sequence holds,
  the same weighted mean of the bounds holds that pooled rate (a mean of numbers inside intervals lies inside the mean
  interval), whatever the weights, which an adaptive run chose from the data. So the pooled interval has the runs'
  simultaneous level, and a fixed-n Wilson interval, which does not hold for an adaptively chosen sample, is never
  shown for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

from lgmt_tasks.card.content import Estimate, number
from lgmt_tasks.scorers.intervals import wilson_interval

ALPHA = 0.05
"""The card's error level: 95% intervals, family-wise where a family is shown."""


def empty(method: str = "none") -> Estimate:
    """An estimate with no item behind it (no rate, no interval)."""
    return Estimate(None, None, None, 0.0, method)


def wilson(successes: Any, n: Any, *, value: Any = None, family: int = 1) -> Estimate:
    """The rate successes / n with its Wilson interval; simultaneous over `family` intervals when it is above 1.

    Args:
        successes: Successes (violations, correct answers); may be fractional after epoch reduction.
        n: Trials (parsed groups, tests).
        value: The rate as the suite's report computed it (checked against successes / n, and shown); None: the
            ratio.
        family: How many intervals must hold at once (Bonferroni: each at level 1 − 0.05 / family).

    Raises:
        ValueError: If `value` is not successes / n (the counts and the rate would disagree on the card).
    """
    trials, hits = number(n), number(successes)
    if trials is None or trials <= 0 or hits is None:
        return empty()
    ratio = hits / trials
    shown = number(value)
    if shown is None:
        shown = ratio
    elif abs(shown - ratio) > 1e-9:
        raise ValueError(f"the rate {shown} is not {hits} / {trials}")
    if family > 1:
        low, high = wilson_interval(hits, trials, NormalDist().inv_cdf(1 - ALPHA / (2 * family)))
    else:  # the reports' own interval (its default z), so the card's equals `lgmt report`'s
        low, high = wilson_interval(hits, trials)
    method = "wilson-bonferroni" if family > 1 else "wilson"
    return Estimate(shown, low, high, trials, method, 1 - ALPHA, max(1, family))


def wilson_of_rate(value: Any, n: Any) -> Estimate:
    """`wilson` of a mean of n outcomes in [0, 1], when the report gives the mean and n but not the successes.

    For 0/1 outcomes it is Wilson's interval of their proportion. For a graded score in [0, 1] (DivLogicEval's
    PartialCircular) it is conservative: its variance p(1 − p) bounds that of any score in [0, 1] with mean p, and
    unlike value ± 1.96 standard errors it does not collapse to a point when every instance scores alike.
    """
    rate, trials = number(value), number(n)
    if rate is None or trials is None or trials <= 0:
        return empty()
    return wilson(rate * trials, trials, value=rate)


def no_interval(value: Any, n: Any) -> Estimate:
    """A rate shown without an interval, where none that the card can make holds (method `none`)."""
    return Estimate(number(value), None, None, number(n), "none")


def sequence(row: Mapping[str, Any], alpha: float, family: int) -> Estimate:
    """One relation's confidence-sequence interval as an adaptive run logged it (`AdaptiveSummary.relations`)."""
    groups, violations = number(row.get("groups")) or 0.0, number(row.get("violations")) or 0.0
    return Estimate(
        violations / groups if groups else None,
        number(row.get("lower")),
        number(row.get("upper")),
        groups,
        "confidence-sequence",
        1 - alpha,
        family,
    )


def pooled_sequence(relations: Sequence[Mapping[str, Any]], alphas: Sequence[float], value: Any) -> Estimate:
    """The pooled MVR of adaptive runs with the group-weighted mean of their relations' sequences (module docstring).

    Args:
        relations: Every relation row of the runs' summaries (`groups`, `violations`, `lower`, `upper`).
        alphas: Each run's simultaneous alpha (the level is 1 − their sum: all runs' sequences hold at once).
        value: The pooled MVR as the suite's report computed it (shown; it lies inside the interval).
    """
    weights = [number(row.get("groups")) or 0.0 for row in relations]
    total = sum(weights)
    if total <= 0:
        return empty("confidence-sequence-pooled")
    low = sum(w * (number(row.get("lower")) or 0.0) for w, row in zip(weights, relations, strict=True)) / total
    high = sum(w * (number(row.get("upper")) or 1.0) for w, row in zip(weights, relations, strict=True)) / total
    level = max(0.0, 1 - sum(alphas))
    return Estimate(number(value), low, high, total, "confidence-sequence-pooled", level, len(relations))
