"""The noise floor's arithmetic: the control outcome of a group, the control rate, and MVR − control's interval."""

from __future__ import annotations

import math

import pytest
from inspect_ai.scorer import SampleScore, Score

from lgmt_tasks.scorers.intervals import newcombe_one_sided_p, newcombe_paired_difference, wilson_interval
from lgmt_tasks.scorers.multiplicity import holm
from lgmt_tasks.scorers.pairwise import (
    CONTROL_KEYS,
    above_control_holm,
    control_outcome,
    control_rate,
    group_outcome,
    mvr,
    mvr_minus_control,
)
from lgmt_tasks.scorers.pairwise_metrics import control_metrics, holm_breakdown


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


def test_newcombe_with_agreeing_runs_is_not_a_point():
    # Two members that agree on every group (b = c = 0, both concordant cells filled): the plain correlation is 1 and
    # method 10 gave [0, 0]; Newcombe's corrected φ keeps the interval open around 0.
    value, low, high = newcombe_paired_difference(5, 0, 0, 10)
    assert value == 0.0 and low < -0.1 and high > 0.1


def test_the_one_sided_p_value_is_the_test_the_interval_inverts():
    for n in range(1, 21):
        for b in range(n + 1):
            for c in range(n + 1 - b):
                for both in range(n + 1 - b - c):
                    _, low, high = newcombe_paired_difference(both, b, c, n)
                    p = newcombe_one_sided_p(both, b, c, n)
                    assert (p < 0.025) == (low > 0) and (p > 0.975) == (high < 0), (n, both, b, c, p)
    assert newcombe_one_sided_p(3, 0, 0, 10) == 0.5 and math.isnan(newcombe_one_sided_p(0, 0, 0, 0))


def relation_scores(relations: int, answers: list[tuple[str, str, str | None]]) -> list[SampleScore]:
    """The same groups' scores under `relations` relations (`MR-1`, `MR-2`, ...)."""
    return [
        SampleScore(
            score=Score(value=outcome),
            sample_id=f"{r}-{i}",
            sample_metadata={"mr": f"MR-{r}"},
        )
        for r in range(1, relations + 1)
        for i, outcome in enumerate(groups(answers))
    ]


def test_above_control_per_relation_is_holm_corrected_across_relations():
    # Issue #28: each of 20 relations just above the control at 2.5% one-sided (6 violations, 0 control flips in
    # 12 pairs); tested one by one every relation was "above", with no correction across the 20.
    answers = [("True", "False", "True")] * 6 + [("True", "True", "True")] * 6
    one = mvr_minus_control(groups(answers))
    assert one.above_control and 0.0 < one.p_value < 0.025 and 20 * one.p_value > 0.025
    metrics = {}
    for logged in control_metrics("repeat"):
        value = logged(relation_scores(20, answers))
        metrics.update(value if isinstance(value, dict) else {})
    verdicts = {k: v for k, v in metrics.items() if k.startswith("above_control_")}
    assert len(verdicts) == 20 and set(verdicts.values()) == {0.0}  # not one survives Holm over 20 relations
    assert all(metrics[f"excess_mvr_low_MR-{r}"] > 0 for r in range(1, 21))  # each interval alone is above 0
    strong = [("True", "False", "True")] * 12  # 12 of 12: p far below 0.025 / 20
    scores = relation_scores(1, strong) + relation_scores(20, answers)[len(answers) :]
    found = holm_breakdown("mr", "above_control")(scores)
    assert found["above_control_MR-1"] == 1.0 and found["above_control_MR-2"] == 0.0


def test_above_control_holm_adjusts_like_compare():
    differences = {f"MR-{r}": mvr_minus_control(groups([("True", "False", "True")] * (r + 3))) for r in range(3)}
    verdicts = above_control_holm(differences)
    ps = [d.p_value for d in differences.values()]
    assert [p for p, _ in verdicts.values()] == pytest.approx(holm(ps))
    assert ps[0] > ps[1] > ps[2]  # more violating groups, smaller p: Holm multiplies by 1, 2, 3, smallest first
    step = [3 * ps[2], max(3 * ps[2], 2 * ps[1])]
    assert [p for p, _ in verdicts.values()] == pytest.approx([max(step[1], ps[0]), step[1], step[0]])
