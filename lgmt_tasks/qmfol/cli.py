"""`lgmt build qmfol`: build a grid of QMFOL tasks; each grid option takes one or more values.

`--depth 5 10 --width 20` is the grid {5, 10} × {20}. Click options take a fixed number of values, so
`MultiValueCommand` rewrites the arguments before Click parses them: every value that follows a multi-value option
(up to the next option) becomes one more occurrence of it (`--depth 5 10` → `--depth 5 --depth 10`), and the
options are declared `multiple=True`. Repeating the option (`--depth 5 --depth 10`) works too.
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, write_out
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS

MULTI_VALUE: tuple[str, ...] = ("--depth", "--width", "--distractors", "--label", "--topic")


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
@click.option("--depth", "depths", type=int, multiple=True, help="Depths D (one or more). Default: 5 10 15 20.")
@click.option("--width", "widths", type=int, multiple=True, help="Widths W (one or more). Default: 5 10 15 20.")
@click.option(
    "--distractors",
    "distractors",
    type=int,
    multiple=True,
    help="Distractor counts (one or more). Default: 0 5 10 15 20.",
)
@click.option(
    "--label",
    "labels",
    type=click.Choice(["True", "False", "Unknown"]),
    multiple=True,
    help="Labels (one or more). Default: all three.",
)
@click.option(
    "--topic",
    "topics",
    type=click.Choice(["Food", "Animal", "University", "Mathematics"]),
    multiple=True,
    help="Topics (one or more). Default: all four.",
)
@click.option(
    "--seeds",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Seeds per configuration (task seeds --seed … --seed + N − 1).",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="First task seed.")
@click.option(
    "--form",
    type=click.Choice(["quantified", "ground"]),
    default="quantified",
    show_default=True,
    help="Facts and conclusions over every entity (∀/∃, the paper's default) or about one object constant.",
)
@click.option(
    "--translator",
    type=click.Choice(["template", "model"]),
    default="template",
    show_default=True,
    help="English: deterministic templates read back exactly, or a model (the paper's FOL2NL prompt, "
    "round trip proven by Z3).",
)
@click.option("--translator-model", default=None, help="Inspect model for --translator model (e.g. openai/gpt-4o).")
@click.option(
    "--max-attempts",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Translations per task before it is discarded (--translator model).",
)
@click.option(
    "--round-trip",
    type=click.Choice(["sentence", "label", "both"]),
    default="sentence",
    show_default=True,
    help="How a model translation is accepted (--translator model): every sentence proven equivalent, the "
    "back-translated task's label (the paper's check; Z3, then E), or both.",
)
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per check.")
@click.option(
    "--num-proc",
    "--workers",
    "num_proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it). --workers is its former name.",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/qmfol).")
@overwrite_option
def build_command(
    depths: tuple[int, ...],
    widths: tuple[int, ...],
    distractors: tuple[int, ...],
    labels: tuple[str, ...],
    topics: tuple[str, ...],
    **options: Any,
) -> None:
    """Build QMFOL tasks: the grid of depth x width x distractors x label x topic x seeds, every label proven by Z3.

    Without grid options this is the paper's QMFOLBench grid (2,880 tasks).
    """
    from lgmt_tasks.qmfol.build import QmfolBuild, QmfolConfig, build_qmfol, stats_events
    from lgmt_tasks.qmfol.card import write_qmfol_repo

    out, num_proc, overwrite = options.pop("out"), options.pop("num_proc"), options.pop("overwrite")
    if options["translator"] == "model" and not options["translator_model"]:
        raise click.UsageError("--translator model needs --translator-model M (any Inspect model name)")
    grid: dict[str, Any] = {
        "depths": depths,
        "widths": widths,
        "distractors": distractors,
        "labels": labels,
        "topics": topics,
    }
    try:
        config = QmfolConfig(**{k: v for k, v in grid.items() if v}, **options)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
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
