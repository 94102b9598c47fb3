"""`lgmt report`: tables from Inspect logs (headline, per category, per relation)."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("report")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--latest", is_flag=True, help="Only the newest log of each folder.")
@click.option("--out", type=click.Path(), default=None, help="Folder for CSV and Markdown tables.")
def report(logs: tuple[str, ...], latest: bool, out: str | None) -> None:
    """Summarise Inspect logs (files or folders) as metric tables."""
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.report.headline import (
        breakdown,
        breakdown_groups,
        display_table,
        headline_table,
        log_metrics,
        log_paths,
    )

    table = headline_table(logs, latest=latest)
    if table.empty:
        raise click.ClickException(f"no logs found in {', '.join(logs)}")
    click.echo(display_table(table).to_markdown(index=False))
    paths = log_paths(logs, latest=latest)
    if len(paths) == 1:
        metrics = log_metrics(read_eval_log(paths[0], header_only=True))
        categories, relations = breakdown_groups(metrics)
        for title, groups in (("per category", categories), ("per relation", relations)):
            if groups:
                click.echo(f"\n{title}:\n" + breakdown(metrics, groups).to_markdown(index=False, floatfmt=".3f"))
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "headline.csv", index=False)
        (folder / "headline.md").write_text(display_table(table).to_markdown(index=False) + "\n", encoding="utf-8")
        click.echo(f"written to {folder}")
