"""Pieces of the `lgmt build ...` command lines that the dataset cards print to reproduce a build."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


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
