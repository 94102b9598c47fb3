"""The lexical (LLMorph) builder: the LGMT source cases × text-level relations × parts → metamorphic groups.

Pipeline:

1. Source cases are loaded and proven by the source stage LGMT shares (`lgmt_tasks.sources.pipeline`), so
   the same seed and source give the same `(source_dataset, source_id)` pairs and labels as an LGMT build: the two
   families can be compared group for group.
2. One seeded order of the proven cases (stratified round-robin over the gold labels, bucket `lexical`) is shared by
   every (relation, part) variant, so every lexical relation is tried on the same source cases first.
3. A relation is tried only on the sources whose gold label it is tested on (difference relations not on Unknown
   sources, MR-77 to MR-80 only on True ones: `catalogue.SOURCE_LABELS`); the others are dropped and counted.
4. Function-based relations are applied with a generator seeded from (seed, relation, part, source id) until
   `per_mr` follow-ups per variant are built; cases a relation cannot change are dropped and counted.
5. LLM-based relations are *planned* (which premises, whether the conclusion) with the same per-group seed; MR-152's
   plan is the negation whose change of label Z3 proves (`expectations.plan_negation`). With a transformer model
   (`lgmt build lexical --transformer-model M`) the plans are carried out here, failures are dropped and counted,
   and the next source cases are tried until `per_mr` follow-ups are built. Without one, the rows stay `pending`
   and the task's solver transforms them at eval time (`solvers/lexical.py`).

Every row states the expected follow-up label and its basis (`expectations`): proven by Z3 where the
transformation has a logical reading (MR-19, MR-84, MR-152; the follow-up's FOL is in the row for `lgmt verify`),
otherwise LLMorph's claim, assumed or unproven. Whether a typo or a paraphrase keeps the label is exactly what the
baseline assumes and LGMT questions (§2.3.2); how often the follow-ups drift from the source's logic is measured on the
built rows, per relation (`drift.drift_note`), and recorded as `notes.drift` of the build statistics.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator, Sequence
from typing import Any

import datasets
from inspect_ai.model import Model

from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.result import Build
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS, variants
from lgmt_tasks.lexical.config import LexicalConfig
from lgmt_tasks.lexical.drift import DRIFT_NOTE, drift_note
from lgmt_tasks.lexical.expectations import (
    Dropped,
    Expectation,
    claimed,
    plan_negation,
    prove_added_premise,
    prove_permutation,
    source_allowed,
    source_filter_reason,
)
from lgmt_tasks.lexical.llm import plan_sites, transform_followup, transform_seed
from lgmt_tasks.lexical.transforms import NotApplicable, apply_function, changed_indices
from lgmt_tasks.logic.printer import show
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.pipeline import (
    SOURCE_STAGE_REVISION,
    load_source_cases,
    ordered_candidates,
    prove_sources,
)

BUILD_REVISION = f"3+lgmt{SOURCE_STAGE_REVISION}"
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
        "followup_label": datasets.Value("string"),
        "expectation": datasets.Value("string"),
        "followup_premises": datasets.List(datasets.Value("string")),
        "followup_conclusion": datasets.Value("string"),
        "changed_premises": datasets.List(datasets.Value("int32")),
        "changed_conclusion": datasets.Value("bool"),
        "followup_premises_fol": datasets.List(datasets.Value("string")),
        "followup_conclusion_fol": datasets.Value("string"),
        "transformer": datasets.Value("string"),
        "pending": datasets.Value("bool"),
    }
)

DERIVED_COLUMNS: tuple[str, ...] = (
    *("name", "kind", "expected", "premises_fol", "conclusion_fol"),
    *("followup_label", "expectation", "followup_premises_fol", "followup_conclusion_fol"),
)
"""Columns that follow from the others (the catalogue, the source, the proof): not part of a row's content id."""


class LexicalBuild(Build[LexicalConfig]):
    """A finished lexical build: its rows, statistics and config."""


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
    expectation: Expectation,
    pending: bool = False,
) -> dict[str, Any]:
    """One dataset row (one metamorphic group: a source case, one lexical follow-up, and its expected answer)."""
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
        "followup_label": expectation.followup_label,
        "expectation": expectation.basis,
        "followup_premises": list(followup_premises),
        "followup_conclusion": followup_conclusion,
        "changed_premises": list(changed_premises),
        "changed_conclusion": changed_conclusion,
        "followup_premises_fol": [show(f) for f in expectation.premises_fol],
        "followup_conclusion_fol": "" if expectation.conclusion_fol is None else show(expectation.conclusion_fol),
        "transformer": transformer,
        "pending": pending,
    }
    return with_id(row)


def with_id(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its content-derived `id` first: a hash of the relation, part, source and follow-up text."""
    fields = [k for k in FEATURES if k != "id" and k not in DERIVED_COLUMNS]
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
        if not source_allowed(mr, str(case.label)):
            stats.drop(bucket, source_filter_reason(mr))
            continue
        rng = group_rng(config.seed, mr, part, case)
        result = apply_function(mr, case.premises, case.conclusion, part, rng, style=config.style)
        if isinstance(result, NotApplicable):
            stats.drop(bucket, result.reason)
            continue
        expectation = function_expectation(mr, case, result.premises, config.timeout_ms)
        if isinstance(expectation, Dropped):
            stats.drop(bucket, expectation.reason)
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
                expectation,
            )
        )
        stats.count(bucket, "built")
    return rows


def function_expectation(
    mr: str, case: Case, followup_premises: Sequence[str], timeout_ms: int
) -> Expectation | Dropped:
    """The expected answer of a function-based follow-up: proven for MR-19 and MR-84, LLMorph's claim otherwise."""
    if mr == "MR-19":
        return prove_permutation(case, premise_order(case.premises, followup_premises), timeout_ms)
    if mr == "MR-84":
        return prove_added_premise(case, timeout_ms)
    return claimed(mr, str(case.label))


def premise_order(before: Sequence[str], after: Sequence[str]) -> list[int]:
    """For reordered premises, the source index of each follow-up premise (equal texts matched in order)."""
    free = list(range(len(before)))
    order: list[int] = []
    for text in after:
        index = next(i for i in free if before[i] == text)
        free.remove(index)
        order.append(index)
    return order


def planned_rows(
    mr: str, part: str, order: Sequence[Case], config: LexicalConfig, stats: BuildStats
) -> Iterator[dict[str, Any]]:
    """The pending rows of an LLM-based relation, in case order: the plan and its expectation, the source as follow-up.

    Sources the relation is not tested on, and MR-152 plans whose change of label is not proven, are dropped and
    counted under the variant's bucket.
    """
    bucket = f"{mr}/{part}"
    for case in order:
        if not source_allowed(mr, str(case.label)):
            stats.drop(bucket, source_filter_reason(mr))
            continue
        rng = group_rng(config.seed, mr, part, case)
        if mr == "MR-152":
            plan = plan_negation(case, part, rng, config.timeout_ms)
            if isinstance(plan, Dropped):
                stats.drop(bucket, plan.reason)
                continue
            sites, conclusion, expectation = plan.premises, plan.conclusion, plan.expectation
        else:
            sites, conclusion = plan_sites(mr, len(case.premises), part, rng.randrange(2**31))
            expectation = claimed(mr, str(case.label))
        yield make_row(case, mr, part, case.premises, case.conclusion, sites, conclusion, "", expectation, pending=True)


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
    plans = planned_rows(mr, part, order, config, stats)
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
                    seed=transform_seed(plan["id"]),
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
            plans = planned_rows(mr, part, order, config, stats)
            planned = [plan for _, plan in zip(range(config.per_mr), plans)]
            stats.count(f"{mr}/{part}", "pending", len(planned))
            rows.extend(planned)
        else:
            llm_variants.append((mr, part))
    if llm_variants and transformer is not None:
        rows.extend(_run_transformer(transformer, llm_variants, order, config, stats))
    stats.notes["source_cases"] = len(cases)
    stats.notes["groups"] = len(rows)
    rows.sort(key=lambda r: r["id"])
    # what "assumed" hides, measured on the built rows: per relation, the share of follow-ups that drift
    stats.notes[DRIFT_NOTE] = drift_note(rows)
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
