"""LogicAsker scoring: strict yes/no reading (the authors' failure cases), the metric arithmetic, the scorer."""

from __future__ import annotations

import math

import pytest
from inspect_ai.model import ChatMessageUser, ModelName, ModelOutput
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.answers import parse_yes_no
from lgmt_tasks.scorers.intervals import wilson_interval
from lgmt_tasks.scorers.logicasker import BREAKDOWNS, logicasker_metrics, outcomes_of, yes_no_answer
from lgmt_tasks.scorers.logicasker_arithmetic import (
    instruction_following_rate,
    response_accuracy,
    summarize,
    yes_no_outcome,
)

# The authors' scorer counted an answer right when the label was a substring of it. These are the cases the issue
# names (tests/scorers/test_answers.py has them too) plus LogicAsker-shaped replies; the reading must be strict.
CASES: list[tuple[str, str | None]] = [
    ("cannot", None),  # "no" inside "cannot" is not an answer
    ("I don't know", None),
    ("==no==. yes-men", "no"),  # the emphasised label counts; "yes" inside "yes-men" does not
    ("Yes and no", None),  # a hedge
    ("No.", "no"),
    ("The answer is: yes", "yes"),
    ("We cannot infer that.", "no"),  # answers "Can we infer ...?" (issue #38: answer_corpus_38.md, rule B)
    ("It cannot be inferred; the answer is no.", "no"),
    ("Answer: no", "no"),
    ("Answer: yes. The conclusion follows by modus ponens.", "yes"),  # the demonstrations' own format
    ("yes\n\nExplanation: the conclusion follows by modus ponens.", "yes"),
    ('{"answer": "No"}', "no"),
    ("Yes or no?", None),
    ("Nope", None),
]


@pytest.mark.parametrize(("reply", "label"), CASES)
def test_strict_reading(reply, label):
    assert parse_yes_no(reply).label == label
    outcome = yes_no_outcome("no", parse_yes_no(reply).label)
    assert outcome == {"correct": int(label == "no"), "answered": int(label is not None)}


def test_rates_and_their_denominators():
    outcomes = [yes_no_outcome(g, a) for g, a in [("yes", "yes"), ("yes", "no"), ("no", None), ("no", "no")]]
    assert response_accuracy(outcomes).value == pytest.approx(2 / 3)  # correct / answered
    assert instruction_following_rate(outcomes).value == 0.75  # answered / all
    assert summarize(outcomes)["response_accuracy"] == pytest.approx(2 / 3)
    nothing = [yes_no_outcome("yes", None)] * 3
    assert math.isnan(response_accuracy(nothing).value) and instruction_following_rate(nothing).value == 0.0
    assert math.isnan(instruction_following_rate([]).value)
    with pytest.raises(ValueError, match="'yes' or 'no'"):
        yes_no_outcome("True", "yes")
    with pytest.raises(ValueError, match="answered"):
        response_accuracy([{"correct": 1.0}])


def test_wilson_interval():
    low, high = wilson_interval(0, 4)
    assert low == 0.0 and high == pytest.approx(0.4899, abs=1e-4)
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert all(math.isnan(b) for b in wilson_interval(0, 0))


def state(completion: str, **metadata: object) -> TaskState:
    s = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="t1",
        epoch=1,
        input="q",
        messages=[ChatMessageUser(content="q")],
        metadata=dict(metadata),
    )
    s.output = ModelOutput.from_content("mockllm/model", completion)
    return s


async def test_scorer():
    scorer = yes_no_answer()
    score = await scorer(state("The answer is no.", rule="modus ponens"), Target("no"))
    assert score.value == {"correct": 1, "answered": 1} and score.answer == "no"
    assert "Skill: modus ponens" in (score.explanation or "") and "Correct." in (score.explanation or "")
    unread = await scorer(state("cannot"), Target("no"))
    assert unread.value == {"correct": 0, "answered": 0} and unread.answer == "unparsed"
    with pytest.raises(ValueError, match="target must be 'yes' or 'no'"):
        await scorer(state("yes"), Target("True"))


def test_metric_list_and_checks():
    assert len(logicasker_metrics()) == 5 + len(BREAKDOWNS)
    with pytest.raises(ValueError, match="unknown breakdown"):
        logicasker_metrics(["rule"])
    with pytest.raises(ValueError, match="Sample s1"):
        outcomes_of([SampleScore(score=Score(value=1.0), sample_id="s1")])
