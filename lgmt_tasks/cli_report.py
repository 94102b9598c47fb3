"""`lgmt report`: tables from Inspect logs (headline, per category, per relation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


class SampleSize(click.ParamType):
    """A sample size: a whole number, or `cochran` (the default when the option is given without a value)."""

    name = "N|cochran"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        """Return the size as an int, or the string `cochran`; fail with a message naming both forms."""
        if isinstance(value, int) or str(value).lower() == "cochran":
            return value if isinstance(value, int) else "cochran"
        try:
            size = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a sample size: give a whole number or 'cochran'", param, ctx)
        if size < 1:
            self.fail(f"{size}: the sample size must be at least 1", param, ctx)
        return size


@click.command("report")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--latest", is_flag=True, help="Only the newest log of each folder.")
@click.option("--out", type=click.Path(), default=None, help="Folder for CSV and Markdown tables.")
@click.option("--sample-violations", "sample_size", type=SampleSize(), is_flag=False, flag_value="cochran",
              default=None, help="Instead of tables: export a seeded random sample of N reported violations as CSV "
              "for manual review (to --out DIR/violations_sample.csv, else standard output). N defaults to "
              "Cochran's size (95% confidence, 5% margin, finite-population corrected), also as `cochran`.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --sample-violations.")
@click.option("--weakness", is_flag=True, help="LogicAsker logs: list the skills with the lowest response accuracy "
              "(leaves and rules, with counts and 95% Wilson intervals; CSV and Markdown to --out).")
def report(logs: tuple[str, ...], latest: bool, out: str | None, sample_size: int | str | None, seed: int,
           weakness: bool) -> None:
    """Summarise Inspect logs (files or folders) as metric tables, or sample their violations for review."""
    if weakness:
        from lgmt_tasks.report.headline import log_paths as paths_of
        from lgmt_tasks.report.logicasker import weakness_report

        click.echo(weakness_report(paths_of(logs, latest=latest), out=out))
        return
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.report.headline import (
        breakdown,
        breakdown_groups,
        display_table,
        headline_table,
        log_metrics,
        log_paths,
    )

    if sample_size is not None:
        _sample_violations(log_paths(logs, latest=latest), sample_size, seed, out)
        return
    table = headline_table(logs, latest=latest)
    if table.empty:
        raise click.ClickException(f"no logs found in {', '.join(logs)}")
    click.echo(display_table(table).to_markdown(index=False))
    paths = log_paths(logs, latest=latest)
    _lexical_section(paths)
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
        from lgmt_tasks.report.qmfol import qmfol_heatmaps

        for png in qmfol_heatmaps(paths, folder):  # QMFOL logs only: depth × width accuracy, time, tokens
            click.echo(f"heatmap: {png}")
        click.echo(f"written to {folder}")


def _lexical_section(paths: list[str]) -> None:
    """With a `lexical` log: its relations next to LGMT's (when an LGMT log is given too) and the noise floor."""
    from lgmt_tasks.report.lexical import lexical_report, split_logs

    lgmt_logs, lexical_logs = split_logs(paths)
    if lexical_logs:
        click.echo("\nlogic-grounded vs lexical relations:\n"
                   + lexical_report(lexical_logs[0], lgmt_log=lgmt_logs[0] if lgmt_logs else None))


def _sample_violations(paths: list[str], sample_size: int | str, seed: int, out: str | None) -> None:
    from lgmt_tasks.report.violations import export_sample, to_csv_text

    if not paths:
        raise click.ClickException("no logs found")
    n = None if sample_size == "cochran" else int(sample_size)
    found, rows, path = export_sample(paths, n=n, seed=seed, out_dir=out)
    how = "Cochran's size" if n is None else "requested size"
    if path is None:
        click.echo(to_csv_text(rows), nl=False)
    click.echo(f"{len(rows)} of {found} reported violations sampled ({how}, seed {seed})"
               + (f"; written to {path}" if path else ""), err=path is None)
