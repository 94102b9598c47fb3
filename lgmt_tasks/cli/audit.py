"""`lgmt audit-source`: how far to trust a benchmark's FOL (parse every formula, prove every label with Z3)."""

from __future__ import annotations

import json
from typing import cast

import click

from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS
from lgmt_tasks.sources.common import SOURCE_NAMES, UNIFY_MODES, SourceName, UnifyMode
from lgmt_tasks.sources.logicnli import PREMISE_MODES, PremiseMode


@click.command("audit-source")
@click.argument("source", type=click.Choice(SOURCE_NAMES))
@click.argument("path", type=click.Path(exists=True))
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write every disagreement (id, gold, ours, premises_fol, conclusion_fol) and every unusable record "
    "(id, field, reason, file, 1-based line and column) to this JSONL file, one object per line with its 'kind'.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option(
    "--timeout-ms",
    type=click.IntRange(min=1),
    default=DEFAULT_TIMEOUT_MS,
    show_default=True,
    help="Z3 wall-clock limit per solver check (Z3's deterministic resource limit applies as well).",
)
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Audit only the first N problems.")
@click.option(
    "--unify-constants",
    type=click.Choice(UNIFY_MODES),
    default="none",
    show_default=True,
    help="Opt-in repair of constants spelt two ways within a problem: 'case' ignores case, '_' and '-' "
    "(roderickStrong = roderickstrong); 'case+numeric' also ignores one letter before a digit "
    "(y1984 = 1984). Off by default: it can merge individuals the annotator kept apart.",
)
@click.option(
    "--premises",
    "logicnli_premises",
    type=click.Choice(PREMISE_MODES),
    default="all",
    show_default=True,
    help="LogicNLI only: the premises each statement is asked against. 'all' shows the data as it is "
    "(every story is inconsistent); 'trace' and 'consistent-subset' are the loader's selections.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Prover processes (results do not depend on it).",
)
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress bar on stderr.")
def audit_source_command(
    source: str,
    path: str,
    report_path: str | None,
    as_json: bool,
    timeout_ms: int,
    limit: int | None,
    unify_constants: str,
    logicnli_premises: str,
    workers: int,
    progress: bool,
) -> None:
    """Parse every formula of a source file or folder, prove every label with Z3, compare with the gold label.

    Prints: records, formulas unparsable (grouped by reason), problems decided / undecided / with contradictory
    premises, and agreement with the gold label as a fraction of decided problems that have one. SOURCE is
    folio, proverqa or logicnli; PATH is a file (clean JSONL, Hugging Face JSONL, raw JSON) or a folder of them.

    \b
    Examples:
      lgmt audit-source folio ../shared/data/folio/folio_v2_validation.jsonl --report disagreements.jsonl
      lgmt audit-source proverqa ../shared/data/proverqa --json
    """  # noqa: D301  (click's no-rewrap marker is the backspace character, so the docstring is not raw)
    from lgmt_tasks.sources.audit import audit_source

    result = audit_source(
        cast(SourceName, source),
        path,
        timeout_ms=timeout_ms,
        limit=limit,
        unify_constants=cast(UnifyMode, unify_constants),
        logicnli_premises=cast(PremiseMode, logicnli_premises),
        workers=workers,
        progress=progress,
    )
    if report_path is not None:
        result.write_report(report_path)
    if as_json:
        click.echo(json.dumps(result.summary(), ensure_ascii=False))
    else:
        click.echo(result.to_text())
        if report_path is not None:
            click.echo(f"{len(result.disagreements)} disagreements written to {report_path}")
    if result.problems == 0 and limit != 0:  # nothing to audit: an error, as `lgmt build` on the same file
        skipped = dict(result.skipped.most_common())
        raise click.ClickException(f"no usable {source} problem in {path}: {result.records} records, skipped {skipped}")
