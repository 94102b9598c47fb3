"""`lgmt suites`: the suite registry as a table (or bare names, for scripts such as the Makefile's)."""

from __future__ import annotations

import json

import click

from lgmt_tasks.suites import SUITES


@click.command("suites")
@click.option("--names", "names_only", is_flag=True, help="Print only the suite names, one per line.")
@click.option("--json", "as_json", is_flag=True, help="Print the registry as JSON.")
def suites_command(names_only: bool, as_json: bool) -> None:
    """List every suite with its Inspect tasks, lm-eval tasks, version and paper."""
    if names_only:
        click.echo("\n".join(s.name for s in SUITES))
        return
    if as_json:
        records = [
            {
                "name": s.name,
                "title": s.title,
                "paper": s.paper,
                "version": s.version,
                "tasks": list(s.tasks),
                "lm_eval_tasks": list(s.lm_eval_tasks),
                "readme": f"lgmt_tasks/{s.name}/README.md",
            }
            for s in SUITES
        ]
        click.echo(json.dumps(records, indent=2))
        return
    lines = ["| suite | Inspect tasks | lm-eval tasks | version | paper |", "|---|---|---|---|---|"]
    for s in SUITES:
        tasks = ", ".join(f"lgmt_tasks/{t}" for t in s.tasks)
        lines.append(f"| {s.name} | {tasks} | {', '.join(s.lm_eval_tasks)} | {s.version} | {s.paper} |")
    click.echo("\n".join(lines))
