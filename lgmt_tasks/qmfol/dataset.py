"""Rows for the QMFOL task: a cached on-the-fly build of a (small) grid, or a built / published dataset repository."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any, TypeVar

from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import BuildRecipe, Loaded, load_selected, rows_only, where
from lgmt_tasks.builders.order import Strata
from lgmt_tasks.qmfol.config import TASK_DEPTHS, TASK_DISTRACTORS, TASK_WIDTHS
from lgmt_tasks.qmfol.construction import FORMS, LABELS
from lgmt_tasks.qmfol.english import TOPICS
from lgmt_tasks.solvers.qmfol import render_prompt
from lgmt_tasks.task_params import Values

T = TypeVar("T")


def configuration(depth: int, width: int, distractors: int) -> str:
    """A task's grid configuration, `d5_w10_D0` (the scorer's `depth_width` and `distractor_level` together)."""
    return f"d{depth}_w{width}_D{distractors}"


STRATA = Strata(("depth", "width", "distractors"), configuration)
"""Tasks are ordered round-robin over their configuration, so `--limit N` covers min(N, configurations) of them."""

SHIPPED_SUBSETS: dict[str, str] = {
    "depths": "depth",
    "widths": "width",
    "distractors": "distractors",
    "labels": "label",
    "topics": "topic",
}
"""Each task is made from its own (depth, width, seed, label, distractors) and topic alone, so a build over sub-lists of
the shipped grid's values is exactly the shipped tasks with those values (`lgmt_tasks.builders.shipped`)."""

SHIPPED_COUNTS: dict[str, tuple[str, str]] = {"seeds": ("seed", "seed")}
"""Fewer seeds from the same first seed select the shipped tasks of those seeds."""


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


def load_qmfol(
    depth: Values = None,
    width: Values = None,
    distractors: Values = None,
    topic: Values = None,
    label: Values = None,
    seed: int | None = None,
    per_config: int | None = None,
    dataset: str | None = None,
    revision: str | None = None,
    form: str | None = None,
    padding_tokens: int = 0,
) -> Loaded:
    """The QMFOL rows of a (sub-)grid, round-robin over configurations, and their metadata for the log.

    With `dataset` (a folder written by `lgmt build qmfol`, or a Hub id at `revision`), its rows are read and
    filtered by the parameters that are given (None: no filter; `seed` and `per_config` select the seeds
    `seed … seed + per_config − 1`). Otherwise the grid is built (cached on disk: the same parameters give the same
    bytes), with defaults `TASK_DEPTHS`, `TASK_WIDTHS`, `TASK_DISTRACTORS`, every label and topic, seed 0 and one seed
    per configuration, in `form` (default `quantified`; with a dataset, `form` filters its `form` column).

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
    if form is not None and form not in FORMS:
        raise ValueError(f"form={form!r}: expected one of {', '.join(FORMS)}")
    if padding_tokens < 0:
        raise ValueError(f"padding_tokens={padding_tokens}: must be at least 0")
    if per_config is not None and per_config < 1:
        raise ValueError(f"per_config={per_config}: must be at least 1")
    # A dataset is filtered by the parameters given; a build is made of exactly them, so all its rows are kept.
    active = _constraints(depths, widths, counts, topics, labels, seed, per_config) if dataset is not None else {}
    if dataset is not None and form is not None:
        active["form"] = {form}
    allowed = list(active.values())

    def build() -> BuildRecipe:
        from lgmt_tasks.qmfol.build import BUILD_REVISION, build_qmfol
        from lgmt_tasks.qmfol.card import write_qmfol_repo
        from lgmt_tasks.qmfol.config import QmfolConfig

        config = QmfolConfig(
            depths=depths or TASK_DEPTHS,
            widths=widths or TASK_WIDTHS,
            distractors=counts or TASK_DISTRACTORS,
            labels=labels or LABELS,
            topics=topics or TOPICS,
            seeds=per_config or 1,
            seed=seed or 0,
            form=form or "quantified",
        )
        return BuildRecipe(
            config.key(), lambda out: write_qmfol_repo(build_qmfol(config, progress=True), out), BUILD_REVISION
        )

    if dataset is None:  # the grid built is the grid asked for; in a dataset, only a fully given grid is expected
        depths, widths, counts = depths or TASK_DEPTHS, widths or TASK_WIDTHS, counts or TASK_DISTRACTORS
    grid = list(itertools.product(depths, widths, counts)) if depths and widths and counts else []
    loaded = load_selected(
        "qmfol",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(tuple(active), lambda *row: all(v in values for v, values in zip(row, allowed, strict=True))),
        selection="QMFOL tasks for the requested parameters" + _described(active),
        strata=STRATA,
        expected=[configuration(*c) for c in grid],
        unit="tasks",
    )
    if padding_tokens and any(n > 0 for n in loaded.rows["distractors"]):
        raise ValueError(
            "padding_tokens is the length control for tasks without distractors (§4.2.2): pass distractors=0, or "
            f"drop padding_tokens (the selection has distractor counts {sorted(set(loaded.rows['distractors']))})"
        )
    return loaded


load_qmfol_rows = rows_only(load_qmfol)


def _constraints(
    depths: tuple[int, ...] | None,
    widths: tuple[int, ...] | None,
    counts: tuple[int, ...] | None,
    topics: tuple[str, ...] | None,
    labels: tuple[str, ...] | None,
    seed: int | None,
    per_config: int | None,
) -> dict[str, set[Any]]:
    """The allowed values of each column a dataset is filtered on (a parameter not given filters nothing)."""
    seeds = None if seed is None and per_config is None else set(range(seed or 0, (seed or 0) + (per_config or 1)))
    wanted: dict[str, set[Any] | None] = {
        "depth": set(depths) if depths else None,
        "width": set(widths) if widths else None,
        "distractors": set(counts) if counts else None,
        "topic": set(topics) if topics else None,
        "label": set(labels) if labels else None,
        "seed": seeds,
    }
    return {column: values for column, values in wanted.items() if values is not None}


def _described(active: dict[str, set[Any]]) -> str:
    """` (depth in [5], seed in [0, 1])`, or nothing when no column is filtered."""
    return f" ({', '.join(f'{column} in {sorted(values)}' for column, values in active.items())})" if active else ""


def record_to_sample(record: dict[str, Any], padding_tokens: int = 0) -> Sample:
    """One QMFOL row → one Sample: the prompt as input, the proven label as target, the row in metadata.

    The metadata adds the breakdown keys of the scorer: `depth_width` (`d5_w10`) and `distractor_level` (`D5`).
    """
    metadata = {k: v for k, v in record.items() if k != "id"}
    metadata["depth_width"] = f"d{record['depth']}_w{record['width']}"
    metadata["distractor_level"] = f"D{record['distractors']}"
    metadata["padding_tokens"] = padding_tokens
    prompt = render_prompt(list(record["premises"]), record["conclusion"], padding_tokens)
    return Sample(id=record["id"], input=prompt, target=record["label"], metadata=metadata)
