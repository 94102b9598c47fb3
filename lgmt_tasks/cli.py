"""The `lgmt` command line: build, audit, publish and report (subcommands live in their own modules)."""

from __future__ import annotations

import click

from lgmt_tasks import __version__


@click.group()
@click.version_option(__version__, prog_name="lgmt")
def main() -> None:
    """lgmt-tasks: build, check and report logic-grounded reasoning evaluations."""


if __name__ == "__main__":
    main()
