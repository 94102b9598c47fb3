"""`lgmt verify`: re-prove a built dataset's claims (or a source benchmark's labels) with an independent prover."""

from __future__ import annotations

import json
from typing import Any, cast

import click

from lgmt_tasks.sources.common import SOURCE_NAMES, SourceName
from lgmt_tasks.suites import SUITE_NAMES
from lgmt_tasks.verify.provers import DEFAULT_TIMEOUT_S, PROVERS


@click.command("verify")
@click.argument("path", type=click.Path(exists=True))
@click.option(
    "--prover",
    type=click.Choice(PROVERS),
    default=PROVERS[0],
    show_default=True,
    help="The prover that re-proves the claims (eprover: E through TPTP, one process per query).",
)
@click.option(
    "--suite",
    type=click.Choice(SUITE_NAMES),
    default=None,
    help="The dataset's suite (default: recognised from its columns).",
)
@click.option(
    "--source",
    type=click.Choice(SOURCE_NAMES),
    default=None,
    help="PATH is a source benchmark file or folder, not a built dataset: label its problems with Z3 "
    "and with --prover and compare.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=0),
    default=None,
    help="Check a seeded sample of this many rows (problems with --source). Default: all.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Sampling seed.")
@click.option(
    "--timeout-s",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT_S,
    show_default=True,
    help="Limit per prover query, in seconds.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress bar on stderr.")
def verify_command(
    path: str,
    prover: str,
    suite: str | None,
    source: str | None,
    sample: int | None,
    seed: int,
    timeout_s: float,
    as_json: bool,
    progress: bool,
) -> None:
    """Re-prove the claims of a built dataset with a second prover, and list every disagreement by row id.

    Claims per suite: LGMT source and follow-up labels and the MR-E/MR-C equivalences; LogicAsker yes/no answers;
    DivLogicEval answer keys and construction claims; QMFOL labels with and without distractors; lexical source
    labels (its follow-ups have no FOL). Each claim is counted once as agree, disagree, undecided by the prover,
    or unparsable. With --source, PATH is a FOLIO/ProverQA/LogicNLI file or folder and each problem's label by Z3
    is compared with the label by --prover. Exit status 1 when there is a disagreement.

    \b
    Examples:
      lgmt verify datasets/lgmt --sample 100
      lgmt verify datasets/qmfol --prover z3 --json
      lgmt verify --source folio ../shared/data/folio/folio_v2_validation.jsonl --sample 50
    """  # noqa: D301  (click's no-rewrap marker is the backspace character, so the docstring is not raw)
    from lgmt_tasks.verify.dataset import DatasetError
    from lgmt_tasks.verify.provers import ProverUnavailable

    if source is not None and suite is not None:
        raise click.UsageError("--suite applies to a built dataset; it cannot be combined with --source")
    result: Any
    try:
        if source is not None:
            from lgmt_tasks.verify.source import verify_source

            result = verify_source(
                cast(SourceName, source),
                path,
                prover=prover,
                sample=sample,
                seed=seed,
                timeout_s=timeout_s,
                progress=progress,
            )
        else:
            from lgmt_tasks.verify.dataset import verify_dataset

            result = verify_dataset(
                path, prover=prover, suite=suite, sample=sample, seed=seed, timeout_s=timeout_s, progress=progress
            )
    except ProverUnavailable as exc:
        raise click.UsageError(str(exc)) from exc
    except DatasetError as exc:
        raise click.BadParameter(str(exc), param_hint="PATH") from exc
    click.echo(json.dumps(result.summary(), ensure_ascii=False) if as_json else result.to_text())
    if result.disagreements:
        raise SystemExit(1)
