"""McNemar's exact test, the paired interval and Holm's correction against values worked out here by other means."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from lgmt_tasks.report.significance import (
    discordant,
    holm,
    interval_of_counts,
    mcnemar,
    mcnemar_exact,
    paired_interval,
)
from lgmt_tasks.scorers.intervals import newcombe_paired_difference


def binomial_tail_by_hand(n: int, k: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2), from Pascal's triangle (no math.comb), exactly."""
    row = [1]
    for _ in range(n):
        row = [a + b for a, b in zip([0, *row], [*row, 0], strict=True)]
    return float(Fraction(sum(row[: k + 1]), 2**n))


@pytest.mark.parametrize(("b", "c"), [(0, 10), (10, 0), (3, 9), (9, 3), (1, 1), (7, 8), (2, 20), (40, 25)])
def test_mcnemar_exact_is_twice_the_binomial_tail(b, c):
    expected = min(1.0, 2 * binomial_tail_by_hand(b + c, min(b, c)))
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_exact_known_values():
    # all 10 discordant pairs one way: 2 / 2^10
    assert mcnemar_exact(0, 10) == pytest.approx(2 / 1024)
    # b=3, c=9: 2 * (1 + 12 + 66 + 220) / 4096 = 598 / 4096 = 0.14599609375
    assert mcnemar_exact(3, 9) == pytest.approx(598 / 4096)
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(5, 5) == 1.0
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 2)


def test_mcnemar_exact_large_counts_do_not_overflow():
    p = mcnemar_exact(480, 520)
    assert 0.2 < p < 0.25  # normal approximation: z = 39 / sqrt(1000) = 1.23, two-sided 0.217
    assert mcnemar_exact(0, 1000) == 2 * 0.5**1000 > 0  # exact integers, one rounding at the final division


def test_discordant_counts_and_checks():
    first, second = [1, 1, 0, 0, 1, 0], [0, 1, 1, 0, 0, 1]
    assert discordant(first, second) == (2, 2)
    result = mcnemar(first, second)
    assert (result.b, result.c, result.p_value) == (2, 2, 1.0)
    with pytest.raises(ValueError, match="different lengths"):
        discordant([1], [1, 0])
    with pytest.raises(ValueError, match="paired outcome 1"):
        discordant([1, 2], [1, 0])


def test_holm_on_a_textbook_example():
    # Holm (1979)-style example: p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005, 0.01, 0.03, 0.04;
    # times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04; running maximum: 0.02, 0.03, 0.06, 0.06.
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p < 0.05 for p in adjusted] == [True, False, False, True]


def test_holm_caps_at_one_and_skips_missing_tests():
    adjusted = holm([0.5, math.nan, 0.4])
    # m = 2, not 3: 0.4 * 2 = 0.8, then max(0.8, 0.5 * 1) = 0.8
    assert adjusted[0] == pytest.approx(0.8) and adjusted[2] == pytest.approx(0.8)
    assert math.isnan(adjusted[1])
    assert holm([0.6, 0.7]) == [1.0, 1.0]  # 0.6 * 2 = 1.2, capped
    assert holm([]) == []


def test_paired_interval_at_ten_groups_is_never_a_point_and_never_beside_a_non_significant_test():
    # Issue #28: at 10 groups a bootstrap gave [1, 1] for 10 discordant pairs one way and excluded 0 for a handful
    # of them where McNemar said p = 0.0625.
    all_one_way = paired_interval([1] * 10, [0] * 10, p_value=mcnemar_exact(10, 0))
    assert 0.0 < all_one_way[0] < all_one_way[1] == 1.0
    assert all_one_way == pytest.approx(newcombe_paired_difference(0, 10, 0, 10)[1:])
    none_discordant = paired_interval([1, 0] * 5, [1, 0] * 5, p_value=1.0)
    assert none_discordant[0] < 0.0 < none_discordant[1]
    five = [1] * 5 + [0] * 5, [0] * 10  # b = 5, c = 0: p = 2 / 32 = 0.0625
    p = mcnemar(*five).p_value
    assert p == pytest.approx(0.0625)
    low, high = paired_interval(*five, p_value=p)
    assert newcombe_paired_difference(0, 5, 0, 10)[1] > 0.0  # Newcombe alone would exclude 0 here
    assert low == 0.0 < high
    assert all(math.isnan(v) for v in paired_interval([], [], p_value=math.nan))


def test_paired_interval_agrees_with_the_exact_test_on_every_table_up_to_40_groups():
    stats = pytest.importorskip("scipy.stats")
    checked = 0
    for n in range(1, 41):
        for b in range(n + 1):
            for c in range(n + 1 - b):
                p = mcnemar_exact(b, c)
                if b + c and (b + c) % 7 == 0:  # spot check against scipy's binomial test
                    assert p == pytest.approx(stats.binomtest(b, b + c, 0.5).pvalue, rel=1e-9)
                for both in range(n + 1 - b - c):
                    low, high = interval_of_counts(both, b, c, n, p_value=p)
                    assert low <= (b - c) / n <= high
                    assert (low > 0 or high < 0) == (p < 0.05), (n, both, b, c, p, low, high)
                    checked += 1
    assert checked > 100_000
