"""`lgmt build lgmt`: build LGMT metamorphic groups as a Hub dataset repository folder.

Also builds one shard of a build (`--shard i/n`) and merges shard folders into the build (`--merge-shards`).
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.builders.command import check_out, overwrite_option, pair_sources, write_out
from lgmt_tasks.lgmt.cli_audit import audit_translations_command
from lgmt_tasks.lgmt.plan import plan_command
from lgmt_tasks.lgmt.shrink.command import shrink_command
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.vocabulary import SOURCES


class PerMr(click.ParamType):
    """`--per-mr`: a positive integer, or `all` (no cap: every applicable source case and relation)."""

    name = "N|all"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """`N|all` (click would upper-case the name)."""
        return self.name

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        """The integer, or `"all"`; anything else fails with click's usage error."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().lower() == "all":
            return "all"
        elif isinstance(value, str) and value.strip().isdigit():
            number = int(value)
        else:
            self.fail(f"{value!r}: expected a positive integer or 'all'", param, ctx)
        if number < 1:
            self.fail(f"{value!r}: expected a positive integer or 'all'", param, ctx)
        return number


def qmfol_grid(depth: str | None, width: str | None, per_cell: int | None) -> dict[str, Any]:
    """The `LgmtConfig` difficulty-grid arguments given on the command line (`--depth 1,3` → `depths=(1, 3)`).

    Only given options are passed, so that `LgmtConfig` refuses them for a build without `--source qmfol`.
    """
    from lgmt_tasks.sources.qmfol import grid_values

    grid: dict[str, Any] = {}
    if depth is not None:
        grid["depths"] = grid_values("depth", depth, ())
    if width is not None:
        grid["widths"] = grid_values("width", width, ())
    if per_cell is not None:
        grid["per_cell"] = per_cell
    return grid


MERGE_OPTIONS = ("out", "overwrite", "merge_shards")
"""The only options `--merge-shards` takes: the build's config comes from the shards."""


@click.command("lgmt")
@click.option(
    "--source",
    "sources",
    type=click.Choice(SOURCES),
    multiple=True,
    default=("generated",),
    show_default=True,
    help="Where source cases come from; repeat to pool several sources in one build.",
)
@click.option(
    "--source-path",
    "source_paths",
    type=click.Path(exists=True),
    multiple=True,
    help="File or folder of source records, one per --source other than generated, qmfol and logicasker, paired in "
    "order.",
)
@click.option("--mr", "mrs", multiple=True, help="Relation id (repeatable), e.g. MR-E1.1. Default: all 20.")
@click.option(
    "--per-mr",
    type=PerMr(),
    default=200,
    show_default=True,
    help="Groups per relation, or 'all': every applicable (source case, relation) pair (the paper-scale pool).",
)
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
@click.option(
    "--depth",
    "depth",
    default=None,
    metavar="D[,D...]",
    help="Reasoning depths of --source qmfol, 1-20 (default 1,2,3): the QMFOL rule-chain length; of --source "
    "logicasker, 1-7 (default 1,2,3): the LogicAsker chain length.",
)
@click.option(
    "--width",
    "width",
    default=None,
    metavar="W[,W...]",
    help="Reasoning widths of --source qmfol, 0-20 (default 1,2): the number of and/or connectives in the rules.",
)
@click.option(
    "--per-cell",
    type=int,
    default=None,
    help="Source problems per (depth, width) cell of --source qmfol (default 24: 8 seeds x 3 labels), per depth of "
    "--source logicasker.",
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
@click.option(
    "--shard",
    default=None,
    metavar="I/N",
    help="Build only the I-th (0-based) of N deterministic parts into --out; merge them with --merge-shards.",
)
@click.option(
    "--merge-shards",
    "merge_shards",
    type=click.Path(exists=True, file_okay=False),
    multiple=True,
    help="A shard folder (repeat for every shard): write their merged build, the unsharded build's bytes, to --out.",
)
@click.option("--out", type=click.Path(), required=True, help="Output folder (e.g. datasets/lgmt).")
@overwrite_option
@click.pass_context
def build_command(
    ctx: click.Context,
    sources: tuple[str, ...],
    source_paths: tuple[str, ...],
    mrs: tuple[str, ...],
    per_mr: int | str,
    seed: int,
    followups: int,
    compose: str,
    names: str,
    direction: str,
    generated_cases: int,
    depth: str | None,
    width: str | None,
    per_cell: int | None,
    timeout_ms: int,
    translator: str,
    translator_model: str | None,
    translation_attempts: int,
    num_proc: int,
    shard: str | None,
    merge_shards: tuple[str, ...],
    out: str,
    overwrite: bool,
) -> None:
    """Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3."""
    from lgmt_tasks.builders.parallel import Shard
    from lgmt_tasks.lgmt.build import LgmtConfig, build_lgmt, build_lgmt_shard
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.relations import RELATIONS
    from lgmt_tasks.lgmt.shards import write_lgmt_shard

    if merge_shards:
        given = [
            f"--{name.replace('_', '-')}"
            for name in ctx.params
            if name not in MERGE_OPTIONS and ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT
        ]
        if given:
            raise click.UsageError(f"--merge-shards takes the build's config from the shards; drop {', '.join(given)}")
        _merge_command(merge_shards, out, overwrite)
        return
    pairs = pair_sources(sources, source_paths, pathless=("generated", "qmfol", "logicasker"))
    if width is not None and "logicasker" in sources and "qmfol" not in sources:
        raise click.BadParameter(
            f"{width!r}: --source logicasker has no width (LogicAsker varies the chain length only); use --depth",
            param_hint="--width",
        )
    shard_spec = None
    if shard is not None:
        try:
            shard_spec = Shard.parse(shard)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--shard") from exc
        if translator == "model":
            raise click.UsageError("--shard builds template groups only; translate the merged build instead")

    if translator == "model" and not translator_model:
        raise click.UsageError("--translator model needs --translator-model M (any Inspect model name)")
    if translator == "template" and translator_model:
        raise click.UsageError("--translator-model is only used with --translator model")
    try:
        config = LgmtConfig(
            source=pairs[0][0],
            source_path=pairs[0][1],
            extra_sources=tuple(pairs[1:]),
            mrs=tuple(mrs) or tuple(RELATIONS),
            per_mr=per_mr,
            seed=seed,
            followups=followups,
            compose=int(compose),
            names=names,
            direction=direction,
            generated_cases=generated_cases,
            timeout_ms=timeout_ms,
            **qmfol_grid(depth, width, per_cell),
        )
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    check_out(out, overwrite)
    if shard_spec is not None:
        part = build_lgmt_shard(config, shard_spec, progress=True, num_proc=num_proc)
        write_out(out, lambda folder: write_lgmt_shard(part, folder), overwrite)
        rows = sum(len(rows) for rows, _ in part.results.values())
        click.echo(f"Shard {shard_spec}: {rows} groups from {len(part.results)} of {part.jobs} units. Written to {out}")
        return
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


def _merge_command(folders: tuple[str, ...], out: str, overwrite: bool) -> None:
    """`--merge-shards`: read every shard folder, merge, and write the build as `lgmt build lgmt` would."""
    from lgmt_tasks.lgmt.build import merge_shards
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.shards import read_lgmt_shard

    check_out(out, overwrite)
    try:
        result = merge_shards([read_lgmt_shard(folder) for folder in folders])
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    write_out(out, lambda folder: write_lgmt_repo(result, folder), overwrite)
    click.echo(f"{len(result.dataset)} groups merged from {len(folders)} shards. Written to {out}")


EXTRA_COMMANDS: tuple[click.Command, ...] = (audit_translations_command, plan_command, shrink_command)
"""Top-level `lgmt` commands of this suite besides `lgmt build lgmt`."""
