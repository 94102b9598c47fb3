"""`lgmt plan --adaptive`: the expected groups of an adaptive run at planted rates, beside the fixed-n design (#37)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from lgmt_tasks.adaptive.design import Settings
from lgmt_tasks.adaptive.simulate import fixed_n, simulate
from lgmt_tasks.lgmt.plan import plan_command

RATES = (0.0, 0.0, 0.3, 0.5)


def test_threshold_runs_decide_every_relation_correctly_with_fewer_groups_than_fixed_n() -> None:
    settings = Settings("threshold")
    result = simulate(RATES, settings, pool=10_000, runs=100, seed=1)
    assert result.wrong == 0 and result.undecided == 0
    assert result.per_relation[0] > result.per_relation[2] > result.per_relation[3]  # clean relations take longest
    assert result.groups < fixed_n(RATES, settings) * len(RATES)


def test_a_small_pool_leaves_the_relation_undecided_never_guessed() -> None:
    result = simulate((0.1,), Settings("threshold"), pool=20, runs=20, seed=1)
    assert result.per_relation[0] <= 20 and result.undecided >= 0.5 and result.wrong == 0


def test_weakest_finds_the_highest_rate() -> None:
    result = simulate((0.05, 0.1, 0.45), Settings("weakest"), pool=10_000, runs=20, seed=2)
    assert result.wrong == 0 and result.undecided == 0


def test_the_command_prints_the_adaptive_and_the_fixed_n_plan() -> None:
    out = CliRunner().invoke(plan_command, ["--adaptive", "threshold", "--rates", "0,0.3,0.5", "--runs", "20"])
    assert out.exit_code == 0, out.output
    expected = re.search(r": ([\d,]+) groups expected \(([\d,]+) calls", out.output)
    assert expected and abs(int(expected.group(2).replace(",", "")) - 2 * int(expected.group(1).replace(",", ""))) <= 1
    assert "fixed-n design for the same question" in out.output


def test_bad_rates_are_refused_in_one_line() -> None:
    out = CliRunner().invoke(plan_command, ["--adaptive", "threshold", "--rates", "0.1,abc"])
    assert out.exit_code == 2 and "--rates" in out.output and "Traceback" not in out.output
