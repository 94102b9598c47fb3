"""`lgmt build qmfol`: build a grid of QMFOL tasks; each grid option takes one or more values.

`--depth 5 10 --width 20` is the grid {5, 10} × {20}. Click options take a fixed number of values, so
`MultiValueCommand` rewrites the arguments before Click parses them: every value that follows a multi-value option
(up to the next option) becomes one more occurrence of it (`--depth 5 10` → `--depth 5 --depth 10`), and the
options are declared `multiple=True`. Repeating the option (`--depth 5 --depth 10`) works too.
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.builders.command import check_out, num_proc_option, out_option, overwrite_option, write_out
from lgmt_tasks.builders.schema import build_options, config_from_options, declared
from lgmt_tasks.qmfol.config import QmfolConfig

MULTI_VALUE: tuple[str, ...] = tuple(d.flags[0] for d in declared(QmfolConfig) if d.spec.many == "spread")
"""The grid options, which take several values (`--depth 5 10`)."""


class MultiValueCommand(click.Command):
    """A command whose options in `MULTI_VALUE` take every value up to the next option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Expand `--opt a b c` into `--opt a --opt b --opt c`, then parse as usual."""
        return super().parse_args(ctx, expand_multi_values(args, MULTI_VALUE))


def expand_multi_values(args: list[str], options: tuple[str, ...]) -> list[str]:
    """Repeat a multi-value option before each of its values (`--depth 5 10` → `--depth 5 --depth 10`).

    Args:
        args: The command-line arguments.
        options: The options that take several values.

    Returns:
        The rewritten arguments; everything else is left as it is (including `--opt=value`).
    """
    out: list[str] = []
    current: str | None = None
    for arg in args:
        if arg.startswith("-") and not _is_number(arg):
            current = arg if arg in options else None
            out.append(arg)
        elif current is not None and out and out[-1] != current:
            out += [current, arg]
        else:
            out.append(arg)
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@click.command("qmfol", cls=MultiValueCommand)
@build_options(QmfolConfig)
@num_proc_option
@out_option("datasets/qmfol")
@overwrite_option
def build_command(num_proc: int, out: str, overwrite: bool, **options: Any) -> None:
    """Build QMFOL tasks: the grid of depth x width x distractors x label x topic x seeds, every label proven by Z3.

    Without grid options this is the paper's QMFOLBench grid (2,880 tasks).
    """
    from lgmt_tasks.qmfol.build import QmfolBuild, build_qmfol, stats_events
    from lgmt_tasks.qmfol.card import write_qmfol_repo

    if options["translator"] == "model" and not options["translator_model"]:
        raise click.UsageError("--translator model needs --translator-model M (any Inspect model name)")
    config = config_from_options(QmfolConfig, options)
    check_out(out, overwrite)
    result: QmfolBuild = build_qmfol(config, progress=True, num_proc=num_proc)
    write_out(out, lambda folder: write_qmfol_repo(result, folder), overwrite)
    click.echo(result.stats.to_markdown(stats_events(result.stats)))
    for column in ("labels", "constructions", "variants", "topics"):
        click.echo(f"{column}: {result.stats.notes[column]}")
    click.echo(
        f"\n{len(result.dataset)} tasks of {config.size()} requested; {result.stats.total_dropped()} dropped. "
        f"Written to {out}"
    )
