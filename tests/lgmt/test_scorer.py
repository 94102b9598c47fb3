"""The LGMT scorer and metrics: unit tests, then end-to-end Inspect runs with scripted answers.

The scripted model (`mockllm/model` with a callable `custom_outputs`) answers by looking up the user prompt it is
sent, so the answers do not depend on the order in which Inspect runs samples and concurrent member calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelName, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.lgmt import (
    acc_static_per_case,
    acc_static_per_case_stderr,
    lgmt_metrics,
    metamorphic_consistency,
)
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATE_NAMES, group_outcome
from lgmt_tasks.scorers.pairwise_metrics import RATE_METRICS, STDERR_METRICS, outcomes_of
from lgmt_tasks.scorers.pairwise_metrics import rate_breakdown as breakdown
from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import render_user_prompt, system_prompt
from lgmt_tasks.vocabulary import RESPONSES_KEY

SCORER = "metamorphic_consistency"


def make_state(responses: list[str], gold: str = "True", **metadata: Any) -> TaskState:
    return TaskState(
        model=ModelName("mockllm/model"),
        sample_id="g1",
        epoch=1,
        input="source prompt",
        messages=[],
        target=Target(gold),
        metadata={"mr": "MR-E1.1", "category": "MR-E", **metadata},
        store={RESPONSES_KEY: responses},
    )


async def score(responses: list[str], gold: str = "True", **metadata: Any) -> Score:
    state = make_state(responses, gold, **metadata)
    return await metamorphic_consistency()(state, state.target)


# --------------------------------------------------------------------------------------------------- scorer units


async def test_hidden_defect_is_scored_and_explained() -> None:
    result = await score(['{"label": "True"}', "The answer is False."], changed="premise 2")
    assert result.value == group_outcome("True", "True", ["False"])
    assert result.answer == "True"
    assert result.metadata == {
        "answers": ["True", "False"],
        "parsed_how": ["strict", "lenient"],
        "parse_details": ["JSON 'label': \"True\"", "copula cue 'The answer is False'"],
    }
    assert result.explanation is not None
    assert "MR-E1.1 (MR-E), changed: premise 2" in result.explanation
    assert "VIOLATION: the source answered True but Follow-up 1 answered False; hidden defect" in result.explanation


@pytest.mark.parametrize(
    ("responses", "gold", "answer", "phrase"),
    [
        (['{"label": "True"}', '{"label": "True"}'], "True", "True", "No violation: every member answered True"),
        (['{"label": "True"}', '{"label": "True"}'], "False", "True", "false unreported"),
        (['{"label": "False"}', '{"label": "True"}'], "True", "False", "the source is wrong"),
        (["I am not sure.", '{"label": "True"}'], "True", "unparsed", "Not compared: unparsed answer (Source)"),
        (['{"label": "True"}', "True", "maybe"], "True", "True", "unparsed answer (Follow-up 2)"),
    ],
)
async def test_explanations(responses: list[str], gold: str, answer: str, phrase: str) -> None:
    result = await score(responses, gold)
    assert result.answer == answer
    assert result.explanation is not None and phrase in result.explanation


async def test_scorer_requires_solver_responses() -> None:
    state = make_state([])
    state.store.delete(RESPONSES_KEY)
    with pytest.raises(ValueError, match="Sample g1: expected at least two group responses"):
        await metamorphic_consistency()(state, state.target)


async def test_scorer_rejects_a_gold_that_is_not_a_label() -> None:
    with pytest.raises(ValueError, match="Sample g1: target must be one of True, False, Unknown"):
        await score(["True", "True"], gold="Yes")


# --------------------------------------------------------------------------------------------------- metric units


def sample_score(outcome: dict[str, Any], sample_id: str, **metadata: Any) -> SampleScore:
    return SampleScore(score=Score(value=outcome), sample_id=sample_id, sample_metadata=metadata)


SCORES = [
    sample_score(group_outcome("True", "True", ["False"]), "a", category="MR-E", mr="MR-E1.1"),
    sample_score(group_outcome("True", "True", ["True"]), "b", category="MR-E", mr="MR-E1.2"),
    sample_score(group_outcome("False", "True", ["True"]), "c", category="MR-S", mr="MR-S1"),
    sample_score(group_outcome("False", None, ["True"]), "d", category="MR-S", mr="MR-S1"),
]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("mvr", 1 / 3),
        ("acc_static", 2 / 4),
        ("acc_cons", 1 / 4),
        ("acc_static_parsed", 2 / 3),
        ("acc_cons_parsed", 1 / 3),
        ("hdr", 1 / 3),
        ("fur", 1 / 3),
        ("unparsed_rate", 1 / 4),
    ],
)
def test_rate_metrics(name: str, value: float) -> None:
    assert RATE_METRICS[name]()(SCORES) == value
    assert STDERR_METRICS[name]()(SCORES) > 0


def test_breakdown_by_category_and_relation() -> None:
    assert breakdown("mvr", "category")(SCORES) == {"mvr_MR-E": 0.5, "mvr_MR-S": 0.0}
    assert breakdown("unparsed_rate", "mr")(SCORES) == {
        "unparsed_rate_MR-E1.1": 0.0,
        "unparsed_rate_MR-E1.2": 0.0,
        "unparsed_rate_MR-S1": 0.5,
    }


def test_breakdown_without_the_metadata_key_names_the_sample() -> None:
    scores = [*SCORES, sample_score(group_outcome("True", "True", ["True"]), "no-mr", category="MR-C")]
    with pytest.raises(ValueError, match="Sample no-mr has no mr metadata"):
        breakdown("mvr", "mr")(scores)


def test_breakdown_rejects_unknown_rate() -> None:
    with pytest.raises(ValueError, match="rate must be one of mvr, acc_static"):
        breakdown("accuracy", "mr")


@pytest.mark.parametrize("value", [1.0, {"violation": 1}, {**dict.fromkeys(OUTCOME_KEYS, 0), "parsed": None}])
def test_metrics_reject_foreign_scores_naming_the_sample(value: Any) -> None:
    with pytest.raises(ValueError, match="Sample x:"):
        outcomes_of([SampleScore(score=Score(value=value), sample_id="x")])


def test_lgmt_metrics_shape() -> None:
    assert len(lgmt_metrics()) == 2 * len(RATE_NAMES) + 2 + len(RATE_NAMES) + 1
    assert len(lgmt_metrics(by_category=(), by_mr=RATE_NAMES)) == 3 * len(RATE_NAMES) + 2


def case_score(outcome: dict[str, Any], sample_id: str, source_id: str) -> SampleScore:
    return sample_score(outcome, sample_id, mr="MR-E1.1", source_dataset="folio", source_id=source_id)


def test_acc_static_per_case_counts_each_source_case_once() -> None:
    # case a: three groups, every source right; case b: one group, source wrong; case c: two groups whose source
    # answers differ (sampled), one of them unparsed (wrong). By group: 4 of 6 right; by case: (1 + 0 + 1/2) / 3.
    right, wrong = group_outcome("True", "True", ["True"]), group_outcome("True", "False", ["True"])
    scores = [
        case_score(right, "a1", "a"),
        case_score(right, "a2", "a"),
        case_score(right, "a3", "a"),
        case_score(wrong, "b1", "b"),
        case_score(right, "c1", "c"),
        case_score(group_outcome("True", None, ["True"]), "c2", "c"),
    ]
    assert RATE_METRICS["acc_static"]()(scores) == 4 / 6
    assert acc_static_per_case()(scores) == 1.5 / 3
    # the case is the unit: the standard error of the mean of (1, 0, 1/2)
    assert acc_static_per_case_stderr()(scores) == pytest.approx(0.5 / 3**0.5)


def test_acc_static_per_case_needs_the_source_case_naming_the_sample() -> None:
    scores = [case_score(group_outcome("True", "True", ["True"]), "a1", "a"), *SCORES[:1]]
    with pytest.raises(ValueError, match="Sample a has no source_dataset or source_id metadata"):
        acc_static_per_case()(scores)


# --------------------------------------------------------------------------------------------------- end to end


@dataclass(frozen=True)
class Group:
    """One scripted group: metadata, gold label, and each member's completions (one per epoch)."""

    id: str
    mr: str
    category: str
    gold: str
    answers: Sequence[Sequence[str]]  # member -> epoch -> completion


J = '{{"reasoning": "Premise 2 says {} is {}.", "label": "{}"}}'.format
GROUPS = [
    # consistent and correct (strict JSON; the reasoning names other labels)
    Group("g1", "MR-E1.1", "MR-E", "True", [[J("A", "False", "True")] * 2, ['{"label": "True"}'] * 2]),
    # hidden defect in epoch 1; consistent and correct in epoch 2
    Group("g2", "MR-E1.2", "MR-E", "True", [['{"label": "True"}'] * 2, ["The answer is False.", "**True**"]]),
    # consistent but wrong: false unreported
    Group("g3", "MR-S1", "MR-S", "False", [["Answer: True"] * 2, ['```json\n{"label": "True"}\n```'] * 2]),
    # violation with a wrong source
    Group("g4", "MR-S1", "MR-S", "Unknown", [['{"label": "False"}'] * 2, ['{"label": "Uncertain"}'] * 2]),
    # unparsed follow-up in epoch 1 (two labels); parsed, consistent and correct in epoch 2
    Group("g5", "MR-P1", "MR-P", "False", [["False"] * 2, ["It is True or False.\nTrue or False", "False."]]),
    # consistent and correct; the follow-up answers after a chain of thought
    Group(
        "g6",
        "MR-C1",
        "MR-C",
        "Unknown",
        [['{"label": "Unknown"}'] * 2, ["Step 1: A. Step 2: not B.\nSo the answer is Unknown."] * 2],
    ),
    # two follow-ups (a composed relation): the second one differs, a hidden defect
    Group(
        "g7",
        "MR-E1.1+MR-C3",
        "MR-E",
        "True",
        [['{"label": "True"}'] * 2, ['{"label": "True"}'] * 2, ['{"label": "Unknown"}'] * 2],
    ),
    # two follow-ups, all consistent and correct
    Group("g8", "MR-P1", "MR-P", "True", [['{"label": "True"}'] * 2, ["True"] * 2, ['{"label": "true"}'] * 2]),
]


CASES = {"g1": "c1", "g2": "c1", "g7": "c1", "g4": "c2", "g6": "c2"}
"""Groups built on one source case (by its `source_id`); each other group is a case of its own. c2's two groups, both
gold Unknown, got different source answers (g4 wrong, g6 right), as sampled answers can."""


def member_prompt(group: Group, index: int) -> str:
    return render_user_prompt([f"Premise {index} of {group.id}.", "Another premise."], f"Conclusion of {group.id}.")


def dataset() -> MemoryDataset:
    samples = []
    for group in GROUPS:
        members = [member_prompt(group, i) for i in range(len(group.answers))]
        metadata = {
            "members": members,
            "mr": group.mr,
            "category": group.category,
            "direction": "forward",
            "source_dataset": "scripted",
            "source_id": CASES.get(group.id, group.id),
            "changed": "premise 1",
        }
        samples.append(Sample(id=group.id, input=members[0], target=group.gold, metadata=metadata))
    return MemoryDataset(samples)


class ScriptedModel:
    """Answers each user prompt with its scripted completions, in turn (the n-th call gets epoch n's answer)."""

    def __init__(self) -> None:
        self.script = {member_prompt(g, i): answers for g in GROUPS for i, answers in enumerate(g.answers)}
        self.calls: Counter[str] = Counter()
        self.systems: set[str] = set()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        system, user = messages
        self.systems.add(system.text)
        answer = self.script[user.text][self.calls[user.text]]
        self.calls[user.text] += 1
        output = ModelOutput.from_content(model="mockllm/model", content=answer)
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tiktoken download
        return output


def run(tmp_path: Path, model: ScriptedModel, **eval_args: Any) -> EvalLog:
    task = Task(dataset=dataset(), solver=group_generate("few_shot_cot"), scorer=metamorphic_consistency())
    mock = get_model("mockllm/model", custom_outputs=model)
    [log] = eval(task, model=mock, log_dir=str(tmp_path), display="none", **eval_args)
    assert log.status == "success", log.error
    return log


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


# Epoch 1, by hand: 7 parsed groups (g5 is not: its follow-up did not parse, its source is right); violations g2, g4,
# g7; correct sources g1 g2 g6 g7 g8 (and g5 among all 8 groups); consistent and correct g1 g6 g8; hidden defects g2
# g7; false unreported g3.
EPOCH_1 = {
    "mvr": 3 / 7,
    "acc_static": 6 / 8,
    "acc_cons": 3 / 8,
    "acc_static_parsed": 5 / 7,
    "acc_cons_parsed": 3 / 7,
    "hdr": 2 / 7,
    "fur": 1 / 7,
    "unparsed_rate": 1 / 8,
    # by source case: c1 (g1 g2 g7) right, g3 wrong, c2 (g4 wrong, g6 right) 1/2, g5 right, g8 right
    "acc_static_per_case": 3.5 / 5,
}
BY_CATEGORY_1 = {
    # MR-E: g1 g2 g7; MR-S: g3 g4; MR-P: g5 (unparsed) g8; MR-C: g6
    "mvr_MR-E": 2 / 3,
    "mvr_MR-S": 1 / 2,
    "mvr_MR-P": 0.0,
    "mvr_MR-C": 0.0,
    "acc_static_MR-E": 1.0,
    "acc_static_MR-S": 0.0,
    "acc_static_MR-P": 1.0,
    "acc_static_MR-C": 1.0,
    "acc_cons_MR-E": 1 / 3,
    "acc_cons_MR-S": 0.0,
    "acc_cons_MR-P": 1 / 2,
    "acc_cons_MR-C": 1.0,
    "acc_static_parsed_MR-E": 1.0,
    "acc_static_parsed_MR-S": 0.0,
    "acc_static_parsed_MR-P": 1.0,
    "acc_static_parsed_MR-C": 1.0,
    "acc_cons_parsed_MR-E": 1 / 3,
    "acc_cons_parsed_MR-S": 0.0,
    "acc_cons_parsed_MR-P": 1.0,
    "acc_cons_parsed_MR-C": 1.0,
    "hdr_MR-E": 2 / 3,
    "hdr_MR-S": 0.0,
    "hdr_MR-P": 0.0,
    "hdr_MR-C": 0.0,
    "fur_MR-E": 0.0,
    "fur_MR-S": 1 / 2,
    "fur_MR-P": 0.0,
    "fur_MR-C": 0.0,
    "unparsed_rate_MR-E": 0.0,
    "unparsed_rate_MR-S": 0.0,
    "unparsed_rate_MR-P": 1 / 2,
    "unparsed_rate_MR-C": 0.0,
}
BY_MR_1 = {
    "mvr_MR-E1.1": 0.0,
    "mvr_MR-E1.2": 1.0,
    "mvr_MR-S1": 1 / 2,
    "mvr_MR-P1": 0.0,
    "mvr_MR-C1": 0.0,
    "mvr_MR-E1.1+MR-C3": 1.0,
}


def test_end_to_end_metrics_are_exact(tmp_path: Path) -> None:
    model = ScriptedModel()
    log = run(tmp_path, model)
    values = metrics(log)
    assert {name: values[name] for name in EPOCH_1} == EPOCH_1
    assert {name: values[name] for name in BY_CATEGORY_1} == BY_CATEGORY_1
    assert {name: values[name] for name in BY_MR_1} == BY_MR_1
    expected_names = [*EPOCH_1, *(f"{n}_stderr" for n in EPOCH_1), *BY_CATEGORY_1, *BY_MR_1]
    assert sorted(values) == sorted(expected_names)
    assert all(values[f"{n}_stderr"] > 0 for n in EPOCH_1)
    assert values["acc_static"] != values["acc_static_per_case"]
    # every member was asked once, with the chosen system prompt
    assert sum(model.calls.values()) == sum(len(g.answers) for g in GROUPS)
    assert model.systems == {system_prompt("few_shot_cot")}


def test_end_to_end_log_shows_the_group(tmp_path: Path) -> None:
    log = run(tmp_path, ScriptedModel())
    assert log.samples is not None
    sample = next(s for s in log.samples if s.id == "g7")
    assert sample.store[RESPONSES_KEY] == ['{"label": "True"}', '{"label": "True"}', '{"label": "Unknown"}']
    assert [m.role for m in sample.messages] == ["system", "user", "assistant"]
    assert sample.messages[1].text == member_prompt(GROUPS[6], 0)
    assert sample.output.completion == '{"label": "True"}'
    assert sample.scores is not None
    result = sample.scores[SCORER]
    assert result.value == {**group_outcome("True", "True", ["True", "Unknown"])}
    assert result.explanation is not None and "Follow-up 2 answered Unknown" in result.explanation
    model_events = [e for e in sample.events if e.event == "model"]
    assert len(model_events) == 3  # source and both follow-ups, all visible in the transcript


def test_two_epochs_pool_exactly_under_mean_reduction(tmp_path: Path) -> None:
    # max_samples=1 runs one sample-epoch at a time, so each prompt's n-th call belongs to one sample-epoch; the
    # members of a group are still generated concurrently.
    log = run(tmp_path, ScriptedModel(), epochs=2, max_samples=1)
    # Epoch 2 differs: g2 becomes consistent and correct, g5 parses and is consistent and correct.
    # Pooled over 16 sample-epochs, 15 parsed: violations 3 + 2, correct sources 5 + 6 (6 + 6 among all 16),
    # consistent 3 + 5, hidden defects 2 + 1, false unreported 1 + 1, unparsed 1 + 0.
    pooled = {
        "mvr": 5 / 15,
        "acc_static": 12 / 16,
        "acc_cons": 8 / 16,
        "acc_static_parsed": 11 / 15,
        "acc_cons_parsed": 8 / 15,
        "hdr": 3 / 15,
        "fur": 2 / 15,
        "unparsed_rate": 1 / 16,
        "acc_static_per_case": 3.5 / 5,  # every source answered the same in both epochs
    }
    values = metrics(log)
    assert {name: values[name] for name in pooled} == pooled
    # per category, pooled too: MR-P is g5 (1 of 2 epochs parsed) and g8 (2 parsed, consistent and correct)
    assert values["unparsed_rate_MR-P"] == 1 / 4
    assert values["acc_cons_MR-P"] == 3 / 4 and values["acc_cons_parsed_MR-P"] == 1.0
    assert values["mvr_MR-E"] == 3 / 6  # g2 once, g7 twice, over 6 parsed sample-epochs
    # a mean of per-sample ratios would not give these: the reduced score of g5 is fractional
    assert log.samples is not None
    reduced = {s.sample_id: s.value for r in log.reductions or [] for s in r.samples}
    assert reduced["g5"]["parsed"] == 0.5  # type: ignore[index]
