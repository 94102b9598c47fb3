"""`lgmt report`: tables from Inspect logs, paper tables and plots per suite, a leaderboard, eval reports.

Also: leaderboard rows from lm-eval results files, seeded samples of reported violations for manual review, and
LLMorph's flakiness table from a first run and the re-run of its failing groups (`--flakiness FIRST_LOG RERUN_LOG`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from lgmt_tasks.report.compare import Comparison
    from lgmt_tasks.report.logs import LogSelection


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
@click.argument("logs", nargs=-1, required=False, type=click.Path(exists=True))
@click.option(
    "--latest", is_flag=True, help="Only the newest log of each run: per task, model and task arguments (-T)."
)
@click.option(
    "--include-incomplete",
    is_flag=True,
    help="Also report logs of unfinished runs (status started, error or cancelled); by default they are left out "
    "of every table and named on stderr.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    help="Report folder: every suite's paper tables (DIR/<suite>/*.csv|.md) and plots (PNG), "
    "DIR/leaderboard.csv, DIR/headline.csv|.md, and the index DIR/report.md.",
)
@click.option(
    "--lm-eval-results",
    "lm_eval_results",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="An lm-eval results JSON (repeatable): its tasks become leaderboard rows. LOGS may then be omitted.",
)
@click.option(
    "--eval-report",
    is_flag=True,
    help="Print the Markdown evaluation report of each log (model, samples "
    "run / total, date, the inspect eval command, versions, headline metrics, deviations from the paper).",
)
@click.option(
    "--sample-violations",
    "sample_size",
    type=SampleSize(),
    is_flag=False,
    flag_value="cochran",
    default=None,
    help="Instead of tables: export a seeded random sample of N reported violations as CSV "
    "for manual review (to --out DIR/violations_sample.csv, else standard output). N defaults to "
    "Cochran's size (95% confidence, 5% margin, finite-population corrected), also as `cochran`.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --sample-violations.")
@click.option(
    "--compare",
    is_flag=True,
    help="Paired significance tests between the LOGS (two or more runs of one LGMT or lexical task on the same "
    "dataset, paired on group ids): McNemar exact p, 95% Newcombe interval of the difference, Holm-adjusted p for "
    "violations and consistent accuracy, overall and per relation; with --out, DIR/compare.csv|.md too.",
)
@click.option(
    "--weakness",
    is_flag=True,
    help="LogicAsker logs: list the skills with the lowest response accuracy "
    "(leaves and rules, with counts and 95% Wilson intervals; CSV and Markdown to --out).",
)
@click.option(
    "--flakiness",
    nargs=2,
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    metavar="FIRST_LOG RERUN_LOG",
    help="LLMorph's flakiness protocol (repeatable): a one-epoch run and the re-run of its failing groups "
    '(`--sample-id "$(lgmt failing-groups FIRST_LOG)" --epochs 9`, same -T arguments). Adds, among those '
    "groups, the share failing in k of the 1 + 9 runs, after the all-groups table of an --epochs N lexical log "
    "among LOGS; with --out, DIR/lexical/flakiness_llmorph.csv|.md. LOGS may then be omitted.",
)
@click.option(
    "--shrink",
    "shrink_folders",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="A folder written by `lgmt shrink --out` (repeatable): with --out, adds DIR/lgmt/minimal_counterexamples"
    ".csv|.md and a copy of each folder's digest.md.",
)
def report(
    logs: tuple[str, ...],
    latest: bool,
    include_incomplete: bool,
    out: str | None,
    lm_eval_results: tuple[str, ...],
    eval_report: bool,
    sample_size: int | str | None,
    seed: int,
    weakness: bool,
    flakiness: tuple[tuple[str, str], ...],
    compare: bool,
    shrink_folders: tuple[str, ...],
) -> None:
    """Summarise Inspect logs (files or folders) as metric tables, or sample their violations for review.

    A log that cannot be read (a truncated `.eval`) is skipped with a one-line warning naming it, and the others are
    reported.
    """
    if not logs and not lm_eval_results and not flakiness:
        raise click.UsageError(
            "give Inspect logs (files or folders), --lm-eval-results FILE, or --flakiness FIRST_LOG RERUN_LOG"
        )
    if flakiness and (weakness or eval_report or sample_size is not None):
        raise click.UsageError(
            "--flakiness adds LLMorph's flakiness table to the report; it cannot be combined with --weakness, "
            "--eval-report or --sample-violations"
        )
    if compare and (weakness or eval_report or sample_size is not None or flakiness or lm_eval_results):
        raise click.UsageError(
            "--compare compares Inspect logs; it cannot be combined with --weakness, --eval-report, "
            "--sample-violations, --flakiness or --lm-eval-results"
        )
    if shrink_folders and not out:
        raise click.UsageError("--shrink adds tables to the report folder: give --out DIR too")
    if out:
        from lgmt_tasks.hub.output import OutputFolderError, check_writable_parent

        try:  # before reading any log: a report of many logs takes a while
            check_writable_parent(out, into=True)
        except OutputFolderError as exc:
            raise click.ClickException(str(exc)) from None
    llmorph = _llmorph_sections(flakiness)
    if lm_eval_results and (weakness or eval_report or sample_size is not None):
        raise click.UsageError(
            "--lm-eval-results makes leaderboard rows; it cannot be combined with --weakness, "
            "--eval-report or --sample-violations"
        )
    selection = _select(logs, latest, include_incomplete)
    paths = selection.paths
    if weakness:
        from lgmt_tasks.logicasker.report import weakness_report

        click.echo(weakness_report(paths, out=out))
        return
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.report.headline import breakdown, breakdown_groups, display_table, headline_table, log_metrics

    if sample_size is not None:
        _sample_violations(paths, sample_size, seed, out)
        return
    if eval_report:
        _eval_reports(paths)
        return
    if not paths:
        if lm_eval_results:
            _lm_eval_only(lm_eval_results, out)
        for section in llmorph:
            click.echo(("\n" if lm_eval_results else "") + section, nl=False)
        if out and flakiness:
            _write_llmorph(flakiness, Path(out))
        return
    comparison = _comparison(paths) if compare else None
    table = headline_table(paths)
    click.echo(display_table(table).to_markdown(index=False))
    _adaptive_section(paths)
    _lexical_section(paths)
    _control_section(paths)
    for section in llmorph:
        click.echo("\n" + section, nl=False)
    if len(paths) == 1:
        metrics = log_metrics(read_eval_log(paths[0], header_only=True))
        categories, relations = breakdown_groups(metrics)
        for title, groups in (("per category", categories), ("per relation", relations)):
            if groups:
                click.echo(f"\n{title}:\n" + breakdown(metrics, groups).to_markdown(index=False, floatfmt=".3f"))
    _variant_section(paths)
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        table.to_csv(folder / "headline.csv", index=False)
        (folder / "headline.md").write_text(display_table(table).to_markdown(index=False) + "\n", encoding="utf-8")
        # write_report leaves the unfinished runs out again, and names them in the index
        _write_report(
            [*paths, *(path for path, _ in selection.incomplete)],
            lm_eval_results,
            folder,
            include_incomplete,
            comparison=comparison,
        )
        if flakiness:
            _write_llmorph(flakiness, folder)
        if shrink_folders:
            from lgmt_tasks.lgmt.shrink.report import write_shrink_report

            try:
                shrunk = write_shrink_report(shrink_folders, folder)
            except ValueError as exc:  # a folder that is not a shrink folder: named in the message
                raise click.ClickException(str(exc)) from None
            click.echo(f"minimal counterexamples: {', '.join(str(path) for path in shrunk)}")


def _select(logs: tuple[str, ...], latest: bool, include_incomplete: bool) -> LogSelection:
    """The logs to report; a warning on stderr for each unreadable or unfinished log left out.

    Raises:
        click.ClickException: If logs were given but none is left to report (says why).
    """
    from lgmt_tasks.report.logs import LogSelection, select_logs

    if not logs:
        return LogSelection()
    selection = select_logs(logs, latest=latest, include_incomplete=include_incomplete)
    for line in selection.warnings():
        click.echo(line, err=True)
    if not selection.paths:
        if selection.unreadable or selection.incomplete:
            raise click.ClickException(
                f"no readable log of a finished run in {', '.join(logs)} "
                f"({len(selection.unreadable)} unreadable, {len(selection.incomplete)} unfinished; "
                "--include-incomplete reports unfinished runs)"
            )
        raise click.ClickException(f"no logs found in {', '.join(logs)}")
    return selection


def _llmorph_sections(pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """The Markdown of LLMorph's flakiness table for each (first run, re-run) pair; a mismatched pair is an error."""
    if not pairs:
        return []
    from lgmt_tasks.lexical.flakiness import llmorph_flakiness_report

    try:
        return [llmorph_flakiness_report(first, rerun) for first, rerun in pairs]
    except ValueError as error:
        raise click.ClickException(str(error)) from error


def _write_llmorph(pairs: tuple[tuple[str, str], ...], folder: Path) -> None:
    """Write `lexical/flakiness_llmorph.csv|.md` under the report folder, and link it from its index if there is one."""
    from lgmt_tasks.lexical.flakiness import llmorph_flakiness_tables
    from lgmt_tasks.report.suite_report import write_tables
    from lgmt_tasks.report.write import INDEX

    tables = llmorph_flakiness_tables(pairs)
    files = write_tables(tables, folder)
    click.echo(f"lexical: LLMorph's flakiness table in {', '.join(str(f) for f in files)}")
    index = folder / INDEX
    if index.exists():
        links = ", ".join(f"[{f.relative_to(folder).as_posix()}]({f.relative_to(folder).as_posix()})" for f in files)
        title = tables.titles["flakiness_llmorph"]
        with index.open("a", encoding="utf-8") as handle:
            handle.write(f"\n## lexical: LLMorph's flakiness protocol\n\n- {title}: {links}\n")


def _write_report(
    paths: list[str],
    lm_eval_results: tuple[str, ...],
    folder: Path,
    include_incomplete: bool = False,
    comparison: Comparison | None = None,
) -> None:
    from lgmt_tasks.report.write import write_report

    written = write_report(
        paths, list(lm_eval_results), folder, include_incomplete=include_incomplete, comparison=comparison
    )
    for suite, files in written.files.items():
        click.echo(f"{suite}: {len(files)} files in {folder / suite}")
    if written.foreign:
        click.echo(f"skipped, not our tasks: {', '.join(written.foreign)}", err=True)
    if written.comparison:
        click.echo(f"comparison: {', '.join(str(path) for path in written.comparison)}")
    click.echo(f"leaderboard: {written.leaderboard}\nindex: {written.index}")


def _comparison(paths: list[str]) -> Comparison:
    """The paired comparison of the logs (`--compare`), printed first; a log that cannot be compared is an error."""
    from lgmt_tasks.report.compare import compare_logs, comparison_markdown

    if len(paths) < 2:
        raise click.UsageError(f"--compare needs two or more logs, got {len(paths)}")
    try:
        comparison = compare_logs(paths)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    click.echo(comparison_markdown(comparison))
    return comparison


def _lm_eval_only(lm_eval_results: tuple[str, ...], out: str | None) -> None:
    """Leaderboard rows of lm-eval results alone: printed, and written to --out when given."""
    from lgmt_tasks.report.leaderboard import leaderboard

    try:
        board = leaderboard([], lm_eval_results)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    if board.empty:
        raise click.ClickException(f"no lgmt-tasks task in {', '.join(lm_eval_results)}")
    shown = board.dropna(axis="columns", how="all").drop(columns=["log", "task_args"], errors="ignore")
    click.echo(shown.to_markdown(index=False, floatfmt=".3f"))
    if out:
        _write_report([], lm_eval_results, Path(out))


def _eval_reports(paths: list[str]) -> None:
    from lgmt_tasks.report.eval_report import eval_report

    for i, path in enumerate(paths):
        try:
            text = eval_report(path)
        except ValueError as error:
            raise click.ClickException(str(error)) from error
        click.echo(("\n" if i else "") + f"<!-- {path} -->\n" + text, nl=False)


def _adaptive_section(paths: list[str]) -> None:
    """With logs of adaptive runs (`-T adaptive`): each relation's interval and decision, the calls, the caveat."""
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.adaptive.report import adaptive_markdown, adaptive_summary

    for path in paths:
        summary = adaptive_summary(read_eval_log(path, header_only=True))
        if summary is not None:
            click.echo(("\n" if len(paths) == 1 else f"\n{path}:\n") + adaptive_markdown(summary))


def _lexical_section(paths: list[str]) -> None:
    """With a `lexical` log: its relations next to LGMT's (when an LGMT log is given too) and the noise floor."""
    from lgmt_tasks.lexical.report import lexical_report, split_logs

    lgmt_logs, lexical_logs = split_logs(paths)
    if lexical_logs:
        click.echo(
            "\nlogic-grounded vs lexical relations:\n"
            + lexical_report(lexical_logs[0], lgmt_log=lgmt_logs[0] if lgmt_logs else None)
        )


def _variant_section(paths: list[str]) -> None:
    """With an LGMT log that holds more than one variant of the laws: its figures split by variant.

    The log's own per-relation metrics, printed above for one log, pool the variants; the split says what the
    paper's law alone gives (`lgmt_tasks.lgmt.report.eval_report_section`).
    """
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.lgmt.report import eval_report_section
    from lgmt_tasks.report.suites import LGMT_TASKS, task_name

    for path in paths:
        if task_name(read_eval_log(path, header_only=True).eval.task) not in LGMT_TASKS:
            continue
        section = eval_report_section(path)
        if section:
            click.echo(("\n" if len(paths) == 1 else f"\n{path}:\n") + section)


def _control_section(paths: list[str]) -> None:
    """With LGMT logs of `-T control=true` runs: MVR against the control per relation (`lgmt_tasks.lgmt.control`)."""
    from lgmt_tasks.lgmt.control import control_section

    section = control_section(paths)
    if section:
        click.echo("\n" + section)


def _sample_violations(paths: list[str], sample_size: int | str, seed: int, out: str | None) -> None:
    from lgmt_tasks.lgmt.violations import export_sample, to_csv_text

    if not paths:
        raise click.ClickException("no logs found")
    n = None if sample_size == "cochran" else int(sample_size)
    found, rows, path = export_sample(paths, n=n, seed=seed, out_dir=out)
    how = "Cochran's size" if n is None else "requested size"
    if path is None:
        click.echo(to_csv_text(rows), nl=False)
    click.echo(
        f"{len(rows)} of {found} reported violations sampled ({how}, seed {seed})"
        + (f"; written to {path}" if path else ""),
        err=path is None,
    )
