"""The early-stopping manager of an adaptive run, driven by hand as Inspect drives it (no model, no eval).

Inspect calls `start_task` with the samples, `schedule_sample` before each sample runs, `complete_sample` with its
scores and `complete_task` at the end; these tests make the same calls with made-up outcomes, so each rule of
`lgmt_tasks.adaptive.stopping` is checked on its own: which groups count, when a relation's groups are skipped, how
epochs and a pool that runs out are handled, and what the summary says.
"""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai.dataset import Sample
from inspect_ai.scorer import SampleScore, Score
from inspect_ai.util import EarlyStop

from lgmt_tasks.adaptive.design import DEFAULT_ALPHA, DEFAULT_MARGIN, DEFAULT_TAU, Settings
from lgmt_tasks.adaptive.stopping import (
    MANAGER,
    AdaptiveStopping,
    adaptive_samples,
    adaptive_settings,
    group_calls,
    group_outcome,
    relation_of,
)

SCORER = "metamorphic_consistency"
THRESHOLD = Settings("threshold")


def group(id: str, relation: str, members: int = 2, **metadata: Any) -> Sample:
    """A group sample of `relation` with `members` member prompts."""
    prompts = [f"{id} member {i}" for i in range(members)]
    return Sample(id=id, input=prompts[0], target="True", metadata={"mr": relation, "members": prompts, **metadata})


def scores(violation: bool, parsed: bool = True, tested: bool = True, name: str = SCORER) -> dict[str, SampleScore]:
    """The scores Inspect hands `complete_sample`: the suite scorer's value dict."""
    value = {"tested": int(tested), "parsed": int(parsed), "violation": int(violation and parsed and tested)}
    return {name: SampleScore(score=Score(value=value))}


def pool(relations: dict[str, int]) -> list[Sample]:
    """`n` groups of each relation, relation by relation (the task interleaves them)."""
    return [group(f"{relation}-{i}", relation) for relation, n in relations.items() for i in range(n)]


async def run(
    manager: AdaptiveStopping, samples: list[Sample], violated: dict[str, bool], epochs: int = 1
) -> dict[str, Any]:
    """Drive the manager as Inspect does with one sample in flight: schedule, then complete, in order.

    `violated[relation]`: whether every group of that relation violates.
    """
    assert await manager.start_task(None, samples, epochs) == MANAGER  # type: ignore[arg-type]
    for epoch in range(1, epochs + 1):
        for sample in samples:
            if await manager.schedule_sample(sample.id, epoch) is None:
                await manager.complete_sample(sample.id, epoch, scores(violated[relation_of(sample)]))
    return await manager.complete_task()


def test_adaptive_settings_are_none_for_a_uniform_run_and_refuse_unused_parameters() -> None:
    assert adaptive_settings("none") is None
    assert adaptive_settings("none", DEFAULT_TAU, DEFAULT_MARGIN, DEFAULT_ALPHA) is None  # defaults given: fine
    assert adaptive_settings("weakest", margin=0.1) == Settings("weakest", margin=0.1)
    with pytest.raises(ValueError, match=r"^tau=0.2, alpha=0.1 without an adaptive design: set -T adaptive="):
        adaptive_settings("none", tau=0.2, alpha=0.1)
    with pytest.raises(ValueError, match=r"^margin=1.5: expected"):
        adaptive_settings("threshold", margin=1.5)
    with pytest.raises(ValueError, match=r"^adaptive='sometimes': expected one of none, threshold, weakest"):
        adaptive_settings("sometimes")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"tested": 1, "parsed": 1, "violation": 1}, (True, True)),
        ({"tested": 1, "parsed": 1, "violation": 0}, (True, False)),
        ({"tested": 1, "parsed": 0, "violation": 0}, (False, False)),  # an unparsed answer: not counted
        ({"tested": 0, "parsed": 0, "violation": 0}, (False, False)),  # a lexical group that is no test
        ({"parsed": 1, "violation": 1}, (True, True)),  # a scorer without `tested`: every group is a test
        ({"unparsed_replies": 2, "grader_read": 1}, None),  # another scorer's value
        (0.5, None),
    ],
)
def test_group_outcome_counts_only_tested_parsed_groups(value: object, expected: tuple[bool, bool] | None) -> None:
    assert group_outcome(value) == expected


def test_calls_per_group_are_its_members_plus_pending_and_extra() -> None:
    assert group_calls(group("a", "MR-S1")) == 2
    assert group_calls(group("a", "MR-S1", members=3)) == 3  # followups=2
    assert group_calls(group("a", "MR-S1"), extra=1) == 3  # a control member
    assert group_calls(group("a", "MR-19", members=1, pending=True)) == 2  # the follow-up made at eval time


def test_samples_are_served_round_robin_over_relations_each_in_its_own_order() -> None:
    samples = pool({"A": 3, "B": 1, "C": 2})
    assert [s.id for s in adaptive_samples(samples)] == ["A-0", "B-0", "C-0", "A-1", "C-1", "A-2"]
    with pytest.raises(ValueError, match=r"Sample x: an adaptive run needs metadata\['mr'\]"):
        relation_of(Sample(id="x", input="?", metadata={}))


async def test_a_decided_relation_is_skipped_and_an_open_one_runs_to_its_pool() -> None:
    samples = adaptive_samples(pool({"dirty": 60, "clean": 60}))
    manager = AdaptiveStopping(THRESHOLD, SCORER, order=["clean", "dirty"])
    summary = await run(manager, samples, {"dirty": True, "clean": False})
    rows = {row["relation"]: row for row in summary["relations"]}  # type: ignore[union-attr]
    assert [row["relation"] for row in summary["relations"]] == ["clean", "dirty"]  # type: ignore[union-attr]
    # every group violates: the interval leaves tau - margin after a handful of groups, and the rest are skipped
    dirty = rows["dirty"]
    assert dirty["decision"] == "above" and dirty["groups"] == dirty["violations"] == dirty["run"] < 10
    assert dirty["run"] + dirty["skipped"] == dirty["pool"] == 60
    # no violation: below tau + margin needs about 50 groups at alpha 0.05 / 2 relations; the pool has 60
    clean = rows["clean"]
    assert clean["decision"] == "below" and 40 < clean["run"] < 60 and clean["skipped"] == 60 - clean["run"]
    assert clean["upper"] < DEFAULT_TAU + DEFAULT_MARGIN and clean["lower"] == 0.0
    ran = dirty["run"] + clean["run"]
    assert summary["calls"] == {"made": 2 * ran, "uniform": 240, "saved": 240 - 2 * ran}  # two members a group
    assert summary["groups"] == {"pool": 120, "run": ran, "skipped": 120 - ran}
    assert {k: summary[k] for k in ("design", "tau", "margin", "alpha")} == {
        "design": "threshold",
        "tau": 0.1,
        "margin": 0.05,
        "alpha": 0.05,
    }
    assert summary["relation_alpha"] == 0.025


async def test_a_skipped_group_gets_an_early_stop_naming_the_decision() -> None:
    samples = adaptive_samples(pool({"dirty": 30}))
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    await manager.start_task(None, samples, 1)  # type: ignore[arg-type]
    stops = []
    for sample in samples:
        stop = await manager.schedule_sample(sample.id, 1)
        if stop is None:
            await manager.complete_sample(sample.id, 1, scores(True))
        else:
            stops.append(stop)
    assert stops and all(isinstance(stop, EarlyStop) for stop in stops)
    assert stops[0].reason is not None and stops[0].reason.startswith("dirty above: interval [")
    assert stops[0].metadata == {"relation": "dirty", "decision": "above"}


async def test_a_pool_that_runs_out_while_open_is_undecided_and_unparsed_groups_do_not_count() -> None:
    samples = adaptive_samples(pool({"small": 12}))
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    await manager.start_task(None, samples, 1)  # type: ignore[arg-type]
    for i, sample in enumerate(samples):
        assert await manager.schedule_sample(sample.id, 1) is None
        await manager.complete_sample(sample.id, 1, scores(False, parsed=i % 2 == 0))
    (row,) = (await manager.complete_task())["relations"]  # type: ignore[misc]
    assert row == {**row, "decision": "undecided", "groups": 6, "violations": 0, "run": 12, "skipped": 0, "pool": 12}


async def test_later_epochs_follow_the_first_and_a_group_counts_once() -> None:
    samples = adaptive_samples(pool({"dirty": 40}))
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    summary = await run(manager, samples, {"dirty": True}, epochs=3)
    (row,) = summary["relations"]  # type: ignore[misc]
    assert row["groups"] == row["run"] < 10  # one outcome per group, not one per epoch
    assert summary["calls"] == {"made": 3 * 2 * row["run"], "uniform": 3 * 2 * 40, "saved": 6 * (40 - row["run"])}


async def test_other_scorers_and_unknown_samples_are_ignored() -> None:
    samples = pool({"A": 2})
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    await manager.start_task(None, samples, 1)  # type: ignore[arg-type]
    assert await manager.schedule_sample("not-a-group", 1) is None
    await manager.complete_sample("not-a-group", 1, scores(True))
    await manager.schedule_sample("A-0", 1)
    await manager.complete_sample("A-0", 1, scores(True, name="grader_read"))
    (row,) = (await manager.complete_task())["relations"]  # type: ignore[misc]
    assert (row["groups"], row["run"]) == (0, 1)


async def test_without_schedule_calls_the_summary_says_nothing_was_skipped() -> None:
    # Inspect consults early stopping only when it logs samples (--no-log-samples: no schedule_sample call)
    samples = pool({"A": 3})
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    await manager.start_task(None, samples, 1)  # type: ignore[arg-type]
    for sample in samples:
        await manager.complete_sample(sample.id, 1, scores(False))
    summary = await manager.complete_task()
    assert summary["calls"] == {"made": 6, "uniform": 6, "saved": 0}
    assert str(summary["skipping"]).startswith("off:")


async def test_start_task_resets_the_manager() -> None:
    samples = adaptive_samples(pool({"dirty": 30}))
    manager = AdaptiveStopping(THRESHOLD, SCORER)
    first = await run(manager, samples, {"dirty": True})
    assert await run(manager, samples, {"dirty": True}) == first


def test_the_manager_needs_an_adaptive_design() -> None:
    with pytest.raises(ValueError, match="needs an adaptive design"):
        AdaptiveStopping(Settings("none"), SCORER)
