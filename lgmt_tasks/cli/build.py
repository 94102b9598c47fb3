"""`lgmt build <suite>`: the group that collects every suite's own build command (`lgmt_tasks/<suite>/cli.py`).

Lazy like the `lgmt` group (`lgmt_tasks.cli`): `lgmt build qmfol` imports QMFOL's command module only, not the other
suites' builders, and `lgmt build --help` imports none of them (before issue 38 it imported all five command modules,
and through their configs Z3, only to print one line each). So each suite's one-line help is written here, as
`COMMANDS` writes the top-level ones; `tests/cli/test_lazy.py` checks it against the command's docstring. A suite's
options are listed by its own help, `lgmt build <suite> --help`, which imports that suite's command module alone.
"""

from __future__ import annotations

import click

from lgmt_tasks.cli import LazyCommand, LazyGroup
from lgmt_tasks.suites import SUITES

SUITE_HELP: dict[str, str] = {
    "lgmt": "Build LGMT metamorphic groups: sources x relations, every label and follow-up proven by Z3.",
    "logicasker": "Build LogicAsker tests: every skill at every length, balanced yes/no, every answer proven by Z3.",
    "divlogiceval": (
        "Build DivLogicEval four-option questions (3c1e, 3e1c, missing premise), every answer key proven by Z3."
    ),
    "qmfol": (
        "Build QMFOL tasks: the grid of depth x width x distractors x label x topic x seeds, every label proven by Z3."
    ),
    "lexical": (
        "Build LLMorph's lexical relations on LGMT's source cases (function-based; LLM-based with a transformer)."
    ),
}
"""Each suite's `build_command` help as `lgmt build --help` lists it (the first sentence of its docstring)."""

BUILD_COMMANDS: dict[str, LazyCommand] = {
    suite.name: LazyCommand(f"{suite.package}.cli:build_command", SUITE_HELP.get(suite.name)) for suite in SUITES
}
"""Every suite's build command: where it is defined and its one-line help (a suite missing from `SUITE_HELP` is
imported to list it, and a test fails)."""


@click.group(cls=LazyGroup, lazy=BUILD_COMMANDS)
def build() -> None:
    """Build a suite's dataset (a Hugging Face dataset repository folder with its card)."""
