"""Fixtures every test folder may use: an isolated build cache with the Hub and `datasets` offline."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh build cache under `tmp_path`, with the Hub and `datasets` offline."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    return tmp_path / "cache"
