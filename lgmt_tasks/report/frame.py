"""Per-sample data frames of our logs with each dict score expanded into one column per key.

Every suite's scorer returns a flat dict score (LGMT: `violation`, `parsed`, `source_correct`, ...; DivLogicEval: the
per-instance outcome; QMFOL: `correct`, `parsed`, ...). `inspect_ai.analysis.samples_df` gives such a score as one
column of JSON text (`score_metamorphic_consistency` = `'{"violation": 0, "parsed": 1, ...}'`), which cannot be
averaged or filtered. `expand_scores` replaces that column with one numeric column per key,
`score_<scorer>_<key>`, so that `frame["score_metamorphic_consistency_violation"].mean()` is a rate; `scores_df`
reads logs and expands in one call. The scorer of each suite is named in the registry
(`lgmt_tasks.suites.suite(name).scorer`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import pandas as pd
from inspect_ai.analysis import samples_df
from inspect_ai.log import EvalLog

SCORE_PREFIX = "score_"
"""The prefix `samples_df` gives score columns (`score_<scorer>`)."""


def _as_dict(value: Any) -> dict[str, Any] | None:
    """A dict score from a cell (JSON text or a dict); None for scalars, missing values and other text."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.startswith("{"):
        try:
            decoded = json.loads(value)
        except json.JSONDecodeError:
            return None
        return decoded if isinstance(decoded, dict) else None
    return None


def _missing(value: Any) -> bool:
    """None, NaN, `pd.NA` (a string column's missing value): a sample without this score."""
    return value is None or (not isinstance(value, dict | list) and bool(pd.isna(value)))


def expand_scores(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of a `samples_df` frame with every dict-score column replaced by one column per key.

    A column `score_<scorer>` whose non-missing cells are all dicts (or JSON objects) becomes `score_<scorer>_<key>`
    for each key found in any cell, in the order first seen, at the column's place; a sample without that key (or
    without the score) gets NaN. Scalar score columns are kept as they are.

    Raises:
        ValueError: If a score column mixes dict scores with other values (names the column and the first such
            value), since no expansion of it would be faithful.
    """
    out = frame.copy()
    for column in [c for c in frame.columns if str(c).startswith(SCORE_PREFIX)]:
        cells = [value for value in frame[column] if not _missing(value)]
        dicts = [_as_dict(value) for value in cells]
        if not cells or all(d is None for d in dicts):
            continue
        odd = next((cell for cell, d in zip(cells, dicts, strict=True) if d is None), None)
        if odd is not None:
            raise ValueError(f"score column {column!r} mixes dict scores with other values, e.g. {odd!r}")
        rows = [{} if _missing(value) else (_as_dict(value) or {}) for value in frame[column]]
        keys = list(dict.fromkeys(key for row in rows for key in row))
        expanded = pd.DataFrame(
            {f"{column}_{key}": [row.get(key, math.nan) for row in rows] for key in keys}, index=frame.index
        )
        at = list(out.columns).index(column)
        out = pd.concat([out.iloc[:, :at], expanded, out.iloc[:, at + 1 :]], axis=1)
    return out


def scores_df(logs: str | Sequence[str] | EvalLog | Sequence[EvalLog], **kwargs: Any) -> pd.DataFrame:
    """`inspect_ai.analysis.samples_df(logs, **kwargs)` with each dict score expanded by `expand_scores`.

    Args:
        logs: Log files, folders or loaded logs, as `samples_df` takes them.
        **kwargs: Passed to `samples_df` (`columns=`, `full=`, `parallel=`, ...); `quiet` defaults to True.
    """
    kwargs.setdefault("quiet", True)
    return expand_scores(samples_df(logs, **kwargs))
