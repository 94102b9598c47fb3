"""`lgmt build lexical`: the LLMorph baseline's groups as a Hub dataset repository folder.

Function-based relations are built with no model. LLM-based relations (`lgmt_tasks.lexical.catalogue.LLM_BASED`) need
`--transformer-model` (any Inspect model, e.g. `lgmt/smollm2` or `openai/gpt-4o-mini`): their follow-ups are
written now, failures are dropped and counted, and the folder holds complete groups that every model under test
then sees identically (the Inspect task can also make them at eval time with `-T transformer_model=...`).

`lgmt failing-groups LOG` (at the end of this module, in `EXTRA_COMMANDS`): the first run's failing groups, for
re-running them with `inspect eval --sample-id` (LLMorph's flakiness protocol).
"""

from __future__ import annotations

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, write_out
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS


@click.command("lexical")
@click.option(
    "--source",
    type=click.Choice(["generated", "folio", "proverqa", "logicnli"]),
    default="generated",
    show_default=True,
    help="Where source cases come from (the same cases as `lgmt build lgmt`).",
)
@click.option(
    "--source-path",
    type=click.Path(exists=True),
    default=None,
    help="File or folder of source records (required unless --source generated).",
)
@click.option(
    "--mr",
    "mrs",
    multiple=True,
    help="Relation id (repeatable or comma-separated), e.g. MR-126, or function / llm / all. "
    "Default: the function-based relations.",
)
@click.option(
    "--part",
    "parts",
    multiple=True,
    type=click.Choice(["premises", "conclusion", "both"]),
    help="Part to transform (repeatable). Default: all three, each its own variant.",
)
@click.option("--per-mr", type=int, default=100, show_default=True, help="Groups per relation and part.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--generated-cases", type=int, default=300, show_default=True, help="Source cases to generate (--source generated)."
)
@click.option(
    "--timeout-ms",
    type=int,
    default=DEFAULT_TIMEOUT_MS,
    show_default=True,
    help="Z3 limit per source-label or follow-up-label query.",
)
@click.option(
    "--style",
    type=click.Choice(["llmorph", "clean"]),
    default="llmorph",
    show_default=True,
    help="Function-based transformations: LLMorph's own algorithms, or ours (changes drawn only among the "
    "characters a relation can change).",
)
@click.option(
    "--transformer-model",
    default=None,
    help="Inspect model that writes the LLM-based follow-ups (needed for every relation of `--mr llm`).",
)
@click.option(
    "--num-proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it).",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lexical).")
@overwrite_option
def build_command(
    source: str,
    source_path: str | None,
    mrs: tuple[str, ...],
    parts: tuple[str, ...],
    per_mr: int,
    seed: int,
    generated_cases: int,
    timeout_ms: int,
    style: str,
    transformer_model: str | None,
    num_proc: int,
    out: str,
    overwrite: bool,
) -> None:
    """Build LLMorph's lexical relations on LGMT's source cases (function-based; LLM-based with a transformer)."""
    from lgmt_tasks.lexical.build import LexicalConfig, build_lexical
    from lgmt_tasks.lexical.card import write_lexical_repo
    from lgmt_tasks.lexical.catalogue import FUNCTION_BASED, LEXICAL_RELATIONS, PARTS, resolve_mrs

    try:
        selected = resolve_mrs(list(mrs)) if mrs else FUNCTION_BASED
        llm = [m for m in selected if LEXICAL_RELATIONS[m].kind == "llm"]
        if llm and not transformer_model:
            raise ValueError(f"{', '.join(llm)} are LLM-based: pass --transformer-model (any Inspect model)")
        config = LexicalConfig(
            source=source,
            source_path=source_path,
            mrs=selected,
            parts=tuple(parts) or PARTS,
            per_mr=per_mr,
            seed=seed,
            generated_cases=generated_cases,
            timeout_ms=timeout_ms,
            style=style,
            transformer=transformer_model if llm else None,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
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
    from lgmt_tasks.lexical.report import ARG_MAX_BYTES, failing_groups, sample_table

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
            "(from lgmt_tasks.lexical.report import failing_groups)",
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
