"""The card tests' shared logs: one scripted run of each suite, made once per test process (`tests/card/runs.py`)."""

from __future__ import annotations

import pytest
from inspect_ai.log import EvalLog

from lgmt_tasks.suites import SUITE_NAMES
from tests.card.runs import MODEL, run_suite


@pytest.fixture(scope="session")
def five_suite_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    """Suite → a log of `runs.MODEL` on its committed build (`runs.LIMIT` samples), offline."""
    root = tmp_path_factory.mktemp("card-five-suites")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_DATASETS_OFFLINE", "1")
        patch.setenv("LGMT_CACHE_DIR", str(root / "cache"))
        return {suite: run_suite(suite, MODEL, root / "logs") for suite in SUITE_NAMES}
