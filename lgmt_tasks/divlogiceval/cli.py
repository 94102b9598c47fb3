"""`lgmt build divlogiceval`: build DivLogicEval questions as a Hub dataset repository folder."""

from __future__ import annotations

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, write_out
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS


@click.command("divlogiceval")
@click.option(
    "--per-type", type=int, default=300, show_default=True, help="Instances per question type (the paper: 300)."
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--n",
    "n",
    type=int,
    default=3,
    show_default=True,
    help="The paper's n: 2..n+1 propositions per instance, at most n uses of a variable.",
)
@click.option(
    "--pool", default=None, help="Sentence pool: a .txt / .jsonl file or a dataset folder / Hub id (default: ours)."
)
@click.option("--pool-column", default="sentence", show_default=True, help="Sentence column of a JSONL/dataset pool.")
@click.option(
    "--pool-negation-column",
    default="negation",
    show_default=True,
    help="Negation column, used when present (else negations are made by rule).",
)
@click.option("--pool-split", default="train", show_default=True, help="Split of a dataset pool.")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option(
    "--num-proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it).",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/divlogiceval).")
@overwrite_option
def build_command(
    per_type: int,
    seed: int,
    n: int,
    pool: str | None,
    pool_column: str,
    pool_negation_column: str,
    pool_split: str,
    timeout_ms: int,
    num_proc: int,
    out: str,
    overwrite: bool,
) -> None:
    """Build DivLogicEval four-option questions (3c1e, 3e1c, missing premise), every answer key proven by Z3."""
    from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
    from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

    try:
        config = DivLogicEvalConfig(
            per_type=per_type,
            seed=seed,
            n=n,
            pool=pool,
            pool_column=pool_column,
            pool_negation_column=pool_negation_column,
            pool_split=pool_split,
            timeout_ms=timeout_ms,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    check_out(out, overwrite)
    result = build_divlogiceval(config, progress=True, num_proc=num_proc)
    write_out(out, lambda folder: write_divlogiceval_repo(result, folder), overwrite)
    click.echo(result.stats.to_markdown(["drawn", "proven", "rows"]))
    click.echo(
        f"\n{len(result.dataset)} instances; answer positions {result.stats.notes['answer_positions']}. "
        f"Written to {out}"
    )
