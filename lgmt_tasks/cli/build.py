"""`lgmt build <suite>`: the group that collects every suite's own build command (`lgmt_tasks/<suite>/cli.py`)."""

from __future__ import annotations

import click

from lgmt_tasks.suites import SUITES


@click.group()
def build() -> None:
    """Build a suite's dataset (a Hugging Face dataset repository folder with its card)."""


for _suite in SUITES:
    build.add_command(_suite.attr("cli", "build_command"), _suite.name)
