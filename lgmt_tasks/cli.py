"""The `lgmt` command line: build, audit, publish and report (subcommands live in their own modules)."""

from __future__ import annotations

from pathlib import Path

import click

from lgmt_tasks import __version__
from lgmt_tasks.cli_audit import audit_source_command
from lgmt_tasks.cli_audit_translations import audit_translations_command
from lgmt_tasks.cli_build import build
from lgmt_tasks.cli_publish import publish_command
from lgmt_tasks.cli_report import report
from lgmt_tasks.cli_verify import verify_command


@click.group()
@click.version_option(__version__, prog_name="lgmt")
def main() -> None:
    """lgmt-tasks: build, check and report logic-grounded reasoning evaluations."""


@main.command("lm-eval-path")
def lm_eval_path() -> None:
    """Print the folder of our lm-eval task configs (for `lm_eval --include_path`)."""
    import lgmt_tasks.task_configs as configs

    click.echo(str(Path(configs.__file__).parent))


main.add_command(audit_source_command)
main.add_command(audit_translations_command)
main.add_command(build)
main.add_command(publish_command)
main.add_command(report)
main.add_command(verify_command)

if __name__ == "__main__":
    main()
