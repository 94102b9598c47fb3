"""The LGMT builder: source cases × metamorphic relations → proven metamorphic groups.

Pipeline (paper §3.2–3.4 and §4.3, with every claim proven):

1. Load source cases (generated, FOLIO, ProverQA, LogicNLI, or QMFOL problems of a depth × width grid:
   `lgmt_tasks.sources.qmfol`); malformed records are skipped and counted.
2. Prove each source label with Z3. Contradictory premises, undecided queries and gold labels the prover
   disagrees with are dropped and counted: the `label` column is always a proven label.
3. For each relation, the candidate pool is every proven source case it applies to (the paper's pool was
   76,298 groups). Candidates are ordered by a hash of (seed, relation, source id), stratified round-robin over
   the gold labels (QMFOL cases: over their (depth, width) cell and label), and applied one by one with a
   generator seeded from the same triple, until `per_mr` follow-ups are proven (§4.3: up to 200 per relation).
   Each follow-up's proof obligation (equivalence of the rewritten formula, or an unchanged label) is discharged
   by Z3; failures are dropped by reason. Every relation gets the build's options (`relation_options`): which MR-E
   sites count (`direction`, default `paper`: the paper's reading of each law, so a relation may have no candidate)
   and whether MR-P4 adds the fused conjunction to the premises (`p4="add"`, the paper) or replaces the two premises,
   and MR-P5 its conjuncts (`p5="add"`, the paper) or replaces the conjunction.
   Each row records the follow-up's `direction` (forward / introduction / extended), its `variant` (`paper` when the
   site is in the paper's reading) and the specific `law` applied.
4. English: unchanged premises keep their sentences; changed ones are realised by templates, with the source's own
   sentences spliced in for unchanged sub-formulas (`lgmt.english`). A renaming group (MR-S) whose English still
   names the old symbol, or names the new one where its formula does not, is dropped as `RENAMING_LEFT`.
   A source sentence the realiser re-says in a group is checked against its own FOL (`lgmt.source_fidelity`:
   embedding similarity of the source English and the realisation of its formula); the statistics count the
   flagged sentences and the groups resting on one (note `source_fidelity`), and `drop_unfaithful` drops those
   groups (reason `FLAGGED_SOURCE`; the next candidate is tried).

Per-item seeds make the output independent of processing order, so the same seed gives byte-identical rows, also
across `num_proc` (`build_lgmt(config, num_proc=2)`: source cases are generated and proven in runs, and each
relation's bucket is built, in worker processes; see `builders.parallel`).

Several sources (`LgmtConfig.extra_sources`) are loaded one after the other and pooled: candidates are ordered by
the hash of (seed, relation, source dataset, source id), so the pool does not depend on the order the sources are
given in. `per_mr="all"` builds every applicable (case, relation) pair, the paper-scale pool.

Sharding (`build_lgmt_shard`): the relation stage is cut into units of work (`_Job`: a relation's bucket, or with
`per_mr="all"` a run of its candidates, since then no unit depends on another); a shard runs the units
`builders.parallel.assign_shards` gives it, after loading and proving all sources (each shard repeats that cheaper
stage). `merge_shards` puts the units back in order and finishes exactly as `build_lgmt` does, so the merged rows
and statistics are byte-identical to the unsharded build's.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import datasets

from lgmt_tasks.builders.cache import BUILD_LOGGER
from lgmt_tasks.builders.parallel import Shard, Workers, assign_shards, process_pool
from lgmt_tasks.builders.result import Build
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english import RENAMING_LEFT, FollowUpEnglish, followup_english
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.lgmt.source_fidelity import (
    FLAGGED_SOURCE,
    INDEPENDENT_ENGLISH,
    NOTE,
    UNIT_NOTE,
    Group,
    SentenceCheck,
    check_group,
    check_groups,
    summary,
    unit_note,
)
from lgmt_tasks.logic.printer import show
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.pipeline import (
    SOURCE_STAGE_REVISION,
    load_sources,
    ordered_candidates,
    prove_sources,
)

BUILD_REVISION = SOURCE_STAGE_REVISION
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""

SourceName = Literal["generated", "folio", "proverqa", "logicnli", "qmfol", "logicasker"]
RUN_SIZE = 250
"""Candidates per unit of work when `per_mr="all"` (then a bucket's candidates are independent): small enough to
balance two processes or many shards, large enough that pickling is negligible. The output does not depend on it."""

_FOLLOWUP_FEATURES = {
    "mr": datasets.Value("string"),
    "category": datasets.Value("string"),
    "direction": datasets.Value("string"),
    "variant": datasets.Value("string"),
    "law": datasets.Value("string"),
    "changed": datasets.Value("string"),
    "premises": datasets.List(datasets.Value("string")),
    "premises_fol": datasets.List(datasets.Value("string")),
    "conclusion": datasets.Value("string"),
    "conclusion_fol": datasets.Value("string"),
}

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "mr": datasets.Value("string"),
        "category": datasets.Value("string"),
        "direction": datasets.Value("string"),
        "variant": datasets.Value("string"),
        "law": datasets.Value("string"),
        "source_dataset": datasets.Value("string"),
        "source_id": datasets.Value("string"),
        "premises": datasets.List(datasets.Value("string")),
        "premises_fol": datasets.List(datasets.Value("string")),
        "conclusion": datasets.Value("string"),
        "conclusion_fol": datasets.Value("string"),
        "label": datasets.Value("string"),
        "followup_premises": datasets.List(datasets.Value("string")),
        "followup_premises_fol": datasets.List(datasets.Value("string")),
        "followup_conclusion": datasets.Value("string"),
        "followup_conclusion_fol": datasets.Value("string"),
        "changed": datasets.Value("string"),
        "site": datasets.Value("string"),
        "translator": datasets.Value("string"),
        "realised_premises": datasets.List(datasets.Value("int32")),
        "realised_conclusion": datasets.Value("bool"),
        "spliced_premises": datasets.List(datasets.Value("int32")),
        "spliced_conclusion": datasets.Value("bool"),
        "extra_followups": datasets.List(_FOLLOWUP_FEATURES),
    }
)


class LgmtBuild(Build[LgmtConfig]):
    """A finished LGMT build: its rows, statistics and config."""


def relation_options(config: LgmtConfig) -> dict[str, str]:
    """The relation options of a build (`relations.base.Options`): MR-S/P3 names, MR-E direction, MR-P4/P5 mode."""
    return {"names": config.names, "direction": config.direction, "fuse": config.p4, "split": config.p5}


def _followup_record(case: Case, fu: FollowUp) -> dict[str, Any]:
    english = followup_english(case, fu)
    return {
        "_problems": list(english.problems),
        "_renaming_fallbacks": english.renaming_fallbacks,
        "mr": fu.mr,
        "category": fu.category,
        "direction": fu.direction,
        "variant": fu.variant,
        "law": fu.law,
        "changed": fu.changed,
        "premises": list(english.premises),
        "premises_fol": [show(f) for f in fu.premises_fol],
        "conclusion": english.conclusion,
        "conclusion_fol": show(fu.conclusion_fol),
        "_realised": list(english.realised),
        "_realised_conclusion": english.conclusion_realised,
        "_english": english,
    }


def checked_row(
    case: Case, followups: Sequence[FollowUp], translator: str = "template"
) -> tuple[dict[str, Any], list[str], int, list[FollowUpEnglish]]:
    """One dataset row (one metamorphic group) from a source case and its proven follow-ups, checked.

    Returned with why its English fails the renaming check (`english.renaming_problems`; empty when it passes), how
    many renamed sentences were realised from their formula because their edited source sentence failed the check,
    and each follow-up's English, which says which sentences the realiser wrote (what `source_fidelity.check_group`
    reads).
    """
    first, *extra = [_followup_record(case, fu) for fu in followups]
    realised = first.pop("_realised")
    realised_conclusion = first.pop("_realised_conclusion")
    problems: list[str] = []
    fallbacks = 0
    englishes: list[FollowUpEnglish] = []
    for e in [first, *extra]:
        problems += e.pop("_problems")
        fallbacks += e.pop("_renaming_fallbacks")
        englishes.append(e.pop("_english"))
    for e in extra:
        e.pop("_realised")
        e.pop("_realised_conclusion")
    premises_fol = [show(f) for f in case.premises_fol]
    conclusion_fol = show(case.conclusion_fol)
    row = {
        "mr": first["mr"],
        "category": first["category"],
        "direction": first["direction"],
        "variant": first["variant"],
        "law": first["law"],
        "source_dataset": case.source_dataset,
        "source_id": case.source_id,
        "premises": list(case.premises),
        "premises_fol": premises_fol,
        "conclusion": case.conclusion,
        "conclusion_fol": conclusion_fol,
        "label": case.label,
        "followup_premises": first["premises"],
        "followup_premises_fol": first["premises_fol"],
        "followup_conclusion": first["conclusion"],
        "followup_conclusion_fol": first["conclusion_fol"],
        "changed": first["changed"],
        "site": followups[0].site,
        "translator": translator,
        "realised_premises": realised,
        "realised_conclusion": realised_conclusion,
        "spliced_premises": list(englishes[0].spliced),
        "spliced_conclusion": englishes[0].conclusion_spliced,
        "extra_followups": extra,
    }
    identity = [
        row["mr"],
        case.source_dataset,
        case.source_id,
        premises_fol,
        conclusion_fol,
        [[e["premises_fol"], e["conclusion_fol"]] for e in [first, *extra]],
    ]
    return {"id": content_id(str(row["mr"]), identity), **row}, problems, fallbacks, englishes


def _apply_bucket(
    bucket: str,
    candidates: Sequence[Case],
    config: LgmtConfig,
    stats: BuildStats,
    make: Callable[[Case, random.Random], list[FollowUp] | None],
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    checked: list[SentenceCheck] = []
    unavailable: str | None = None
    deferred: list[Group] = []
    cap = config.cap
    for case in candidates:
        if cap is not None and len(rows) >= cap:
            break
        rng = random.Random(derived_seed(config.seed, bucket, case.source_dataset, case.source_id))
        fus = make(case, rng)
        stats.count(bucket, "tried")
        if not fus:
            stats.drop(bucket, "no follow-up at the sampled site")
            continue
        ok = True
        for fu in fus:
            outcome = verify(case, fu, timeout_ms=config.timeout_ms, source_label=case.label)
            if not outcome.proven:
                stats.drop(bucket, outcome.reason, ids=[case.source_id])
                ok = False
                break
        if ok:
            row, problems, fallbacks, englishes = checked_row(case, fus)
            if fallbacks:  # renamed sentences realised from their formula (issue #26)
                stats.count(bucket, "renamed sentences realised", fallbacks)
            if problems:  # English that still names a renamed symbol never ships (issue #26)
                stats.drop(bucket, RENAMING_LEFT, ids=[case.source_id])
                continue
            # Source English its FOL may not say, re-said by the realiser (issue #26): flagged, dropped if asked.
            if config.drop_unfaithful:  # the next candidate depends on this one's result: check it now
                fidelity = check_group(case, fus, englishes)
                checked += fidelity.checks
                unavailable = unavailable or fidelity.unavailable
                if fidelity.rests_on_flagged:
                    stats.drop(bucket, FLAGGED_SOURCE, ids=[case.source_id])
                    continue
            elif config.check_fidelity:  # only counted: checked with the unit's other groups, in one batch, in order
                deferred.append((case, fus, englishes))
            rows.append(row)
            stats.count(bucket, "proven")
    for fidelity in check_groups(deferred) if deferred else ():
        checked += fidelity.checks
        unavailable = unavailable or fidelity.unavailable
        if fidelity.rests_on_flagged:
            stats.count(bucket, FLAGGED_SOURCE)
    if checked or unavailable:
        stats.notes[UNIT_NOTE] = unit_note(checked, unavailable)
    return rows


_Job = tuple[str, Sequence[Case], LgmtConfig]
"""One unit of the relation stage: a relation id, its candidates (all of them, or a run when `per_mr="all"`) and
the config."""

_JobResult = tuple[list[dict[str, Any]], BuildStats]


def _bucket_run(job: _Job) -> _JobResult:
    """Build one unit of a relation's bucket from its ordered candidates: the rows and the counts."""
    mr, candidates, config = job
    stats = BuildStats()
    make = _maker(mr, config, relation_options(config))
    return _apply_bucket(mr, candidates, config, stats, make), stats


@dataclass
class LgmtPlan:
    """The relation stage's units of work after the source stage: what every shard computes in full.

    Attributes:
        base: The statistics of the source stage and the candidate counts (identical in every shard).
        jobs: The units, in the build's order.
    """

    base: BuildStats
    jobs: list[_Job]


def plan_lgmt(config: LgmtConfig, workers: Workers) -> LgmtPlan:
    """Load and prove the sources, find each relation's candidates, and cut the relation stage into units."""
    stats = BuildStats()
    options = relation_options(config)
    cases = prove_sources(load_sources(config.source_configs(), stats, workers), stats, config.timeout_ms, workers)
    logging.getLogger(BUILD_LOGGER).info("%d proven source cases; %d relations", len(cases), len(config.mrs))
    multi = len(config.sources()) > 1
    if multi:
        proven: dict[str, int] = {}
        for case in cases:
            proven[case.source_dataset] = proven.get(case.source_dataset, 0) + 1
        stats.notes["proven_by_source"] = dict(sorted(proven.items()))
    jobs: list[_Job] = []
    pools: dict[str, dict[str, int]] = {}
    for mr in config.mrs:
        relation = RELATIONS[mr]
        pool = [c for c in cases if relation.applies(c, **options)]
        stats.count(mr, "candidates", len(pool))
        for case in pool:
            by_mr = pools.setdefault(case.source_dataset, {})
            by_mr[mr] = by_mr.get(mr, 0) + 1
        ordered = ordered_candidates(pool, mr, config.seed)
        if config.cap is None:
            # No cap: candidates do not depend on each other, so runs of them are independent units.
            jobs.extend((mr, ordered[i : i + RUN_SIZE], config) for i in range(0, len(ordered), RUN_SIZE))
        else:
            jobs.append((mr, ordered, config))
    if multi:
        stats.notes["pool_by_source"] = {s: pools[s] for s in sorted(pools)}
    return LgmtPlan(stats, jobs)


def _run_jobs(plan: LgmtPlan, indices: Sequence[int], workers: Workers, progress: bool) -> dict[int, _JobResult]:
    from tqdm import tqdm

    jobs = [plan.jobs[i] for i in indices]
    with tqdm(total=len(jobs), desc="relation units", disable=not progress) as bar:
        results = workers.map(_bucket_run, jobs, progress=bar, cost=lambda job: len(job[1]))
    return dict(zip(indices, results))


def finish_lgmt(config: LgmtConfig, base: BuildStats, results: Sequence[_JobResult]) -> LgmtBuild:
    """The build from the source stage's statistics and every unit's result, in unit order."""
    stats = BuildStats()
    stats.merge(base)
    rows: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for bucket_rows, bucket_stats in results:
        rows.extend(bucket_rows)
        if UNIT_NOTE in bucket_stats.notes:
            units.append(bucket_stats.notes[UNIT_NOTE])
        stats.merge(bucket_stats)
    stats.notes.pop(UNIT_NOTE, None)
    checking = config.check_fidelity or config.drop_unfaithful
    if checking and any(source in INDEPENDENT_ENGLISH for source, _ in config.sources()):
        resting = sum(counter[FLAGGED_SOURCE] for counter in stats.counts.values())
        dropped = sum(counter[FLAGGED_SOURCE] for counter in stats.dropped.values())
        stats.notes[NOTE] = summary(units, resting, dropped, config.drop_unfaithful)
        if config.drop_unfaithful and str(stats.notes[NOTE]["status"]).startswith("unavailable"):
            logging.getLogger(BUILD_LOGGER).warning("drop_unfaithful: %s", stats.notes[NOTE]["status"])
    stats.notes["candidate_pool"] = sum(stats.counts[m]["candidates"] for m in config.mrs)
    stats.notes["groups"] = len(rows)
    if len(config.sources()) > 1:
        groups: dict[str, dict[str, int]] = {}
        for row in rows:
            by_mr = groups.setdefault(row["source_dataset"], {})
            by_mr[row["mr"]] = by_mr.get(row["mr"], 0) + 1
        stats.notes["groups_by_source"] = {s: dict(sorted(groups[s].items())) for s in sorted(groups)}
        used: dict[str, set[str]] = {}  # distinct source cases that made at least one group, per source
        for row in rows:
            used.setdefault(row["source_dataset"], set()).add(row["source_id"])
        stats.notes["used_by_source"] = {s: len(used[s]) for s in sorted(used)}
    # A seeded shuffle (by a hash of seed and id) mixes relations, so `--limit N` samples all of them.
    rows.sort(key=lambda r: derived_seed(config.seed, "order", r["id"]))
    return LgmtBuild(dataset_from_rows(rows, FEATURES), stats, config)


def build_lgmt(config: LgmtConfig, progress: bool = False, num_proc: int = 1) -> LgmtBuild:
    """Build LGMT groups for a config. See the module docstring for the pipeline.

    Args:
        config: What to build.
        progress: Show a progress bar over the relations.
        num_proc: Processes to build with (the rows and statistics do not depend on it; it is not part of the
            config, so not of the cache key either).

    Returns:
        The build.
    """
    with process_pool(num_proc) as workers:
        plan = plan_lgmt(config, workers)
        results = _run_jobs(plan, range(len(plan.jobs)), workers, progress)
    return finish_lgmt(config, plan.base, [results[i] for i in range(len(plan.jobs))])


@dataclass
class LgmtShard:
    """One shard of a build: its units' results, and what `merge_shards` needs to check and finish the build.

    Attributes:
        config: The whole build's config (the same in every shard).
        shard: Which shard this is.
        base: The source stage's statistics (the same in every shard).
        jobs: How many units the whole build has.
        results: This shard's units, by unit index.
    """

    config: LgmtConfig
    shard: Shard
    base: BuildStats
    jobs: int
    results: dict[int, _JobResult]


def build_lgmt_shard(config: LgmtConfig, shard: Shard, progress: bool = False, num_proc: int = 1) -> LgmtShard:
    """Build only the units of work `shard` owns (every shard loads and proves all the sources first)."""
    with process_pool(num_proc) as workers:
        plan = plan_lgmt(config, workers)
        owner = assign_shards([len(job[1]) for job in plan.jobs], shard.count)
        mine = [i for i, s in enumerate(owner) if s == shard.index]
        results = _run_jobs(plan, mine, workers, progress)
    return LgmtShard(config, shard, plan.base, len(plan.jobs), results)


def merge_shards(shards: Sequence[LgmtShard]) -> LgmtBuild:
    """The unsharded build from all the shards of one build (in any order).

    Raises:
        ValueError: No shards; shards of different builds (config, shard count, source stage); a shard missing
            or given twice; a unit missing or in two shards.
    """
    if not shards:
        raise ValueError("merge_shards: no shards given")
    first = shards[0]
    for other in shards[1:]:
        if other.config != first.config:
            raise ValueError(f"shard {other.shard} was built with another config than shard {first.shard}")
        if other.shard.count != first.shard.count or other.jobs != first.jobs:
            raise ValueError(
                f"shard {other.shard} is from a split into {other.shard.count} shards of {other.jobs} units, "
                f"shard {first.shard} from {first.shard.count} shards of {first.jobs}"
            )
        if other.base.to_dict() != first.base.to_dict():
            raise ValueError(f"shards {first.shard} and {other.shard} disagree on the source stage")
    indices = sorted(s.shard.index for s in shards)
    if indices != list(range(first.shard.count)):
        missing = sorted(set(range(first.shard.count)) - set(indices))
        twice = sorted({i for i in indices if indices.count(i) > 1})
        raise ValueError(
            f"merge_shards: need shards 0..{first.shard.count - 1} once each; missing {missing}, repeated {twice}"
        )
    results: dict[int, _JobResult] = {}
    for shard in shards:
        for index, result in shard.results.items():
            if index in results:
                raise ValueError(f"unit {index} is in more than one shard")
            results[index] = result
    missing_units = sorted(set(range(first.jobs)) - set(results))
    if missing_units:
        raise ValueError(f"merge_shards: units {missing_units[:10]} are in no shard")
    return finish_lgmt(first.config, first.base, [results[i] for i in range(first.jobs)])


def _maker(
    mr: str, config: LgmtConfig, options: dict[str, Any]
) -> Callable[[Case, random.Random], list[FollowUp] | None]:
    """How one group of a bucket is made: one relation, a composed chain, or several follow-ups."""
    from lgmt_tasks.lgmt.relations.compose import compose_random, followups

    others = [RELATIONS[m] for m in config.mrs if m != mr]

    def make(case: Case, rng: random.Random) -> list[FollowUp] | None:
        relation = RELATIONS[mr]
        if config.compose:
            fu = compose_random(relation, [RELATIONS[m] for m in config.mrs], config.compose, case, rng, **options)
            return [fu] if fu is not None else None
        first = relation.apply(case, rng, **options)
        if first is None:
            return None
        if config.followups == 1:
            return [first]
        rest = followups(case, others, config.followups - 1, rng, **options)
        return [first, *rest]

    return make
