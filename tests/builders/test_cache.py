"""The build cache: keyed by config, package version, builder revision and repository format, so a changed builder
never serves a stale build."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.suites import SUITE_NAMES


@pytest.mark.parametrize("suite", SUITE_NAMES)
def test_every_builder_has_a_build_revision(suite: str) -> None:
    revision = importlib.import_module(f"lgmt_tasks.{suite}.build").BUILD_REVISION
    assert isinstance(revision, (int, str)) and str(revision)


def test_the_build_revision_is_part_of_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path))
    writes: list[Path] = []

    def write(out: Path) -> None:
        writes.append(out)
        (out / "README.md").write_text(f"build {len(writes)}\n", encoding="utf-8")

    first = cached_repo("suite", {"seed": 0}, write, build_revision=1)
    again = cached_repo("suite", {"seed": 0}, write, build_revision=1)
    bumped = cached_repo("suite", {"seed": 0}, write, build_revision=2)
    assert first == again and len(writes) == 2 and bumped != first
    assert (first / "README.md").read_text() == "build 1\n" and (bumped / "README.md").read_text() == "build 2\n"
