"""A content-addressed cache of built datasets, so tasks that build on the fly build once per config.

Builds are deterministic (same config, builder revision and package version → same bytes), so caching by a hash
of those is safe. Every builder has a `BUILD_REVISION`, bumped when its output changes for the same config, and the
repository writer has a `REPO_FORMAT`: both are part of the key, so a changed builder never serves a stale build
from a cache written by the same package version. The cache holds the same Hub repository folder `lgmt build`
writes, and tasks read it through the same `datasets.load_dataset` path as a published dataset.

A first use builds before the evaluation framework shows anything (LGMT's default, 2,928 groups, takes about half a
minute), so a cache miss says so on stderr: what is being built and where it will be cached, the builder's own
progress (its `progress` bars, and anything logged to `BUILD_LOGGER` at INFO, shown during the build), and how long
it took. A cache hit prints nothing.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lgmt_tasks import __version__
from lgmt_tasks.hub.repo import REPO_FORMAT
from lgmt_tasks.ids import content_id

BUILD_LOGGER = "lgmt_tasks.build"
"""The logger a builder's stage messages go to; shown on stderr at INFO while a cache miss builds."""


def cache_root() -> Path:
    """`$LGMT_CACHE_DIR`, else `~/.cache/lgmt-tasks`."""
    return Path(os.environ.get("LGMT_CACHE_DIR") or Path.home() / ".cache" / "lgmt-tasks")


BUILDS_DIR = "builds"
"""The folder under `cache_root()` holding one `<suite>-<hash>` folder per cached build."""


@dataclass(frozen=True)
class CachedBuild:
    """One folder of the build cache, as `lgmt cache` lists it.

    Attributes:
        path: The folder (`<cache_root>/builds/<suite>-<hash>`, or `.<suite>-<hash>-<random>` while being written).
        suite: The suite, read from the folder name.
        config: The build config recorded in its `build_stats.json` (None if the folder has none).
        complete: Whether the build finished (a folder being written, or left by a killed build, is not).
    """

    path: Path
    suite: str
    config: dict[str, Any] | None
    complete: bool


def cached_builds(root: Path | None = None) -> list[CachedBuild]:
    """Every folder in the build cache, finished or not, sorted by suite and name (reads only).

    Args:
        root: The cache root; `cache_root()` by default.

    Returns:
        One record per folder; files and symbolic links in the builds folder are not ours and are skipped.
    """
    folder = (root if root is not None else cache_root()) / BUILDS_DIR
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_symlink() or not path.is_dir():
            continue
        complete = not path.name.startswith(".")
        suite = path.name.lstrip(".").split("-", 1)[0]
        config: dict[str, Any] | None = None
        try:
            stats = json.loads((path / "build_stats.json").read_text(encoding="utf-8"))
            config = stats.get("config") if isinstance(stats, dict) else None
        except (OSError, ValueError):
            pass
        found.append(CachedBuild(path, suite, config, complete and (path / "README.md").exists()))
    return sorted(found, key=lambda b: (b.suite, b.path.name))


def cache_digest(suite: str, key: dict[str, Any], build_revision: int | str) -> str:
    """`<suite>-<hash>`: a build's cache folder name, hashing config, package version, builder and repository format.

    The shipped default builds (`lgmt_tasks.builders.shipped`) record the digest they were built under, so the
    same function decides whether a requested build is one of them.
    """
    parts = [json.dumps(key, sort_keys=True, default=str), __version__, str(build_revision), str(REPO_FORMAT)]
    return content_id(suite, parts, length=16)


def cached_repo(suite: str, key: dict[str, Any], write: Callable[[Path], object], *, build_revision: int | str) -> Path:
    """The cached repository folder for `(suite, key, build_revision)`, writing it with `write(folder)` on a miss.

    Args:
        suite: The suite name.
        key: The build config (`Config.key()`).
        write: Writes the repository into the folder it is given.
        build_revision: The builder's `BUILD_REVISION`.

    The folder is written under a temporary name and renamed into place, so concurrent processes never see a
    half-written build.
    """
    digest = cache_digest(suite, key, build_revision)
    target = cache_root() / BUILDS_DIR / digest
    if (target / "README.md").exists():
        with suppress(OSError):  # a read-only cache is fine
            os.utime(target)  # the folder's time is its last use, which `lgmt cache list` shows
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{digest}-", dir=target.parent))
    try:
        say(f"building {suite} dataset for {described(key)} (first use; cached in {target})...")
        started = time.monotonic()
        with stage_messages():
            write(tmp)
        say(f"built {suite} dataset in {time.monotonic() - started:.0f} s")
        try:
            tmp.rename(target)
        except OSError:  # another process won the race; its build is identical
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target


def say(line: str) -> None:
    """One progress line on stderr (where Inspect and lm-eval leave it visible above their own output)."""
    print(f"lgmt_tasks: {line}", file=sys.stderr, flush=True)


def described(key: dict[str, Any], longest: int = 4) -> str:
    """A build key as `per_mr=200, seed=0, mrs=[MR-E1.1, MR-E1.2, MR-E1.3, ... 10 in all]` (long lists shortened)."""

    def value(v: Any) -> str:
        if isinstance(v, list | tuple):
            items = [str(x) for x in v]
            shown = items if len(items) <= longest else [*items[: longest - 1], f"... {len(items)} in all"]
            return "[" + ", ".join(shown) + "]"
        return str(v)

    return ", ".join(f"{k}={value(v)}" for k, v in sorted(key.items()) if v not in (None, "", [], ()))


@contextmanager
def stage_messages() -> Iterator[None]:
    """Show `BUILD_LOGGER`'s INFO messages on stderr for the duration (a builder's stage lines)."""
    build_logger = logging.getLogger(BUILD_LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("lgmt_tasks:   %(message)s"))
    handler.setLevel(logging.INFO)
    level = build_logger.level
    build_logger.addHandler(handler)
    if build_logger.getEffectiveLevel() > logging.INFO:
        build_logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        build_logger.removeHandler(handler)
        build_logger.setLevel(level)
