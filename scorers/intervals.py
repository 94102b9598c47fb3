"""Confidence intervals of proportions, shared by every suite's reports (and by sample-size planning).

Pure arithmetic with no framework imports, so reports, lm-eval aggregations and `evaluate` modules can all use it.
"""

from __future__ import annotations

import math


def wilson_interval(successes: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (NaN, NaN) when n is 0.

    Args:
        successes: Number of successes (may be fractional after epoch reduction).
        n: Number of trials.
        z: Normal quantile of the confidence level.

    Returns:
        The lower and upper bounds.
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe_paired_difference(
    both: float, first_only: float, second_only: float, n: float, z: float = 1.959964
) -> tuple[float, float, float]:
    """The difference of two paired proportions, p₁ − p₂, with Newcombe's hybrid score interval (95% by default).

    Newcombe (1998), "Improved confidence intervals for the difference between binomial proportions based on
    paired data", Statistics in Medicine 17: 2635-2650, method 10: each proportion gets its Wilson interval, and
    the two are combined with the correlation φ of the paired 2×2 table, so that the pairing (the same group
    answered twice) narrows the interval when the two events go together. Why this method and not a bootstrap:
    it needs no random numbers (the same counts always give the same interval), it stays inside [−1, 1], and it
    keeps its coverage at the small counts and zero cells a per-relation noise floor produces (greedy decoding
    gives a control rate of exactly 0, where a bootstrap of the difference collapses to a point and a Wald
    interval to zero width).

    The cells may be fractional (epoch means of 0/1 indicators): the formula is then applied to the table of
    effective counts, the group staying the unit.

    Args:
        both: Pairs in which both events occurred (a: a violation and a control violation).
        first_only: Pairs with the first event only (b).
        second_only: Pairs with the second event only (c).
        n: All pairs (a + b + c + d).
        z: Normal quantile of the confidence level.

    Returns:
        (p₁ − p₂, lower, upper) with p₁ = (a + b) / n and p₂ = (a + c) / n; NaN three times when n is 0.

    Raises:
        ValueError: If a cell is negative or the cells add up to more than n.
    """
    a, b, c = both, first_only, second_only
    if min(a, b, c, n) < 0 or a + b + c > n * (1 + 1e-12) + 1e-9:
        raise ValueError(f"paired counts must be non-negative and add up to at most n; got a={a}, b={b}, c={c}, n={n}")
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    d = max(0.0, n - a - b - c)
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_interval(a + b, n, z)
    l2, u2 = wilson_interval(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins > 0 else 0.0
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    difference = p1 - p2
    return (difference, max(-1.0, difference - below), min(1.0, difference + above))
