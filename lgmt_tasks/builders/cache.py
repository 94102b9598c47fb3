"""A content-addressed cache of built datasets, so tasks that build on the fly build once per config.

Builds are deterministic (same config, builder revision and package version → same bytes), so caching by a hash
of those is safe. Every builder has a `BUILD_REVISION`, bumped when its output changes for the same config, and the
repository writer has a `REPO_FORMAT`: both are part of the key, so a changed builder never serves a stale build
from a cache written by the same package version. The cache holds the same Hub repository folder `lgmt build`
writes, and tasks read it through the same `datasets.load_dataset` path as a published dataset.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lgmt_tasks import __version__
from lgmt_tasks.hub.repo import REPO_FORMAT
from lgmt_tasks.ids import content_id


def cache_root() -> Path:
    """`$LGMT_CACHE_DIR`, else `~/.cache/lgmt-tasks`."""
    return Path(os.environ.get("LGMT_CACHE_DIR") or Path.home() / ".cache" / "lgmt-tasks")


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
    parts = [json.dumps(key, sort_keys=True, default=str), __version__, str(build_revision), str(REPO_FORMAT)]
    digest = content_id(suite, parts, length=16)
    target = cache_root() / "builds" / digest
    if (target / "README.md").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{digest}-", dir=target.parent))
    try:
        write(tmp)
        try:
            tmp.rename(target)
        except OSError:  # another process won the race; its build is identical
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target
