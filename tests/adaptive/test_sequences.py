"""The confidence sequence keeps its coverage however often it is looked at (issue #37), checked by simulation.

2,000 simulated runs, each of four relations at rates 0.02, 0.10, 0.30 and 0.50, each looked at after every one of
300 groups: the share of runs in which every relation's interval holds its true rate at every look must be at least
1 − alpha (simultaneous over relations and over stopping times). A Wilson interval looked at the same way does not
keep its level; that contrast is what the sequence is for, and it is checked too, so that the simulation is shown to
be able to fail.
"""

from __future__ import annotations

import math
import random

import pytest

from lgmt_tasks.adaptive.sequences import (
    check_alpha,
    confidence_sequence,
    log_mixture_ratio,
    per_relation_alpha,
)
from lgmt_tasks.scorers.intervals import wilson_interval

RATES = (0.02, 0.10, 0.30, 0.50)
RUNS = 2000
LOOKS = 300
ALPHA = 0.05


def covered_at_every_look(rng: random.Random, interval: object) -> bool:
    """Whether, in one simulated run, every relation's interval holds its rate after every group."""
    for rate in RATES:
        violations = 0
        for n in range(1, LOOKS + 1):
            violations += rng.random() < rate
            low, high = interval(n, violations)  # type: ignore[operator]
            if not low <= rate <= high:
                return False
    return True


def sequence(n: int, violations: int) -> tuple[float, float]:
    found = confidence_sequence(n, violations, per_relation_alpha(ALPHA, len(RATES)))
    return found.lower, found.upper


def test_the_sequence_covers_every_rate_at_every_look_simultaneously() -> None:
    rng = random.Random(37)
    coverage = sum(covered_at_every_look(rng, sequence) for _ in range(RUNS)) / RUNS
    assert coverage >= 1 - ALPHA, coverage


def test_a_fixed_n_interval_looked_at_every_group_does_not() -> None:
    z = 2.4977  # Wilson at the same per-relation level, 1 - 0.0125 / 2
    rng = random.Random(37)
    coverage = sum(covered_at_every_look(rng, lambda n, v: wilson_interval(v, n, z=z)) for _ in range(RUNS // 4))
    assert coverage / (RUNS // 4) < 1 - ALPHA


@pytest.mark.parametrize(("n", "violations"), [(1, 0), (1, 1), (10, 3), (200, 20), (500, 499)])
def test_the_ends_are_where_the_mixture_ratio_crosses_one_over_alpha(n: int, violations: int) -> None:
    alpha = 0.01
    found = confidence_sequence(n, violations, alpha)
    bound = math.log(1 / alpha)
    assert found.lower <= violations / n <= found.upper
    for end, inside in ((found.lower, found.lower + 1e-6), (found.upper, found.upper - 1e-6)):
        if 0 < end < 1:
            assert log_mixture_ratio(end, n, violations) >= bound - 1e-9  # rejected: outside
            assert log_mixture_ratio(inside, n, violations) < bound  # just inside: kept


def test_more_groups_narrow_the_interval_and_no_group_is_the_whole_range() -> None:
    assert (confidence_sequence(0, 0, 0.05).lower, confidence_sequence(0, 0, 0.05).upper) == (0.0, 1.0)
    widths = [
        confidence_sequence(n, n // 10, 0.05).upper - confidence_sequence(n, n // 10, 0.05).lower
        for n in (10, 100, 1000)
    ]
    assert widths == sorted(widths, reverse=True)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5])
def test_a_bad_level_is_refused_naming_it(alpha: float) -> None:
    with pytest.raises(ValueError, match=f"alpha={alpha}"):
        check_alpha(alpha)


def test_impossible_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="violations=5 of n=3"):
        confidence_sequence(3, 5, 0.05)
