"""Fixtures shared by the LGMT tests: fresh caches.

The small build of all 20 relations (`built_dataset`) and the scripted LGMT runs (`runs`) are in `tests/conftest.py`,
shared with the lm-eval and report tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def fresh_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty build and Inspect caches for one test, offline: nothing a previous test built or answered is reused."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
