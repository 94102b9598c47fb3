"""`lgmt build divlogiceval`: build DivLogicEval questions as a Hub dataset repository folder.

The options of the build config come from its schema (`DivLogicEvalConfig`'s fields); this module adds only what
is not a dataset parameter (`--num-proc`, `--out`, `--overwrite`).
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.builders.command import check_out, num_proc_option, out_option, overwrite_option, write_out
from lgmt_tasks.builders.schema import build_options, config_from_options
from lgmt_tasks.divlogiceval.config import DivLogicEvalConfig


@click.command("divlogiceval")
@build_options(DivLogicEvalConfig)
@num_proc_option
@out_option("datasets/divlogiceval")
@overwrite_option
def build_command(num_proc: int, out: str, overwrite: bool, **options: Any) -> None:
    """Build DivLogicEval four-option questions (3c1e, 3e1c, missing premise), every answer key proven by Z3."""
    from lgmt_tasks.divlogiceval.build import build_divlogiceval
    from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

    config = config_from_options(DivLogicEvalConfig, options)
    check_out(out, overwrite)
    result = build_divlogiceval(config, progress=True, num_proc=num_proc)
    write_out(out, lambda folder: write_divlogiceval_repo(result, folder), overwrite)
    click.echo(result.stats.to_markdown(["drawn", "proven", "rows"]))
    click.echo(
        f"\n{len(result.dataset)} instances; answer positions {result.stats.notes['answer_positions']}. "
        f"Written to {out}"
    )
