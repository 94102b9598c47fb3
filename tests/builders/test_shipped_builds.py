"""The shipped default builds: a task with default parameters reads them instead of building, and nothing else does.

- every registered task, on an empty cache, with default parameters: no build (the build cache is never asked) and
  its samples are the shipped rows it selects;
- the record of what each shipped folder was built under is current (config, version, builder revision, digest and
  fingerprint recomputed from the folder and the code), and its config is the builder's default;
- the subset claims (`SHIPPED_SUBSETS`, `SHIPPED_COUNTS` of the suites' `dataset.py`): building the task's default rows
  gives exactly the rows read from the shipped build;
- a different key (a parameter, a bumped builder revision, another package version, a part the shipped build does
  not have) is not served from the shipped folder, and a folder whose rows changed is not trusted.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import datasets
import pytest

import lgmt_tasks._registry as registry
import lgmt_tasks.builders.cache as cache
import lgmt_tasks.builders.load as load
import lgmt_tasks.builders.shipped as shipped
from lgmt_tasks.builders.load import METADATA_KEY
from lgmt_tasks.builders.shipped import manifest, manifest_record, shipped_build, shipped_root
from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.lexical.build import LexicalConfig
from lgmt_tasks.lgmt.build import BUILD_REVISION as LGMT_REVISION
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.logicasker.dataset import load_logicasker
from lgmt_tasks.qmfol.build import BUILD_REVISION as QMFOL_REVISION
from lgmt_tasks.qmfol.config import TASK_DEPTHS, TASK_DISTRACTORS, TASK_WIDTHS, QmfolConfig
from lgmt_tasks.qmfol.dataset import load_qmfol
from lgmt_tasks.suites import SUITE_NAMES, suite_of_task

DEFAULT_CONFIGS: dict[str, Any] = {
    "lgmt": LgmtConfig,
    "logicasker": LogicAskerConfig,
    "divlogiceval": DivLogicEvalConfig,
    "qmfol": QmfolConfig,
    "lexical": LexicalConfig,
}


@pytest.fixture(autouse=True)
def _empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty cache per test; nothing touches the network."""
    root = tmp_path / "lgmt-cache"
    monkeypatch.setenv("LGMT_CACHE_DIR", str(root))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    return root


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Records every build the loader asks the cache for (and lets it build)."""
    asked: list[tuple[str, dict[str, Any]]] = []
    real = load.cached_repo

    def spy(suite: str, key: dict[str, Any], *args: Any, **kwargs: Any) -> Path:
        asked.append((suite, key))
        return real(suite, key, *args, **kwargs)

    monkeypatch.setattr(load, "cached_repo", spy)
    return asked


def shipped_rows(suite: str) -> datasets.Dataset:
    root = shipped_root()
    assert root is not None
    return load_dataset_repo(root / suite)


def selected_ids(task: str) -> set[str]:
    """The ids of the shipped rows a default task selects (computed from the rows, not from the loader)."""
    rows = shipped_rows(suite_of_task(task).name)  # type: ignore[union-attr]
    if task in MR_SETS:
        return {i for i, mr in zip(rows["id"], rows["mr"]) if mr in MR_SETS[task]}
    if task == "qmfol":
        grid = zip(rows["id"], rows["depth"], rows["width"], rows["distractors"], rows["seed"])
        return {
            i for i, d, w, n, s in grid if d in TASK_DEPTHS and w in TASK_WIDTHS and n in TASK_DISTRACTORS and s == 0
        }
    return set(rows["id"])


@pytest.mark.parametrize("task", registry.__all__)
def test_a_default_task_on_an_empty_cache_reads_the_shipped_build(
    task: str, builds: list[tuple[str, dict[str, Any]]], _empty_cache: Path
) -> None:
    made = getattr(registry, task)()
    assert builds == []  # the build cache was never asked
    assert not (_empty_cache / cache.BUILDS_DIR).exists()
    ids = [s.id for s in made.dataset]
    assert len(ids) == len(set(ids)) and set(ids) == selected_ids(task)
    meta = made.metadata[METADATA_KEY]
    suite = suite_of_task(task).name  # type: ignore[union-attr]
    assert meta["source"]["shipped_folder"] == str(shipped_root() / suite)  # type: ignore[operator]
    assert meta["fingerprint"] == manifest()[suite]["fingerprint"]


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_the_shipped_record_is_current_and_names_the_default_build(suite: str) -> None:
    root = shipped_root()
    assert root is not None and (root / suite / "README.md").is_file()
    assert manifest()[suite] == manifest_record(suite, root), (
        f"{shipped.MANIFEST} is out of date for {suite}: run `python -m lgmt_tasks.builders.shipped`"
    )
    default = DEFAULT_CONFIGS[suite]()
    assert manifest()[suite]["config"] == shipped.plain(default.key())
    revision = manifest()[suite]["build_revision"]
    assert shipped_build(suite, default.key(), revision) == shipped.Shipped(
        root / suite, manifest()[suite]["fingerprint"]
    )


def test_the_package_folder_links_to_the_committed_datasets() -> None:
    assert shipped.SHIPPED_LINK.is_dir()
    assert shipped.SHIPPED_LINK.resolve() == shipped.CHECKOUT_DATASETS.resolve()


@pytest.mark.slow
def test_building_lgmt_relations_gives_the_shipped_groups_of_those_relations(monkeypatch: pytest.MonkeyPatch) -> None:
    served = load_lgmt(MR_SETS["mr_s"])
    assert "shipped_folder" in served.metadata["source"]
    monkeypatch.setattr(load, "shipped_build", lambda *args: None)
    built = load_lgmt(MR_SETS["mr_s"])
    assert "cache_folder" in built.metadata["source"]
    assert len(built.rows) > 0 and built.rows.to_list() == served.rows.to_list()


def test_building_the_qmfol_task_grid_gives_the_shipped_tasks_of_that_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    served = load_qmfol()
    assert "shipped_folder" in served.metadata["source"]
    monkeypatch.setattr(load, "shipped_build", lambda *args: None)
    built = load_qmfol()
    assert "cache_folder" in built.metadata["source"]
    assert len(built.rows) > 0 and built.rows.to_list() == served.rows.to_list()


def test_a_non_default_parameter_builds(builds: list[tuple[str, dict[str, Any]]], _empty_cache: Path) -> None:
    loaded = load_logicasker(per_skill=1)
    assert [suite for suite, _ in builds] == ["logicasker"]
    assert "cache_folder" in loaded.metadata["source"]
    assert any((_empty_cache / cache.BUILDS_DIR).iterdir())


def test_a_changed_revision_version_or_part_is_not_served(monkeypatch: pytest.MonkeyPatch) -> None:
    key = LgmtConfig().key()
    assert shipped_build("lgmt", key, LGMT_REVISION) is not None
    assert shipped_build("lgmt", key, f"{LGMT_REVISION}+1") is None  # a bumped BUILD_REVISION
    assert shipped_build("lgmt", {**key, "per_mr": 199}, LGMT_REVISION) is None
    assert shipped_build("lgmt", {**key, "mrs": ("MR-S1",), "per_mr": 199}, LGMT_REVISION) is None
    assert shipped_build("lgmt", {**key, "mrs": ("MR-S1", "MR-X9")}, LGMT_REVISION) is None
    qmfol = DEFAULT_CONFIGS["qmfol"]().key()
    assert shipped_build("qmfol", {**qmfol, "depths": (5, 25)}, QMFOL_REVISION) is None  # not in the shipped grid
    assert shipped_build("qmfol", {**qmfol, "seeds": 4}, QMFOL_REVISION) is None
    assert shipped_build("qmfol", {**qmfol, "seeds": 1, "seed": 1}, QMFOL_REVISION) is None
    part = shipped_build("qmfol", {**qmfol, "seeds": 2, "depths": (5,)}, QMFOL_REVISION)
    assert part is not None and part.keep == {"depth": frozenset({5}), "seed": frozenset({0, 1})}
    monkeypatch.setattr(cache, "__version__", "0.0.0-other")  # another package version
    assert shipped_build("lgmt", key, LGMT_REVISION) is None


def test_a_shipped_folder_whose_rows_changed_is_not_trusted(
    monkeypatch: pytest.MonkeyPatch, builds: list[tuple[str, dict[str, Any]]], caplog: pytest.LogCaptureFixture
) -> None:
    record = json.loads(json.dumps(manifest()["logicasker"]))
    stale = {**manifest(), "logicasker": {**record, "fingerprint": "sha256:" + "0" * 64}}
    monkeypatch.setattr(shipped, "manifest", lambda: stale)
    caplog.set_level(logging.WARNING)
    config = LogicAskerConfig()
    assert shipped_build("logicasker", config.key(), record["build_revision"]) is not None  # the key matches
    load_logicasker(per_skill=config.per_skill)
    assert [suite for suite, _ in builds] == ["logicasker"]
    assert "does not have the rows recorded for it" in caplog.text
