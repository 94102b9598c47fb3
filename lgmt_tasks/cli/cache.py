"""`lgmt cache list|clear`: what our caches hold, and removing parts of it on request.

Three kinds of entry live under the cache roots, and all of them are rebuilt automatically when missing:

- `build`: a dataset built on the fly by a task (`<root>/builds/<suite>-<hash>`, `lgmt_tasks.builders.cache`);
- `loader`: the Arrow copy `datasets` makes when it loads a build or a `-T dataset=` folder
  (`<root>/hf-datasets/<hash>`, keyed by the folder's content; `lgmt_tasks.hub.repo.content_cache_dir`);
- `model`: the float32 conversion of the embedded SmolLM2 (`<model root>/smollm2-f32/<key>`, about 517 MB,
  `lgmt_tasks.models`).

The build root is `$LGMT_CACHE_DIR`, else `~/.cache/lgmt-tasks`; the model root is the same, except that without
`$LGMT_CACHE_DIR` it honours `$XDG_CACHE_HOME`. `clear` removes only entries it found in these folders (never a
symbolic link's target, never anything whose real path leaves its root) and needs an explicit selector, so a bare
`lgmt cache clear` cannot wipe a 517 MB model by accident.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import click

from lgmt_tasks.builders.cache import cache_root, cached_builds, described, entry_record
from lgmt_tasks.hub.repo import content_cache_dir
from lgmt_tasks.models import _files as model_files
from lgmt_tasks.suites import SUITES

LOADER_DIR = "hf-datasets"
"""The folder under the build root where `content_cache_dir` puts `datasets`' Arrow copies (a test checks it)."""


@dataclass(frozen=True)
class Entry:
    """One removable cache entry.

    Attributes:
        kind: `build`, `loader` or `model`.
        suite: The suite (`smollm2` for the model; for a loader copy, the suites of the builds it copies, comma
            separated, or `-` for a folder that is not a cached build).
        path: Its folder.
        root: The cache root it must stay inside.
        summary: What it holds (the build config, the model's conversion details).
        complete: False for a folder still being written, or left by a killed build or conversion.
    """

    kind: str
    suite: str
    path: Path
    root: Path
    summary: str
    complete: bool = True

    @property
    def size(self) -> int:
        """Bytes on disk, not following symbolic links."""
        return folder_size(self.path)

    @property
    def last_used(self) -> float:
        """The newest modification time in the folder (builds and the model are touched on every use)."""
        return newest_mtime(self.path)


def folder_size(folder: Path) -> int:
    """Total size of the files under `folder`, not following symbolic links."""
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:  # removed meanwhile
                pass
    return total


def newest_mtime(folder: Path) -> float:
    """The newest modification time of `folder` and everything under it."""
    newest = folder.lstat().st_mtime
    for dirpath, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            try:
                newest = max(newest, os.lstat(os.path.join(dirpath, name)).st_mtime)
            except OSError:
                pass
    return newest


def human_size(size: int) -> str:
    """`517.3 MB`-style size (powers of 1000, as `du --si`)."""
    value = float(size)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    raise AssertionError("unreachable")


def human_age(seconds: float) -> str:
    """`45 s`, `12 min`, `3 h`, `5 d`: how long ago, coarse on purpose."""
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{seconds // length:.0f} {unit}"
    return f"{max(seconds, 0):.0f} s"


def model_root() -> Path:
    """The root of the converted model cache (see `lgmt_tasks.models._files.cache_root`)."""
    return model_files.cache_root()


def find_entries() -> list[Entry]:
    """Every entry under the cache roots: builds, their loader copies, other loader copies, then the model."""
    root = cache_root()
    entries: list[Entry] = []
    loaders_of_builds: dict[str, set[str]] = {}
    for build in cached_builds(root):
        summary = described(build.config) if build.config else "(no build_stats.json)"
        entries.append(Entry("build", build.suite, build.path, root, summary, build.complete))
        if build.complete:
            loaders_of_builds.setdefault(content_cache_dir(build.path).name, set()).add(build.suite)
    loader_folder = root / LOADER_DIR
    if loader_folder.is_dir():
        for path in sorted(loader_folder.iterdir()):
            if path.is_symlink() or not path.is_dir():
                continue
            # Several builds can share one copy folder (their data files hash alike); it then names every suite.
            suite = ",".join(sorted(loaders_of_builds.get(path.name, ()))) or "-"
            summary = "Arrow copy of a cached build" if suite != "-" else "Arrow copy of a loaded folder"
            entries.append(Entry("loader", suite, path, root, summary))
    for path in model_files.converted_models(model_root()):
        complete = model_files.is_complete(path)
        summary = "(incomplete conversion)"
        if complete:
            try:
                info = json.loads((path / model_files.COMPLETE_MARKER).read_text(encoding="utf-8"))
                summary = f"{info.get('gguf', '?')}, {info.get('dtype', '?')}, transformers {info.get('transformers')}"
            except (OSError, ValueError):
                summary = "(unreadable conversion record)"
        entries.append(Entry("model", "smollm2", path, model_root(), summary, complete))
    return entries


def inside(entry: Entry) -> bool:
    """Whether the entry's real path is strictly inside its cache root (so removing it cannot touch anything else)."""
    if entry.path.is_symlink():
        return False
    real, root = entry.path.resolve(), entry.root.resolve()
    return real != root and real.is_relative_to(root)


@click.group("cache")
def cache_group() -> None:
    """List or clear the caches: on-the-fly builds, `datasets`' loader copies and the converted embedded model."""


@cache_group.command("list")
def list_command() -> None:
    """Show every cache entry with its suite, size, last use and what it holds, then the totals."""
    entries = find_entries()
    now = time.time()
    click.echo(f"build cache: {cache_root()}  (set LGMT_CACHE_DIR to move it)")
    if model_root() != cache_root():
        click.echo(f"model cache: {model_root()}")
    if not entries:
        click.echo("The caches are empty.")
        return
    sizes = {entry.path: entry.size for entry in entries}
    lines = ["| kind | suite | size | last used | entry | holds |", "|---|---|---|---|---|---|"]
    for entry in entries:
        status = "" if entry.complete else " (incomplete)"
        lines.append(
            f"| {entry.kind} | {entry.suite} | {human_size(sizes[entry.path])} | "
            f"{human_age(now - entry.last_used)} ago | {entry.path.name}{status} | {entry.summary} |"
        )
    click.echo("\n".join(lines))
    totals = []
    for kind in ("build", "loader", "model"):
        chosen = [sizes[e.path] for e in entries if e.kind == kind]
        if chosen:
            totals.append(f"{len(chosen)} {kind}{'s' if len(chosen) != 1 else ''} {human_size(sum(chosen))}")
    click.echo(f"total: {human_size(sum(sizes.values()))} ({', '.join(totals)})")


def select(
    entries: list[Entry], *, builds: bool, model: bool, suites: tuple[str, ...], everything: bool
) -> list[Entry]:
    """The entries a `clear` selection names.

    `--builds` takes every build and every loader copy; `--suite` takes that suite's builds and the loader copies
    of those builds; `--model` the converted model. An unfinished build folder is taken with them only when it was
    left by a build that stopped (its entry's lock is free, `build_in_progress`); one being written now, and any
    other unfinished folder, only by `--all`.
    """
    from lgmt_tasks.builders.cache import build_in_progress

    chosen = []
    for entry in entries:
        if everything:
            chosen.append(entry)
        elif not entry.complete and (entry.kind != "build" or build_in_progress(entry.path)):
            continue
        elif entry.kind == "model" and model:
            chosen.append(entry)
        elif entry.kind in ("build", "loader") and (builds or set(entry.suite.split(",")) & set(suites)):
            chosen.append(entry)
    return chosen


@cache_group.command("clear")
@click.option("--builds", is_flag=True, help="Remove every cached build and every `datasets` loader copy.")
@click.option(
    "--suite",
    "suites",
    multiple=True,
    type=click.Choice([s.name for s in SUITES]),
    help="Remove this suite's cached builds and their loader copies (repeatable).",
)
@click.option("--model", is_flag=True, help="Remove the converted embedded model (converted again on next use).")
@click.option("--all", "everything", is_flag=True, help="Remove every entry, including folders left by killed builds.")
@click.option("--dry-run", is_flag=True, help="Only print what would be removed.")
def clear_command(builds: bool, suites: tuple[str, ...], model: bool, everything: bool, dry_run: bool) -> None:
    """Remove cache entries; say which with --builds, --suite NAME, --model or --all (nothing is removed without)."""
    if not (builds or suites or model or everything):
        raise click.UsageError("say what to clear: --builds, --suite NAME, --model or --all (see `lgmt cache list`)")
    chosen = select(find_entries(), builds=builds, model=model, suites=suites, everything=everything)
    if not chosen:
        click.echo("Nothing to remove.")
        return
    removed = 0
    for entry in chosen:
        if not inside(entry):
            click.echo(f"skipped {entry.path}: it leads outside {entry.root}", err=True)
            continue
        size = entry.size
        if not dry_run:
            shutil.rmtree(entry.path)
            if entry.kind == "build":
                entry_record(entry.path).unlink(missing_ok=True)  # the fingerprint recorded beside it
        removed += size
        click.echo(
            f"{'would remove' if dry_run else 'removed'} {entry.kind} {entry.suite} {human_size(size)} {entry.path}"
        )
    click.echo(f"{'would free' if dry_run else 'freed'} {human_size(removed)}")
