"""The lazy `lgmt` group lists and runs exactly the commands an eager one did, with the same one-line help."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import COMMANDS, LgmtGroup, main
from lgmt_tasks.cli.build import BUILD_COMMANDS, SUITE_HELP, build
from lgmt_tasks.suites import SUITES


def test_the_table_names_every_suite_command_and_no_other():
    # EXTRA_COMMANDS (lgmt_tasks/<suite>/cli.py) is what a suite declares; COMMANDS must list each one by its name
    declared = {cmd.name: cmd for suite in SUITES for cmd in getattr(suite.module("cli"), "EXTRA_COMMANDS", ())}
    assert set(declared) <= set(COMMANDS)
    for name, command in declared.items():
        assert COMMANDS[name].load() is command, name
    suite_entries = {n for n, c in COMMANDS.items() if not c.target.startswith("lgmt_tasks.cli.")}
    assert suite_entries == set(declared)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_entry_loads_its_command_with_the_same_name_and_help(name):
    entry = COMMANDS[name]
    command = entry.load()
    assert command.name == name
    assert entry.help is not None
    # a command's docstring changed: copy its first sentence into `lgmt_tasks.cli.COMMANDS` (`lgmt --help` lists it)
    assert entry.help == command.get_short_help_str(10**6), f"update COMMANDS[{name!r}].help"
    for limit in (45, 60, 80):
        assert click.Command(name, help=entry.help).get_short_help_str(limit) == command.get_short_help_str(limit)


def test_help_lists_every_command_and_version_prints():
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    for name in [*COMMANDS, "lm-eval-path"]:
        assert f"\n  {name} " in result.output, name
    version = CliRunner().invoke(main, ["--version"])
    assert version.exit_code == 0 and version.output.startswith("lgmt, version ")


def test_build_lists_every_suite_and_resolves_one():
    result = CliRunner().invoke(build, ["--help"])
    assert result.exit_code == 0, result.output
    for suite in SUITES:
        assert f"\n  {suite.name} " in result.output
    assert build.get_command(click.Context(build), "qmfol") is SUITES[[s.name for s in SUITES].index("qmfol")].attr(
        "cli", "build_command"
    )


HELP_PROBE = """
import contextlib, io, json, sys
from lgmt_tasks.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main(sys.argv[1:], prog_name="lgmt")
    except SystemExit:
        pass
print(json.dumps({"help": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def help_in_a_fresh_interpreter(*args: str) -> tuple[str, set[str]]:
    """`lgmt ARGS` run in a new interpreter (this one has imported everything): its output and its `sys.modules`."""
    run = subprocess.run([sys.executable, "-c", HELP_PROBE, *args], capture_output=True, text=True, check=True)
    result = json.loads(run.stdout.strip().splitlines()[-1])
    return result["help"], set(result["modules"])


def test_the_build_table_has_each_suites_help_as_its_command_says_it():
    assert set(SUITE_HELP) == set(BUILD_COMMANDS) == {suite.name for suite in SUITES}
    for suite in SUITES:
        command = BUILD_COMMANDS[suite.name].load()
        assert command is suite.attr("cli", "build_command")
        # a build command's docstring changed: copy its first sentence into `lgmt_tasks.cli.build.SUITE_HELP`
        assert SUITE_HELP[suite.name] == command.get_short_help_str(10**6), f"update SUITE_HELP[{suite.name!r}]"


def test_build_help_imports_no_suite_and_no_z3():
    # issue 38: `lgmt build --help` imported all five suites' command modules, and with them Z3
    text, modules = help_in_a_fresh_interpreter("build", "--help")
    assert "z3" not in modules
    assert sorted(m for m in modules if m.startswith("lgmt_tasks.")) == [
        "lgmt_tasks.cli",
        "lgmt_tasks.cli.build",
        "lgmt_tasks.suites",
    ]
    for suite in SUITES:
        assert f"\n  {suite.name} " in text and SUITE_HELP[suite.name].split()[1] in text


@pytest.mark.parametrize("suite", [s.name for s in SUITES])
def test_a_suites_build_help_lists_its_options_without_z3_or_its_builder(suite):
    text, modules = help_in_a_fresh_interpreter("build", suite, "--help")
    assert "z3" not in modules and "lgmt_tasks.logic.prover" not in modules
    assert f"lgmt_tasks.{suite}.build" not in modules
    schema = SUITES[[s.name for s in SUITES].index(suite)].attr("config", "SCHEMA")
    flags = [d.flags[0] for d in schema.parameters() if d.spec.cli]
    assert flags
    for flag in [*flags, "--out", "--num-proc", "--overwrite"]:
        assert f" {flag}" in text, flag


def test_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(main, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command 'no-such-command'" in result.output


def test_ctrl_c_prints_one_line_and_exits_130():
    group = LgmtGroup(name="lgmt")

    @group.command("slow")
    def slow() -> None:
        raise KeyboardInterrupt

    result = CliRunner().invoke(group, ["slow"])
    assert result.exit_code == 130
    assert result.output.strip() == "Interrupted."
    assert "Traceback" not in result.output


def test_ctrl_c_while_a_command_imports_prints_one_line(monkeypatch):
    # the start-up case: the interrupt arrives while the subcommand's module is being imported
    from lgmt_tasks.cli import LazyCommand

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(LazyCommand, "load", interrupted)
    group = LgmtGroup(name="lgmt", lazy={"slow": LazyCommand("lgmt_tasks.cli.suites:suites_command", "Slow.")})
    result = CliRunner().invoke(group, ["slow"])
    assert result.exit_code == 130
    assert result.output.strip() == "Interrupted."


def test_a_user_error_is_one_line():
    from lgmt_tasks.sources.common import SourceDataError

    group = LgmtGroup(name="lgmt")

    @group.command("bad")
    def bad() -> None:
        raise SourceDataError("source.jsonl: line 3 is not JSON")

    result = CliRunner().invoke(group, ["bad"])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: source.jsonl: line 3 is not JSON"
