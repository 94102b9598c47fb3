"""The lexical (LLMorph) builder: the LGMT source cases × text-level relations × parts → metamorphic groups.

Pipeline:

1. Source cases are loaded and proven by the source stage LGMT shares (`lgmt_tasks.sources.pipeline`), so
   the same seed and source give the same `(source_dataset, source_id)` pairs and labels as an LGMT build: the two
   families can be compared group for group.
2. One seeded order of the proven cases (stratified round-robin over the gold labels, bucket `lexical`) is shared by
   every (relation, part) variant, so every lexical relation is tried on the same source cases first.
3. Function-based relations are applied with a generator seeded from (seed, relation, part, source id) until
   `per_mr` follow-ups per variant are built; cases a relation cannot change are dropped and counted.
4. LLM-based relations are *planned* (which premises, whether the conclusion) with the same per-group seed. With a
   transformer model (`lgmt build lexical --transformer-model M`) the plans are carried out here, failures are
   dropped and counted, and the next source cases are tried until `per_mr` follow-ups are built. Without one, the
   rows stay `pending` and the task's solver transforms them at eval time (`solvers/lexical.py`).

Nothing here is proven beyond the source labels: the follow-up of a lexical relation has no FOL, and whether it
keeps the label is exactly what the baseline assumes and LGMT questions (§2.3.2).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import datasets
from inspect_ai.model import Model

from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.lexical.catalogue import FUNCTION_BASED, LEXICAL_RELATIONS, PARTS, variants
from lgmt_tasks.lexical.llm import plan_sites, transform_followup
from lgmt_tasks.lexical.transforms import NotApplicable, apply_function, changed_indices
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

BUILD_REVISION = f"1+lgmt{SOURCE_STAGE_REVISION}"
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key); it
includes LGMT's revision because the source cases come from the LGMT builder."""

ORDER_BUCKET = "lexical"
"""The bucket name of the shared candidate order (`ordered_candidates(cases, ORDER_BUCKET, seed)`)."""

FUNCTION_TRANSFORMER = "function"
"""The `transformer` column of function-based rows (LLM rows name the model; pending rows are empty)."""

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "mr": datasets.Value("string"),
        "name": datasets.Value("string"),
        "kind": datasets.Value("string"),
        "expected": datasets.Value("string"),
        "part": datasets.Value("string"),
        "source_dataset": datasets.Value("string"),
        "source_id": datasets.Value("string"),
        "premises": datasets.List(datasets.Value("string")),
        "premises_fol": datasets.List(datasets.Value("string")),
        "conclusion": datasets.Value("string"),
        "conclusion_fol": datasets.Value("string"),
        "label": datasets.Value("string"),
        "followup_premises": datasets.List(datasets.Value("string")),
        "followup_conclusion": datasets.Value("string"),
        "changed_premises": datasets.List(datasets.Value("int32")),
        "changed_conclusion": datasets.Value("bool"),
        "transformer": datasets.Value("string"),
        "pending": datasets.Value("bool"),
    }
)


@dataclass(frozen=True)
class LexicalConfig:
    """Everything that determines a lexical build (and so its cache key).

    Attributes:
        source: Where source cases come from (as for LGMT).
        source_path: File or folder of the source data (required except for `generated`).
        mrs: Relation ids (Table II), in catalogue order; default: the function-based ones.
        parts: Parts to transform (`premises`, `conclusion`, `both`); MR-49 always has the single part `none`.
        per_mr: Groups per (relation, part) variant.
        seed: Build seed; also the generation seed of the `generated` source, as in LGMT.
        generated_cases: Number of generated source cases (for `source="generated"`), as in LGMT.
        timeout_ms: Z3 limit per source-label query.
        transformer: The model that made the LLM-based follow-ups (set by the build, for the card and the cache key;
            None when LLM rows are left pending).
    """

    source: str = "generated"
    source_path: str | None = None
    mrs: tuple[str, ...] = FUNCTION_BASED
    parts: tuple[str, ...] = PARTS
    per_mr: int = 100
    seed: int = 0
    generated_cases: int = 300
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    transformer: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "mrs", tuple(self.mrs))
        object.__setattr__(self, "parts", tuple(self.parts))
        self.source_config()  # validates the source and its path
        unknown = [m for m in self.mrs if m not in LEXICAL_RELATIONS]
        if unknown or not self.mrs:
            raise ValueError(f"mrs={list(self.mrs)}: expected one or more of {', '.join(LEXICAL_RELATIONS)}")
        bad_parts = [p for p in self.parts if p not in PARTS]
        if bad_parts or not self.parts:
            raise ValueError(f"parts={list(self.parts)}: expected one or more of {', '.join(PARTS)}")
        if self.per_mr < 1:
            raise ValueError(f"per_mr={self.per_mr}: must be at least 1")

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card)."""
        return asdict(self)

    def source_config(self) -> SourceConfig:
        """Where this build's source cases come from: the same loader, seed and prover limit as LGMT's."""
        return SourceConfig(self.source, self.source_path, self.seed, self.generated_cases, self.timeout_ms)


@dataclass
class LexicalBuild:
    """A finished build: the rows and the statistics."""

    dataset: datasets.Dataset
    stats: BuildStats = field(default_factory=BuildStats)
    config: LexicalConfig = field(default_factory=LexicalConfig)


def group_rng(seed: int, mr: str, part: str, case: Case) -> random.Random:
    """The generator of one group: independent of build order, so any subset builds the same rows."""
    return random.Random(derived_seed(seed, mr, part, case.source_dataset, case.source_id))


def make_row(
    case: Case,
    mr: str,
    part: str,
    followup_premises: Sequence[str],
    followup_conclusion: str,
    changed_premises: Sequence[int],
    changed_conclusion: bool,
    transformer: str,
    pending: bool = False,
) -> dict[str, Any]:
    """One dataset row (one metamorphic group: a source case and one lexical follow-up)."""
    relation = LEXICAL_RELATIONS[mr]
    row: dict[str, Any] = {
        "mr": mr,
        "name": relation.name,
        "kind": relation.kind,
        "expected": relation.expected,
        "part": part,
        "source_dataset": case.source_dataset,
        "source_id": case.source_id,
        "premises": list(case.premises),
        "premises_fol": [show(f) for f in case.premises_fol],
        "conclusion": case.conclusion,
        "conclusion_fol": show(case.conclusion_fol),
        "label": case.label,
        "followup_premises": list(followup_premises),
        "followup_conclusion": followup_conclusion,
        "changed_premises": list(changed_premises),
        "changed_conclusion": changed_conclusion,
        "transformer": transformer,
        "pending": pending,
    }
    return with_id(row)


def with_id(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its content-derived `id` first: a hash of the relation, part, source and follow-up text."""
    fields = [k for k in FEATURES if k not in ("id", "name", "kind", "expected", "premises_fol", "conclusion_fol")]
    body = {k: v for k, v in row.items() if k != "id"}
    return {"id": content_id(f"{row['mr']}.{row['part']}", [body[k] for k in fields]), **body}


def function_rows(
    mr: str, part: str, order: Sequence[Case], config: LexicalConfig, stats: BuildStats
) -> list[dict[str, Any]]:
    """Apply a function-based relation to the ordered cases until `per_mr` follow-ups are built."""
    bucket = f"{mr}/{part}"
    rows: list[dict[str, Any]] = []
    for case in order:
        if len(rows) >= config.per_mr:
            break
        stats.count(bucket, "tried")
        result = apply_function(mr, case.premises, case.conclusion, part, group_rng(config.seed, mr, part, case))
        if isinstance(result, NotApplicable):
            stats.drop(bucket, result.reason)
            continue
        rows.append(
            make_row(
                case,
                mr,
                part,
                result.premises,
                result.conclusion,
                result.changed_premises,
                result.changed_conclusion,
                FUNCTION_TRANSFORMER,
            )
        )
        stats.count(bucket, "built")
    return rows


def planned_rows(mr: str, part: str, order: Sequence[Case], seed: int) -> Iterator[dict[str, Any]]:
    """The pending rows of an LLM-based relation, one per case in order: the plan, with the source as follow-up."""
    for case in order:
        sites, conclusion = plan_sites(mr, len(case.premises), part, group_rng(seed, mr, part, case).randrange(2**31))
        yield make_row(case, mr, part, case.premises, case.conclusion, sites, conclusion, "", pending=True)


def complete_row(row: dict[str, Any], premises: Sequence[str], conclusion: str, transformer: str) -> dict[str, Any]:
    """A pending row with its follow-up text filled in by `transformer` (a new id: the content changed)."""
    return with_id(
        {
            **row,
            "followup_premises": list(premises),
            "followup_conclusion": conclusion,
            "changed_premises": list(changed_indices(row["premises"], premises)),
            "changed_conclusion": conclusion != row["conclusion"],
            "transformer": transformer,
            "pending": False,
        }
    )


async def _complete_bucket(
    model: Model, mr: str, part: str, order: Sequence[Case], config: LexicalConfig, stats: BuildStats
) -> list[dict[str, Any]]:
    """Transform planned rows in rounds (concurrently within a round) until `per_mr` succeed or cases run out."""
    bucket = f"{mr}/{part}"
    plans = planned_rows(mr, part, order, config.seed)
    rows: list[dict[str, Any]] = []
    while len(rows) < config.per_mr:
        batch = [plan for _, plan in zip(range(config.per_mr - len(rows)), plans)]
        if not batch:
            break
        results = await asyncio.gather(
            *(
                transform_followup(
                    model,
                    mr,
                    plan["premises"],
                    plan["conclusion"],
                    plan["changed_premises"],
                    plan["changed_conclusion"],
                )
                for plan in batch
            )
        )
        for plan, result in zip(batch, results, strict=True):
            stats.count(bucket, "tried")
            if not result.ok:
                stats.drop(bucket, result.reason)
                continue
            rows.append(complete_row(plan, result.premises, result.conclusion, str(model)))
            stats.count(bucket, "built")
    return rows


def build_lexical(
    config: LexicalConfig, progress: bool = False, transformer: str | Model | None = None, num_proc: int = 1
) -> LexicalBuild:
    """Build lexical groups for a config. See the module docstring for the pipeline.

    Args:
        config: The build configuration.
        progress: Show a progress bar over the variants.
        transformer: The model (any Inspect model name, or a `Model`) that makes the LLM-based follow-ups now;
            None leaves them pending for the eval-time solver.
        num_proc: Processes for the source stage (generating and proving source cases, as in LGMT); the rows and
            statistics do not depend on it, and it is not part of the config, so not of the cache key either.

    Returns:
        The build: rows sorted by id (content-hash order mixes relations, so `--limit` samples all of them).
    """
    from tqdm import tqdm

    stats = BuildStats()
    with process_pool(num_proc) as workers:
        raw = load_source_cases(config.source_config(), stats, workers)
        cases = prove_sources(raw, stats, config.timeout_ms, workers)
    order = ordered_candidates(cases, ORDER_BUCKET, config.seed)
    rows: list[dict[str, Any]] = []
    llm_variants: list[tuple[str, str]] = []
    for mr, part in tqdm(variants(config.mrs, config.parts), desc="variants", disable=not progress):
        stats.count(f"{mr}/{part}", "candidates", len(order))
        if LEXICAL_RELATIONS[mr].kind == "function":
            rows.extend(function_rows(mr, part, order, config, stats))
        elif transformer is None:
            planned = [plan for _, plan in zip(range(config.per_mr), planned_rows(mr, part, order, config.seed))]
            stats.count(f"{mr}/{part}", "pending", len(planned))
            rows.extend(planned)
        else:
            llm_variants.append((mr, part))
    if llm_variants and transformer is not None:
        rows.extend(_run_transformer(transformer, llm_variants, order, config, stats))
    stats.notes["source_cases"] = len(cases)
    stats.notes["groups"] = len(rows)
    rows.sort(key=lambda r: r["id"])
    # `from_list([])` would lose the columns; an empty build keeps them (the CLI and the loader report it)
    table = datasets.Dataset.from_list(rows, features=FEATURES) if rows else empty_dataset()
    return LexicalBuild(table, stats, config)


def empty_dataset() -> datasets.Dataset:
    """An empty dataset with the lexical columns."""
    return datasets.Dataset.from_dict({name: [] for name in FEATURES}, features=FEATURES)


def _run_transformer(
    transformer: str | Model,
    llm_variants: Sequence[tuple[str, str]],
    order: Sequence[Case],
    config: LexicalConfig,
    stats: BuildStats,
) -> list[dict[str, Any]]:
    from inspect_ai.model import get_model

    async def run() -> list[dict[str, Any]]:
        model = get_model(transformer)
        stats.notes["transformer"] = str(model)
        done = await asyncio.gather(
            *(_complete_bucket(model, mr, part, order, config, stats) for mr, part in llm_variants)
        )
        return [row for rows in done for row in rows]

    return asyncio.run(run())
