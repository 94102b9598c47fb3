"""Rows for the DivLogicEval tasks: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_args

import datasets

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.builders.divlogiceval import DEFAULT_N, DEFAULT_PER_TYPE, QUESTION_TYPES, DivLogicEvalConfig
from lgmt_tasks.hub.repo import load_dataset_repo

QuestionTypeChoice = Literal["3c1e", "3e1c", "missing", "all"]
QUESTION_TYPE_CHOICES: tuple[str, ...] = get_args(QuestionTypeChoice)


def selected_types(question_type: str) -> tuple[str, ...]:
    """The question types a `question_type` parameter selects.

    Raises:
        ValueError: Listing the valid values, on anything else.
    """
    if question_type not in QUESTION_TYPE_CHOICES:
        raise ValueError(f"question_type={question_type!r}: expected one of {', '.join(QUESTION_TYPE_CHOICES)}")
    return QUESTION_TYPES if question_type == "all" else (question_type,)


def build_config(
    per_type: int = DEFAULT_PER_TYPE, seed: int = 0, n: int = DEFAULT_N, pool: str | None = None, **pool_options: Any
) -> DivLogicEvalConfig:
    """The build config of the task parameters (a pool file path is made absolute, so the cache key is stable)."""
    if pool and Path(pool).exists():
        pool = str(Path(pool).resolve())
    return DivLogicEvalConfig(per_type=int(per_type), seed=int(seed), n=int(n), pool=pool, **pool_options)


def load_divlogiceval_rows(
    question_type: str = "all",
    per_type: int = DEFAULT_PER_TYPE,
    seed: int = 0,
    n: int = DEFAULT_N,
    pool: str | None = None,
    dataset: str | None = None,
    revision: str | None = None,
) -> datasets.Dataset:
    """The instances of the selected question types.

    With `dataset` (a folder written by `lgmt build divlogiceval`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and the build parameters are ignored. Otherwise the instances are built for
    the parameters (cached on disk: the same parameters give the same bytes).

    Raises:
        ValueError: On an invalid parameter, or when no instance is left.
    """
    wanted = set(selected_types(question_type))
    if dataset is not None:
        rows = load_dataset_repo(dataset, revision=revision)
        origin = f"dataset {dataset!r}"
    else:
        from lgmt_tasks.builders.divlogiceval import BUILD_REVISION, build_divlogiceval
        from lgmt_tasks.builders.divlogiceval_card import write_divlogiceval_repo

        config = build_config(per_type, seed, n, pool)
        folder = cached_repo(
            "divlogiceval",
            config.key(),
            lambda out: write_divlogiceval_repo(build_divlogiceval(config), out),
            build_revision=BUILD_REVISION,
        )
        rows = load_dataset_repo(folder)
        origin = f"build {config.key()}"
    rows = rows.filter(lambda r: r["question_type"] in wanted)
    if len(rows) == 0:
        raise ValueError(f"no DivLogicEval instances of type {sorted(wanted)} in {origin}")
    return rows
