"""A bad `-T dataset=` is reported in the user's terms before `datasets` reads it.

Without these checks `datasets` said "Couldn't reach ... on the Hub" for a mistyped folder, `Column 'mr' doesn't
exist` for another suite's folder, and a generic `DatasetGenerationError` for a data file that is not gzip.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lgmt_tasks.builders import repo_folder
from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt_rows
from lgmt_tasks.logicasker.dataset import load_logicasker_rows
from lgmt_tasks.verify import claims

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT / "datasets"


@pytest.fixture(autouse=True)
def _offline(offline_cache: Path) -> None:
    """Every test here builds into its own cache, offline (`tests/conftest.py`)."""


@pytest.fixture
def logicasker_copy(tmp_path: Path) -> Path:
    """A copy of the committed LogicAsker repository, to damage."""
    return Path(shutil.copytree(DATASETS / "logicasker", tmp_path / "logicasker"))


def test_a_mistyped_folder_is_no_such_folder(tmp_path: Path) -> None:
    typo = tmp_path / "datasets" / "lgmtt"
    with pytest.raises(ValueError, match=r"no such folder .*lgmtt \(it cannot be a Hub id") as info:
        load_lgmt_rows(MR_SETS["mr_e"], dataset=str(typo))
    assert "on the Hub" not in str(info.value)


def test_a_near_miss_names_the_folder_meant(tmp_path: Path) -> None:
    shutil.copytree(DATASETS / "logicasker", tmp_path / "logicasker")
    with pytest.raises(ValueError, match=r"no such folder .*logicaskr .*; did you mean .*/logicasker\?"):
        load_logicasker_rows(dataset=str(tmp_path / "logicaskr"))


def test_a_relative_typo_that_could_be_a_hub_id_says_both(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with pytest.raises(
        ValueError, match=r"no such folder .*datasets/lgmtt \(if this is a Hub id, it could not be read"
    ):
        load_lgmt_rows(MR_SETS["mr_e"], dataset="datasets/lgmtt")


def test_a_file_is_not_a_folder(logicasker_copy: Path) -> None:
    card = logicasker_copy / "README.md"
    with pytest.raises(ValueError, match=r"README.md is a file; pass the repository folder"):
        load_logicasker_rows(dataset=str(card))


def test_another_suites_folder_is_named_as_such() -> None:
    with pytest.raises(ValueError, match=r"datasets/logicasker is a logicasker build, not an LGMT build"):
        load_lgmt_rows(MR_SETS["mr_e"], dataset=str(DATASETS / "logicasker"))
    with pytest.raises(ValueError, match=r"datasets/lgmt is an LGMT build, not a logicasker build"):
        load_logicasker_rows(dataset=str(DATASETS / "lgmt"))


def test_a_data_file_that_is_not_gzip_is_named(logicasker_copy: Path) -> None:
    data = logicasker_copy / "data" / "default" / "test.jsonl.gz"
    data.write_bytes(b"version https://git-lfs.github.com/spec/v1\n")  # what an un-pulled LFS file looks like
    with pytest.raises(ValueError, match=r"data file .*data/default/test.jsonl.gz is not a valid gzip file"):
        load_logicasker_rows(dataset=str(logicasker_copy))


def test_a_truncated_gzip_is_named(logicasker_copy: Path) -> None:
    data = logicasker_copy / "data" / "default" / "test.jsonl.gz"
    data.write_bytes(data.read_bytes()[:200])
    with pytest.raises(ValueError, match=r"test.jsonl.gz is not a valid gzip file"):
        load_logicasker_rows(dataset=str(logicasker_copy))


def test_a_missing_data_file_is_named(logicasker_copy: Path) -> None:
    (logicasker_copy / "data" / "default" / "test.jsonl.gz").unlink()
    with pytest.raises(ValueError, match=r"data file .*test.jsonl.gz is missing"):
        load_logicasker_rows(dataset=str(logicasker_copy))


def test_verify_and_the_loaders_share_one_suite_check() -> None:
    assert claims.detect_suite is repo_folder.detect_suite
    assert claims.check_columns is repo_folder.check_columns


def test_a_good_folder_still_loads(logicasker_copy: Path) -> None:
    rows = load_logicasker_rows(dataset=str(logicasker_copy), rule="modus ponens")
    assert len(rows) > 0 and set(rows["rule"]) == {"modus ponens"}
