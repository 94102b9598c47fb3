"""The LGMT builder: source cases × metamorphic relations → proven metamorphic groups.

Pipeline (paper §3.2–3.4 and §4.3, with every claim proven):

1. Load source cases (generated, FOLIO, ProverQA, LogicNLI); malformed records are skipped and counted.
2. Prove each source label with Z3. Contradictory premises, undecided queries and gold labels the prover
   disagrees with are dropped and counted: the `label` column is always a proven label.
3. For each relation, the candidate pool is every proven source case it applies to (the paper's pool was
   76,298 groups). Candidates are ordered by a hash of (seed, relation, source id), stratified round-robin over
   the gold labels, and applied one by one with a generator seeded from the same triple, until `per_mr`
   follow-ups are proven (§4.3: up to 200 per relation). Each follow-up's proof obligation (equivalence of the
   rewritten formula, or an unchanged label) is discharged by Z3; failures are dropped by reason.
4. English: unchanged premises keep their sentences; changed ones are realised by templates
   (`builders.english`).

Per-item seeds make the output independent of processing order, so the same seed gives byte-identical rows, also
across `num_proc` (`build_lgmt(config, num_proc=2)`: source cases are generated and proven in runs, and each
relation's bucket is built, in worker processes; see `builders.parallel`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import datasets

from lgmt_tasks.builders.cache import BUILD_LOGGER
from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.lgmt.english import followup_english
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.pipeline import (
    SOURCE_STAGE_REVISION,
    SourceConfig,
    load_source_cases,
    ordered_candidates,
    prove_sources,
)

BUILD_REVISION = SOURCE_STAGE_REVISION
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""

SourceName = Literal["generated", "folio", "proverqa", "logicnli"]
CATEGORIES: tuple[str, ...] = ("MR-E", "MR-S", "MR-P", "MR-C")

_FOLLOWUP_FEATURES = {
    "mr": datasets.Value("string"),
    "category": datasets.Value("string"),
    "direction": datasets.Value("string"),
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
        "extra_followups": datasets.List(_FOLLOWUP_FEATURES),
    }
)


@dataclass(frozen=True)
class LgmtConfig:
    """Everything that determines an LGMT build (and so its cache key).

    Attributes:
        source: Where source cases come from.
        source_path: File or folder of the source data (required except for `generated`).
        mrs: Relation ids to build groups for (default: all 20).
        per_mr: Groups per relation (the paper: up to 200).
        seed: Build seed.
        followups: Follow-ups per group (1 as in the paper; k > 1 adds k - 1 follow-ups from other relations).
        compose: 0 for single relations; 2 or 3 for chains of relations proven end to end.
        names: Fresh symbols for MR-S: `abstract` (Con1, Pre1) or `natural` (words).
        direction: Which direction of the MR-E2 laws to use (`forward`, `introduction`, `any`).
        generated_cases: Number of generated source cases (for `source="generated"`).
        timeout_ms: Z3 limit per query.
    """

    source: str = "generated"
    source_path: str | None = None
    mrs: tuple[str, ...] = tuple(RELATIONS)
    per_mr: int = 200
    seed: int = 0
    followups: int = 1
    compose: int = 0
    names: str = "abstract"
    direction: str = "any"
    generated_cases: int = 300
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def __post_init__(self) -> None:
        self.source_config()  # validates the source and its path
        unknown = [m for m in self.mrs if m not in RELATIONS]
        if unknown:
            raise ValueError(f"mrs: unknown relation(s) {unknown}; expected ids among {', '.join(RELATIONS)}")
        if not self.mrs:
            raise ValueError("mrs: at least one relation is needed")
        if self.per_mr < 1:
            raise ValueError(f"per_mr={self.per_mr}: must be at least 1")
        if self.followups < 1:
            raise ValueError(f"followups={self.followups}: must be at least 1")
        if self.compose not in (0, 2, 3):
            raise ValueError(f"compose={self.compose}: expected 0, 2 or 3")
        if self.names not in ("abstract", "natural"):
            raise ValueError(f"names={self.names!r}: expected 'abstract' or 'natural'")
        if self.direction not in ("forward", "introduction", "any"):
            raise ValueError(f"direction={self.direction!r}: expected 'forward', 'introduction' or 'any'")

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card)."""
        return asdict(self)

    def source_config(self) -> SourceConfig:
        """Where this build's source cases come from (the shared source stage's config)."""
        return SourceConfig(self.source, self.source_path, self.seed, self.generated_cases, self.timeout_ms)


@dataclass
class LgmtBuild:
    """A finished build: the rows and the statistics."""

    dataset: datasets.Dataset
    stats: BuildStats = field(default_factory=BuildStats)
    config: LgmtConfig = field(default_factory=LgmtConfig)


def _followup_record(case: Case, fu: FollowUp) -> dict[str, Any]:
    english = followup_english(case, fu)
    return {
        "mr": fu.mr,
        "category": fu.category,
        "direction": fu.direction,
        "changed": fu.changed,
        "premises": list(english.premises),
        "premises_fol": [show(f) for f in fu.premises_fol],
        "conclusion": english.conclusion,
        "conclusion_fol": show(fu.conclusion_fol),
        "_realised": list(english.realised),
        "_realised_conclusion": english.conclusion_realised,
    }


def make_row(case: Case, followups: Sequence[FollowUp], translator: str = "template") -> dict[str, Any]:
    """One dataset row (one metamorphic group) from a source case and its proven follow-ups."""
    first, *extra = [_followup_record(case, fu) for fu in followups]
    realised = first.pop("_realised")
    realised_conclusion = first.pop("_realised_conclusion")
    for e in extra:
        e.pop("_realised")
        e.pop("_realised_conclusion")
    premises_fol = [show(f) for f in case.premises_fol]
    conclusion_fol = show(case.conclusion_fol)
    row = {
        "mr": first["mr"],
        "category": first["category"],
        "direction": first["direction"],
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
    return {"id": content_id(str(row["mr"]), identity), **row}


def _apply_bucket(
    bucket: str,
    candidates: Sequence[Case],
    config: LgmtConfig,
    stats: BuildStats,
    make: Callable[[Case, random.Random], list[FollowUp] | None],
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for case in candidates:
        if len(rows) >= config.per_mr:
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
            rows.append(make_row(case, fus))
            stats.count(bucket, "proven")
    return rows


def _bucket_run(job: tuple[str, Sequence[Case], LgmtConfig]) -> tuple[list[dict[str, Any]], BuildStats]:
    """Build one relation's bucket from its ordered candidates (one unit of work): the rows and the counts."""
    mr, candidates, config = job
    stats = BuildStats()
    make = _maker(mr, config, {"names": config.names, "direction": config.direction})
    return _apply_bucket(mr, candidates, config, stats, make), stats


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
    from tqdm import tqdm

    stats = BuildStats()
    options = {"names": config.names, "direction": config.direction}
    with process_pool(num_proc) as workers:
        cases = prove_sources(
            load_source_cases(config.source_config(), stats, workers), stats, config.timeout_ms, workers
        )
        logging.getLogger(BUILD_LOGGER).info("%d proven source cases; %d relations", len(cases), len(config.mrs))
        jobs = []
        for mr in config.mrs:
            relation = RELATIONS[mr]
            pool = [c for c in cases if relation.applies(c, **options)]
            stats.count(mr, "candidates", len(pool))
            jobs.append((mr, ordered_candidates(pool, mr, config.seed), config))
        with tqdm(total=len(jobs), desc="relations", disable=not progress) as bar:
            buckets = workers.map(_bucket_run, jobs, progress=bar, cost=lambda job: len(job[1]))
    rows: list[dict[str, Any]] = []
    for bucket_rows, bucket_stats in buckets:
        rows.extend(bucket_rows)
        stats.merge(bucket_stats)
    stats.notes["candidate_pool"] = sum(stats.counts[m]["candidates"] for m in config.mrs)
    stats.notes["groups"] = len(rows)
    # A seeded shuffle (by a hash of seed and id) mixes relations, so `--limit N` samples all of them.
    rows.sort(key=lambda r: derived_seed(config.seed, "order", r["id"]))
    return LgmtBuild(dataset_from_rows(rows, FEATURES), stats, config)


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
