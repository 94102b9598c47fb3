"""The lexical outcome and metric arithmetic: relation kinds, the confusion matrix, and never a free pass."""

from __future__ import annotations

import itertools
import math

import pytest

from lgmt_tasks.scorers.lexical_arithmetic import (
    CM_KEYS,
    LEXICAL_KEYS,
    confusion_cell,
    confusion_matrix,
    discarded_outcome,
    discarded_rate,
    flakiness_counts,
    flakiness_histogram,
    followup_is_correct,
    label_violation,
    lexical_outcome,
)
from lgmt_tasks.scorers.pairwise import (
    OUTCOME_KEYS,
    acc_cons,
    acc_cons_parsed,
    acc_static,
    acc_static_parsed,
    fur,
    group_outcome,
    hdr,
    mvr,
)

LABELS = ("True", "False", "Unknown")
ANSWERS = (*LABELS, None)


@pytest.mark.parametrize(("gold", "source", "followup"), itertools.product(LABELS, ANSWERS, ANSWERS))
def test_equivalence_on_labels_is_exactly_lgmt(gold, source, followup):
    violation = None if source is None or followup is None else label_violation("equivalence", source, followup)
    outcome = lexical_outcome("equivalence", gold, source, followup, violation)
    assert {k: outcome[k] for k in OUTCOME_KEYS} == group_outcome(gold, source, [followup])
    assert outcome["transformed"] == 1


@pytest.mark.parametrize(("gold", "source", "followup"), itertools.product(LABELS, LABELS, LABELS))
def test_difference_on_labels(gold, source, followup):
    outcome = lexical_outcome("difference", gold, source, followup, label_violation("difference", source, followup))
    assert outcome["violation"] == int(source == followup)
    assert outcome["followup_correct"] == int(followup != gold)
    # on labels, consistent-and-correct is "correct source and the relation holds", for both kinds of relation
    assert outcome["consistent_correct"] == int(source == gold and source != followup)
    assert outcome["cm_pass_correct"] == outcome["consistent_correct"]


@pytest.mark.parametrize(
    ("expected", "source", "followup", "violation", "cell"),
    [
        ("equivalence", "True", "True", False, "cm_pass_correct"),
        ("equivalence", "False", "False", False, "cm_pass_wrong"),
        ("equivalence", "True", "False", True, "cm_fail_correct"),
        ("equivalence", "False", "True", True, "cm_fail_wrong"),
        ("difference", "True", "False", False, "cm_pass_correct"),
        ("difference", "False", "True", False, "cm_pass_wrong"),
        ("difference", "True", "True", True, "cm_fail_correct"),
        ("difference", "False", "False", True, "cm_fail_wrong"),
    ],
)
def test_each_group_falls_in_one_cell(expected, source, followup, violation, cell):
    outcome = lexical_outcome(expected, "True", source, followup, violation)
    assert [k for k in CM_KEYS if outcome[k]] == [cell]
    assert outcome["cm_pass_wrong"] == outcome["false_unreported"]
    assert outcome["cm_fail_correct"] == outcome["hidden_defect"]


@pytest.mark.parametrize("violation", [None, True, False])
def test_an_unreadable_answer_never_satisfies_a_relation(violation):
    for source, followup in [(None, "True"), ("True", None), (None, None)]:
        for expected in ("equivalence", "difference"):
            outcome = lexical_outcome(expected, "True", source, followup, violation)
            answered = int(source == "True")  # a right source answer still counts for acc_static
            zeros = dict.fromkeys(LEXICAL_KEYS, 0)
            assert outcome == {**zeros, "transformed": 1, "tested": 1, "source_answered_correctly": answered}
    # text mode: labels parsed but the texts could not be compared
    assert lexical_outcome("difference", "True", "True", "False", None)["parsed"] == 0


@pytest.mark.parametrize(
    ("source", "followup", "violated"),
    [("True", "False", True), ("False", "True", True), ("True", "Unknown", False), ("True", "True", False)],
)
def test_not_inverse_forbids_only_true_against_false(source, followup, violated):
    assert label_violation("not_inverse", source, followup) is violated


def test_followup_correctness_uses_the_stated_gold_label_first():
    # MR-152 with a proven follow-up label: only that label is right, not any other change
    assert followup_is_correct("difference", "True", "False", "False")
    assert not followup_is_correct("difference", "True", "Unknown", "False")
    # no stated label: the relation's claim against the source's gold
    assert followup_is_correct("difference", "True", "Unknown")
    assert not followup_is_correct("not_inverse", "True", "False")
    assert followup_is_correct("not_inverse", "True", "Unknown")
    outcome = lexical_outcome("difference", "True", "True", "Unknown", False, "False")
    assert outcome["violation"] == 0 and outcome["followup_correct"] == 0 and outcome["consistent_correct"] == 0
    with pytest.raises(ValueError, match="equivalence, difference, not_inverse"):
        label_violation("opposite", "True", "False")


def outcomes():
    return [
        lexical_outcome("equivalence", "True", "True", "True", False),  # ①
        lexical_outcome("equivalence", "True", "True", "False", True),  # ③
        lexical_outcome("difference", "False", "False", "False", True),  # ③
        lexical_outcome("equivalence", "Unknown", "True", "True", False),  # ②
        lexical_outcome("difference", "True", "False", "True", False),  # ②
        lexical_outcome("equivalence", "Unknown", "False", "True", True),  # ④
        lexical_outcome("equivalence", "True", None, "True", None),  # unparsed
        discarded_outcome(),  # discarded
    ]


def test_confusion_matrix_partitions_the_compared_groups_and_matches_lgmt_rates():
    groups = outcomes()
    assert confusion_matrix(groups) == {
        "cm_pass_correct": 1 / 6,
        "cm_pass_wrong": 2 / 6,
        "cm_fail_correct": 2 / 6,
        "cm_fail_wrong": 1 / 6,
    }
    assert math.isclose(sum(confusion_matrix(groups).values()), 1.0)
    assert confusion_cell(groups, "cm_pass_wrong").value == fur(groups).value
    assert confusion_cell(groups, "cm_fail_correct").value == hdr(groups).value
    assert confusion_cell(groups, "cm_pass_correct").value == acc_cons_parsed(groups).value
    assert math.isclose(acc_static_parsed(groups).value - acc_cons_parsed(groups).value, hdr(groups).value)
    assert math.isclose(mvr(groups).value + acc_cons_parsed(groups).value + fur(groups).value, 1.0)
    # the accuracies count the unparsed group as wrong and leave out the discarded one (no test): 7 tested groups
    assert acc_cons(groups).value == 1 / 7 and acc_static(groups).value == 3 / 7
    assert discarded_rate(groups).value == 1 / 8
    with pytest.raises(ValueError, match="cell must be one of"):
        confusion_cell(groups, "cm_other")


def test_empty_and_all_discarded_give_nan():
    assert all(math.isnan(v) for v in confusion_matrix([]).values())
    assert math.isnan(discarded_rate([]).value)
    assert all(math.isnan(v) for v in confusion_matrix([discarded_outcome()]).values())


def test_flakiness_counts_and_histogram():
    counts = flakiness_counts({"a": [1, 1, 1], "b": [1, 0, 0], "c": [0, 0, 0], "d": [1, None, 1], "e": [0, 1, 1]})
    assert counts == {"a": (3, 3), "b": (1, 3), "c": (0, 3), "d": (2, 2), "e": (2, 3)}
    # d was not compared in every epoch, c never violated: the rest are a, b, e
    assert flakiness_histogram(counts, 3) == {1: 1 / 3, 2: 1 / 3, 3: 1 / 3}
    assert all(math.isnan(v) for v in flakiness_histogram({"c": (0, 3)}, 3).values())
    with pytest.raises(ValueError, match="epochs"):
        flakiness_histogram(counts, 0)
