"""Paired significance for comparing two runs on the same groups: McNemar's exact test, a paired bootstrap, Holm.

Two models answering the same test groups are not two independent samples: a hard group is hard for both. The
comparison is therefore paired on the group: each group gives one yes/no outcome per model (violated? consistently
correct?), and only the groups where the two disagree (the discordant pairs) carry evidence of a difference. McNemar's
exact test is the binomial test on those pairs; the paired bootstrap resamples groups (keeping each group's pair of
outcomes together) for an interval of the difference of rates; Holm's step-down keeps the family-wise error at alpha
when a comparison is split into many relations.

Pure Python (the package does not depend on scipy): `math.comb` gives the exact binomial tail, `random.Random` the
resamples, so the numbers are the same on every machine for the same seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of the paired bootstrap: the 2.5% and 97.5% quantiles then rest on 50 resamples in each tail."""

BOOTSTRAP_SEED = 0
"""The bootstrap's seed: the same outcomes always give the same interval."""


@dataclass(frozen=True)
class McNemar:
    """McNemar's exact test of one paired comparison.

    Attributes:
        b: Groups where the first run has the outcome and the second does not.
        c: Groups where the second run has the outcome and the first does not.
        p_value: Two-sided exact p-value (1.0 when there is no discordant pair).
    """

    b: int
    c: int
    p_value: float


def discordant(first: Sequence[int], second: Sequence[int]) -> tuple[int, int]:
    """Count the discordant pairs of two paired 0/1 sequences: (first 1 and second 0, first 0 and second 1).

    Raises:
        ValueError: If the sequences differ in length or hold anything but 0 and 1 (names the position).
    """
    if len(first) != len(second):
        raise ValueError(f"paired outcomes of different lengths: {len(first)} and {len(second)}")
    b = c = 0
    for index, (x, y) in enumerate(zip(first, second, strict=True)):
        if x not in (0, 1) or y not in (0, 1):
            raise ValueError(f"paired outcome {index} is ({x!r}, {y!r}); expected 0 or 1 each")
        b += x > y
        c += y > x
    return b, c


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided p-value of McNemar's exact test from the discordant counts.

    Under the null hypothesis (both runs have the same rate) each of the n = b + c discordant pairs is equally likely
    to go either way, so min(b, c) ~ Binomial(n, 1/2); the two-sided p-value doubles the lower tail,
    p = min(1, 2 · Σ_{k ≤ min(b, c)} C(n, k) / 2ⁿ). The concordant pairs do not enter. Computed with exact integers
    (one rounding, at the final division), so it does not lose precision for large n.

    Args:
        b: Pairs where only the first run has the outcome.
        c: Pairs where only the second run has the outcome.

    Returns:
        The p-value; 1.0 when b = c = 0 (no evidence either way).

    Raises:
        ValueError: If a count is negative.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be non-negative, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**n)


def mcnemar(first: Sequence[int], second: Sequence[int]) -> McNemar:
    """McNemar's exact test of two paired 0/1 sequences (see `discordant` and `mcnemar_exact`)."""
    b, c = discordant(first, second)
    return McNemar(b, c, mcnemar_exact(b, c))


def paired_bootstrap(
    first: Sequence[float],
    second: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile interval of mean(first) − mean(second), resampling the paired units with replacement.

    Each unit (a group) keeps its two outcomes together, so the interval reflects the pairing: the difference of rates
    only varies through the groups on which the runs differ. Resample r draws n units with replacement (a
    `random.Random(seed)` generator) and records the mean difference; the bounds are the (1 − confidence)/2 and
    (1 + confidence)/2 empirical quantiles (linear interpolation between order statistics).

    Args:
        first: The first run's outcome per unit (0/1, or any number).
        second: The second run's outcome on the same units, same order.
        resamples: Number of bootstrap resamples.
        seed: The generator's seed (same inputs and seed: same interval).
        confidence: The interval's coverage.

    Returns:
        (low, high); (NaN, NaN) for no units.

    Raises:
        ValueError: If the sequences differ in length, or `resamples` < 1, or `confidence` is not in (0, 1).
    """
    if len(first) != len(second):
        raise ValueError(f"paired outcomes of different lengths: {len(first)} and {len(second)}")
    if resamples < 1:
        raise ValueError(f"resamples={resamples}: need at least one")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence={confidence}: expected a number between 0 and 1")
    n = len(first)
    if n == 0:
        return (math.nan, math.nan)
    differences = [float(x) - float(y) for x, y in zip(first, second, strict=True)]
    generator = random.Random(seed)
    means = sorted(math.fsum(generator.choices(differences, k=n)) / n for _ in range(resamples))
    return (quantile(means, (1 - confidence) / 2), quantile(means, (1 + confidence) / 2))


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolating linearly between order statistics (numpy's default rule)."""
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values of one family of tests, in the order given.

    Holm's step-down: sort the m p-values ascending, multiply the i-th smallest (i from 0) by m − i, take the running
    maximum so that the adjusted values keep the order of the raw ones, and cap at 1. Rejecting where the adjusted
    value is below alpha controls the family-wise error rate at alpha under any dependence between the tests,
    which suits relations answered by the same model. A NaN p-value (a test with no data) stays NaN and is not
    counted in m.
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    m = len(tested)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, index) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = running
    return adjusted
