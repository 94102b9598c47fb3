"""`per_mr=all` (every applicable group, no cap) reaches the Inspect tasks and the lm-eval loader too."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.task import mr_c
from lgmt_tasks.task_configs.lgmt import utils as lgmt_utils
from lgmt_tasks.task_params import TaskParameterError

MR_C = ("MR-C1", "MR-C2", "MR-C3")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("LGMT_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="module")
def whole_pool() -> dict[str, int]:
    """Groups per relation of the uncapped build, counted by the builder itself."""
    build = build_lgmt(LgmtConfig(mrs=MR_C, per_mr="all"))
    counts: dict[str, int] = {}
    for mr in build.dataset["mr"]:
        counts[mr] = counts.get(mr, 0) + 1
    return counts


def test_the_inspect_task_takes_every_applicable_group(whole_pool: dict[str, int]) -> None:
    """`-T per_mr=all` gives more groups than the default cap, exactly the uncapped build's."""
    task = mr_c(per_mr="all")
    per_relation: dict[str, int] = {}
    for sample in task.dataset:
        assert sample.metadata is not None
        per_relation[sample.metadata["mr"]] = per_relation.get(sample.metadata["mr"], 0) + 1
    assert per_relation == whole_pool
    assert max(whole_pool.values()) > 200  # the default cap would have cut it
    assert task.metadata is not None
    assert task.metadata["dataset"]["build_config"]["per_mr"] == "all"


def test_a_misspelt_all_is_refused_in_one_line() -> None:
    with pytest.raises(TaskParameterError, match="per_mr='alll'"):
        mr_c(per_mr="alll")


def test_the_lm_eval_loader_takes_all_as_a_string(whole_pool: dict[str, int]) -> None:
    """`--metadata '{"per_mr": "all"}'` arrives as a string (in any case) and builds the same groups."""
    rows = lgmt_utils.load_docs(relation_set="mr_c", per_mr="ALL")["test"]
    counts: dict[str, int] = {}
    for mr in rows["mr"]:
        counts[mr] = counts.get(mr, 0) + 1
    assert counts == whole_pool
