"""Rows for the QMFOL task: a cached on-the-fly build of a (small) grid, or a built / published dataset repository."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import datasets

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.construction import LABELS
from lgmt_tasks.qmfol.english import TOPICS

T = TypeVar("T")

TASK_DEPTHS: tuple[int, ...] = (5, 10)
TASK_WIDTHS: tuple[int, ...] = (5, 10)
TASK_DISTRACTORS: tuple[int, ...] = (0, 10)
"""The default on-the-fly grid of the task: 2 depths × 2 widths × 2 distractor levels × 3 labels × 4 topics × one
seed = 96 tasks, built in about two seconds. The paper's full grid is `lgmt build qmfol` (2,880 tasks); pass its
folder as `-T dataset=...`, or ask for more with `-T depth=[5,10,15,20] -T per_config=3`."""

Values = int | str | Sequence[int] | Sequence[str] | None
"""What a multi-valued parameter accepts: one value, a list (`-T depth=[5,10]`), or a string `"5,10"` / `"5 10"`."""


def values(name: str, given: Values, cast: Callable[[str], T]) -> tuple[T, ...] | None:
    """Normalise a multi-valued task parameter; None stays None (meaning: the default, or everything in a dataset).

    Args:
        name: The parameter's name (for the error message).
        given: The value as Inspect passes it from `-T`.
        cast: `int` or `str`.

    Returns:
        The values in the order given, or None.

    Raises:
        ValueError: If a value cannot be cast, or nothing is given.
    """
    if given is None:
        return None
    items: list[Any] = (
        re.split(r"[,\s]+", given.strip())
        if isinstance(given, str)
        else ([given] if isinstance(given, int) else list(given))
    )
    items = [i for i in items if i != ""]
    if not items:
        raise ValueError(f"{name}: at least one value is needed")
    try:
        return tuple(cast(str(i)) for i in items)
    except ValueError:
        raise ValueError(f"{name}={given!r}: expected {cast.__name__} values") from None


def load_qmfol_rows(
    depth: Values = None,
    width: Values = None,
    distractors: Values = None,
    topic: Values = None,
    label: Values = None,
    seed: int | None = None,
    per_config: int | None = None,
    dataset: str | None = None,
    revision: str | None = None,
) -> datasets.Dataset:
    """The QMFOL rows of a (sub-)grid.

    With `dataset` (a folder written by `lgmt build qmfol`, or a Hub id at `revision`), its rows are read and
    filtered by the parameters that are given (None: no filter; `seed` and `per_config` select the seeds
    `seed … seed + per_config − 1`). Otherwise the grid is built (cached on disk: the same parameters give the same
    bytes), with defaults `TASK_DEPTHS`, `TASK_WIDTHS`, `TASK_DISTRACTORS`, every label and topic, seed 0 and one seed
    per configuration.

    Raises:
        ValueError: On an invalid value (the message lists the valid ones) or when no row is left.
    """
    depths = values("depth", depth, int)
    widths = values("width", width, int)
    counts = values("distractors", distractors, int)
    topics = values("topic", topic, str)
    labels = values("label", label, str)
    for name, given, valid in (("topic", topics, TOPICS), ("label", labels, LABELS)):
        unknown = sorted(set(given or ()) - set(valid))
        if unknown:
            raise ValueError(f"{name}: unknown value(s) {unknown}; expected among {', '.join(valid)}")
    if per_config is not None and per_config < 1:
        raise ValueError(f"per_config={per_config}: must be at least 1")
    if dataset is not None:
        rows = load_dataset_repo(dataset, revision=revision)
        origin = f"dataset {dataset!r}"
        seeds = None if seed is None and per_config is None else set(range(seed or 0, (seed or 0) + (per_config or 1)))
        wanted: list[tuple[str, set[Any] | None]] = [
            ("depth", set(depths) if depths else None),
            ("width", set(widths) if widths else None),
            ("distractors", set(counts) if counts else None),
            ("topic", set(topics) if topics else None),
            ("label", set(labels) if labels else None),
            ("seed", seeds),
        ]
        active = [(column, allowed) for column, allowed in wanted if allowed is not None]
        if active:
            rows = rows.filter(lambda r: all(r[column] in allowed for column, allowed in active))
    else:
        from lgmt_tasks.builders.qmfol import BUILD_REVISION, QmfolConfig, build_qmfol
        from lgmt_tasks.builders.qmfol_card import write_qmfol_repo

        config = QmfolConfig(
            depths=depths or TASK_DEPTHS,
            widths=widths or TASK_WIDTHS,
            distractors=counts or TASK_DISTRACTORS,
            labels=labels or LABELS,
            topics=topics or TOPICS,
            seeds=per_config or 1,
            seed=seed or 0,
        )
        folder = cached_repo(
            "qmfol", config.key(), lambda out: write_qmfol_repo(build_qmfol(config), out), build_revision=BUILD_REVISION
        )
        rows = load_dataset_repo(folder)
        origin = f"build {config.key()}"
    if len(rows) == 0:
        raise ValueError(f"no QMFOL tasks in {origin} for the requested parameters")
    return rows
