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
    answered twice) narrows the interval when the two events go together. φ is Newcombe's corrected estimate
    (`_corrected_phi`, as in Fagerland, Lydersen and Laake's "Newcombe square-and-add" interval): with the plain
    φ a table with no discordant pair and both concordant cells filled (two runs that agree on every group) has
    φ = 1 and a zero-width interval [0, 0]. Why this method and not a bootstrap:
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
    phi = _corrected_phi(a * d - b * c, n, margins)
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    difference = p1 - p2
    return (difference, max(-1.0, difference - below), min(1.0, difference + above))


def _corrected_phi(cross: float, n: float, margins: float) -> float:
    """Newcombe's corrected correlation of a paired 2×2 table from ad − bc (`cross`), n and the margins' product.

    φ = (ad − bc − n/2) / √margins when ad − bc > n/2, 0 when 0 ≤ ad − bc ≤ n/2, (ad − bc) / √margins when
    ad − bc < 0, and 0 when a margin is empty. The shrinkage towards 0 of a positive correlation keeps φ below 1
    (else the interval of a table without discordant pairs has zero width).
    """
    if margins <= 0:
        return 0.0
    if cross > n / 2:
        return (cross - n / 2) / math.sqrt(margins)
    return cross / math.sqrt(margins) if cross < 0 else 0.0


def newcombe_one_sided_p(both: float, first_only: float, second_only: float, n: float) -> float:
    """The one-sided p-value of p₁ > p₂ that Newcombe's paired interval implies (the test it inverts).

    The smallest level at which the interval's lower bound reaches 0: with z* the normal quantile at which
    `newcombe_paired_difference(..., z=z*)` has lower bound 0, p = P(Z > z*). So p < 0.025 exactly when the 95%
    interval lies above 0, and Holm's correction (`multiplicity.holm`) can be applied to a family of such tests. The
    lower bound falls as z grows (each Wilson interval widens), so z* is found by bisection. A difference of 0 gives
    0.5; a negative one gives P(Z > −z**) > 0.5, with z** where the upper bound reaches 0.

    Returns:
        The p-value; NaN when n is 0.
    """
    value, _, _ = newcombe_paired_difference(both, first_only, second_only, n)
    if math.isnan(value):
        return math.nan
    if value == 0:
        return 0.5
    bound = 1 if value > 0 else 2  # the bound that moves towards 0 as z grows

    def crosses(z: float) -> bool:
        limit = newcombe_paired_difference(both, first_only, second_only, n, z)[bound]
        return limit <= 0 if value > 0 else limit >= 0

    low, high = 0.0, 1.0
    while not crosses(high):
        if high > 64:
            return 0.0 if value > 0 else 1.0  # beyond any level a float can tell apart from 0 or 1
        low, high = high, high * 2
    for _ in range(80):
        middle = (low + high) / 2
        low, high = (low, middle) if crosses(middle) else (middle, high)
    tail = 0.5 * math.erfc(high / math.sqrt(2))
    return tail if value > 0 else 1 - tail
