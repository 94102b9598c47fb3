"""Circular-evaluation arithmetic: ACC, Circular, PartialCircular (Eq. 2), PC_α, and the `evaluate` modules."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgmt_tasks.rotation import rotation_order, to_original, to_position
from lgmt_tasks.scorers.divlogiceval_arithmetic import (
    NO_ANSWER_INDEX,
    accuracy,
    circular,
    correct_count,
    entropy,
    instance_mean,
    instance_outcome,
    mean,
    metric_values,
    partial_circular,
    stderr,
    summarize,
)

predictions = st.lists(st.integers(min_value=-1, max_value=3), min_size=4, max_size=4)
golds = st.integers(min_value=0, max_value=3)
alphas = st.floats(min_value=0.0, max_value=1.0)


# --------------------------------------------------------------------------------------------------- the paper


def test_paper_example_is_0_125():
    # §2.2: predictions o1, o1, o3, o4 for the four mutants, gold o1: c = 2, p = (1/2, 0, 1/4, 1/4).
    assert partial_circular([0, 0, 2, 3], 0) == 0.125


def test_rotations_are_the_papers_mutants():
    # o1o2o3o4, o2o3o4o1, o3o4o1o2, o4o1o2o3
    assert [rotation_order(r) for r in range(4)] == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    for r in range(4):
        for original in range(4):
            assert to_original(to_position(original, r), r) == original
            assert rotation_order(r)[to_position(original, r)] == original


@pytest.mark.parametrize(
    ("preds", "gold", "acc", "cir", "c"),
    [
        ([0, 0, 0, 0], 0, 1, 1, 4),
        ([0, 0, 2, 3], 0, 1, 0, 2),
        ([1, 0, 0, 0], 0, 0, 0, 3),
        ([1, 1, 1, 1], 0, 0, 0, 0),
        ([NO_ANSWER_INDEX, 2, 2, 2], 2, 0, 0, 3),
    ],
)
def test_accuracy_circular_and_count(preds, gold, acc, cir, c):
    assert accuracy(preds, gold) == acc
    assert circular(preds, gold) == cir
    assert correct_count(preds, gold) == c


def test_edge_cases_of_appendix_g():
    assert partial_circular([2, 2, 2, 2], 2) == 1.0  # perfect
    assert partial_circular([0, 1, 2, 3], 0) == 0.0  # random guessing: uniform, maximal entropy
    assert partial_circular([0, 1, 2, 3], 0, alpha=0.0) == 0.25  # ... but PC_0 keeps the one correct answer
    assert partial_circular([1, 1, 1, 1], 0) == 0.0  # complete failure


def test_three_right_one_wrong_by_hand():
    expected = 3 / 4 * (1 + 3 / 4 * math.log(3 / 4, 4) + 1 / 4 * math.log(1 / 4, 4))
    assert partial_circular([0, 0, 0, 3], 0) == pytest.approx(expected, abs=1e-15)
    # unparsed answers are one wrong outcome: same value
    assert partial_circular([0, 0, 0, NO_ANSWER_INDEX], 0) == partial_circular([0, 0, 0, 3], 0)


def test_all_unparsed_answers_form_one_outcome():
    # c = 2, p = (1/2 gold, 1/2 "no answer"): H = 1/2
    assert partial_circular([0, NO_ANSWER_INDEX, 0, NO_ANSWER_INDEX], 0) == 0.5 * 0.5
    assert entropy([NO_ANSWER_INDEX] * 4) == 0.0


@pytest.mark.parametrize(
    ("preds", "gold", "message"),
    [([0, 0, 0], 0, "expected 4 predictions"), ([0, 0, 0, 4], 0, "option indices"), ([0, 0, 0, 0], 4, "gold")],
)
def test_malformed_input_is_refused(preds, gold, message):
    with pytest.raises(ValueError, match=message):
        partial_circular(preds, gold)


@pytest.mark.parametrize("alpha", [-0.1, 1.5, math.nan])
def test_alpha_outside_unit_interval_is_refused(alpha):
    with pytest.raises(ValueError, match="alpha"):
        partial_circular([0, 0, 0, 0], 0, alpha)


# ------------------------------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(predictions, golds, alphas)
def test_range_is_unit_interval(preds, gold, alpha):
    value = partial_circular(preds, gold, alpha)
    assert 0.0 <= value <= 1.0
    assert value <= correct_count(preds, gold) / 4 + 1e-12  # the penalty only ever removes credit


@settings(max_examples=300, deadline=None)
@given(predictions, golds, alphas)
def test_one_only_for_four_correct_identical_answers(preds, gold, alpha):
    value = partial_circular(preds, gold, alpha)
    assert (value == 1.0) == (preds == [gold] * 4)


@settings(max_examples=300, deadline=None)
@given(predictions, golds)
def test_pc_0_is_c_over_4(preds, gold):
    assert partial_circular(preds, gold, alpha=0.0) == correct_count(preds, gold) / 4


@settings(max_examples=200, deadline=None)
@given(predictions, golds, st.permutations(range(4)))
def test_partial_circular_ignores_the_order_of_rotations(preds, gold, order):
    assert partial_circular(preds, gold) == pytest.approx(partial_circular([preds[i] for i in order], gold))


@settings(max_examples=200, deadline=None)
@given(predictions, golds)
def test_pc_matches_eq_2_written_out(preds, gold):
    c = sum(p == gold for p in preds)
    frequencies = [k / 4 for k in Counter(preds).values()]
    eq2 = c / 4 * (1 + sum(p * math.log(p, 4) for p in frequencies))
    assert partial_circular(preds, gold) == pytest.approx(eq2, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(predictions, golds, alphas)
def test_pc_alpha_interpolates_linearly(preds, gold, alpha):
    full, none = partial_circular(preds, gold, 1.0), partial_circular(preds, gold, 0.0)
    assert partial_circular(preds, gold, alpha) == pytest.approx(alpha * full + (1 - alpha) * none, abs=1e-12)


# ---------------------------------------------------------------------------------------------------- summary


def test_instance_outcome_and_summary():
    assert instance_outcome([0, 0, 2, NO_ANSWER_INDEX], 0) == {
        "acc": 1.0,
        "circular": 0.0,
        "partial_circular": 0.125,
        "rotation_acc": 0.5,
        "unparsed": 0.25,
        "original_parsed": 1.0,
    }
    assert instance_outcome([NO_ANSWER_INDEX, 0, 0, 0], 0)["original_parsed"] == 0.0
    summary = summarize([[0, 0, 0, 0], [0, 0, 2, 3]], [0, 0])
    assert summary["acc"] == 1.0 and summary["circular"] == 0.5
    assert summary["partial_circular"] == (1.0 + 0.125) / 2
    assert summary["rotation_acc"] == 0.75 and summary["unparsed_rate"] == 0.0
    assert summary["circular_stderr"] == pytest.approx(0.5)
    assert math.isnan(summarize([], [])["acc"])
    # an unanswered original order is wrong in ACC; acc_parsed, named apart, leaves it out
    unanswered = summarize([[0, 0, 0, 0], [NO_ANSWER_INDEX] * 4], [0, 0])
    assert unanswered["acc"] == 0.5 and unanswered["acc_parsed"] == 1.0 and unanswered["unparsed_rate"] == 0.5
    with pytest.raises(ValueError, match="2 predictions but 1 references"):
        summarize([[0] * 4, [0] * 4], [0])


def test_instance_mean_is_the_mean_and_its_standard_error():
    outcomes = [instance_outcome(p, 0) for p in ([0, 0, 0, 0], [0, 0, 2, 3], [1, NO_ANSWER_INDEX, 0, 0])]
    for name in ("acc", "circular", "partial_circular", "rotation_acc", "unparsed_rate"):
        values = metric_values(outcomes, name)
        estimate = instance_mean(outcomes, name)
        assert (estimate.value, estimate.stderr) == (mean(values), stderr(values))
        assert (estimate.numerator, estimate.denominator) == (math.fsum(values), 3.0)
    empty = instance_mean([], "acc")
    assert math.isnan(empty.value) and math.isnan(empty.stderr)
    with pytest.raises(ValueError, match="outcome 0 has no 'circular'"):
        instance_mean([{"acc": 1.0}], "circular")


# ---------------------------------------------------------------------------------------- evaluate modules


@pytest.fixture(scope="module")
def modules():
    evaluate = pytest.importorskip("evaluate")
    from lgmt_tasks.metrics import metric_path

    return evaluate.load(metric_path("partial_circular")), evaluate.load(metric_path("circular"))


def test_evaluate_modules_load_from_their_local_path_and_give_the_papers_example(modules):
    pc, cir = modules
    assert pc.compute(predictions=[[0, 0, 2, 3]], references=[0]) == {"partial_circular": 0.125}
    assert pc.compute(predictions=[[0, 0, 2, 3]], references=[0], alpha=0.0) == {"partial_circular": 0.5}
    assert cir.compute(predictions=[[0, 0, 0, 0], [0, 0, 2, 3]], references=[0, 0]) == {
        "circular": 0.5,
        "accuracy": 1.0,
    }


def test_evaluate_modules_agree_with_the_pure_functions(modules):
    pc, cir = modules
    preds = [[0, 0, 2, 3], [1, 1, 1, 1], [-1, 2, 2, 2], [3, 0, 3, 3], [0, 1, 2, 3]]
    refs = [0, 1, 2, 3, 3]
    summary = summarize(preds, refs, alpha=0.3)
    assert pc.compute(predictions=preds, references=refs, alpha=0.3)["partial_circular"] == pytest.approx(
        summary["partial_circular"], abs=1e-15
    )
    result = cir.compute(predictions=preds, references=refs)
    assert result == {"circular": summary["circular"], "accuracy": summary["acc"]}


def test_metric_path_rejects_unknown_modules():
    from lgmt_tasks.metrics import metric_path

    with pytest.raises(ValueError, match="partial_circular, circular"):
        metric_path("accuracy")
