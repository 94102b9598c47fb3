"""`lgmt build lgmt`: build LGMT metamorphic groups as a Hub dataset repository folder.

Also builds one shard of a build (`--shard i/n`) and merges shard folders into the build (`--merge-shards`).
"""

from __future__ import annotations

from typing import Any

import click

from lgmt_tasks.adaptive.lm_eval_loop import adaptive_next_command
from lgmt_tasks.builders.command import (
    check_out,
    num_proc_option,
    out_option,
    overwrite_option,
    pair_sources,
    write_out,
)
from lgmt_tasks.builders.schema import (
    SOURCE,
    SOURCE_PATH,
    TRANSLATION_ATTEMPTS,
    TRANSLATOR,
    TRANSLATOR_MODEL,
    build_options,
    config_from_options,
    schema_option,
)
from lgmt_tasks.lgmt.cli_audit import audit_translations_command
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.plan import plan_command
from lgmt_tasks.lgmt.shrink.command import shrink_command
from lgmt_tasks.vocabulary import LGMT_SOURCES

MERGE_OPTIONS = ("out", "overwrite", "merge_shards")
"""The only options `--merge-shards` takes: the build's config comes from the shards."""


@click.command("lgmt")
@click.option(
    "--source",
    "sources",
    type=click.Choice(LGMT_SOURCES),
    multiple=True,
    default=("generated",),
    show_default=True,
    help=SOURCE.help + " Repeat to pool several sources in one build. `paper`: the paper's evaluation set, FOLIO v2 "
    "validation, LogicNLI dev+test and ProverQA dev read from the folio/, logicnli/ and proverqa/ subfolders of its "
    "--source-path.",
)
@click.option(
    "--source-path",
    "source_paths",
    type=click.Path(exists=True),
    multiple=True,
    help=SOURCE_PATH.help + " One per --source other than generated, qmfol and logicasker, paired in order.",
)
@build_options(LgmtConfig)
@schema_option("translator", "template", TRANSLATOR)
@schema_option("translator_model", None, TRANSLATOR_MODEL)
@schema_option("translation_attempts", 2, TRANSLATION_ATTEMPTS)
@num_proc_option
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
@out_option("datasets/lgmt")
@overwrite_option
@click.pass_context
def build_command(
    ctx: click.Context,
    sources: tuple[str, ...],
    source_paths: tuple[str, ...],
    translator: str,
    translator_model: str | None,
    translation_attempts: int,
    num_proc: int,
    shard: str | None,
    merge_shards: tuple[str, ...],
    out: str,
    overwrite: bool,
    **options: Any,
) -> None:
    """Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3."""
    from lgmt_tasks.builders.parallel import Shard
    from lgmt_tasks.lgmt.build import build_lgmt, build_lgmt_shard
    from lgmt_tasks.lgmt.card import write_lgmt_repo
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
    if options["widths"] is not None and "logicasker" in sources and "qmfol" not in sources:
        raise click.BadParameter(
            f"{options['widths']!r}: --source logicasker has no width (LogicAsker varies the chain length only); "
            "use --depth",
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
    config = config_from_options(
        LgmtConfig, options, source=pairs[0][0], source_path=pairs[0][1], extra_sources=tuple(pairs[1:])
    )
    check_out(out, overwrite)
    if shard_spec is not None:
        part = build_lgmt_shard(config, shard_spec, progress=True, num_proc=num_proc)
        write_out(out, lambda folder: write_lgmt_shard(part, folder), overwrite)
        rows = sum(len(rows) for rows, _ in part.results.values())
        click.echo(f"Shard {shard_spec}: {rows} groups from {len(part.results)} of {part.jobs} units. Written to {out}")
        return
    from lgmt_tasks.builders.cache import stage_messages

    with stage_messages():  # the source stage's lines (LogicNLI checks its problems with Z3 for minutes)
        result = build_lgmt(config, progress=True, num_proc=num_proc)
    if translator == "model":
        from lgmt_tasks.lgmt.translate import translate_build, with_translation

        assert translator_model is not None
        translated, translation_stats = translate_build(
            result, translator_model, attempts=translation_attempts, timeout_ms=config.timeout_ms, progress=True
        )
        result = with_translation(result, translated, translation_stats)
    write_out(out, lambda folder: write_lgmt_repo(result, folder), overwrite)
    click.echo(result.stats.to_markdown(["candidates", "tried", "proven"]))
    if len(config.sources()) > 1:
        click.echo("\n" + per_source_text(result.stats, result.dataset.to_list()))
    click.echo(f"\n{summary_text(result.stats, len(result.dataset))} Written to {out}")
    from lgmt_tasks.lgmt.source_fidelity import NOTE as FIDELITY_NOTE
    from lgmt_tasks.lgmt.source_fidelity import summary_text as fidelity_text

    fidelity = fidelity_text(result.stats.notes.get(FIDELITY_NOTE))
    if fidelity:
        click.echo(fidelity)
    for mr in empty_relations(config.mrs, result.dataset["mr"]):
        click.echo(f"Warning: {empty_relation_text(result.stats, mr)}", err=True)


def summary_text(stats: Any, groups: int) -> str:
    """The build's last line: groups and their candidate pool, then source records and groups dropped, apart.

    Source records are dropped before any relation sees them (unusable, label not proven or not the gold one:
    buckets `source`, `source <name>`); candidate groups after (no follow-up site, follow-up not proven: the
    relations' buckets). One total of both read as groups lost.
    """
    sources = sum(stats.total_dropped(b) for b in stats.dropped if b == "source" or b.startswith("source "))
    return (
        f"{groups} groups from a candidate pool of {stats.notes.get('candidate_pool', 0)}; dropped: {sources} source "
        f"records (unusable or not proven), {stats.total_dropped() - sources} candidate groups (not built or not "
        "proven)."
    )


def empty_relation_text(stats: Any, mr: str) -> str:
    """Why a requested relation has no group: its candidates (source cases it applies to) and its drops."""
    candidates = stats.counts.get(mr, {}).get("candidates", 0)
    reasons = "; ".join(f"{reason}: {n}" for reason, n in sorted(stats.dropped.get(mr, {}).items()))
    why = f", {stats.total_dropped(mr)} dropped ({reasons})" if reasons else ""
    return (
        f"{mr} yielded no groups: {candidates} proven source cases admit it{why}; try another --source, or a larger one"
    )


def empty_relations(mrs: Any, rows_mr: list[str]) -> list[str]:
    """The requested relations with no group among `rows_mr` (a composed chain counts for its first relation)."""
    have = {mr.split("+", 1)[0] for mr in rows_mr}
    return [mr for mr in mrs if mr not in have]


def per_source_text(stats: Any, rows: list[dict[str, Any]]) -> str:
    """A pooled build's source cases per source dataset: records read, loaded, proven, used in a group; its pool."""
    read = stats.notes.get("read_by_source") or {}
    proven = stats.notes.get("proven_by_source") or {}
    pools = stats.notes.get("pool_by_source") or {}
    used: dict[str, set[str]] = {}
    for row in rows:
        used.setdefault(row["source_dataset"], set()).add(row["source_id"])
    lines = [
        "| source | records read | loaded | proven | used in a group | candidate pool | groups |",
        "|---|" + "---:|" * 6,
    ]
    for source in sorted({*read, *proven}):
        groups = sum(1 for row in rows if row["source_dataset"] == source)
        counts = read.get(source, {})
        lines.append(
            f"| {source} | {counts.get('records', '')} | {counts.get('loaded', '')} | {proven.get(source, 0)} | "
            f"{len(used.get(source, ()))} | {sum(pools.get(source, {}).values())} | {groups} |"
        )
    return "\n".join(lines)


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


EXTRA_COMMANDS: tuple[click.Command, ...] = (
    adaptive_next_command,
    audit_translations_command,
    plan_command,
    shrink_command,
)
"""Top-level `lgmt` commands of this suite besides `lgmt build lgmt`."""
