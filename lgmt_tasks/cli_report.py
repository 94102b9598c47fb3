"""`lgmt report`: tables (and later plots) from Inspect logs."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("report")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--latest", is_flag=True, help="Only the newest log of each folder.")
@click.option("--out", type=click.Path(), default=None, help="Folder for CSV and Markdown tables.")
def report(logs: tuple[str, ...], latest: bool, out: str | None) -> None:
    """Summarise Inspect logs (files or folders) as a metrics table."""
    from lgmt_tasks.report.headline import headline_table

    table = headline_table(logs, latest=latest)
    if table.empty:
        raise click.ClickException(f"no logs found in {', '.join(logs)}")
    click.echo(table.to_markdown(index=False, floatfmt=".4f"))
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "headline.csv", index=False)
        (folder / "headline.md").write_text(table.to_markdown(index=False, floatfmt=".4f") + "\n", encoding="utf-8")
        click.echo(f"written to {folder}")
