"""Paired significance for comparing two runs on the same groups: McNemar's exact test, Newcombe's interval, Holm.

Two models answering the same test groups are not two independent samples: a hard group is hard for both. The
comparison is therefore paired on the group: each group gives one yes/no outcome per model (violated? consistently
correct?), and only the groups where the two disagree (the discordant pairs) carry evidence of a difference. McNemar's
exact test is the binomial test on those pairs; Newcombe's paired interval (`paired_interval`, consistent with the
test beside it) bounds the difference of rates; Holm's step-down keeps the family-wise error at alpha when a
comparison is split into many relations.

Pure Python (the package does not depend on scipy): `math.comb` gives the exact binomial tail, so the numbers are the
same on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from lgmt_tasks.scorers.intervals import newcombe_paired_difference
from lgmt_tasks.scorers.multiplicity import holm

__all__ = ["McNemar", "discordant", "holm", "interval_of_counts", "mcnemar", "mcnemar_exact", "paired_interval"]


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


def paired_interval(
    first: Sequence[int], second: Sequence[int], *, p_value: float, alpha: float = 0.05
) -> tuple[float, float]:
    """The (1 − alpha) interval of mean(first) − mean(second) for paired 0/1 outcomes, never contradicting McNemar.

    Newcombe's hybrid score interval for a paired difference of proportions (Newcombe 1998, method 10; the one
    implementation is `lgmt_tasks.scorers.intervals.newcombe_paired_difference`, which `-T control` uses too). Why not
    a bootstrap: at the per-relation sizes users run (10 to 50 groups) the percentile bootstrap of a paired 0/1
    difference collapses to a point whenever the discordant pairs all go one way ([0, 0] with none, [1, 1] with all),
    and it excludes 0 with only a handful of discordant pairs (it ignores that b + c is small); Newcombe's interval
    needs no random numbers and keeps its coverage at small counts and zero cells.

    Agreement with the exact test beside it. Newcombe's interval is a little less conservative than McNemar's exact
    test: over every paired 2×2 table with n ≤ 60 groups it excludes 0 while the exact p ≥ 0.05 in 4.5% of tables
    (e.g. b = 2, c = 0), and never the other way round (excluding 0 whenever p < 0.05). So where the exact test does
    not reject at `alpha` the interval is widened to reach 0 (its bound on the far side of 0 becomes 0): it can only
    gain coverage, and an interval beside a non-significant p never excludes 0. The tests check the agreement on
    every table up to 40 groups.

    Args:
        first: The first run's 0/1 outcome per group.
        second: The second run's 0/1 outcome on the same groups.
        p_value: McNemar's exact two-sided p-value of the same outcomes (`mcnemar`).
        alpha: The test's level; the interval's confidence is 1 − alpha.

    Returns:
        (low, high); (NaN, NaN) for no groups.

    Raises:
        ValueError: As `discordant`, or if `alpha` is not in (0, 1).
    """
    b, c = discordant(first, second)
    both = sum(1 for x, y in zip(first, second, strict=True) if x == y == 1)
    return interval_of_counts(both, b, c, len(first), p_value=p_value, alpha=alpha)


def interval_of_counts(
    both: int, first_only: int, second_only: int, n: int, *, p_value: float, alpha: float = 0.05
) -> tuple[float, float]:
    """`paired_interval` from the cells of the paired 2×2 table (both, first only, second only, all pairs n).

    Raises:
        ValueError: If `alpha` is not in (0, 1), or the cells do not fit in n.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha}: expected a number between 0 and 1")
    if n == 0:
        return (math.nan, math.nan)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    _, low, high = newcombe_paired_difference(both, first_only, second_only, n, z=z)
    if not p_value < alpha:
        low, high = min(low, 0.0), max(high, 0.0)
    return (low, high)
