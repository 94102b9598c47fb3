"""`dataset_from_rows`: Arrow's direct conversion gives the same table as `datasets`' per-value encoding."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest

from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.suites import SUITES, suite

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


@pytest.mark.parametrize("name", [s.name for s in SUITES])
def test_fast_path_equals_from_list_on_the_committed_rows(name: str) -> None:
    """Every committed build's rows give the table `Dataset.from_list` gives, schema metadata included."""
    features = suite(name).module("build").FEATURES
    rows = datasets.load_dataset(str(DATASETS / name), split="test").to_list()[:300]
    fast = dataset_from_rows(rows, features)
    slow = datasets.Dataset.from_list(rows, features=features)
    assert fast.features == slow.features
    assert fast.data.table.equals(slow.data.table)
    assert fast.data.table.schema.equals(slow.data.table.schema, check_metadata=True)


def test_values_of_another_type_are_coerced_as_datasets_does() -> None:
    """An int in a string column is not refused by the fast path: it falls back to `datasets`' coercion."""
    features = datasets.Features({"id": datasets.Value("string"), "n": datasets.Value("int32")})
    built = dataset_from_rows([{"id": 7, "n": 1}, {"id": "b", "n": 2}], features)
    assert built["id"] == ["7", "b"]
    assert built.features == features


def test_keys_other_than_the_features_are_refused() -> None:
    """A row with a column the features lack fails as `from_list` fails, not silently dropped."""
    features = datasets.Features({"id": datasets.Value("string")})
    with pytest.raises((ValueError, KeyError)):
        dataset_from_rows([{"id": "a", "extra": 1}], features)


def test_empty_rows_keep_the_columns() -> None:
    """A build that kept nothing still has its columns."""
    features = datasets.Features({"id": datasets.Value("string"), "n": datasets.Value("int32")})
    built = dataset_from_rows([], features)
    assert len(built) == 0
    assert list(built.features) == ["id", "n"]
