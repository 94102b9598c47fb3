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

Two processes asking for the same missing build at once (two `inspect eval` runs started together, or two test
workers) do not both build it: a file lock beside the entry (`<suite>-<hash>.lock`, an OS lock released when its
holder exits, even if killed) lets the first build while the second waits, says so, and then reads the finished
entry. The entry is still written under a temporary name and renamed into place, so a reader that does not take the
lock (an older version, `lgmt cache list`) never sees half a build.

A cache entry is checked before it is used: when it is written, the fingerprint of its rows (the one the evaluation
log records, `lgmt_tasks.builders.repo_folder`) is stored beside its folder (`entry_record`), and a hit whose data
files are unreadable (a truncated `test.jsonl.gz`, a disk that filled up) or no longer have that fingerprint is
rebuilt, with one warning naming the file and `lgmt cache clear`, instead of failing every later run in `datasets`'
traceback. An unwritable cache root is one `CacheDirError` naming it and `LGMT_CACHE_DIR`.
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
from lgmt_tasks.cache_dir import CacheDirError as CacheDirError  # re-exported: the build cache's callers catch it
from lgmt_tasks.cache_dir import check_writable as check_cache_folder
from lgmt_tasks.hub.repo import REPO_FORMAT
from lgmt_tasks.ids import content_id

BUILD_LOGGER = "lgmt_tasks.build"
"""The logger a builder's stage messages go to; shown on stderr at INFO while a cache miss builds."""


logger = logging.getLogger(__name__)


def cache_root() -> Path:
    """`$LGMT_CACHE_DIR`, else `~/.cache/lgmt-tasks`."""
    return Path(os.environ.get("LGMT_CACHE_DIR") or Path.home() / ".cache" / "lgmt-tasks")


def check_writable(folder: Path) -> None:
    """Make `folder` (under the cache root) if needed and check that a file can be created in it.

    Raises:
        CacheDirError: One line naming the cache root and `LGMT_CACHE_DIR` (`lgmt_tasks.cache_dir`, the check the
            model cache makes too).
    """
    check_cache_folder(folder, cache_root())


RECORD_SUFFIX = ".fingerprint"
"""A cache entry's record, beside its folder (`<suite>-<hash>.fingerprint`, the fingerprint of its rows): beside,
not inside, so that the folder stays exactly what `lgmt build` writes (`lgmt_tasks.hub.output.is_build_folder`)."""


def entry_record(folder: Path) -> Path:
    """The file holding the fingerprint recorded for the cache entry `folder`."""
    return folder.with_name(folder.name + RECORD_SUFFIX)


def entry_problem(folder: Path) -> str | None:
    """What is wrong with a cached build folder, or None when its rows are readable and have the recorded fingerprint.

    An entry written before fingerprints were recorded is checked for readability only.
    """
    from lgmt_tasks.builders.repo_folder import DataFileError, read_folder

    try:
        facts = read_folder(folder)
    except DataFileError as exc:
        return f"data file {exc.path} {exc.problem}"
    except (ValueError, OSError) as exc:
        return str(exc)
    try:
        recorded = entry_record(folder).read_text(encoding="utf-8").strip()
    except OSError:  # no record (an entry from before records, or a record removed): readable is enough
        return None
    if recorded and recorded != facts.fingerprint:
        files = ", ".join(str(folder / name) for name in facts.data_files) or str(folder)
        return f"{files}: the rows do not have the fingerprint recorded when the entry was written"
    return None


def record_entry(written: Path, target: Path) -> None:
    """Record the fingerprint of a freshly written entry's rows (`written`, to be renamed `target`) beside `target`.

    Written under a temporary name and renamed, so a reader sees the whole record or none.
    """
    from lgmt_tasks.builders.repo_folder import read_folder

    record = entry_record(target)
    tmp = record.with_name(f".{record.name}-{os.getpid()}")
    tmp.write_text(read_folder(written).fingerprint + "\n", encoding="utf-8")
    os.replace(tmp, record)


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


def entry_folder(suite: str, key: dict[str, Any], build_revision: int | str) -> Path:
    """The cache folder of the build `(suite, key, build_revision)`, whether or not it is there yet."""
    return cache_root() / BUILDS_DIR / cache_digest(suite, key, build_revision)


def cached_repo(
    suite: str,
    key: dict[str, Any],
    write: Callable[[Path], object],
    *,
    build_revision: int | str,
    announce: str | None = None,
) -> Path:
    """The cached repository folder for `(suite, key, build_revision)`, writing it with `write(folder)` on a miss.

    Args:
        suite: The suite name.
        key: The build config (`Config.key()`).
        write: Writes the repository into the folder it is given.
        build_revision: The builder's `BUILD_REVISION`.
        announce: The line said on stderr before building, on a miss (`lgmt_tasks.builders.load.build_notice`:
            not a shipped build, for which task, how long the shipped one took); the default names the key.

    The folder is written under a temporary name and renamed into place, so concurrent processes never see a
    half-written build. A cached folder that is damaged (`entry_problem`) is removed and built again, with one
    warning naming it.

    Raises:
        CacheDirError: The cache root cannot be written (on a miss).
    """
    target = entry_folder(suite, key, build_revision)
    if usable(target, suite):
        return target
    check_writable(target.parent)
    with entry_lock(target, suite):
        if usable(target, suite):  # another process built it while this one waited
            return target
        write_entry(suite, key, write, target, announce)
    return target


def usable(target: Path, suite: str) -> bool:
    """Whether the entry `target` is complete and undamaged (a damaged one is removed, with one warning)."""
    if not (target / "README.md").exists():
        return False
    problem = entry_problem(target)
    if problem is None:
        with suppress(OSError):  # a read-only cache is fine
            os.utime(target)  # the folder's time is its last use, which `lgmt cache list` shows
        return True
    logger.warning(
        f"{suite}: the cached build {target} is damaged ({problem}); building it again "
        f"(`lgmt cache clear --suite {suite}` removes this suite's cached builds)"
    )
    discard(target)
    return False


LOCK_SUFFIX = ".lock"
"""The lock file beside an entry (`<suite>-<hash>.lock`); left in place after use, as file locks are."""


@contextmanager
def entry_lock(target: Path, suite: str) -> Iterator[None]:
    """Hold the build lock of the entry `target`, saying on stderr when another process holds it and this one waits."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(target.with_name(target.name + LOCK_SUFFIX)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        say(f"waiting for another process that is building this {suite} dataset ({target})...")
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def unfinished_folders(target: Path) -> list[Path]:
    """The temporary folders of `target`'s entry (`.<suite>-<hash>-…`: a build being written, or left by one killed)."""
    return sorted(p for p in target.parent.glob(f".{target.name}-*") if p.is_dir() and not p.is_symlink())


def build_in_progress(folder: Path) -> bool:
    """Whether the unfinished build folder `folder` (`.<suite>-<hash>-…`) is being written now: its entry is locked.

    A folder whose entry's lock is free was left by a build that stopped (killed, out of memory, a power cut).
    """
    from filelock import FileLock, Timeout

    digest = folder.name.lstrip(".").rsplit("-", 1)[0].removesuffix("-damaged")
    lock = FileLock(str(folder.with_name(digest + LOCK_SUFFIX)))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return True
    lock.release()
    return False


def write_entry(
    suite: str, key: dict[str, Any], write: Callable[[Path], object], target: Path, announce: str | None = None
) -> None:
    """Build into a temporary folder beside `target`, record its fingerprint and rename it into place.

    Called with the entry's lock held, so any temporary folder of the entry already there was left by a build that
    stopped: it is removed first, and said.
    """
    for stale in unfinished_folders(target):
        shutil.rmtree(stale, ignore_errors=True)
        say(f"removed {stale}, left by a {suite} build that stopped before it finished")
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        say(announce or f"building {suite} dataset for {described(key)} (first use; cached in {target})...")
        started = time.monotonic()
        with stage_messages():
            write(tmp)
        record_entry(tmp, target)
        say(f"built {suite} dataset in {time.monotonic() - started:.0f} s")
        try:
            tmp.rename(target)
        except OSError:  # another process won the race; its build is identical
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def discard(folder: Path) -> None:
    """Remove a damaged entry: renamed aside first (one atomic step other processes see), then deleted."""
    aside = folder.with_name(f".{folder.name}-damaged-{os.getpid()}")
    try:
        folder.rename(aside)
    except OSError:  # another process removed or replaced it meanwhile
        return
    shutil.rmtree(aside, ignore_errors=True)
    entry_record(folder).unlink(missing_ok=True)


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
