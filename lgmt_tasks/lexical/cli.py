"""`lgmt build lexical`: the LLMorph baseline's groups as a Hub dataset repository folder.

Function-based relations are built with no model. LLM-based relations (`lgmt_tasks.lexical.catalogue.LLM_BASED`) need
`--transformer-model` (any Inspect model, e.g. `lgmt/smollm2` or `openai/gpt-4o-mini`): their follow-ups are
written now, failures are dropped and counted, and the folder holds complete groups that every model under test
then sees identically (the Inspect task can also make them at eval time with `-T transformer_model=...`). The
options of the build config come from its schema (`LexicalConfig`'s fields); this module adds the transformer check
and what is not a dataset parameter (`--num-proc`, `--out`, `--overwrite`).

`lgmt failing-groups LOG` (at the end of this module, in `EXTRA_COMMANDS`): the first run's failing groups, for
re-running them with `inspect eval --sample-id` (LLMorph's flakiness protocol).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from lgmt_tasks.builders.command import check_out, num_proc_option, out_option, overwrite_option, write_out
from lgmt_tasks.builders.schema import build_options, config_from_options
from lgmt_tasks.lexical.config import LexicalConfig


@click.command("lexical")
@build_options(LexicalConfig)
@num_proc_option
@out_option("datasets/lexical")
@overwrite_option
def build_command(num_proc: int, out: str, overwrite: bool, **options: Any) -> None:
    """Build LLMorph's lexical relations on LGMT's source cases (function-based; LLM-based with a transformer)."""
    from lgmt_tasks.lexical.build import build_lexical
    from lgmt_tasks.lexical.card import write_lexical_repo

    config = config_from_options(LexicalConfig, options)
    llm = config.llm_relations()
    if llm and not config.transformer:
        raise click.BadParameter(
            f"{', '.join(llm)} are LLM-based: pass --transformer-model (any Inspect model)", param_hint="--mr"
        )
    if not llm and config.transformer:
        config = replace(config, transformer=None)  # no LLM-based relation: the build uses no transformer
    check_out(out, overwrite)
    result = build_lexical(config, progress=True, transformer=config.transformer, num_proc=num_proc)
    click.echo(result.stats.to_markdown(["proven", "candidates", "tried", "built"]))
    if len(result.dataset) == 0:
        raise click.ClickException("no group could be built (see the dropped reasons above); nothing written")
    write_out(out, lambda folder: write_lexical_repo(result, folder), overwrite)
    click.echo(
        f"\n{len(result.dataset)} groups from {result.stats.notes['source_cases']} proven source cases; "
        f"{result.stats.total_dropped()} dropped. Written to {out}"
    )


# ------------------------------------------------------------------- `lgmt failing-groups`: LLMorph's flakiness re-run


@click.command("failing-groups")
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--lines", is_flag=True, help="One id per line instead of one comma-separated line.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the ids to FILE (same format) instead of standard output.",
)
def failing_groups_command(log: str, lines: bool, out: str | None) -> None:
    """List the groups that violated in a one-epoch run, for `inspect eval --sample-id` (LLMorph's flakiness).

    LLMorph re-ran only its first run's failing groups, 9 more times, and tabulated how many of the 10 runs failed.
    A group is failing when it was compared (`parsed` 1) and violated its relation (`violation` 1); the count of
    failing and compared groups goes to standard error. Exit status 1 when no group failed.

    \b
    Example (the same -T arguments and generation options in both runs):
      inspect eval lgmt_tasks/lexical --model M -T per_mr=20 --log-dir logs/first
      IDS=$(lgmt failing-groups logs/first/FIRST.eval)
      inspect eval lgmt_tasks/lexical --model M -T per_mr=20 --log-dir logs/rerun --epochs 9 --sample-id "$IDS"
      lgmt report --flakiness logs/first/FIRST.eval logs/rerun/RERUN.eval
    """  # noqa: D301  (click's no-rewrap marker is the backspace character, so the docstring is not raw)
    from lgmt_tasks.lexical.flakiness import ARG_MAX_BYTES, failing_groups
    from lgmt_tasks.lexical.log_samples import sample_table

    try:
        ids = failing_groups(log)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    table = sample_table(log)
    compared = int(table["parsed"].sum()) if not table.empty else 0
    if not ids:
        raise click.ClickException(f"no group violated in {log} ({compared} compared): there is nothing to re-run")
    text = ("\n" if lines else ",").join(ids)
    click.echo(f"{len(ids)} of {compared} compared groups violated in {log}", err=True)
    if not lines and len(text.encode("utf-8")) >= ARG_MAX_BYTES:
        click.echo(
            f"warning: the list is {len(text.encode('utf-8'))} bytes, over Linux's {ARG_MAX_BYTES}-byte limit on one "
            'command-line argument: `--sample-id "$(...)"` will not start; re-run from Python with '
            "inspect_ai.eval(..., sample_id=failing_groups(LOG), epochs=9) "
            "(from lgmt_tasks.lexical.flakiness import failing_groups)",
            err=True,
        )
    if out is None:
        click.echo(text)
        return
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
    click.echo(f"written to {out}", err=True)


EXTRA_COMMANDS: tuple[click.Command, ...] = (failing_groups_command,)
"""Top-level `lgmt` commands of this suite besides `lgmt build lexical`."""
