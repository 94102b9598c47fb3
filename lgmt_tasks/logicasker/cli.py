"""`lgmt build logicasker`: build LogicAsker tests as a Hub dataset repository folder.

The options of the build config come from its schema (`LogicAskerConfig`'s fields); this module adds only what
is not a dataset parameter (`--list`, `--num-proc`, `--out`, `--overwrite`).
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.builders.command import check_out, num_proc_option, out_option, overwrite_option, write_out
from lgmt_tasks.builders.schema import build_options, config_from_options
from lgmt_tasks.logicasker.config import LogicAskerConfig


@click.command("logicasker")
@build_options(LogicAskerConfig)
@click.option("--list", "list_rules", is_flag=True, help="Print the skill catalogue and exit.")
@num_proc_option
@out_option("datasets/logicasker", required=False)
@overwrite_option
def build_command(list_rules: bool, num_proc: int, out: str | None, overwrite: bool, **options: Any) -> None:
    """Build LogicAsker tests: every skill at every length, balanced yes/no, every answer proven by Z3."""
    from lgmt_tasks.logicasker.build import build_logicasker, summary
    from lgmt_tasks.logicasker.card import write_logicasker_repo
    from lgmt_tasks.logicasker.catalogue import counts_markdown

    config = config_from_options(LogicAskerConfig, options)
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
