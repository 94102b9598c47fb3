"""Pure metric arithmetic: one group's outcome, the rates over groups, their errors and identities."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lgmt_tasks.scorers.pairwise import (
    OUTCOME_KEYS,
    RATE_NAMES,
    RATES,
    acc_cons,
    acc_cons_parsed,
    acc_static,
    acc_static_parsed,
    acc_static_per_case,
    fur,
    group_outcome,
    hdr,
    mvr,
    ratio_of_sums,
    summarize,
    unparsed_rate,
)

ZERO = dict.fromkeys(OUTCOME_KEYS, 0)
UNPARSED = {**ZERO, "tested": 1}
"""A tested group with an unparsed answer and no correct parsed source."""


def outcome(**ones: int) -> dict[str, int]:
    """A parsed group's outcome: `tested` and `parsed`, `source_answered_correctly` as `source_correct`, and `ones`."""
    base = {**ZERO, "tested": 1, "parsed": 1}
    return {**base, **ones, "source_answered_correctly": ones.get("source_correct", 0)}


@pytest.mark.parametrize(
    ("gold", "source", "followups", "expected"),
    [
        # k = 1
        ("True", "True", ["True"], outcome(source_correct=1, followup_correct=1, consistent_correct=1, parsed=1)),
        ("True", "True", ["False"], outcome(violation=1, source_correct=1, hidden_defect=1, parsed=1)),
        ("True", "False", ["True"], outcome(violation=1, followup_correct=1, parsed=1)),
        ("True", "False", ["Unknown"], outcome(violation=1, parsed=1)),
        ("False", "True", ["True"], outcome(false_unreported=1, parsed=1)),
        (
            "Unknown",
            "Unknown",
            ["Unknown"],
            outcome(source_correct=1, followup_correct=1, consistent_correct=1, parsed=1),
        ),
        # unparsed anywhere: nothing but zeros, except that the group is a test, and a right source answer counts
        ("True", None, ["True"], UNPARSED),
        ("True", "True", [None], {**UNPARSED, "source_answered_correctly": 1}),
        ("True", None, [None], UNPARSED),
        ("True", "True", ["True", None], {**UNPARSED, "source_answered_correctly": 1}),
        ("True", "False", [None], UNPARSED),
        # k > 1: a violation if any follow-up differs
        (
            "True",
            "True",
            ["True", "True", "True"],
            outcome(source_correct=1, followup_correct=1, consistent_correct=1, parsed=1),
        ),
        ("True", "True", ["True", "Unknown"], outcome(violation=1, source_correct=1, hidden_defect=1, parsed=1)),
        ("False", "True", ["True", "True"], outcome(false_unreported=1, parsed=1)),
        ("False", "True", ["False", "False"], outcome(violation=1, followup_correct=1, parsed=1)),
        ("False", "True", ["False", "True"], outcome(violation=1, parsed=1)),
    ],
)
def test_group_outcome(gold: str, source: str | None, followups: list[str | None], expected: dict[str, int]) -> None:
    result = group_outcome(gold, source, followups)
    assert result == expected
    assert list(result) == list(OUTCOME_KEYS)


def test_group_outcome_needs_a_followup() -> None:
    with pytest.raises(ValueError, match="at least one follow-up"):
        group_outcome("True", "True", [])


GROUPS = [
    group_outcome("True", "True", ["True"]),  # consistent and correct
    group_outcome("True", "True", ["False"]),  # hidden defect
    group_outcome("False", "True", ["True"]),  # false unreported
    group_outcome("Unknown", "False", ["Unknown"]),  # violation, wrong source
    group_outcome("True", None, ["True"]),  # unparsed
]


@pytest.mark.parametrize(
    ("rate", "numerator", "denominator"),
    [
        (mvr, 2, 4),
        (acc_static, 2, 5),
        (acc_cons, 1, 5),
        (acc_static_parsed, 2, 4),
        (acc_cons_parsed, 1, 4),
        (hdr, 1, 4),
        (fur, 1, 4),
        (unparsed_rate, 1, 5),
    ],
)
def test_rates_are_ratios_of_sums(rate, numerator: int, denominator: int) -> None:  # type: ignore[no-untyped-def]
    result = rate(GROUPS)
    assert (result.numerator, result.denominator) == (numerator, denominator)
    assert result.value == numerator / denominator


def test_stderr_with_every_group_parsed_is_the_binomial_one() -> None:
    groups = [group_outcome("True", "True", ["False"])] * 3 + [group_outcome("True", "True", ["True"])] * 7
    p, n = 0.3, 10
    assert mvr(groups).stderr == pytest.approx(math.sqrt(p * (1 - p) / (n - 1)))


def test_stderr_with_unparsed_groups_follows_the_delta_method() -> None:
    groups = GROUPS * 3  # n = 15 groups, m = 12 parsed, R = 1/2
    n, m, r = 15, 12, 0.5
    assert mvr(groups).stderr == pytest.approx(math.sqrt(r * (1 - r) * n / ((n - 1) * m)))


def test_unparsed_rate_stderr_is_the_stderr_of_a_mean() -> None:
    unparsed = [1 - g["parsed"] for g in GROUPS]
    assert unparsed_rate(GROUPS).stderr == pytest.approx(statistics.stdev(unparsed) / math.sqrt(len(unparsed)))


@pytest.mark.parametrize("name", RATE_NAMES)
def test_empty_input_is_nan(name: str) -> None:
    result = RATES[name]([])
    assert math.isnan(result.value) and math.isnan(result.stderr)


@pytest.mark.parametrize("name", [n for n in RATE_NAMES if n not in ("unparsed_rate", "acc_static", "acc_cons")])
def test_nothing_parsed_is_nan_not_zero(name: str) -> None:
    result = RATES[name]([UNPARSED, UNPARSED])
    assert math.isnan(result.value)
    assert unparsed_rate([UNPARSED, UNPARSED]).value == 1.0


def test_nothing_parsed_is_an_accuracy_of_zero() -> None:
    """The accuracies count an unparsed answer as wrong: a model that never answers scores 0, not NaN."""
    assert acc_static([UNPARSED, UNPARSED]).value == 0.0 and acc_cons([UNPARSED, UNPARSED]).value == 0.0


def test_a_right_source_with_an_unparsed_follow_up_counts_for_acc_static_only() -> None:
    groups = [group_outcome("True", "True", [None]), group_outcome("True", "True", ["True"])]
    assert acc_static(groups).value == 1.0 and acc_cons(groups).value == 0.5
    assert acc_static_parsed(groups).value == 1.0 and acc_cons_parsed(groups).value == 1.0


def test_one_group_has_a_value_but_no_stderr() -> None:
    result = mvr([group_outcome("True", "True", ["False"])])
    assert result.value == 1.0 and math.isnan(result.stderr)


def test_missing_key_is_reported() -> None:
    with pytest.raises(ValueError, match="outcome 1 has no 'parsed'"):
        mvr([ZERO, {"violation": 1}])


def test_ratio_of_sums_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        ratio_of_sums([1.0], [1.0, 1.0])


def test_acc_static_per_case_counts_each_case_once() -> None:
    right, wrong = group_outcome("True", "True", ["True"]), group_outcome("True", "False", ["False"])
    # case a: 3 groups, right; case b: 1 group, wrong; case c: right once, unparsed (wrong) once
    groups = [right, right, right, wrong, right, UNPARSED]
    cases = ["a", "a", "a", "b", "c", "c"]
    assert acc_static(groups).value == 4 / 6
    result = acc_static_per_case(groups, cases)
    assert (result.numerator, result.denominator, result.value) == (1.5, 3, 0.5)
    assert result.stderr == pytest.approx(statistics.stdev([1.0, 0.0, 0.5]) / math.sqrt(3))
    # one group per case: acc_static itself
    assert acc_static_per_case(groups, range(6)).value == acc_static(groups).value


def test_acc_static_per_case_edge_cases() -> None:
    assert math.isnan(acc_static_per_case([], []).value)
    assert acc_static_per_case([UNPARSED, UNPARSED], ["a", "b"]).value == 0.0  # unparsed is wrong, not NaN
    with pytest.raises(ValueError, match="2 outcomes but 1 source cases"):
        acc_static_per_case([UNPARSED, UNPARSED], ["a"])


def test_summarize_is_flat_and_ordered() -> None:
    summary = summarize(GROUPS)
    assert list(summary) == [key for name in RATE_NAMES for key in (name, f"{name}_stderr")]
    assert summary["mvr"] == 0.5 and summary["unparsed_rate"] == 0.2


LABELS = st.sampled_from(["True", "False", "Unknown"])
ANSWERS = st.one_of(st.none(), LABELS)
GROUP = st.builds(group_outcome, LABELS, ANSWERS, st.lists(ANSWERS, min_size=1, max_size=3))


@given(st.lists(GROUP, max_size=40))
def test_identities(groups: list[dict[str, int]]) -> None:
    # per group, exactly: source_correct = consistent_correct + hidden_defect, and the parsed groups split in three
    for g in groups:
        assert g["source_correct"] == g["consistent_correct"] + g["hidden_defect"]
        assert g["parsed"] == g["violation"] + g["consistent_correct"] + g["false_unreported"]
        assert g["hidden_defect"] <= g["violation"] and g["consistent_correct"] <= g["followup_correct"]
    if not any(g["parsed"] for g in groups):
        return
    # over groups, under the shared denominator of the parsed groups (exact up to float rounding of the divisions)
    static, cons = acc_static_parsed(groups), acc_cons_parsed(groups)
    assert static.value - cons.value == pytest.approx(hdr(groups).value, abs=1e-12)
    assert static.numerator - cons.numerator == hdr(groups).numerator
    assert mvr(groups).value + cons.value + fur(groups).value == pytest.approx(1.0, abs=1e-12)
    # consistent accuracy counts every group, so it never exceeds its over-parsed twin
    assert acc_cons(groups).value <= cons.value + 1e-12


@given(st.lists(st.tuples(GROUP, GROUP), min_size=1, max_size=20))
def test_epoch_means_give_the_pooled_rate(pairs: list[tuple[dict[str, int], dict[str, int]]]) -> None:
    """Reducing two epochs of each group to per-key means (Inspect's default) leaves every rate unchanged."""
    reduced = [{k: (a[k] + b[k]) / 2 for k in OUTCOME_KEYS} for a, b in pairs]
    pooled = [g for pair in pairs for g in pair]
    for name in RATE_NAMES:
        expected, actual = RATES[name](pooled).value, RATES[name](reduced).value
        assert (math.isnan(expected) and math.isnan(actual)) or actual == pytest.approx(expected, abs=1e-12)


@given(st.lists(st.tuples(GROUP, st.integers(0, 4)), max_size=30))
def test_acc_static_per_case_is_a_mean_of_case_means(pairs: list[tuple[dict[str, int], int]]) -> None:
    groups, cases = [g for g, _ in pairs], [c for _, c in pairs]
    means = [
        statistics.mean(g["source_answered_correctly"] for g, c in pairs if c == case) for case in sorted(set(cases))
    ]
    result = acc_static_per_case(groups, cases)
    assert (math.isnan(result.value) and not means) or result.value == pytest.approx(statistics.mean(means))
