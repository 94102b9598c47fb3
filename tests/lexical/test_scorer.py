"""The lexical scorer on hand-built states: verdicts, explanations, discarded groups and malformed input."""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.lexical import cell_of, lexical_consistency, lexical_metrics, lexical_outcomes
from lgmt_tasks.scorers.lexical_arithmetic import LEXICAL_KEYS, discarded_outcome
from lgmt_tasks.vocabulary import RESPONSES_KEY, TRANSFORM_KEY


def make_state(
    responses: list[str] | None, gold: str = "True", store: dict[str, Any] | None = None, **metadata: Any
) -> TaskState:
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id="g1",
        epoch=1,
        input="source prompt",
        messages=[],
        target=Target(gold),
        metadata={
            "mr": "MR-1",
            "name": "replace characters",
            "part": "premises",
            "expected": "equivalence",
            **metadata,
        },
        store={**({RESPONSES_KEY: responses} if responses is not None else {}), **(store or {})},
    )


async def score(responses: list[str] | None, gold: str = "True", **kwargs: Any) -> Score:
    state = make_state(responses, gold, **kwargs)
    return await lexical_consistency()(state, state.target)


async def test_a_hidden_defect_is_cell_three_and_explained():
    result = await score(['{"label": "True"}', "The answer is False."])
    assert isinstance(result.value, dict) and cell_of(result.value) == "cm_fail_correct"  # type: ignore[arg-type]
    assert result.value["hidden_defect"] == 1 and result.answer == "True"
    assert result.metadata == {"answers": ["True", "False"], "parsed_how": ["strict", "lenient"], "output": "label"}
    assert result.explanation is not None
    assert "Relation: MR-1 (replace characters), part: premises, expected output relation: equivalence" in (
        result.explanation
    )
    assert "VIOLATION: confusion-matrix cell ③ MT oracle fails, source answer right." in result.explanation


async def test_difference_relation_holds_when_the_answer_changes():
    result = await score(
        ['{"label": "True"}', '{"label": "False"}'], expected="difference", mr="MR-25", expectation="unproven"
    )
    assert cell_of(result.value) == "cm_pass_correct"  # type: ignore[arg-type]
    assert result.explanation is not None and "the relation's claim is unproven" in result.explanation


async def test_a_proven_followup_label_decides_followup_correctness():
    result = await score(
        ['{"label": "True"}', '{"label": "Unknown"}'],
        expected="difference",
        mr="MR-152",
        followup_label="False",
        expectation="proven",
    )
    assert result.value["violation"] == 0 and result.value["followup_correct"] == 0  # type: ignore[index]
    assert result.explanation is not None and "Expected follow-up answer: False, proven." in result.explanation


async def test_unparsed_answer_is_not_compared():
    result = await score(['{"label": "True"}', "True or False"])
    zeros = dict.fromkeys(LEXICAL_KEYS, 0)  # the source (True, gold True) still counts for acc_static
    assert result.value == {**zeros, "transformed": 1, "tested": 1, "source_answered_correctly": 1}
    assert result.explanation is not None and "Not compared" in result.explanation


async def test_a_failed_transformation_is_discarded():
    transform = {"ok": False, "reason": "empty transformer output", "calls": []}
    result = await score(None, store={TRANSFORM_KEY: transform}, pending=True)
    assert result.value == discarded_outcome() and result.answer == "discarded"
    assert result.explanation == "Discarded: the transformer could not make the follow-up (empty transformer output)."


@pytest.mark.parametrize(
    ("responses", "gold", "metadata", "message"),
    [
        (None, "True", {}, "Sample g1: expected two responses"),
        (["a", "b", "c"], "True", {}, "Sample g1: expected two responses"),
        (["True", "True"], "Yes", {}, "Sample g1: target must be one of True, False, Unknown"),
        (["True", "True"], "True", {"expected": "opposite"}, "Sample g1: metadata 'expected' must be"),
    ],
)
async def test_malformed_input_names_the_sample(responses, gold, metadata, message):
    with pytest.raises(ValueError, match=message):
        await score(responses, gold, **metadata)


def test_scorer_arguments_are_checked():
    with pytest.raises(ValueError, match="output='json'"):
        lexical_consistency(output="json")
    with pytest.raises(ValueError, match="different_threshold=1.5: must be between 0 and 1"):
        lexical_consistency(different_threshold=1.5)
    with pytest.raises(ValueError, match="thresholds='mean'"):
        lexical_consistency(thresholds="mean")


def test_metrics_reject_foreign_scores():
    with pytest.raises(ValueError, match="Sample x: lexical metrics need a dict score"):
        lexical_outcomes([SampleScore(score=Score(value={"violation": 1}), sample_id="x")])
    assert len(lexical_metrics()) == 8 + 8 + 4 + 1 + 4  # rates, stderrs, cells, discarded, four breakdowns
