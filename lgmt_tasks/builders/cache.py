"""A content-addressed cache of built datasets, so tasks that build on the fly build once per config.

Builds are deterministic (same config and package version → same bytes), so caching by a hash of the config
and version is safe. The cache holds the same Hub repository folder `lgmt build` writes, and tasks read it
through the same `datasets.load_dataset` path as a published dataset.
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
from lgmt_tasks.ids import content_id


def cache_root() -> Path:
    """`$LGMT_CACHE_DIR`, else `~/.cache/lgmt-tasks`."""
    return Path(os.environ.get("LGMT_CACHE_DIR") or Path.home() / ".cache" / "lgmt-tasks")


def cached_repo(suite: str, key: dict[str, Any], write: Callable[[Path], object]) -> Path:
    """The cached repository folder for `(suite, key)`, writing it with `write(folder)` on a miss.

    The folder is written under a temporary name and renamed into place, so concurrent processes never see a
    half-written build.
    """
    digest = content_id(suite, [json.dumps(key, sort_keys=True, default=str), __version__], length=16)
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
