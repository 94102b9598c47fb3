"""`lgmt build lexical`: the LLMorph baseline's groups as a Hub dataset repository folder.

Function-based relations are built with no model. LLM-based relations (MR-8, MR-51, MR-120, MR-136, MR-152) need
`--transformer-model` (any Inspect model, e.g. `lgmt/smollm2` or `openai/gpt-4o-mini`): their follow-ups are
written now, failures are dropped and counted, and the folder holds complete groups that every model under test
then sees identically (the Inspect task can also make them at eval time with `-T transformer_model=...`).
"""

from __future__ import annotations

import click

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
    "--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per source-label query."
)
@click.option(
    "--transformer-model",
    default=None,
    help="Inspect model that writes the LLM-based follow-ups (needed for MR-8, 51, 120, 136, 152).",
)
@click.option(
    "--num-proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it).",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lexical).")
def build_command(
    source: str,
    source_path: str | None,
    mrs: tuple[str, ...],
    parts: tuple[str, ...],
    per_mr: int,
    seed: int,
    generated_cases: int,
    timeout_ms: int,
    transformer_model: str | None,
    num_proc: int,
    out: str,
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
            transformer=transformer_model if llm else None,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    result = build_lexical(config, progress=True, transformer=config.transformer, num_proc=num_proc)
    click.echo(result.stats.to_markdown(["proven", "candidates", "tried", "built"]))
    if len(result.dataset) == 0:
        raise click.ClickException("no group could be built (see the dropped reasons above); nothing written")
    write_lexical_repo(result, out)
    click.echo(
        f"\n{len(result.dataset)} groups from {result.stats.notes['source_cases']} proven source cases; "
        f"{result.stats.total_dropped()} dropped. Written to {out}"
    )
