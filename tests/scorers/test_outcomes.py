"""The helpers every suite's scorer shares: reading the stored answers, the gold check, outcomes, metric factories."""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai._util.registry import registry_info, registry_lookup
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.answers import ParsedAnswer
from lgmt_tasks.scorers.divlogiceval import circular_choice
from lgmt_tasks.scorers.outcomes import checked_gold, how_each_read, how_read, score_outcomes, stored_responses
from lgmt_tasks.scorers.pairwise import Rate, ratio_of_sums
from lgmt_tasks.scorers.rate_metrics import rate_metric_pair
from lgmt_tasks.vocabulary import RESPONSES_KEY, TRUTH_LABELS


def make_state(store: dict[str, Any], target: str = "True", **metadata: Any) -> TaskState:
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id="s1",
        epoch=1,
        input="prompt",
        messages=[],
        target=Target(target),
        metadata=metadata,
        store=store,
    )


def responses(state: TaskState, count: int | None) -> list[str]:
    return stored_responses(state, count=count, what="the answers", scorer="my_scorer", solver="my_solver")


def test_stored_responses_are_strings_in_member_order() -> None:
    assert responses(make_state({RESPONSES_KEY: ["a", 2, "c"]}), None) == ["a", "2", "c"]
    assert responses(make_state({RESPONSES_KEY: ["a", "b"]}), 2) == ["a", "b"]


@pytest.mark.parametrize(("stored", "count"), [(None, None), (["a"], None), ("ab", None), (["a", "b", "c"], 2)])
def test_missing_or_misshapen_responses_name_the_sample_scorer_and_solver(stored: Any, count: int | None) -> None:
    store = {} if stored is None else {RESPONSES_KEY: stored}
    message = (
        "Sample s1: expected the answers in the store (key 'responses'); my_scorer scores the output of the "
        "my_solver solver"
    )
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        responses(make_state(store), count)


def test_checked_gold() -> None:
    state = make_state({})
    assert checked_gold(state, Target("Unknown"), TRUTH_LABELS) == "Unknown"
    with pytest.raises(ValueError, match="Sample s1: target must be one of True, False, Unknown; got 'Yes'"):
        checked_gold(state, Target("Yes"), TRUTH_LABELS)
    with pytest.raises(ValueError, match="Sample s1: target must be 'yes' or 'no'; got 'True'"):
        checked_gold(state, Target("True"), ("yes", "no"), shown="'yes' or 'no'")


@pytest.mark.parametrize("target", ["", "AB", "E"])
async def test_divlogiceval_takes_one_option_letter_as_its_target(target: str) -> None:
    # The letters are checked as labels, not as a substring of "ABCD" ("" and "AB" used to be read as option A).
    state = make_state({RESPONSES_KEY: ["A"] * 4}, target, options=["w", "x", "y", "z"])
    with pytest.raises(ValueError, match=f"Sample s1: target must be one of A, B, C, D; got '{target}'"):
        await circular_choice()(state, state.target)


def test_how_answers_were_read() -> None:
    answers = [ParsedAnswer("True", "strict", "JSON"), ParsedAnswer(None, "unparsed", "nothing")]
    assert how_read(answers[0]) == {"parsed_how": "strict", "parse_detail": "JSON"}
    assert how_each_read(answers) == {"parsed_how": ["strict", "unparsed"], "parse_details": ["JSON", "nothing"]}


def as_scores(values: list[Any]) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v), sample_id=f"s{i}") for i, v in enumerate(values)]


def test_score_outcomes_reads_the_keys_as_floats() -> None:
    scores = as_scores([{"a": 1, "b": 0.5, "extra": "x"}, {"a": True, "b": 0}])
    assert score_outcomes(scores, ("a", "b"), "Test") == [{"a": 1.0, "b": 0.5}, {"a": 1.0, "b": 0.0}]
    assert score_outcomes([], ("a",), "Test") == []


@pytest.mark.parametrize("value", [1.0, "a", {"a": 1}, {"a": 1, "b": None}, {"a": 1, "b": "0"}])
def test_score_outcomes_name_the_sample_of_a_foreign_score(value: Any) -> None:
    with pytest.raises(ValueError, match=r"Sample s0: Test metrics need a dict score with numeric a, b; got"):
        score_outcomes(as_scores([value]), ("a", "b"), "Test")


def _share_of_a(scores: Any) -> Rate:
    values = [o["a"] for o in score_outcomes(scores, ("a",), "Test")]
    return ratio_of_sums(values, [1.0] * len(values))


share, share_stderr = rate_metric_pair("share_of_a_in_tests", _share_of_a, "the share of a")
"""Registered by this test module only (Inspect's registry is global)."""


def test_rate_metric_pair_registers_the_value_and_its_standard_error() -> None:
    assert registry_info(share).name == "lgmt_tasks/share_of_a_in_tests"
    assert registry_info(share_stderr).name == "lgmt_tasks/share_of_a_in_tests_stderr"
    assert registry_lookup("metric", "lgmt_tasks/share_of_a_in_tests") is share
    assert registry_info(share()).name == "lgmt_tasks/share_of_a_in_tests"  # what the log records
    assert share.__doc__ == "Compute the share of a."
    assert share_stderr.__doc__ == "Compute the standard error of `share_of_a_in_tests`."
    scores = as_scores([{"a": 1}, {"a": 0}, {"a": 1}, {"a": 1}])
    expected = _share_of_a(scores)
    assert share()(scores) == expected.value == 0.75
    assert share_stderr()(scores) == expected.stderr
    assert math.isnan(share()([])) and math.isnan(share_stderr()(scores[:1]))
