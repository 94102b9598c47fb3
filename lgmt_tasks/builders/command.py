"""Pieces every `lgmt build <suite>` command shares.

Its `--out`/`--overwrite` handling, and the command lines the dataset cards print to reproduce a build.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import click

from lgmt_tasks.hub.output import OutputFolderError, check_output_folder, write_output_folder

_Command = TypeVar("_Command", bound=Callable[..., object])


def overwrite_option(command: _Command) -> _Command:
    """The `--overwrite` flag of every suite's `lgmt build` command."""
    return click.option(
        "--overwrite",
        is_flag=True,
        help="Replace --out if it holds a previous lgmt build (never a folder holding files a build did not write).",
    )(command)


def check_out(out: str, overwrite: bool) -> None:
    """Refuse a bad `--out` before building (a build can take minutes), as one `Error:` line."""
    try:
        check_output_folder(out, overwrite=overwrite)
    except OutputFolderError as exc:
        raise click.ClickException(str(exc)) from None


def write_out(out: str, write: Callable[[Path], object], overwrite: bool) -> Path:
    """Write a build into `--out` with `write(folder)`: atomically, and only where `check_out` allows."""
    try:
        return write_output_folder(out, write, overwrite=overwrite)
    except OutputFolderError as exc:
        raise click.ClickException(str(exc)) from None


def source_options(source: str, source_path: str | None, mrs: Sequence[str], default_mrs: Sequence[str]) -> list[str]:
    """The arguments naming the source cases and, unless they are the default, the relations.

    Args:
        source: The source (`--source`).
        source_path: The source file or folder (`--source-path`, left out when empty).
        mrs: The relation ids of the build, one `--mr` each.
        default_mrs: The default relation ids: when `mrs` equals them, no `--mr` is given.

    Returns:
        ``["--source", source, ("--source-path", source_path,) ("--mr", mr, ...)]``.
    """
    args = ["--source", source]
    if source_path:
        args += ["--source-path", source_path]
    if mrs != default_mrs:
        for mr in mrs:
            args += ["--mr", mr]
    return args


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
