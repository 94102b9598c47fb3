"""`lgmt plan`: the smallest groups per relation for a Wilson interval width, checked against the interval itself."""

from __future__ import annotations

import math
import re

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.plan import (
    PAPER_PER_MR,
    groups_needed,
    mcnemar_exact_groups_needed,
    mcnemar_exact_power,
    mcnemar_groups_needed,
    wilson_width,
    z_of,
)
from lgmt_tasks.scorers.intervals import wilson_interval


@pytest.mark.parametrize(
    ("rate", "width", "confidence"),
    [(0.1, 0.03, 0.95), (0.5, 0.1, 0.95), (0.02, 0.01, 0.95), (0.3, 0.05, 0.99), (0.0, 0.02, 0.95), (0.9, 0.2, 0.9)],
)
def test_groups_needed_is_the_smallest_n_reaching_the_width(rate, width, confidence):
    n = groups_needed(rate, width, confidence)
    assert wilson_width(rate, n, confidence) <= width < wilson_width(rate, n - 1, confidence)


def test_width_is_the_shared_wilson_interval():
    # the 95% width at rate 0.1 over 200 groups, from the shared interval with its own default z
    low, high = wilson_interval(20, 200)
    assert wilson_width(0.1, PAPER_PER_MR) == pytest.approx(high - low, abs=1e-6)
    # by hand: centre (0.1 + z^2/400) / (1 + z^2/200), half-width z sqrt(0.09/200 + z^2/160000) / (1 + z^2/200)
    z = 1.959964
    half = z * math.sqrt(0.1 * 0.9 / 200 + z * z / (4 * 200 * 200)) / (1 + z * z / 200)
    assert wilson_width(0.1, 200) == pytest.approx(2 * half, abs=1e-6)
    assert z_of(0.95) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        z_of(1.0)


def test_groups_needed_rejects_bad_input():
    with pytest.raises(ValueError, match="rate 1.5"):
        groups_needed(1.5, 0.03)
    with pytest.raises(ValueError, match="width 0"):
        groups_needed(0.1, 0.0)


def test_cli_prints_n_the_paper_width_and_a_given_width():
    result = CliRunner().invoke(main, ["plan", "--rate", "0.1", "--width", "0.03", "--per-mr", "500"])
    assert result.exit_code == 0, result.output
    n = groups_needed(0.1, 0.03)
    assert f"{n:,} groups per relation" in result.output
    paper = re.search(r"the paper's 200 groups per relation: 95% Wilson interval of width (\d\.\d+)", result.output)
    assert paper and float(paper.group(1)) == pytest.approx(wilson_width(0.1, 200), abs=5e-5)
    given = re.search(r"--per-mr 500 groups per relation: 95% Wilson interval of width (\d\.\d+)", result.output)
    assert given and float(given.group(1)) == pytest.approx(wilson_width(0.1, 500), abs=5e-5)
    bad = CliRunner().invoke(main, ["plan", "--rate", "2", "--width", "0.03"])
    assert bad.exit_code == 2 and "--rate" in bad.output


def test_mcnemar_sizes_reproduce_the_issue_and_connors_formula():
    # Issue #28: about 312 groups per relation for a 5-point MVR difference, 595 after Holm over 20 relations
    # (discordant share 0.10, power 0.8, two-sided 5%; Holm's worst case is Bonferroni's level alpha / m).
    assert mcnemar_groups_needed(0.05, 0.10, 0.8, 0.05) == 312
    assert mcnemar_groups_needed(0.05, 0.10, 0.8, 0.05, relations=20) == 595
    stats = pytest.importorskip("scipy.stats")
    z, zb = stats.norm.ppf(1 - 0.05 / 2), stats.norm.ppf(0.8)
    by_hand = (z * math.sqrt(0.1) + zb * math.sqrt(0.1 - 0.05**2)) ** 2 / 0.05**2
    assert mcnemar_groups_needed(0.05, 0.10, 0.8, 0.05) == math.ceil(by_hand)
    with pytest.raises(ValueError, match="discordant share 0.02"):
        mcnemar_groups_needed(0.05, 0.02, 0.8, 0.05)


def scipy_exact_power(n: int, difference: float, discordant: float, level: float) -> float:
    """The exact test's power by brute force with scipy: every discordant count, every split, `binomtest`'s p."""
    stats = pytest.importorskip("scipy.stats")
    share = (discordant + difference) / (2 * discordant)
    total = 0.0
    for d in range(n + 1):
        weight = stats.binom.pmf(d, n, discordant)
        if weight < 1e-15:
            continue
        splits = range(d + 1)
        rejected = [b for b in splits if d and stats.binomtest(b, d, 0.5).pvalue < level]
        total += weight * sum(stats.binom.pmf(b, d, share) for b in rejected)
    return total


@pytest.mark.parametrize(("n", "relations"), [(40, 1), (312, 1), (337, 1), (120, 20)])
def test_exact_power_matches_scipys_binomial_test(n, relations):
    expected = scipy_exact_power(n, 0.05 if n > 100 else 0.2, 0.10 if n > 100 else 0.3, 0.05 / relations)
    found = mcnemar_exact_power(n, 0.05 if n > 100 else 0.2, 0.10 if n > 100 else 0.3, 0.05, relations)
    assert found == pytest.approx(expected, abs=1e-9)


def test_cli_prints_the_power_sizes():
    result = CliRunner().invoke(main, ["plan", "--difference", "0.05", "--relations", "20"])
    assert result.exit_code == 0, result.output
    assert "595 groups per relation (Connor's formula" in result.output
    exact = mcnemar_exact_groups_needed(0.05, 0.10, 0.8, 0.05, 20)
    assert f"{exact:,} groups per relation for McNemar's exact test" in result.output
    assert mcnemar_exact_power(exact, 0.05, 0.10, 0.05, 20) >= 0.8 > mcnemar_exact_power(595, 0.05, 0.10, 0.05, 20)
    neither = CliRunner().invoke(main, ["plan"])
    assert neither.exit_code == 2 and "--difference" in neither.output
