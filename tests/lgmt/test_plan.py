"""`lgmt plan`: the smallest groups per relation for a Wilson interval width, checked against the interval itself."""

from __future__ import annotations

import math
import re

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.plan import PAPER_PER_MR, groups_needed, wilson_width, z_of
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
