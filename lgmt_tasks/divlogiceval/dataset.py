"""Rows for the DivLogicEval tasks: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import datasets
from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import Build, load_selected_rows, where
from lgmt_tasks.divlogiceval.build import DEFAULT_N, DEFAULT_PER_TYPE, QUESTION_TYPES, DivLogicEvalConfig
from lgmt_tasks.solvers.divlogiceval import LETTERS, rotation_prompts

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

    def build() -> Build:
        from lgmt_tasks.divlogiceval.build import BUILD_REVISION, build_divlogiceval
        from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

        config = build_config(per_type, seed, n, pool)
        return Build(config.key(), lambda out: write_divlogiceval_repo(build_divlogiceval(config), out), BUILD_REVISION)

    return load_selected_rows(
        "divlogiceval",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("question_type",), lambda t: t in wanted),
        selection=f"DivLogicEval instances of type {sorted(wanted)}",
    )


def record_to_sample(record: Mapping[str, Any], shots: Sequence[Mapping[str, Any]] = ()) -> Sample:
    """One instance → one Sample: the original-order prompt as input, all four rotation prompts in metadata.

    Args:
        record: A DivLogicEval row.
        shots: Solved examples for three-shot prompting (none for zero-shot).

    Returns:
        The sample; its target is the gold letter in the original order.
    """
    members = rotation_prompts(record, shots)
    metadata = {k: v for k, v in record.items() if k not in ("id", "answer")}
    metadata["members"] = members
    metadata["gold_index"] = int(record["answer"])
    return Sample(id=record["id"], input=members[0], target=LETTERS[int(record["answer"])], metadata=metadata)
