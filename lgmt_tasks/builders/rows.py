"""Rows to a `datasets.Dataset`, also when a build kept none.

`Dataset.from_list([], features=...)` raises a `Keys mismatch` error instead of returning an empty table, so a
build whose every item was dropped (for instance when each prover query hits its limit) used to crash at its very
last step and lose its statistics. Every builder makes its table here, so an empty build completes, keeps its
columns, and reports in its `BuildStats` why nothing was kept (the task loaders refuse an empty dataset).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets


def dataset_from_rows(rows: Sequence[Mapping[str, Any]], features: datasets.Features) -> datasets.Dataset:
    """The rows as a dataset with `features`; zero rows give an empty dataset with the same columns."""
    if not rows:
        return datasets.Dataset.from_dict({name: [] for name in features}, features=features)
    return datasets.Dataset.from_list(list(rows), features=features)
