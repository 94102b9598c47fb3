"""What an evaluation log records about its data: build statistics, licence and fingerprint in `eval.metadata`.

Runs real Inspect evaluations on a scripted `mockllm/model` and reads the log back from disk.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.builders.load import METADATA_KEY
from lgmt_tasks.hub.repo import CardSpec, load_dataset_repo, write_dataset_repo
from lgmt_tasks.lgmt.dataset import MR_SETS, first_relation, load_lgmt
from lgmt_tasks.lgmt.task import mr_s
from lgmt_tasks.logicasker.task import logicasker
from tests.tasks.conftest import answering_model

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


@pytest.fixture(autouse=True)
def _offline(offline_cache: Path) -> None:
    """Every test here builds into its own cache, offline."""


def _run(task: Any, tmp_path: Path, answer: str, limit: int) -> EvalLog:
    (log,) = eval(task, model=answering_model(answer), log_dir=str(tmp_path / "logs"), display="none", limit=limit)
    assert log.status == "success", log.error
    return read_eval_log(log.location)  # what is on disk, not the object in memory


def _front_matter(folder: Path) -> dict[str, Any]:
    return yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---\n")[1])


def test_a_folder_run_records_statistics_licence_and_fingerprint(tmp_path: Path) -> None:
    folder = DATASETS / "logicasker"
    log = _run(logicasker(dataset=str(folder), rule="modus ponens,modus tollens"), tmp_path, "yes", limit=4)
    assert log.eval.metadata is not None
    meta = log.eval.metadata[METADATA_KEY]
    stats = json.loads((folder / "build_stats.json").read_text(encoding="utf-8"))
    card = _front_matter(folder)
    (data_file,) = [f["path"] for c in card["configs"] for f in c["data_files"]]
    data = gzip.decompress((folder / data_file).read_bytes())
    expected = hashlib.sha256(data_file.encode() + b"\0" + data).hexdigest()
    assert meta["fingerprint"] == f"sha256:{expected}"
    assert meta["licence"] == card["license"]
    assert meta["source"] == {"kind": "folder", "path": str(folder.resolve())}
    assert meta["build_config"] == stats["config"]
    by_reason: dict[str, int] = {}
    for reasons in stats["dropped"].values():
        for reason, n in reasons.items():
            by_reason[reason] = by_reason.get(reason, 0) + n
    assert meta["dropped_by_reason"] == by_reason and meta["dropped"] == sum(by_reason.values())
    rows = load_dataset_repo(folder)
    assert meta["rows"] == len(rows)
    kept = [r for r in rows["rule"] if r in ("modus ponens", "modus tollens")]
    assert meta["selected"] == len(kept) == sum(meta["per_stratum"].values())
    assert meta["per_stratum"] == {rule: kept.count(rule) for rule in ("modus ponens", "modus tollens")}
    assert log.eval.metadata["demonstrations"] == []  # the task's own metadata is kept beside it


def test_a_build_run_records_its_build_and_says_so_once(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    log = _run(mr_s(per_mr=2, seed=3), tmp_path, '{"label": "True"}', limit=2)
    first = capfd.readouterr().err
    meta = log.eval.metadata[METADATA_KEY]  # type: ignore[index]
    assert meta["source"]["kind"] == "build"
    folder = Path(meta["source"]["cache_folder"])
    assert meta["build_config"] == json.loads((folder / "build_stats.json").read_text(encoding="utf-8"))["config"]
    assert meta["build_config"]["per_mr"] == 2 and meta["build_config"]["seed"] == 3
    assert meta["per_stratum"] == {"MR-S1": 2, "MR-S2": 2}
    assert "lgmt_tasks: building lgmt dataset (per_mr=2, seed=3): not a shipped build" in first  # said before (#38)
    assert "(the shipped one has per_mr=200, seed=0; it took up to 1 min on 2 cores)" in first
    assert f"; cached afterwards in {folder}..." in first
    assert "lgmt_tasks: built lgmt dataset in" in first
    assert first.count("lgmt_tasks: lgmt: 4 groups over 2 mr values") == 1  # the one summary line

    again = _run(mr_s(per_mr=2, seed=3), tmp_path, '{"label": "True"}', limit=2)
    second = capfd.readouterr().err
    assert "lgmt_tasks: build" not in second  # a cache hit says nothing of building, only the summary line
    assert second.count("lgmt_tasks: lgmt: 4 groups over 2 mr values") == 1
    assert again.eval.metadata[METADATA_KEY]["fingerprint"] == meta["fingerprint"]  # type: ignore[index]


def test_a_requested_relation_without_groups_is_warned_about(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rows = load_dataset_repo(DATASETS / "lgmt")
    two = rows.select([i for i, mr in enumerate(rows["mr"]) if first_relation(mr) in ("MR-E1.1", "MR-E2.1")])
    folder = write_dataset_repo(tmp_path / "two", {"default": {"test": two}}, CardSpec("two", "mit", "two"))
    with caplog.at_level(logging.WARNING, logger="lgmt_tasks.builders.load"):
        loaded = load_lgmt(MR_SETS["mr_e"], dataset=str(folder))
    missing = [m for m in MR_SETS["mr_e"] if m not in ("MR-E1.1", "MR-E2.1")]
    assert loaded.metadata["empty_strata"] == missing
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert all(m in warning for m in missing) and "MR-E1.1" not in warning
    assert "build_config" not in loaded.metadata  # no build_stats.json: no statistics claimed


def test_the_metadata_is_json(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(DATASETS / "qmfol", tmp_path / "qmfol"))
    loaded = load_lgmt(MR_SETS["mr_c"], dataset=str(DATASETS / "lgmt"))
    assert json.loads(json.dumps(loaded.metadata)) == loaded.metadata
    from lgmt_tasks.qmfol.dataset import load_qmfol

    grid = load_qmfol(dataset=str(folder), depth=5, width=5)
    assert set(grid.metadata["per_stratum"]) == {"d5_w5_D0", "d5_w5_D5", "d5_w5_D10", "d5_w5_D15", "d5_w5_D20"}
