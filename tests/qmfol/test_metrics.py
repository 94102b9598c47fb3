"""QMFOL metric arithmetic (pure) and the scorer on single states."""

from __future__ import annotations

import math

import pytest
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.qmfol import qmfol_metrics, qmfol_scorer
from lgmt_tasks.scorers.qmfol_arithmetic import (
    OUTCOME_KEYS,
    accuracy,
    accuracy_parsed,
    answer_distribution,
    f1_scores,
    sample_outcome,
    summarize,
    unparsed_rate,
)


def outcomes(pairs: list[tuple[str, str | None]]) -> list[dict[str, int]]:
    return [sample_outcome(gold, answer) for gold, answer in pairs]


def test_sample_outcome_is_a_flat_indicator_dict() -> None:
    out = sample_outcome("Unknown", "False")
    assert list(out) == list(OUTCOME_KEYS)
    assert out["parsed"] == 1 and out["correct"] == 0 and out["pair_Unknown_False"] == 1
    assert out["gold_Unknown"] == 1 and sum(out.values()) == 3
    assert sample_outcome("True", None) == dict.fromkeys(OUTCOME_KEYS, 0) | {"gold_True": 1}
    with pytest.raises(ValueError, match="gold"):
        sample_outcome("Unknown2", "True")
    with pytest.raises(ValueError, match="answer"):
        sample_outcome("True", "Yes")


def test_f1_and_distribution_by_hand() -> None:
    data = outcomes(
        [
            ("True", "True"),
            ("True", "Unknown"),
            ("False", "False"),
            ("False", None),
            ("Unknown", "Unknown"),
            ("Unknown", "True"),
        ]
    )
    # parsed confusion: T->T, T->U, F->F, U->U, U->T; the False task answered nothing is a miss of False
    assert f1_scores(data) == {
        "f1_True": 2 * 1 / (2 + 2),
        "f1_False": 2 * 1 / (1 + 2),
        "f1_Unknown": 2 * 1 / (2 + 2),
        "macro_f1": (0.5 + 2 / 3 + 0.5) / 3,
        "f1_True_parsed": 2 * 1 / (2 + 2),
        "f1_False_parsed": 2 * 1 / (1 + 1),
        "f1_Unknown_parsed": 2 * 1 / (2 + 2),
        "macro_f1_parsed": (0.5 + 1.0 + 0.5) / 3,
    }
    dist = answer_distribution(data)
    assert (dist["dist_True_True"], dist["dist_True_Unknown"], dist["dist_False_False"]) == (0.5, 0.5, 0.5)
    assert dist["dist_False_unparsed"] == 0.5 and dist["dist_True_unparsed"] == 0.0
    assert dist["dist_False_Unknown"] == 0.0 and dist["dist_Unknown_True"] == 0.5
    for gold in ("True", "False", "Unknown"):
        assert math.fsum(v for k, v in dist.items() if k.startswith(f"dist_{gold}_")) == 1.0
    assert accuracy(data).value == 3 / 6 and accuracy_parsed(data).value == 3 / 5
    assert unparsed_rate(data).value == 1 / 6


def test_a_model_that_does_not_answer_is_not_rewarded() -> None:
    """Half the tasks unanswered: the headline halves; only the `_parsed` figures stay at 1."""
    answered = [("True", "True"), ("False", "False"), ("Unknown", "Unknown")]
    data = outcomes(answered + [(gold, None) for gold, _ in answered])
    summary = summarize(data)
    assert summary["accuracy"] == 0.5 and summary["accuracy_parsed"] == 1.0
    assert summary["macro_f1"] < 1.0 and summary["macro_f1_parsed"] == 1.0
    assert summary["unparsed_rate"] == 0.5


def test_absent_labels_and_empty_input() -> None:
    only_true = outcomes([("True", "True"), ("True", "True")])
    f1 = f1_scores(only_true)
    assert f1["f1_True"] == 1.0 and math.isnan(f1["f1_False"]) and f1["macro_f1"] == 1.0
    assert math.isnan(answer_distribution(only_true)["dist_False_False"])
    assert all(math.isnan(v) for k, v in summarize([]).items() if k != "unparsed_rate")
    assert math.isnan(summarize([])["unparsed_rate"])
    nothing_parsed = outcomes([("True", None)])
    assert accuracy(nothing_parsed).value == 0.0 and math.isnan(accuracy_parsed(nothing_parsed).value)
    assert unparsed_rate(nothing_parsed).value == 1.0 and f1_scores(nothing_parsed)["f1_True"] == 0.0


def test_epoch_means_keep_the_pooled_values() -> None:
    """Two epochs reduced to per-key means give the same ratios as the four sample-epochs pooled."""
    epoch_1 = outcomes([("True", "True"), ("False", "Unknown")])
    epoch_2 = outcomes([("True", "False"), ("False", "False")])
    means = [{k: (a[k] + b[k]) / 2 for k in OUTCOME_KEYS} for a, b in zip(epoch_1, epoch_2, strict=True)]
    stderrs = {"accuracy_stderr": 0, "accuracy_parsed_stderr": 0}
    assert summarize(means) | stderrs == summarize(epoch_1 + epoch_2) | stderrs


def state(completion: str, gold: str) -> TaskState:
    st = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="s",
        epoch=1,
        input="prompt",
        messages=[],
        target=Target(gold),
        metadata={"construction": "Unknown2"},
    )
    st.output = ModelOutput.from_content(model="mockllm/model", content=completion)
    return st


async def test_scorer_parses_strictly_then_leniently_then_gives_up() -> None:
    score = qmfol_scorer()
    strict = await score(state('Step 1: ...\n{"label": "Unknown"}', "Unknown"), Target("Unknown"))
    assert strict.value == sample_outcome("Unknown", "Unknown") and strict.answer == "Unknown"
    assert strict.explanation is not None and "(Unknown2)" in strict.explanation
    lenient = await score(state("So the answer is False.", "Unknown"), Target("Unknown"))
    assert lenient.answer == "False" and lenient.metadata is not None and lenient.metadata["parsed_how"] == "lenient"
    hedge = await score(state("It is either True or False.", "True"), Target("True"))
    assert hedge.answer == "unparsed" and hedge.value == sample_outcome("True", None)
    with pytest.raises(ValueError, match="target"):
        await score(state("True", "Unknown1"), Target("Unknown1"))


def test_metric_list_and_unknown_breakdown() -> None:
    assert len(qmfol_metrics()) == 12
    with pytest.raises(ValueError, match="breakdowns"):
        qmfol_metrics(("colour",))
