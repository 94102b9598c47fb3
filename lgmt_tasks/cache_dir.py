"""The one check that a folder under the lgmt-tasks cache can be written, and the one-line error when it cannot.

Two caches live under `$LGMT_CACHE_DIR`: the on-the-fly builds (`lgmt_tasks.builders.cache`, read by the Inspect
tasks and the lm-eval loaders) and the embedded model's float32 conversion (`lgmt_tasks.models._files`, read by the
`lgmt/smollm2` provider and by lm-eval's `hf` model through `ensure_converted()`). Each used to fail on an unwritable
root in its own way (`datasets`' 295-line traceback, a `PermissionError` from `mkdir`); both now call
`check_writable` before writing, which raises `CacheDirError`, an `LgmtError` (`lgmt_tasks.errors`): one line naming
the folder and the variable, which `inspect eval`, `lm_eval` and `python -c` print without a traceback.

Standard library only: the model provider imports it at registration.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from lgmt_tasks.errors import LgmtError

CACHE_ENV = "LGMT_CACHE_DIR"
"""The environment variable that moves both caches."""


class CacheDirError(LgmtError):
    """The cache root cannot be written: the message names it and the variable that moves it (one line)."""


def check_writable(folder: Path, root: Path) -> None:
    """Make `folder` (under the cache root) if needed and check that a file can be created in it.

    Args:
        folder: The folder about to be written.
        root: The cache root `folder` is under, named by the message when `LGMT_CACHE_DIR` is not set.

    Raises:
        CacheDirError: `LGMT_CACHE_DIR=<root>: cannot write the lgmt-tasks cache there (<reason>: <path>); set
            LGMT_CACHE_DIR to a writable folder` (or, without the variable, the default root and how to move it).
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(prefix=".lgmt-probe-", dir=folder))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        given = os.environ.get(CACHE_ENV)
        where = f"{CACHE_ENV}={given}" if given else f"the cache folder {root}"
        raise CacheDirError(
            f"{where}: cannot write the lgmt-tasks cache there ({reason}: {exc.filename or folder}); "
            f"set {CACHE_ENV} to a writable folder"
        ) from None


__all__ = ["CACHE_ENV", "CacheDirError", "check_writable"]
