"""`lgmt report ... --out DIR`: every suite's paper tables and plots, the leaderboard, and an index linking them.

Layout of DIR:

    report.md                 index: what was read, and a link to every table and plot below
    leaderboard.csv           one row per (model, task, prompting) run (`lgmt_tasks.report.leaderboard`)
    compare.csv|.md           with `--compare`: paired significance tests between runs (`lgmt_tasks.report.compare`)
    <suite>/<table>.csv|.md   a suite's paper tables (`SuiteReport.tables`, written by `write_tables`)
    <suite>/*.png             its plots (drawn by the suite's `suite_report`)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lgmt_tasks.report.leaderboard import LEADERBOARD_CSV, leaderboard, write_leaderboard
from lgmt_tasks.report.logs import complete_logs
from lgmt_tasks.report.suite_report import SuiteReport, write_tables
from lgmt_tasks.report.suites import group_by_suite, suite_report_function

if TYPE_CHECKING:
    from lgmt_tasks.report.compare import Comparison

INDEX = "report.md"


@dataclass
class ReportFiles:
    """What `write_report` read and wrote.

    Attributes:
        index: The `report.md` path.
        leaderboard: The `leaderboard.csv` path.
        reports: The suites' reports, in suite order.
        files: Every table and plot written, by suite.
        foreign: Logs of tasks that are not ours (skipped).
        incomplete: (log, status) of the logs of unfinished runs: left out, or reported with `include_incomplete`.
        include_incomplete: Whether those logs were reported.
        comparison: `compare.csv` and `compare.md`, when a comparison was written.
    """

    index: Path
    leaderboard: Path
    reports: list[SuiteReport] = field(default_factory=list)
    files: dict[str, list[Path]] = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)
    incomplete: list[tuple[str, str]] = field(default_factory=list)
    include_incomplete: bool = False
    comparison: list[Path] = field(default_factory=list)


def write_report(
    log_paths: Sequence[str],
    lm_eval_files: Sequence[str],
    out_dir: Path,
    include_incomplete: bool = False,
    comparison: Comparison | None = None,
) -> ReportFiles:
    """Write every suite's tables and plots, `leaderboard.csv` and the index `report.md` under `out_dir`.

    Args:
        log_paths: Inspect log files (already expanded from folders, readable).
        lm_eval_files: lm-eval results JSON files (leaderboard rows only).
        out_dir: The report folder (created).
        include_incomplete: Report logs of unfinished runs too (status `started`, `error`, `cancelled`); by default
            they are left out of every table and named in the index.
        comparison: A paired comparison of the logs (`lgmt report --compare`), written as `compare.csv|.md` and
            linked from the index.

    Returns:
        The files written and what was skipped.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    complete, incomplete = complete_logs(log_paths)
    reported = list(log_paths) if include_incomplete else complete
    by_suite, foreign = group_by_suite(reported)
    board = leaderboard(reported, lm_eval_files, include_incomplete=include_incomplete)
    written = ReportFiles(
        index=out_dir / INDEX,
        leaderboard=write_leaderboard(board, out_dir),
        foreign=foreign,
        incomplete=incomplete,
        include_incomplete=include_incomplete,
    )
    for suite, paths in by_suite.items():
        function = suite_report_function(suite)
        # The lexical report puts its relations side by side with LGMT's when it is given an LGMT log too.
        extra = by_suite.get("lgmt", []) if suite == "lexical" else []
        report = function([*paths, *extra], out_dir)
        written.reports.append(report)
        written.files[suite] = [*write_tables(report, out_dir), *report.plots]
    if comparison is not None:
        from lgmt_tasks.report.compare import write_comparison

        written.comparison = list(write_comparison(comparison, out_dir))
    written.index.write_text(index_markdown(written, by_suite, lm_eval_files, len(board)), encoding="utf-8")
    return written


def _link(path: Path, root: Path) -> str:
    relative = path.resolve().relative_to(root.resolve()).as_posix()
    return f"[{relative}]({relative})"


def index_markdown(
    written: ReportFiles, by_suite: dict[str, list[str]], lm_eval_files: Sequence[str], rows: int
) -> str:
    """The text of `report.md`: sources read, the leaderboard, then each suite's tables (with titles) and plots."""
    root = written.index.parent
    lines = ["# lgmt report", ""]
    lines += [
        f"- Inspect logs: {sum(len(p) for p in by_suite.values())}"
        + "".join(f"; {suite} {len(paths)}" for suite, paths in by_suite.items())
    ]
    if lm_eval_files:
        lines.append(f"- lm-eval results files: {len(lm_eval_files)}")
    if written.foreign:
        lines.append(f"- Skipped (not our tasks): {', '.join(written.foreign)}")
    if written.incomplete:
        runs = ", ".join(f"{path} (status: {status})" for path, status in written.incomplete)
        how = "Reported (--include-incomplete)" if written.include_incomplete else "Left out"
        lines.append(f"- {how}, logs of unfinished runs: {runs}")
    lines += [
        "",
        "## Leaderboard",
        "",
        f"{_link(written.leaderboard, root)}: {rows} rows (one per model, task and prompting; columns in the README).",
    ]
    if written.comparison:
        lines += ["", "## Comparison", ""]
        lines.append(
            "Paired significance tests between the runs (McNemar exact, Newcombe intervals, Holm across relations): "
            + ", ".join(_link(path, root) for path in reversed(written.comparison))
            + "."
        )
    for report in written.reports:
        lines += ["", f"## {report.suite}", ""]
        if not report.tables and not report.plots:
            lines.append("No scored samples in these logs.")
        for stem in report.tables:
            folder = root / report.suite
            title = report.titles.get(stem, stem)
            lines.append(f"- {title}: {_link(folder / f'{stem}.md', root)}, {_link(folder / f'{stem}.csv', root)}")
        for plot in report.plots:
            relative = plot.resolve().relative_to(root.resolve()).as_posix()
            lines += ["", f"![{plot.stem}]({relative})"]
    return "\n".join(lines) + "\n"


__all__ = ["INDEX", "LEADERBOARD_CSV", "ReportFiles", "index_markdown", "write_report"]
