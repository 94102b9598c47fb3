"""`lgmt build lgmt`: build LGMT metamorphic groups as a Hub dataset repository folder."""

from __future__ import annotations

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, write_out
from lgmt_tasks.lgmt.cli_audit import audit_translations_command
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.vocabulary import SOURCES


@click.command("lgmt")
@click.option(
    "--source", type=click.Choice(SOURCES), default="generated", show_default=True, help="Where source cases come from."
)
@click.option(
    "--source-path",
    type=click.Path(exists=True),
    default=None,
    help="File or folder of source records (required unless --source generated).",
)
@click.option("--mr", "mrs", multiple=True, help="Relation id (repeatable), e.g. MR-E1.1. Default: all 20.")
@click.option("--per-mr", type=int, default=200, show_default=True, help="Groups per relation.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--followups", type=int, default=1, show_default=True, help="Follow-ups per group.")
@click.option(
    "--compose",
    type=click.Choice(["0", "2", "3"]),
    default="0",
    show_default=True,
    help="Chain length of composed relations (0: single relations).",
)
@click.option(
    "--names",
    type=click.Choice(["abstract", "natural"]),
    default="abstract",
    show_default=True,
    help="Fresh symbols for MR-S.",
)
@click.option(
    "--direction",
    type=click.Choice(["forward", "introduction", "any"]),
    default="any",
    show_default=True,
    help="Direction of the MR-E2 laws.",
)
@click.option(
    "--generated-cases", type=int, default=300, show_default=True, help="Source cases to generate (--source generated)."
)
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option(
    "--translator",
    type=click.Choice(["template", "model"]),
    default="template",
    show_default=True,
    help="English of transformed formulas: the drift-free template realiser, or a model (the paper's "
    "prompt, each sentence checked by a round trip proven by Z3; rejected groups are dropped).",
)
@click.option("--translator-model", default=None, help="Inspect model for --translator model (e.g. openai/gpt-4o).")
@click.option(
    "--translation-attempts",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Round trips per sentence before its group is rejected (--translator model).",
)
@click.option(
    "--num-proc",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes to build with (the output does not depend on it).",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lgmt).")
@overwrite_option
def build_command(
    source: str,
    source_path: str | None,
    mrs: tuple[str, ...],
    per_mr: int,
    seed: int,
    followups: int,
    compose: str,
    names: str,
    direction: str,
    generated_cases: int,
    timeout_ms: int,
    translator: str,
    translator_model: str | None,
    translation_attempts: int,
    num_proc: int,
    out: str,
    overwrite: bool,
) -> None:
    """Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3."""
    from lgmt_tasks.lgmt.build import LgmtConfig, build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.relations import RELATIONS

    if translator == "model" and not translator_model:
        raise click.UsageError("--translator model needs --translator-model M (any Inspect model name)")
    if translator == "template" and translator_model:
        raise click.UsageError("--translator-model is only used with --translator model")
    try:
        config = LgmtConfig(
            source=source,
            source_path=source_path,
            mrs=tuple(mrs) or tuple(RELATIONS),
            per_mr=per_mr,
            seed=seed,
            followups=followups,
            compose=int(compose),
            names=names,
            direction=direction,
            generated_cases=generated_cases,
            timeout_ms=timeout_ms,
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    check_out(out, overwrite)
    result = build_lgmt(config, progress=True, num_proc=num_proc)
    if translator == "model":
        from lgmt_tasks.lgmt.translate import translate_build, with_translation

        assert translator_model is not None
        translated, translation_stats = translate_build(
            result, translator_model, attempts=translation_attempts, timeout_ms=timeout_ms, progress=True
        )
        result = with_translation(result, translated, translation_stats)
    write_out(out, lambda folder: write_lgmt_repo(result, folder), overwrite)
    click.echo(result.stats.to_markdown(["candidates", "tried", "proven"]))
    click.echo(
        f"\n{len(result.dataset)} groups from a candidate pool of {result.stats.notes['candidate_pool']}; "
        f"{result.stats.total_dropped()} dropped. Written to {out}"
    )


EXTRA_COMMANDS: tuple[click.Command, ...] = (audit_translations_command,)
"""Top-level `lgmt` commands of this suite besides `lgmt build lgmt`."""
