"""Rows for the LogicAsker task: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import BuildRecipe, Loaded, given_build_parameters, load_selected, rows_only, where
from lgmt_tasks.builders.order import Strata
from lgmt_tasks.logicasker.catalogue import as_names, get_skill, select
from lgmt_tasks.logicasker.config import DEFAULT_PER_SKILL, SCHEMA, LogicAskerConfig, parse_lengths

STRATA = Strata(("rule",))
"""Tests are ordered round-robin over their skill (rule), so `--limit N` covers min(N, skills) skills."""


def load_logicasker(
    logic: str | Sequence[str] | None = None,
    category: str | Sequence[str] | None = None,
    rule: str | Sequence[str] | None = None,
    length: int | str | Sequence[int] | None = None,
    per_skill: int = DEFAULT_PER_SKILL,
    seed: int = 0,
    dataset: str | None = None,
    revision: str | None = None,
    *,
    used_elsewhere: Collection[str] = (),
) -> Loaded:
    """The LogicAsker rows of the selected skills and lengths, round-robin over skills, and their metadata.

    With `dataset` (a folder written by `lgmt build logicasker`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and filtered by the selection (`length` None keeps every length;
    `per_skill` and `seed` are ignored). Otherwise the tests are built for the parameters (cached on disk: the same
    parameters give the same bytes); `length` None builds length 1.

    Args:
        logic: `propositional`, `predicate`, a list, or a comma-separated string; None for both.
        category: `inference`, `equivalence`, `fallacy` (or several); None for all.
        rule: Rule names, ids or aliases (a list or a comma-separated string); None for all.
        length: Chain lengths: `3`, `"1..7"`, `"1,3,5,7"`.
        per_skill: Tests per skill and length (built datasets only).
        seed: Build seed.
        dataset: A dataset repository folder or Hub id to read instead of building.
        revision: Hub revision of `dataset`.
        used_elsewhere: Build parameters the caller uses for more than the build (the task's demonstrations use
            `seed`): with `dataset`, the others given are reported as without effect, these never.

    Returns:
        The rows and their metadata for the log.

    Raises:
        ValueError: On an invalid selection, or when no row is left.
    """
    skills = select(logic, category, rule)
    if not skills:
        raise ValueError(f"no LogicAsker skill matches logic={logic!r}, category={category!r}, rule={rule!r}")
    lengths = parse_lengths(length) if length is not None else None
    selected = {s.name for s in skills}

    def build() -> BuildRecipe:
        from lgmt_tasks.logicasker.build import BUILD_REVISION, build_logicasker
        from lgmt_tasks.logicasker.card import write_logicasker_repo

        given: dict[str, Any] = {"lengths": lengths} if lengths else {}  # none given: the config's (length 1)
        config = LogicAskerConfig(
            logic=as_names(logic),
            category=as_names(category),
            rules=as_names(rule),
            **given,
            per_skill=per_skill,
            seed=seed,
        )
        return BuildRecipe(
            config.key(),
            lambda out: write_logicasker_repo(build_logicasker(config, progress=True), out),
            BUILD_REVISION,
        )

    return load_selected(
        "logicasker",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("rule", "length"), lambda name, n: name in selected and (lengths is None or n in lengths)),
        selection=f"LogicAsker tests for {len(selected)} selected rule(s) at lengths {lengths}",
        strata=STRATA,
        expected=[s.name for s in skills],
        unit="tests",
        build_only=given_build_parameters(
            {k: v for k, v in {"per_skill": per_skill, "seed": seed}.items() if k not in used_elsewhere},
            SCHEMA.task_defaults(),
            SCHEMA.lm_eval_defaults(),
        ),
    )


load_logicasker_rows = rows_only(load_logicasker)


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One test → one Sample: the question as input, the proven answer as target, the rule tree in metadata.

    The metadata adds `skill`, the rule's id (`universal_modus_ponens`), which names the per-skill metrics.
    """
    metadata = {k: v for k, v in record.items() if k not in ("id", "question", "answer")}
    metadata["skill"] = get_skill(record["rule"]).id
    return Sample(id=record["id"], input=record["question"], target=record["answer"], metadata=metadata)
