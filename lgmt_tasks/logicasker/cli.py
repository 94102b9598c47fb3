"""`lgmt build logicasker`: build LogicAsker tests as a Hub dataset repository folder."""

from __future__ import annotations

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, write_out
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS


@click.command("logicasker")
@click.option(
    "--logic",
    multiple=True,
    type=click.Choice(["propositional", "predicate"]),
    help="Logic to include (repeatable). Default: both.",
)
@click.option(
    "--category",
    multiple=True,
    type=click.Choice(["inference", "equivalence", "fallacy"]),
    help="Rule category to include (repeatable). Default: all.",
)
@click.option("--rule", "rules", multiple=True, help="Rule name or id (repeatable), e.g. 'modus ponens'. Default: all.")
@click.option("--length", default="1", show_default=True, help="Chain lengths: 3, 1..7 or 1,3,5,7.")
@click.option("--per-skill", type=int, default=4, show_default=True, help="Tests per skill and length.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--unbalanced", is_flag=True, help="Draw problem types uniformly (the paper) instead of half yes.")
@click.option("--attempts", type=int, default=30, show_default=True, help="Generation attempts per test.")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option("--list", "list_rules", is_flag=True, help="Print the skill catalogue and exit.")
@click.option(
    "--num-proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it).",
)
@click.option("--out", type=click.Path(), default=None, help="Output folder (e.g. datasets/logicasker).")
@overwrite_option
def build_command(
    logic: tuple[str, ...],
    category: tuple[str, ...],
    rules: tuple[str, ...],
    length: str,
    per_skill: int,
    seed: int,
    unbalanced: bool,
    attempts: int,
    timeout_ms: int,
    list_rules: bool,
    num_proc: int,
    out: str | None,
    overwrite: bool,
) -> None:
    """Build LogicAsker tests: every skill at every length, balanced yes/no, every answer proven by Z3."""
    from lgmt_tasks.logicasker.build import LogicAskerConfig, build_logicasker, parse_lengths, summary
    from lgmt_tasks.logicasker.card import write_logicasker_repo
    from lgmt_tasks.logicasker.catalogue import counts_markdown

    try:
        config = LogicAskerConfig(
            logic=logic,
            category=category,
            rules=rules,
            lengths=parse_lengths(length),
            per_skill=per_skill,
            seed=seed,
            balanced=not unbalanced,
            attempts=attempts,
            timeout_ms=timeout_ms,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    click.echo("Skills (rules / leaves = rule x problem type):\n" + counts_markdown(config.skills()))
    if list_rules:
        for skill in config.skills():
            click.echo(f"{skill.id}\t{skill.name}\t{skill.logic}\t{skill.category}\t{skill.source}")
        return
    if out is None:
        raise click.UsageError("--out is required (or use --list)")
    check_out(out, overwrite)
    result = build_logicasker(config, progress=True, num_proc=num_proc)
    write_out(out, lambda folder: write_logicasker_repo(result, folder), overwrite)
    click.echo(f"\n{summary(result)}\nWritten to {out}")
