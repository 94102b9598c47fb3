"""The noise floor's arithmetic: the control outcome of a group, the control rate, and MVR − control's interval."""

from __future__ import annotations

import math

import pytest

from lgmt_tasks.scorers.intervals import newcombe_paired_difference, wilson_interval
from lgmt_tasks.scorers.pairwise import (
    CONTROL_KEYS,
    control_outcome,
    control_rate,
    group_outcome,
    mvr,
    mvr_minus_control,
)


def test_newcombe_reproduces_the_published_example():
    """Newcombe (1998), Table II example (e): a=36, b=12, c=2, d=0; method 10 gives 0.0569 to 0.3404."""
    value, low, high = newcombe_paired_difference(36, 12, 2, 50)
    assert value == pytest.approx(0.2)
    assert (round(low, 4), round(high, 4)) == (0.0569, 0.3404)


def test_newcombe_is_antisymmetric_and_contains_the_difference():
    value, low, high = newcombe_paired_difference(3, 7, 2, 30)
    swapped = newcombe_paired_difference(3, 2, 7, 30)
    assert swapped == pytest.approx((-value, -high, -low))
    assert low < value < high


def test_newcombe_with_no_discordant_pair_straddles_zero():
    value, low, high = newcombe_paired_difference(0, 0, 0, 12)
    assert value == 0.0 and low < 0.0 < high
    assert high == pytest.approx(wilson_interval(0, 12)[1])  # only the second proportion's upper limit


def test_newcombe_rejects_counts_that_do_not_fit_and_gives_nan_for_no_pairs():
    with pytest.raises(ValueError, match="at most n"):
        newcombe_paired_difference(5, 5, 5, 10)
    assert all(math.isnan(x) for x in newcombe_paired_difference(0, 0, 0, 0))


def test_a_control_answer_that_differs_is_a_control_violation_not_a_violation():
    outcome = control_outcome("True", ["True"], "False")
    assert set(outcome) == set(CONTROL_KEYS)
    assert outcome["control_violation"] == 1 and outcome["paired_violation"] == 0
    assert outcome["paired"] == 1 and outcome["paired_control_violation"] == 1
    assert group_outcome("True", "True", ["True"])["violation"] == 0  # the group's own outcome ignores the control


def test_an_unparsed_control_is_unparsed_never_a_violation():
    outcome = control_outcome("True", ["False"], None)
    assert outcome == dict.fromkeys(CONTROL_KEYS, 0)


def test_an_unparsed_followup_keeps_the_control_comparison_but_leaves_the_pairs():
    outcome = control_outcome("True", [None], "False")
    assert outcome["control_parsed"] == 1 and outcome["control_violation"] == 1
    assert outcome["paired"] == 0 and outcome["paired_control_violation"] == 0


def groups(answers: list[tuple[str, str, str | None]]) -> list[dict[str, int]]:
    """Full outcomes (group keys and control keys) of (source, follow-up, control) answers, gold True."""
    return [
        {**group_outcome("True", source, [followup]), **control_outcome(source, [followup], control)}
        for source, followup, control in answers
    ]


def test_rates_and_the_paired_difference_of_a_small_run():
    outcomes = groups(
        [("True", "False", "True")] * 6  # violations, stable control
        + [("True", "True", "False")] * 1  # a control violation only
        + [("True", "True", "True")] * 3
        + [("True", "False", None)] * 2  # unparsed control: in MVR, not in the pairs
    )
    assert mvr(outcomes).value == pytest.approx(8 / 12)
    assert control_rate(outcomes).value == pytest.approx(1 / 10)
    difference = mvr_minus_control(outcomes)
    assert difference.pairs == 10
    assert (difference.mvr, difference.control) == pytest.approx((0.6, 0.1))
    assert difference.value == pytest.approx(0.5)
    assert (difference.value, difference.low, difference.high) == pytest.approx(newcombe_paired_difference(0, 6, 1, 10))
    assert difference.above_control


def test_equal_rates_are_not_above_control():
    outcomes = groups([("True", "False", "False")] * 3 + [("True", "True", "True")] * 5)
    difference = mvr_minus_control(outcomes)
    assert difference.value == 0.0 and not difference.above_control


def test_metrics_of_a_run_without_control_keys_name_the_option():
    with pytest.raises(ValueError, match="control=true"):
        control_rate([group_outcome("True", "True", ["True"])])
