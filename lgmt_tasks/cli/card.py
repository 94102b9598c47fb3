"""`lgmt card`: one reliability card per model from Inspect logs and lm-eval results (`lgmt_tasks.card`).

The command lives here, with the other commands that are not a suite's, and only parses options: the cards are
`lgmt_tasks.card.write_cards`'. Bad input ends with one `Error:` line and exit status 1, before anything is written.
"""

from __future__ import annotations

import click


class DatasetId(click.ParamType):
    """`SUITE=ORG/NAME`: the Hub dataset a suite's eval-results entries name."""

    name = "SUITE=ORG/NAME"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, str]:
        """Return (suite, repo id); fail with a message naming the valid suites or the expected form."""
        from lgmt_tasks.suites import SUITE_NAMES

        if isinstance(value, tuple):
            return value  # type: ignore[return-value]
        suite, _, repo = str(value).partition("=")
        if suite not in SUITE_NAMES:
            self.fail(f"{value!r}: the suite before '=' must be one of {', '.join(SUITE_NAMES)}", param, ctx)
        if repo.count("/") != 1 or not all(repo.split("/")):
            self.fail(f"{value!r}: expected SUITE=ORG/NAME (a Hub dataset id after '=')", param, ctx)
        return suite, repo


@click.command("card")
@click.argument("logs", nargs=-1, required=False, type=click.Path(exists=True))
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    required=True,
    help="Folder of the cards: DIR/<model>/card.md, card.html, card.json and .eval_results/lgmt-tasks.yaml.",
)
@click.option(
    "--lm-eval-results",
    "lm_eval_results",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="An lm-eval results JSON (repeatable): its tasks become rows of their model's card. LOGS may then be omitted.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also write DIR/compare.md and DIR/compare.html: the models side by side, with the paired tests of "
    "`lgmt report --compare` (tie groups, not ranks). Needs runs of two or more models.",
)
@click.option(
    "--dataset-id",
    "dataset_ids",
    multiple=True,
    type=DatasetId(),
    help="SUITE=ORG/NAME (repeatable): the Hub dataset the suite's .eval_results entries name when the logs record "
    "none (a local build you published with `lgmt publish`); otherwise the entries say UNPUBLISHED/<suite>.",
)
def card_command(
    logs: tuple[str, ...],
    out: str,
    lm_eval_results: tuple[str, ...],
    compare: bool,
    dataset_ids: tuple[tuple[str, str], ...],
) -> None:
    """Write one reliability card per model: every suite, a 95% interval on every number, provenance first.

    LOGS are Inspect log files or folders (searched recursively). Unreadable logs and logs of unfinished runs are
    left out, and named on stderr and on the cards.
    """
    from pathlib import Path

    from lgmt_tasks.card.collect import CardInputError
    from lgmt_tasks.card.write import write_cards
    from lgmt_tasks.hub.output import OutputFolderError, check_writable_parent
    from lgmt_tasks.report.logs import select_logs

    if not logs and not lm_eval_results:
        raise click.UsageError("give Inspect logs (files or folders) or --lm-eval-results FILE")
    try:
        check_writable_parent(out, into=True)  # before reading any log
        for line in select_logs(logs).warnings() if logs else []:  # as `lgmt report` warns, before the cards
            click.echo(line, err=True)
        folders = write_cards(
            list(logs), Path(out), lm_eval_results=list(lm_eval_results), compare=compare, dataset_ids=dict(dataset_ids)
        )
    except (CardInputError, OutputFolderError, FileNotFoundError) as error:
        raise click.ClickException(str(error)) from None
    for folder in folders:
        click.echo(f"card: {folder}/card.md, card.html, card.json, .eval_results/lgmt-tasks.yaml")
    if compare:
        click.echo(f"compare: {Path(out) / 'compare.md'}, {Path(out) / 'compare.html'}")
