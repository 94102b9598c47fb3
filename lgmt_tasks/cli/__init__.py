"""The `lgmt` command line: build, audit, publish, verify, report, cache and suites; one module per command group.

Suite-specific commands live in the suite packages (`lgmt_tasks/<suite>/cli.py`) and are collected through the suite
registry: each suite's `build_command` under `lgmt build`, and its `EXTRA_COMMANDS`, if any, at the top level.
"""

from __future__ import annotations

from pathlib import Path

import click

from lgmt_tasks import __version__
from lgmt_tasks.cli.audit import audit_source_command
from lgmt_tasks.cli.build import build
from lgmt_tasks.cli.cache import cache_group
from lgmt_tasks.cli.publish import publish_command
from lgmt_tasks.cli.report import report
from lgmt_tasks.cli.suites import suites_command
from lgmt_tasks.cli.verify import verify_command
from lgmt_tasks.hub.output import OutputFolderError
from lgmt_tasks.sources.common import SourceDataError
from lgmt_tasks.suites import SUITES

USER_ERRORS: tuple[type[Exception], ...] = (SourceDataError, OutputFolderError)
"""Errors in what the user gave (a source file, an output folder): their message is the whole story, so every
`lgmt` command prints them as one `Error:` line with exit status 1, never a traceback."""


class LgmtGroup(click.Group):
    """The `lgmt` group: a subcommand raising one of `USER_ERRORS` exits with click's one-line `Error:`."""

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand, turning user-input errors into `click.ClickException`."""
        try:
            return super().invoke(ctx)
        except USER_ERRORS as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=LgmtGroup)
@click.version_option(__version__, prog_name="lgmt")
def main() -> None:
    """lgmt-tasks: build, check and report logic-grounded reasoning evaluations."""


@main.command("lm-eval-path")
def lm_eval_path() -> None:
    """Print the folder of our lm-eval task configs (for `lm_eval --include_path`)."""
    import lgmt_tasks.task_configs as configs

    click.echo(str(Path(configs.__file__).parent))


for _command in (audit_source_command, build, cache_group, publish_command, report, suites_command, verify_command):
    main.add_command(_command)
for _suite in SUITES:
    for _command in getattr(_suite.module("cli"), "EXTRA_COMMANDS", ()):
        main.add_command(_command)

if __name__ == "__main__":
    main()
