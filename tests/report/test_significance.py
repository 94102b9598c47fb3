"""McNemar's exact test, the paired bootstrap and Holm's correction against values worked out here by other means."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from lgmt_tasks.report.significance import discordant, holm, mcnemar, mcnemar_exact, paired_bootstrap, quantile


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


def test_paired_bootstrap_constant_differences_and_determinism():
    # every group differs by -1: every resample has mean -1
    assert paired_bootstrap([0] * 12, [1] * 12) == (-1.0, -1.0)
    assert paired_bootstrap([1, 0, 1, 1], [1, 0, 1, 1]) == (0.0, 0.0)
    first, second = [1, 0, 1, 1, 0, 0, 1, 0] * 5, [0, 0, 1, 0, 0, 1, 1, 1] * 5
    low, high = paired_bootstrap(first, second, seed=3)
    assert (low, high) == paired_bootstrap(first, second, seed=3)
    observed = (sum(first) - sum(second)) / len(first)
    assert low < observed < high
    assert all(math.isnan(v) for v in paired_bootstrap([], []))


def test_paired_bootstrap_covers_like_the_normal_interval():
    # 30 groups +1, 10 groups -1, 60 ties: mean difference 0.2, paired SD sqrt(0.4 - 0.04) = 0.6, SE 0.06.
    first = [1] * 30 + [0] * 10 + [0] * 60
    second = [0] * 30 + [1] * 10 + [0] * 60
    low, high = paired_bootstrap(first, second)
    assert low == pytest.approx(0.2 - 1.96 * 0.06, abs=0.025)
    assert high == pytest.approx(0.2 + 1.96 * 0.06, abs=0.025)


def test_quantile_interpolates():
    assert quantile([0.0, 1.0, 2.0, 3.0], 0.5) == pytest.approx(1.5)
    assert quantile([5.0], 0.975) == 5.0
