"""Fixtures shared by the LGMT tests: one small build of all 20 relations, and the scripted LGMT runs.

The shared lm-eval and report tests have the same two fixtures (`tests/task_configs/conftest.py`,
`tests/report/conftest.py`); a session fixture is computed once per conftest that defines it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.report.scripted import make_runs


@pytest.fixture
def fresh_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty build and Inspect caches for one test, offline: nothing a previous test built or answered is reused."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


@pytest.fixture(scope="session")
def built_dataset(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One small build of all 20 relations, as `lgmt build` writes it; every LGMT task reads its relations from it."""
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig

    out = tmp_path_factory.mktemp("lgmt") / "repo"
    write_lgmt_repo(build_lgmt(LgmtConfig(per_mr=1, seed=0)), out)
    return str(out)


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The dataset, the script and the three logs of `tests.report.scripted.make_runs`."""
    return make_runs(tmp_path_factory.mktemp("lgmt-report"))
