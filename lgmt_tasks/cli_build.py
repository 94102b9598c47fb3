"""`lgmt build <suite>`: build a suite's dataset as a Hub repository folder, and print what was built."""

from __future__ import annotations

import click

from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS


@click.group()
def build() -> None:
    """Build a suite's dataset (a Hugging Face dataset repository folder with its card)."""


@build.command("lgmt")
@click.option("--source", type=click.Choice(["generated", "folio", "proverqa", "logicnli"]), default="generated",
              show_default=True, help="Where source cases come from.")
@click.option("--source-path", type=click.Path(exists=True), default=None,
              help="File or folder of source records (required unless --source generated).")
@click.option("--mr", "mrs", multiple=True, help="Relation id (repeatable), e.g. MR-E1.1. Default: all 20.")
@click.option("--per-mr", type=int, default=200, show_default=True, help="Groups per relation.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--followups", type=int, default=1, show_default=True, help="Follow-ups per group.")
@click.option("--compose", type=click.Choice(["0", "2", "3"]), default="0", show_default=True,
              help="Chain length of composed relations (0: single relations).")
@click.option("--names", type=click.Choice(["abstract", "natural"]), default="abstract", show_default=True,
              help="Fresh symbols for MR-S.")
@click.option("--direction", type=click.Choice(["forward", "introduction", "any"]), default="any",
              show_default=True, help="Direction of the MR-E2 laws.")
@click.option("--generated-cases", type=int, default=300, show_default=True,
              help="Source cases to generate (--source generated).")
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lgmt).")
def build_lgmt_command(source: str, source_path: str | None, mrs: tuple[str, ...], per_mr: int, seed: int,
                       followups: int, compose: str, names: str, direction: str, generated_cases: int,
                       timeout_ms: int, out: str) -> None:
    """Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3."""
    from lgmt_tasks.builders.lgmt import LgmtConfig, build_lgmt
    from lgmt_tasks.builders.lgmt_card import write_lgmt_repo
    from lgmt_tasks.relations import RELATIONS

    try:
        config = LgmtConfig(source=source, source_path=source_path, mrs=tuple(mrs) or tuple(RELATIONS),
                            per_mr=per_mr, seed=seed, followups=followups, compose=int(compose), names=names,
                            direction=direction, generated_cases=generated_cases, timeout_ms=timeout_ms)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    result = build_lgmt(config, progress=True)
    write_lgmt_repo(result, out)
    click.echo(result.stats.to_markdown(["candidates", "tried", "proven"]))
    click.echo(f"\n{len(result.dataset)} groups from a candidate pool of {result.stats.notes['candidate_pool']}; "
               f"{result.stats.total_dropped()} dropped. Written to {out}")
