"""Fixtures every test folder may use: an isolated build cache, and builds made once per test run.

`make test` runs the suite on every core (pytest-xdist). Each worker is its own process with its own session
fixtures, so a build that tests in several files read is made through the build cache in a folder that every worker
of the run shares (`run_cache`): the cache's per-entry lock lets one worker build it while another that needs it
waits and then reads the finished entry. Nothing a test writes goes into that cache except through `cached_repo`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.builders.cache import cached_repo
from tests.slices import SUITES, build_revision, cache_key, write_slice


@pytest.fixture
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh build cache under `tmp_path`, with the Hub and `datasets` offline."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    return tmp_path / "cache"


@pytest.fixture(scope="session")
def run_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build cache shared by every worker of this test run (one run's base folder; not the user's cache)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's base is `<run>/popen-gw<N>`; the run's is its parent
        base = base.parent
    return base / "run-cache"


@pytest.fixture(scope="session")
def build_once(run_cache: Path) -> Callable[[str, dict, Callable[[Path], object], int | str], Path]:
    """`build_once(suite, key, write, revision)`: the cached folder of a build, made once per test run.

    Tests read the folder and never change it (copy it first).
    """

    def build(suite: str, key: dict, write: Callable[[Path], object], revision: int | str) -> Path:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("LGMT_CACHE_DIR", str(run_cache))
            return cached_repo(suite, key, write, build_revision=revision)

    return build


@pytest.fixture(scope="session")
def slices(build_once: Callable[..., Path]) -> dict[str, Path]:
    """Every suite's slice of its default build (`tests/slices.py`), as `lgmt build` writes it, once per run."""
    return {
        suite: build_once(suite, cache_key(suite), lambda out, s=suite: write_slice(s, out), build_revision(suite))
        for suite in SUITES
    }


@pytest.fixture(scope="session")
def built_dataset(build_once: Callable[..., Path]) -> str:
    """One small build of all 20 relations (`per_mr=1`), as `lgmt build` writes it, made once per run.

    The LGMT, lm-eval and report tests read their relations from it (every LGMT task, through `-T dataset=`).
    """
    from lgmt_tasks.lgmt.build import BUILD_REVISION, build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig

    config = LgmtConfig(per_mr=1, seed=0)
    return str(build_once("lgmt", config.key(), lambda out: write_lgmt_repo(build_lgmt(config), out), BUILD_REVISION))


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The dataset, the script and the three logs of `tests.report.scripted.make_runs` (LGMT and report tests)."""
    from tests.report.scripted import make_runs

    return make_runs(tmp_path_factory.mktemp("lgmt-report"))
