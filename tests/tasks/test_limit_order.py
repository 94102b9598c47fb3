"""`--limit N` is a stratified smoke test: samples come round-robin over strata, the same in both frameworks.

A repository's rows are in content-hash order, where `--limit 20` covered 7 of LGMT's 10 formula-level relations.
The loaders now order the kept rows round-robin over relation / skill / question type / configuration
(`lgmt_tasks.builders.order`); the repository's bytes and ids are unchanged.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import datasets
import pytest
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai import eval

from lgmt_tasks.builders.order import Strata, interleave, round_robin
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.lgmt.dataset import MR_SETS, first_relation
from lgmt_tasks.lgmt.task import lgmt, mr_e
from tests.tasks.conftest import answering_model

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


@pytest.fixture(autouse=True)
def _offline(offline_cache: Path) -> None:
    """Every test here builds into its own cache, offline."""


@pytest.mark.parametrize(("task", "relations", "limit"), [(mr_e, "mr_e", 10), (lgmt, "lgmt", 20)])
def test_limit_n_covers_n_relations_in_a_real_eval(task: Any, relations: str, limit: int, tmp_path: Path) -> None:
    # datasets/lgmt is the default build, byte for byte (tests/hub/test_published_repos.py)
    (log,) = eval(
        task(dataset=str(DATASETS / "lgmt")),
        model=answering_model('{"label": "True"}'),
        limit=limit,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None and len(log.samples) == limit
    assert {first_relation(s.metadata["mr"]) for s in log.samples} == set(MR_SETS[relations])


def test_the_order_changes_neither_ids_nor_rows() -> None:
    on_disk = load_dataset_repo(DATASETS / "lgmt")
    task = lgmt(dataset=str(DATASETS / "lgmt"))
    ids = [str(s.id) for s in task.dataset]
    assert sorted(ids) == sorted(on_disk["id"]) and ids != list(on_disk["id"])


def _lm_eval_ids(suite: str, **metadata: Any) -> list[str]:
    utils = importlib.import_module(f"lgmt_tasks.task_configs.{suite}.utils")
    return list(utils.load_docs(**metadata)["test"]["id"])


def _inspect_ids(suite: str, **params: Any) -> list[str]:
    module = importlib.import_module(f"lgmt_tasks.{suite}.task")
    task = getattr(module, "mr_e" if suite == "lgmt" else suite)(**params)
    return [str(s.id) for s in task.dataset]


@pytest.mark.parametrize(
    ("suite", "lm_eval", "inspect"),
    [
        ("lgmt", {"relation_set": "mr_e"}, {}),
        ("lexical", {}, {}),
        ("logicasker", {}, {}),
        ("divlogiceval", {}, {}),
        ("qmfol", {}, {}),
    ],
)
def test_inspect_and_lm_eval_take_the_same_rows_in_the_same_order(
    suite: str, lm_eval: dict[str, Any], inspect: dict[str, Any]
) -> None:
    folder = str(DATASETS / suite)
    from_inspect = _inspect_ids(suite, dataset=folder, **inspect)
    from_lm_eval = _lm_eval_ids(suite, dataset=folder, **lm_eval)
    assert from_inspect == from_lm_eval
    rows = load_dataset_repo(folder)
    strata: Strata = importlib.import_module(f"lgmt_tasks.{suite}.dataset").STRATA
    by_id = dict(zip(rows["id"], strata.keys(rows), strict=True))
    first = [by_id[i] for i in from_inspect]
    n = len(set(first))
    assert n > 1 and len(set(first[:n])) == n  # the first n rows cover all n strata


@given(st.lists(st.sampled_from("abcde"), max_size=40))
def test_round_robin_is_stratified_idempotent_and_a_permutation(keys: list[str]) -> None:
    order = round_robin(keys)
    assert sorted(order) == list(range(len(keys)))
    reordered = [keys[i] for i in order]
    strata = len(set(keys))
    for n in range(len(keys) + 1):
        assert len(set(reordered[:n])) == min(n, strata)
    assert round_robin(reordered) == list(range(len(keys)))
    for key in set(keys):  # each stratum keeps its own order
        assert [i for i in order if keys[i] == key] == [i for i, k in enumerate(keys) if k == key]


def test_interleave_reads_a_key_of_several_columns() -> None:
    rows = datasets.Dataset.from_dict({"d": [5, 5, 10, 10], "w": [5, 5, 5, 5], "id": ["a", "b", "c", "d"]})
    ordered = interleave(rows, Strata(("d", "w"), lambda d, w: f"d{d}_w{w}"))
    assert ordered["id"] == ["a", "c", "b", "d"]
