"""Small builds of every suite with its default options (only the size is reduced): the slices, built once per run."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="session")
def built(slices: dict[str, Path]) -> dict[str, Path]:
    """Every suite's small default build (its slice, `tests/slices.py`), as `lgmt build` writes it; never changed."""
    return slices


@pytest.fixture(autouse=True)
def _private_caches(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dataset caches go to a temporary folder, never to the user's; nothing touches the network."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
