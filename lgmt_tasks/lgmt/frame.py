"""LGMT's per-group frame of Inspect logs and its sort order: what the paper tables and the noise floor start from.

The paper tables are `report.py`, the noise floor `control.py`. The frame is its own module so that neither of those
imports the other: the report adds the control table when a run had `-T control=true`, and `lgmt report`'s
noise-floor section reads the frame without the report's tables. How rows are pooled, and why, is in
`lgmt_tasks.lgmt.report`'s docstring.

Each group's `variant` says which reading of its law the follow-up applies: `paper` (the law as the paper reads it),
`introduction` or `extended` (our variants), from the sample metadata `variant`; logs written before that key existed
have only `direction` (`forward`, `introduction`, `extended`), which stands in for it. When the groups reported hold
more than one variant (`split_variants`), every LGMT table and plot splits its rows by variant, so that no rate mixes
the paper's law with our variants.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgmt_tasks import suites as registry
from lgmt_tasks.lgmt import CATEGORIES
from lgmt_tasks.report.settings import settings_key, settings_labels
from lgmt_tasks.report.suites import LGMT_TASKS, prompting_of, task_name
from lgmt_tasks.scorers.pairwise import CONTROL_KEYS, OUTCOME_KEYS
from lgmt_tasks.vocabulary import PROMPTINGS, control_kind

if TYPE_CHECKING:  # pandas is imported by `group_frame`, for the same reason as `inspect_ai.analysis` below
    import pandas as pd

SUITE = "lgmt"
SCORER = registry.suite(SUITE).scorer
"""The LGMT scorer's name in logs, `metamorphic_consistency` (its dict score holds `OUTCOME_KEYS`)."""

SETTING = ["model", "prompting", "settings"]
"""The columns that identify a run's setting (a list, so that it also selects columns of a frame)."""

CONTROL = "control"
"""The frame's column of each group's control member (`none`, `repeat` or `render`, from the log's `-T control`)."""

VARIANT = "variant"
"""The frame's column of the reading of the law each group applies (`paper`, `introduction`, `extended`, ...)."""

VARIANT_ORDER: tuple[str, ...] = ("paper", "forward", "introduction", "extended")
"""How variants are sorted: the paper's reading first (`forward`, its stand-in in older logs, next), then ours."""

UNRECORDED = "unrecorded"
"""The variant of a group whose log records neither `variant` nor `direction`."""


def _columns() -> list[Any]:
    from inspect_ai.analysis import EvalColumn, SampleColumn  # see group_frame

    return [
        EvalColumn("created", path="eval.created", required=True),
        EvalColumn("task", path="eval.task", required=True),
        EvalColumn("model", path="eval.model", required=True),
        EvalColumn("task_args", path="eval.task_args"),
        SampleColumn("id", path="id", required=True, type=str),
        SampleColumn("epoch", path="epoch", required=True),
        SampleColumn("mr", path="metadata.mr"),
        SampleColumn("category", path="metadata.category"),
        SampleColumn("source_dataset", path="metadata.source_dataset"),
        SampleColumn("source_id", path="metadata.source_id"),
        SampleColumn("variant", path="metadata.variant"),
        SampleColumn("direction", path="metadata.direction"),
        *(SampleColumn(key, path=f"scores.{SCORER}.value.{key}") for key in OUTCOME_KEYS),
        *(SampleColumn(key, path=f"scores.{SCORER}.value.{key}") for key in CONTROL_KEYS),  # -T control=true
    ]


def group_frame(paths: Sequence[str | Path]) -> pd.DataFrame:
    """One row per scored group (epochs mean-reduced) of the LGMT logs among `paths`, deduplicated per setting.

    Columns: `log`, `created`, `task`, `model`, `prompting`, `settings` (`lgmt_tasks.report.settings`), `id`, `mr`,
    `category`, `variant` (metadata `variant`, else `direction`, else `unrecorded`), `source_dataset` and
    `source_id` (the group's source case), `control` (the run's control member: `none`, `repeat` or `render`),
    `epochs`, and the outcome keys (0/1, or epoch means).
    """
    # Imported here: `inspect_ai.analysis` takes over a second to import (pandas, too), and the LGMT task imports
    # `control.py` (for `suggest_control`), which imports this module; Inspect imports every plugin at start-up.
    import pandas as pd
    from inspect_ai.analysis import samples_df

    if not paths:
        return pd.DataFrame()
    frame = samples_df([str(p) for p in paths], columns=_columns(), quiet=True)
    frame["task"] = frame["task"].map(task_name)
    frame = frame[frame["task"].isin(LGMT_TASKS)]
    frame = frame.dropna(subset=["parsed"])  # samples that errored or another scorer's logs: no LGMT score
    if frame.empty:
        return pd.DataFrame()
    args = frame["task_args"].map(lambda a: json.loads(a) if isinstance(a, str) else a)
    frame["prompting"] = [prompting_of(SUITE, a) for a in args]
    settings = [settings_key(SUITE, a) for a in args]
    labels = settings_labels(settings)
    frame["settings"] = [labels[key] for key in settings]
    frame[VARIANT] = _variants(frame)
    frame[CONTROL] = [_control(a) for a in args]
    keys = ["log", "created", "task", "model", "prompting", "settings", "id", "mr", "category", VARIANT, CONTROL]
    keys += [k for k in ("source_dataset", "source_id") if k in frame]  # the source case: per-case accuracy, difficulty
    measured = [*OUTCOME_KEYS, *(k for k in CONTROL_KEYS if k in frame)]  # control keys: NaN without a control
    frame = frame.astype({k: float for k in measured})
    reduced = frame.groupby(keys, dropna=False, sort=False).agg(
        epochs=("epoch", "count"), **{k: (k, "mean") for k in measured}
    )
    reduced = reduced.reset_index().sort_values(["created", "log"], ascending=False, kind="stable")
    reduced = reduced.drop_duplicates(subset=[*SETTING, "id"], keep="first")
    return reduced.sort_values([*SETTING, "mr", "id"], key=sort_key, kind="stable").reset_index(drop=True)


def log_groups(path: str | Path) -> pd.DataFrame:
    """`group_frame` of one log (empty for a log that is not LGMT's), read once per file version.

    The headline and the leaderboard both need each LGMT log's groups (which variants they hold, and each variant's
    figures): a cache keyed by the file's path, size and modification time reads a log once, and re-reads a file
    that was rewritten.
    """
    stat = Path(path).stat()
    return _log_groups(str(path), stat.st_size, stat.st_mtime_ns).copy()


@functools.lru_cache(maxsize=32)
def _log_groups(path: str, size: int, mtime_ns: int) -> pd.DataFrame:
    return group_frame([path])


def log_variants(path: str | Path) -> list[str]:
    """The variants of the laws a log's groups apply (`variant_rank` order); empty for a log without LGMT groups."""
    groups = log_groups(path)
    return sorted(set(groups[VARIANT]), key=variant_rank) if VARIANT in groups else []


def _control(task_args: Any) -> str:
    """A run's control member from its task arguments (`none` without one, or with a value this version lacks)."""
    try:
        return control_kind((task_args or {}).get("control") if isinstance(task_args, dict) else None)
    except ValueError:
        return "none"


def variant_of(variant: object, direction: object = None) -> str:
    """A group's variant: its metadata `variant`, else `direction` (logs before `variant`), else `unrecorded`.

    The one reading of it: the tables (`group_frame`), `lgmt report --compare` and the leaderboard all call it.
    """
    return next((value for value in (variant, direction) if isinstance(value, str) and value), UNRECORDED)


def variant_rank(variant: str) -> tuple[int, str]:
    """Sort key of a variant: `VARIANT_ORDER` first (the paper's reading first), then the others by name."""
    return (VARIANT_ORDER.index(variant) if variant in VARIANT_ORDER else len(VARIANT_ORDER), str(variant))


def _variants(frame: pd.DataFrame) -> list[str]:
    """Each sample's variant (`variant_of` its metadata `variant` and `direction`)."""

    def text(name: str) -> list[object]:
        return list(frame[name]) if name in frame else [None] * len(frame)

    return [variant_of(variant, direction) for variant, direction in zip(text(VARIANT), text("direction"), strict=True)]


def split_variants(groups: pd.DataFrame) -> bool:
    """Whether the groups hold more than one variant: then every table and plot has a row per variant."""
    return VARIANT in groups and groups[VARIANT].nunique() > 1


def variant_columns(groups: pd.DataFrame) -> list[str]:
    """`["variant"]` when the groups hold more than one variant (`split_variants`), else `[]`: extra row keys."""
    return [VARIANT] if split_variants(groups) else []


def sort_key(column: pd.Series) -> pd.Series:
    """Sort key: the paper's order for prompting and categories, natural order for relations, paper variant first."""
    if column.name == VARIANT:
        return column.map(variant_rank)
    if column.name == "prompting":
        return column.map(lambda p: PROMPTINGS.index(p) if p in PROMPTINGS else len(PROMPTINGS))
    if column.name == "category":
        return column.map(lambda c: CATEGORIES.index(c) if c in CATEGORIES else len(CATEGORIES))
    if column.name == "mr":
        return column.map(_relation_key)
    return column


def _relation_key(mr: str) -> tuple[int, tuple[int, ...], str]:
    head = mr.split("+", 1)[0]
    category = head.rstrip("0123456789.")
    numbers = tuple(int(n) for n in head[len(category) :].split(".") if n.isdigit())
    rank = CATEGORIES.index(category) if category in CATEGORIES else len(CATEGORIES)
    return rank, numbers, mr


def category_of(relation: str) -> str:
    """`MR-E1.1` → `MR-E` (a category name is its own category)."""
    rank = _relation_key(relation)[0]
    return CATEGORIES[rank] if rank < len(CATEGORIES) else ""
