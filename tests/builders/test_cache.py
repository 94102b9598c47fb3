"""The build cache: keyed by config, package version, builder revision and repository format, so a changed builder
never serves a stale build."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from lgmt_tasks.builders.cache import cache_digest, cached_repo
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


def test_a_build_removes_what_a_stopped_build_of_the_same_entry_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A killed build leaves `.<suite>-<hash>-…`; the next build of the entry holds its lock, so removes it (said)."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path))
    left = tmp_path / "builds" / f".{cache_digest('suite', {'seed': 0}, 1)}-killed1"
    left.mkdir(parents=True)
    (left / "half").write_text("x")
    other = tmp_path / "builds" / f".{cache_digest('suite', {'seed': 1}, 1)}-killed2"  # another entry's: kept
    other.mkdir()

    def write(out: Path) -> None:
        (out / "README.md").write_text("built\n", encoding="utf-8")

    folder = cached_repo("suite", {"seed": 0}, write, build_revision=1)
    assert (folder / "README.md").read_text() == "built\n"
    assert not left.exists() and other.is_dir()
    assert f"removed {left}, left by a suite build that stopped" in capsys.readouterr().err
