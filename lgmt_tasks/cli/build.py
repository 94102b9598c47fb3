"""`lgmt build <suite>`: the group that collects every suite's own build command (`lgmt_tasks/<suite>/cli.py`).

Lazy like the `lgmt` group (`lgmt_tasks.cli`): `lgmt build qmfol` imports QMFOL's command module only, not the other
suites' builders.
"""

from __future__ import annotations

import click

from lgmt_tasks.cli import LazyCommand, LazyGroup
from lgmt_tasks.suites import SUITES


@click.group(cls=LazyGroup, lazy={suite.name: LazyCommand(f"{suite.package}.cli:build_command") for suite in SUITES})
def build() -> None:
    """Build a suite's dataset (a Hugging Face dataset repository folder with its card)."""
