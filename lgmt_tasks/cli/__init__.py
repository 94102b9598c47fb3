"""The `lgmt` command line: build, audit, publish, verify, report, card, cache and suites; one module per command group.

Suite-specific commands live in the suite packages (`lgmt_tasks/<suite>/cli.py`): each suite's `build_command` under
`lgmt build` (`lgmt_tasks.cli.build`), and its `EXTRA_COMMANDS`, if any, at the top level (`COMMANDS` below names
them; `tests/cli/test_lazy.py` checks the two lists agree).

Why the group is lazy: the commands' modules import Z3, `datasets`, pandas and Inspect's model layer (about 5 s at
load 1.5 before this, for `lgmt --version` too). `COMMANDS` maps each command name to where the command is defined
and its one-line help, so `lgmt --help` and `lgmt --version` import nothing but click, and `lgmt <command>` imports
that command's module only (`tests/test_import_graph.py`; `benchmarks/bench_start.py` measures it).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import click

from lgmt_tasks import __version__


class LazyCommand(NamedTuple):
    """A subcommand imported only when it runs (or its own help is asked for).

    Attributes:
        target: `module:attribute` of the `click.Command`.
        help: Its one-line help as the group's `--help` lists it (the first sentence of the command's docstring;
            `None`: import the command to list it).
    """

    target: str
    help: str | None = None

    def load(self) -> click.Command:
        """Import the command."""
        module, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return command


class LazyGroup(click.Group):
    """A click group whose subcommands in `lazy` are imported on first use (click's documented lazy-group pattern).

    Listing the group (`--help`) imports only the lazy commands without a static `help`.
    """

    def __init__(self, *args: object, lazy: Mapping[str, LazyCommand] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, eager and lazy, sorted (as click lists them)."""
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, imported now if it is lazy (and kept, so it is imported once)."""
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(self.lazy[cmd_name].load(), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The `Commands:` section, from the static help of lazy commands (no import), as `click.Group` writes it."""
        rows: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            static = self.lazy.get(name)
            if name not in self.commands and static is not None and static.help is not None:
                rows.append((name, click.Command(name, help=static.help)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])


COMMANDS: dict[str, LazyCommand] = {
    "audit-source": LazyCommand(
        "lgmt_tasks.cli.audit:audit_source_command",
        "Parse every formula of a source file or folder, prove every label with Z3, compare with the gold label.",
    ),
    "build": LazyCommand(
        "lgmt_tasks.cli.build:build",
        "Build a suite's dataset (a Hugging Face dataset repository folder with its card).",
    ),
    "card": LazyCommand(
        "lgmt_tasks.cli.card:card_command",
        "Write one reliability card per model: every suite, a 95% interval on every number, provenance first.",
    ),
    "cache": LazyCommand(
        "lgmt_tasks.cli.cache:cache_group",
        "List or clear the caches: on-the-fly builds, `datasets`' loader copies and the converted embedded model.",
    ),
    "publish": LazyCommand(
        "lgmt_tasks.cli.publish:publish_command",
        "Push a suite's built dataset folder (card + data files) to a Hub dataset repository.",
    ),
    "report": LazyCommand(
        "lgmt_tasks.cli.report:report",
        "Summarise Inspect logs (files or folders) as metric tables, or sample their violations for review.",
    ),
    "suites": LazyCommand(
        "lgmt_tasks.cli.suites:suites_command",
        "List every suite with its Inspect tasks, lm-eval tasks, version and paper.",
    ),
    "verify": LazyCommand(
        "lgmt_tasks.cli.verify:verify_command",
        "Re-prove the claims of a built dataset with a second prover, and list every disagreement by row id.",
    ),
    # the suites' EXTRA_COMMANDS (lgmt_tasks/<suite>/cli.py), each from the module that defines it
    "adaptive-next": LazyCommand(
        "lgmt_tasks.adaptive.lm_eval_loop:adaptive_next_command",
        "Print the next lm-eval --samples JSON of an adaptive run from the rounds' --log_samples output, or done.",
    ),
    "audit-translations": LazyCommand(
        "lgmt_tasks.lgmt.cli_audit:audit_translations_command",
        "Ask an auditor model whether each translated follow-up sentence preserves its formula's structure.",
    ),
    "plan": LazyCommand(
        "lgmt_tasks.lgmt.plan:plan_command",
        "Plan `per_mr`: groups per relation for a Wilson interval of a given width, or for McNemar's test's power.",
    ),
    "shrink": LazyCommand(
        "lgmt_tasks.lgmt.shrink.command:shrink_command",
        "Shrink each violating group of an LGMT eval LOG to a smallest group that still makes the model violate.",
    ),
    "failing-groups": LazyCommand(
        "lgmt_tasks.lexical.cli:failing_groups_command",
        "List the groups that violated in a one-epoch run, for `inspect eval --sample-id` (LLMorph's flakiness).",
    ),
}
"""Every top-level command but `lm-eval-path`: where it is defined and its one-line help (a test checks both)."""


def user_errors() -> tuple[type[Exception], ...]:
    """Errors in what the user gave (a source file, an output folder), printed as one `Error:` line, exit status 1.

    Their message is the whole story, so every `lgmt` command prints them without a traceback. Imported when an
    error is raised, not at start-up (see the module docstring).
    """
    from lgmt_tasks.hub.output import OutputFolderError
    from lgmt_tasks.sources.common import SourceDataError

    return (SourceDataError, OutputFolderError)


class LgmtGroup(LazyGroup):
    """The `lgmt` group: lazy subcommands; user-input errors and Ctrl-C end with one line, never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand, turning user-input errors into `click.ClickException` and Ctrl-C into one line."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # click would print a blank line and "Aborted!" with status 1; 130 is the shell's status for SIGINT
            click.echo("Interrupted.", err=True)
            ctx.exit(130)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:
            if isinstance(exc, user_errors()):
                raise click.ClickException(str(exc)) from None
            raise


@click.group(cls=LgmtGroup, lazy=COMMANDS)
@click.version_option(__version__, prog_name="lgmt")
def main() -> None:
    """lgmt-tasks: build, check and report logic-grounded reasoning evaluations."""


@main.command("lm-eval-path")
def lm_eval_path() -> None:
    """Print the folder of our lm-eval task configs (for `lm_eval --include_path`)."""
    import lgmt_tasks.task_configs as configs

    click.echo(str(Path(configs.__file__).parent))


if __name__ == "__main__":
    main()
