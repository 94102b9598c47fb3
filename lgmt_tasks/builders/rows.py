"""Rows to a `datasets.Dataset`, also when a build kept none, and fast for the paper-scale pool.

`Dataset.from_list([], features=...)` raises a `Keys mismatch` error instead of returning an empty table, so a
build whose every item was dropped (for instance when each prover query hits its limit) used to crash at its very
last step and lose its statistics. Every builder makes its table here, so an empty build completes, keeps its
columns, and reports in its `BuildStats` why nothing was kept (the task loaders refuse an empty dataset).

`Dataset.from_list` encodes every value of every row in Python (`Features.encode_column`): for the 69,859-group
LGMT pool that was the largest serial step of the build (about 30 s of the builder process). Our rows already hold
values of their features' types, so Arrow converts them directly (`pa.Table.from_pylist` with the features'
schema), about 4x faster and giving an equal table; rows that Arrow refuses (a value of another type, which
`datasets` would coerce) or whose keys are not the features' in their order go through `from_list` as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets
import pyarrow as pa
from datasets.table import InMemoryTable


def dataset_from_rows(rows: Sequence[Mapping[str, Any]], features: datasets.Features) -> datasets.Dataset:
    """The rows as a dataset with `features`; zero rows give an empty dataset with the same columns."""
    if not rows:
        return datasets.Dataset.from_dict({name: [] for name in features}, features=features)
    rows = list(rows)
    if list(rows[0]) == list(features):
        try:
            table = pa.Table.from_pylist(rows, schema=features.arrow_schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass  # a value of another type: let `datasets` coerce it (or name it) as it always did
        else:
            return datasets.Dataset(InMemoryTable(table), info=datasets.DatasetInfo(features=features))
    return datasets.Dataset.from_list(rows, features=features)
