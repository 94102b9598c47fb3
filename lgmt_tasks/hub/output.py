"""Where a build may be written: `--out` never replaces a folder we did not write, and never half-writes one.

`lgmt build <suite> --out DIR` used to write into DIR in place: a user's own `README.md` there was replaced and
JSON Lines files under `data/` that the new card did not declare were deleted. The rules now:

* DIR absent, or an empty folder: the build is written.
* DIR holds a previous build of ours (`is_build_folder`): replaced only with `overwrite` (`--overwrite`).
* DIR holds anything else, or a previous build plus a file we did not write: refused, even with `overwrite`,
  naming the first foreign file. Nothing is ever deleted that a build did not write.
* DIR is a file: refused.
* DIR cannot be written (its nearest existing parent does not take a new folder: `/proc/x`, a read-only mount):
  refused before building, naming it.

A previous build of ours is recognised by what `write_build_repo` writes and nothing else: `README.md` opening with
YAML front matter whose `tags` hold ``lgmt-tasks`` and whose `configs` declare the data files, `build_stats.json`,
and no file besides those and the declared data files (empty folders are allowed).

Two builds started with the same DIR: the first to check DIR claims it (`claim_output_folder`, an OS file lock under
the system's temporary folder, keyed by DIR's absolute path, held until its build is written or its process ends);
the second is refused before it builds, instead of building for minutes and then finding DIR taken.

The build is written into a fresh folder beside DIR (``.DIR.lgmt-…``) and moved into place only once complete, so
an interrupted or failing build leaves the old DIR as it was. Replacing a previous build is two renames (old DIR
aside, new folder in) and then the removal of the old build's own files; if the process dies between the renames,
the old build is still complete under its ``.DIR.lgmt-old-…`` name.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

CARD_TAG = "lgmt-tasks"
"""The Hub tag every card we write carries (`CardSpec.tags`); part of how a previous build is recognised."""

BUILD_FILES: tuple[str, ...] = ("README.md", "build_stats.json")
"""The files every build writes besides its data files."""


class OutputFolderError(ValueError):
    """The output folder cannot be written: the message names the folder and says why (one line)."""


def card_metadata(readme: Path) -> dict[str, Any] | None:
    """The YAML front matter of a card as a dict, or None when the file has none or it does not parse."""
    try:
        text = readme.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 4)
    if end < 0:
        return None
    try:
        meta = yaml.safe_load(text[4:end])
    except yaml.YAMLError:
        return None
    return meta if isinstance(meta, dict) else None


def _declared_data_files(meta: dict[str, Any]) -> set[str] | None:
    """The data file paths the card's `configs` declare, or None when `configs` is not ours in shape."""
    configs = meta.get("configs")
    if not isinstance(configs, list) or not configs:
        return None
    paths: set[str] = set()
    for config in configs:
        files = config.get("data_files") if isinstance(config, dict) else None
        if not isinstance(files, list):
            return None
        for entry in files:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                return None
            paths.add(entry["path"])
    return paths


def build_files(folder: Path) -> set[str] | None:
    """The files a build of ours wrote into `folder` (relative POSIX paths), or None if its card is not ours.

    This reads the card only; whether the folder holds anything else is `foreign_files`.
    """
    if not (folder / "build_stats.json").is_file():
        return None
    meta = card_metadata(folder / "README.md")
    if meta is None or CARD_TAG not in (meta.get("tags") or []):
        return None
    declared = _declared_data_files(meta)
    return None if declared is None else {*BUILD_FILES, *declared}


def _files(folder: Path) -> list[str]:
    """Every file and symlink under `folder` (relative POSIX paths, sorted); empty folders are not listed."""
    found = []
    for root, dirs, names in os.walk(folder):
        for name in names + [d for d in dirs if Path(root, d).is_symlink()]:
            found.append(Path(root, name).relative_to(folder).as_posix())
    return sorted(found)


def foreign_files(folder: Path) -> list[str]:
    """The files of `folder` that no build of ours wrote (all of them when its card is not ours)."""
    ours = build_files(folder)
    return [f for f in _files(folder) if ours is None or f not in ours]


def is_build_folder(folder: Path) -> bool:
    """Whether `folder` holds a previous build of ours and nothing else (so replacing it loses nothing)."""
    return folder.is_dir() and build_files(folder) is not None and not foreign_files(folder)


def check_output_folder(out: str | Path, *, overwrite: bool = False) -> None:
    """Refuse an output folder a build must not write into (see the module docstring).

    Args:
        out: The output folder (`--out`).
        overwrite: Whether a previous build of ours there may be replaced (`--overwrite`).

    Raises:
        OutputFolderError: `out` is a file; or a non-empty folder that is not a previous build of ours; or a
            previous build and `overwrite` is false.
    """
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise OutputFolderError(f"--out {out} is an existing file, not a folder: choose a folder path")
    check_writable_parent(out)
    if not path.exists() or not any(path.iterdir()):
        return
    if build_files(path) is None:
        raise OutputFolderError(
            f"--out {out} is not empty and is not a previous lgmt build (no lgmt-tasks card and build_stats.json); "
            "nothing was written: choose a new or empty folder"
        )
    foreign = foreign_files(path)
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise OutputFolderError(
            f"--out {out} holds a previous lgmt build plus files it did not write ({foreign[0]}{more}); "
            "nothing was written: move them away or choose another folder"
        )
    if not overwrite:
        raise OutputFolderError(f"--out {out} holds a previous lgmt build: pass --overwrite to replace it")


_CLAIMS: dict[Path, Any] = {}
"""The output folders this process has claimed (`claim_output_folder`), with their `filelock.FileLock`."""


def claim_output_folder(out: str | Path) -> None:
    """Claim `out` for this process's build, so that a second build writing it now is refused before it builds.

    Re-entrant within a process; released by `release_output_folder` (or when the process ends, even if killed).

    Raises:
        OutputFolderError: Another process holds the claim.
    """
    import hashlib

    from filelock import FileLock, Timeout

    path = Path(out).expanduser().resolve()
    lock = _CLAIMS.get(path)
    if lock is None:
        folder = Path(tempfile.gettempdir()) / "lgmt-out-locks"
        folder.mkdir(exist_ok=True)
        lock = FileLock(str(folder / (hashlib.sha256(str(path).encode()).hexdigest()[:24] + ".lock")))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise OutputFolderError(
            f"--out {out}: another lgmt build is writing this folder now; nothing was built: wait for it to finish "
            "or choose another folder"
        ) from None
    _CLAIMS[path] = lock


def remove_stale_staging(out: str | Path) -> list[Path]:
    """Remove the staging folders beside `out` that builds killed before finishing left (`.DIR.lgmt-<hex>`).

    Only with this process's claim on `out` (`claim_output_folder`): every other build of `out` is then refused, so
    no staging folder beside it can belong to a build still running. A `.DIR.lgmt-old-…` folder (a previous build
    moved aside) is kept. Returns what was removed.
    """
    path = Path(out).expanduser().resolve()
    if path not in _CLAIMS:
        raise ValueError(f"--out {out}: not claimed by this process; its staging folders may be in use")
    removed = []
    for folder in sorted(path.parent.glob(f".{path.name}.lgmt-*")):
        suffix = folder.name.removeprefix(f".{path.name}.lgmt-")
        if (
            folder.is_dir()
            and not folder.is_symlink()
            and len(suffix) == 8
            and all(c in "0123456789abcdef" for c in suffix)
        ):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def release_output_folder(out: str | Path) -> None:
    """Release this process's claim on `out` (a no-op without one)."""
    path = Path(out).expanduser().resolve()
    lock = _CLAIMS.get(path)
    if lock is not None:
        lock.release(force=True)
        del _CLAIMS[path]


def check_writable_parent(out: str | Path, flag: str = "--out", *, into: bool = False) -> None:
    """Refuse an output path whose folder cannot be created or written: a staging folder must be made beside it.

    The nearest existing folder above `out` is tried with a throw-away folder (as root, `os.access` says yes to
    everything, `/proc` included), so a build that would fail only when writing is refused before it starts. With
    `into` (a report, written into `out` itself), an existing `out` is the folder tried.

    Raises:
        OutputFolderError: `<flag> <out>: cannot write there (<reason>: <folder>); nothing was written: choose a
            writable folder`.
    """
    path = Path(out).expanduser().absolute()
    parent = path if into and path.is_dir() else path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".lgmt-probe-", dir=parent))
    except OSError as exc:
        raise OutputFolderError(
            f"{flag} {out}: cannot write there ({exc.strerror or exc}: {parent}); nothing was written: "
            "choose a writable folder"
        ) from None


def write_output_folder(out: str | Path, write: Callable[[Path], object], *, overwrite: bool = False) -> Path:
    """Write a repository folder with `write(folder)` into a fresh folder beside `out`, then move it into place.

    Args:
        out: The output folder.
        write: Writes the whole repository into the (empty) folder it is given.
        overwrite: Whether a previous build of ours at `out` may be replaced.

    Returns:
        `out` as a `Path`.

    Raises:
        OutputFolderError: See `check_output_folder` (checked before writing and again before the swap, since a
            build can take minutes). Whatever `write` raises propagates, and `out` is left as it was.
    """
    path = Path(out).resolve()  # `--out .` or a symlink: the staging folder must sit beside the real folder
    check_output_folder(out, overwrite=overwrite)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.parent / f".{path.name}.lgmt-{secrets.token_hex(4)}"
        staging.mkdir()
    except OSError as exc:
        raise OutputFolderError(f"--out {out}: cannot create a folder beside it ({exc.strerror or exc})") from exc
    try:
        write(staging)
        check_output_folder(out, overwrite=overwrite)
        _move_into_place(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Path(out)


def _move_into_place(staging: Path, out: Path) -> None:
    """Rename `staging` to `out`; a previous build at `out` is moved aside first and its own files removed."""
    if not out.exists() or not any(out.iterdir()):
        os.rename(staging, out)  # an empty folder is replaced atomically by rename(2)
        return
    ours = build_files(out)
    assert ours is not None  # check_output_folder let only a previous build of ours through
    old = out.parent / f".{out.name}.lgmt-old-{secrets.token_hex(4)}"
    os.rename(out, old)
    os.rename(staging, out)
    _remove_build(old, ours)


def _remove_build(folder: Path, files: Iterable[str]) -> None:
    """Delete the files a build wrote, then the folders left empty; anything else stays (with a warning)."""
    for rel in files:
        (folder / rel).unlink(missing_ok=True)
    for root, _dirs, _names in sorted(os.walk(folder), key=lambda entry: -len(Path(entry[0]).parts)):
        try:
            os.rmdir(root)
        except OSError:
            pass
    if folder.exists():
        warnings.warn(f"the previous build was replaced; files it did not write were kept in {folder}", stacklevel=3)
