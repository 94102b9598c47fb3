"""Pieces every `lgmt build <suite>` command shares.

Its `--out`/`--overwrite` handling, and the command lines the dataset cards print to reproduce a build.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from lgmt_tasks.hub.output import (
    OutputFolderError,
    check_output_folder,
    claim_output_folder,
    release_output_folder,
    remove_stale_staging,
    write_output_folder,
)

_Command = TypeVar("_Command", bound=Callable[..., object])


def overwrite_option(command: _Command) -> _Command:
    """The `--overwrite` flag of every suite's `lgmt build` command."""
    return click.option(
        "--overwrite",
        is_flag=True,
        help="Replace --out if it holds a previous lgmt build (never a folder holding files a build did not write).",
    )(command)


def num_proc_option(command: _Command) -> _Command:
    """The `--num-proc` option of every suite's `lgmt build` command."""
    return click.option(
        "--num-proc",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Processes to build with (the output does not depend on it).",
    )(command)


def out_option(example: str, required: bool = True) -> Callable[[_Command], _Command]:
    """The `--out` option of every suite's `lgmt build` command (`example`: the folder its help suggests)."""
    return click.option(
        "--out", type=click.Path(), required=required, default=None, help=f"Output folder (e.g. {example})."
    )


def check_out(out: str, overwrite: bool) -> None:
    """Refuse a bad `--out` before building (a build can take minutes), as one `Error:` line, and claim it.

    The claim (`claim_output_folder`) makes a second build started with the same `--out` fail here, before it builds;
    `write_out` releases it. Holding it, the staging folders a killed build left beside `--out` are removed (said).
    """
    try:
        check_output_folder(out, overwrite=overwrite)
        claim_output_folder(out)
    except OutputFolderError as exc:
        raise click.ClickException(str(exc)) from None
    for folder in remove_stale_staging(out):
        click.echo(f"removed {folder}, left by a build into --out {out} that was stopped before it finished", err=True)


def write_out(out: str, write: Callable[[Path], object], overwrite: bool) -> Path:
    """Write a build into `--out` with `write(folder)`: atomically, and only where `check_out` allows."""
    try:
        return write_output_folder(out, write, overwrite=overwrite)
    except OutputFolderError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        release_output_folder(out)


def source_options(
    source: str,
    source_path: str | None,
    mrs: Sequence[str],
    default_mrs: Sequence[str],
    extra_sources: Sequence[tuple[str, str | None]] = (),
) -> list[str]:
    """The arguments naming the source cases and, unless they are the default, the relations.

    Args:
        source: The source (`--source`).
        source_path: The source file or folder (`--source-path`, left out when empty).
        mrs: The relation ids of the build, one `--mr` each.
        default_mrs: The default relation ids: when `mrs` equals them, no `--mr` is given.
        extra_sources: Further `(source, source_path)` pairs of a multi-source build, each given as its own
            `--source`/`--source-path` pair, in order (see `pair_sources`).

    Returns:
        ``["--source", source, ("--source-path", source_path,) ... ("--mr", mr, ...)]``.
    """
    args: list[str] = []
    for name, path in [(source, source_path), *extra_sources]:
        args += ["--source", name]
        if path:
            args += ["--source-path", path]
    if mrs != default_mrs:
        for mr in mrs:
            args += ["--mr", mr]
    return args


def source_args(config: Any) -> list[str]:
    """The reproduce command's `--source [--source-path]` pairs, always shown (which cases is a build's first fact).

    For a config with `source`, `source_path` and, for a pooled build, `extra_sources` (LGMT, lexical).
    """
    return source_options(config.source, config.source_path, (), (), getattr(config, "extra_sources", ()))


def pair_sources(sources: Sequence[str], paths: Sequence[str], pathless: Sequence[str]) -> list[tuple[str, str | None]]:
    """Pair repeated `--source` and `--source-path` options: the k-th path goes to the k-th source that needs one.

    Sources in `pathless` (`generated`) take no path; every other source takes exactly one. The rule does not
    depend on how the options are interleaved (click does not keep that), only on their order.

    Raises:
        click.UsageError: The number of paths is not the number of sources that need one.
    """
    needing = [s for s in sources if s not in pathless]
    if len(paths) != len(needing):
        raise click.UsageError(
            f"{len(sources)} --source ({', '.join(sources)}) need {len(needing)} --source-path "
            f"(one per source other than {', '.join(pathless)}, paired in order), got {len(paths)}"
        )
    remaining = iter(paths)
    return [(s, None if s in pathless else next(remaining)) for s in sources]


def changed_options(options: Iterable[tuple[str, object, object]]) -> list[str]:
    """The arguments ``[flag, str(value), ...]`` of every option whose value differs from its default, in order.

    Args:
        options: ``(flag, value, default)`` triples.

    Returns:
        The arguments of the changed options.
    """
    args: list[str] = []
    for flag, value, default in options:
        if value != default:
            args += [flag, str(value)]
    return args
