"""An anytime-valid confidence sequence for a violation rate: valid however often it is looked at, whenever it stops.

An adaptive run looks at each relation's interval after every group and stops sampling the relation once the interval
settles its question, so a fixed-n interval (Wilson's) would be looked at many times and lose its coverage. A
confidence sequence keeps it: with probability at least 1 − α the true rate lies in the interval at *every* n at once
(Howard, Ramdas, McAuliffe and Sekhon, Ann. Statist. 2021; Waudby-Smith and Ramdas, JRSS-B 2024).

The sequence here is the Beta-binomial mixture. For outcomes X₁ … Xₙ ∈ {0, 1} (1: the group violated its
relation) with S = ΣXᵢ, and a Beta(a, b) mixing distribution over the alternative rate q, the mixture likelihood ratio
against the rate p is

    M_n(p) = B(a + S, b + n − S) / B(a, b) / (p^S (1 − p)^(n − S)),

a nonnegative martingale with mean 1 under p, so by Ville's inequality P(∃n: M_n(p) ≥ 1/α) ≤ α. The confidence
sequence is C_n = {p : M_n(p) < 1/α}. log M_n(p) is convex in p with its minimum at the observed rate S/n, so C_n is
an interval whose ends are the two roots of log M_n(p) = log(1/α), found by bisection. The mixture is the uniform
Beta(1, 1) by default: it asks no guess of the rate and gives a sequence about 1.4 times wider than Wilson's fixed-n
interval at the same n (issue #37's measurement; `benchmarks/adaptive_simulation.py`).

Simultaneous coverage over K relations: each relation's sequence at α / K (Bonferroni), so that all K hold at once
with probability at least 1 − α (`per_relation_alpha`). `tests/adaptive/test_sequences.py` checks the coverage by
simulation.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

BISECTION_STEPS = 60
"""Bisection halvings per end (2⁻⁶⁰ of the unit interval: far below any rate a report prints)."""


@dataclass(frozen=True)
class Interval:
    """A relation's confidence-sequence interval after `n` groups with `violations` violations."""

    n: int
    violations: int
    lower: float
    upper: float

    @property
    def rate(self) -> float:
        """The observed violation rate (NaN before any group)."""
        return self.violations / self.n if self.n else math.nan


def check_alpha(alpha: float) -> None:
    """Refuse an error level outside (0, 1), naming it."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha}: expected a number strictly between 0 and 1 (e.g. 0.05)")


def per_relation_alpha(alpha: float, relations: int) -> float:
    """The level of each relation's sequence so that all `relations` hold at once with probability ≥ 1 − alpha."""
    check_alpha(alpha)
    if relations < 1:
        raise ValueError(f"relations={relations}: expected at least one relation")
    return alpha / relations


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def log_mixture_ratio(p: float, n: int, violations: int, prior: tuple[float, float] = (1.0, 1.0)) -> float:
    """The log of M_n(p), the Beta-binomial mixture likelihood ratio against the rate `p` (see the module docstring)."""
    a, b = prior
    s, f = violations, n - violations
    log_null = (s * math.log(p) if s else 0.0) + (f * math.log1p(-p) if f else 0.0)
    return _log_beta(a + s, b + f) - _log_beta(a, b) - log_null


def _root(low: float, high: float, above_at_low: bool, n: int, violations: int, bound: float) -> float:
    """Bisect for the p in [low, high] where log M_n(p) crosses `bound` (above it on the side `above_at_low` says)."""
    for _ in range(BISECTION_STEPS):
        middle = (low + high) / 2
        if (log_mixture_ratio(middle, n, violations) >= bound) == above_at_low:
            low = middle
        else:
            high = middle
    return low if above_at_low else high


@functools.lru_cache(maxsize=1 << 16)  # a run asks again for every relation after every round
def confidence_sequence(n: int, violations: int, alpha: float) -> Interval:
    """The interval of rates not rejected after `n` groups with `violations` violations, at level `alpha`.

    Returns [0, 1] before any group; the lower end is 0 without a violation and the upper end 1 without a clean group.
    The outer ends are rounded outward only by the bisection's last step, so the interval never shrinks below C_n.

    Raises:
        ValueError: On counts that are not 0 ≤ violations ≤ n, or alpha outside (0, 1).
    """
    check_alpha(alpha)
    if not 0 <= violations <= n:
        raise ValueError(f"violations={violations} of n={n}: expected 0 ≤ violations ≤ n")
    if n == 0:
        return Interval(0, 0, 0.0, 1.0)
    bound = math.log(1 / alpha)
    observed = violations / n
    lower = 0.0 if violations == 0 else _root(0.0, observed, True, n, violations, bound)
    upper = 1.0 if violations == n else _root(observed, 1.0, False, n, violations, bound)
    return Interval(n, violations, lower, upper)
