"""The one `unparsed_rate` Inspect metric shared by every suite's scorer (`scorers/unparsed.py`)."""

from __future__ import annotations

import math
import random

import pytest
from inspect_ai._util.registry import registry_info, registry_lookup
from inspect_ai.scorer import SampleScore, Score

from lgmt_tasks.scorers import divlogiceval, lexical, lgmt, pairwise_metrics, qmfol
from lgmt_tasks.scorers.divlogiceval_arithmetic import summarize as divlogiceval_summary
from lgmt_tasks.scorers.pairwise import group_outcome
from lgmt_tasks.scorers.pairwise import unparsed_rate as pairwise_unparsed_rate
from lgmt_tasks.scorers.qmfol_arithmetic import sample_outcome
from lgmt_tasks.scorers.qmfol_arithmetic import unparsed_rate as qmfol_unparsed_rate
from lgmt_tasks.scorers.unparsed import unparsed_rate, unparsed_rate_stderr, unparsed_share

LABELS = ("True", "False", "Unknown", None)


def as_scores(values: list[dict[str, float]]) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v), sample_id=f"s{i}") for i, v in enumerate(values)]  # type: ignore[arg-type]


def test_every_suite_lists_the_one_shared_definition() -> None:
    # LGMT and lexical list the pairwise metrics, which list the shared one
    assert pairwise_metrics.RATE_METRICS["unparsed_rate"] is unparsed_rate
    assert pairwise_metrics.STDERR_METRICS["unparsed_rate"] is unparsed_rate_stderr
    assert lgmt.pairwise_rate_metrics is lexical.pairwise_rate_metrics is pairwise_metrics.pairwise_rate_metrics
    assert divlogiceval.METRICS["unparsed_rate"] is unparsed_rate
    assert divlogiceval.STDERR_METRICS["unparsed_rate"] is unparsed_rate_stderr
    assert qmfol.unparsed_rate is unparsed_rate
    # the name in logs and reports is unchanged
    assert registry_info(unparsed_rate).name == "lgmt_tasks/unparsed_rate"
    assert registry_info(unparsed_rate_stderr).name == "lgmt_tasks/unparsed_rate_stderr"


def test_the_registered_name_computes_every_suites_rate() -> None:
    # What Inspect resolves by name (re-scoring, eval_retry) after every scorer module was imported.
    by_name = registry_lookup("metric", "lgmt_tasks/unparsed_rate")
    assert by_name is not None
    groups = [group_outcome("True", "True", ["False"]), group_outcome("True", None, ["True"])]
    assert by_name()(as_scores(groups)) == 0.5
    instances = [{"acc": 1.0, "circular": 0.0, "partial_circular": 0.0, "rotation_acc": 0.5, "unparsed": 0.25}]
    assert by_name()(as_scores(instances)) == 0.25


@pytest.mark.parametrize("seed", range(5))
def test_same_values_as_each_suites_pure_function(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 30)
    groups = [group_outcome("True", rng.choice(LABELS), [rng.choice(LABELS)]) for _ in range(n)]
    expected = pairwise_unparsed_rate(groups)
    assert unparsed_rate()(as_scores(groups)) == expected.value
    assert unparsed_rate_stderr()(as_scores(groups)) == expected.stderr

    tasks = [sample_outcome("False", rng.choice(LABELS)) for _ in range(n)]
    assert unparsed_rate()(as_scores(tasks)) == qmfol_unparsed_rate(tasks).value

    predictions = [[rng.choice([-1, 0, 1, 2, 3]) for _ in range(4)] for _ in range(n)]
    golds = [rng.randrange(4) for _ in range(n)]
    summary = divlogiceval_summary(predictions, golds)
    instances = [{"unparsed": sum(p == -1 for p in ps) / 4} for ps in predictions]
    assert unparsed_rate()(as_scores(instances)) == pytest.approx(summary["unparsed_rate"], abs=1e-15)
    assert unparsed_rate_stderr()(as_scores(instances)) == pytest.approx(summary["unparsed_rate_stderr"], abs=1e-12)


def test_no_samples_give_nan() -> None:
    assert math.isnan(unparsed_rate()([]))


@pytest.mark.parametrize("value", [0.5, {"correct": 1}, {"parsed": 1, "unparsed": 0.0}, {"parsed": "yes"}])
def test_a_score_of_another_shape_is_refused_naming_the_sample(value: object) -> None:
    with pytest.raises(ValueError, match="Sample s0: unparsed_rate needs"):
        unparsed_rate()(as_scores([value]))  # type: ignore[list-item]


def test_share_of_each_shape() -> None:
    assert unparsed_share({"parsed": 1}, "x") == 0.0
    assert unparsed_share({"parsed": 0.25}, "x") == 0.75  # epoch mean
    assert unparsed_share({"unparsed": 0.5}, "x") == 0.5
