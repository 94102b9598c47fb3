"""What `lgmt report` says about an adaptive run: each relation's interval and decision, the calls saved, and a caveat.

An adaptive run's log holds the manager's summary as `log.results.early_stopping` (`stopping.AdaptiveStopping`).
From it the report prints a table per log (`adaptive_markdown`) and `lgmt report --out DIR` writes
`DIR/<suite>/adaptive.csv` with exactly the columns `ADAPTIVE_COLUMNS` (`adaptive_tables`; one file per adaptive log,
`adaptive_1.csv`, `adaptive_2.csv`, … when there are several).

The rest of such a log stays correct on the groups that ran, but what those figures mean changes: each relation ran
until its question was settled, so how many groups it has depends on its own answers. Its MVR and the other rates are
estimates on an adaptively chosen sample, and a standard error or Wilson interval, which assumes a fixed number of
groups, does not hold for them. The reports therefore print the confidence-sequence interval (valid at the run's
stop) beside each relation's counts, leave the `± stderr` out of an adaptive log's headline, and add `CAVEAT` wherever
the log's own metrics are printed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.adaptive.stopping import MANAGER

if TYPE_CHECKING:  # pandas is imported when a table is made: `report.headline` reads summaries on every report
    import pandas as pd

ADAPTIVE_COLUMNS: tuple[str, ...] = ("relation", "groups", "violations", "lower", "upper", "decision")
"""The columns of `adaptive.csv`, in order (issue #37)."""

ADAPTIVE_TABLE = "adaptive"
"""The stem of the table `lgmt report --out` writes (`DIR/<suite>/adaptive.csv|.md`)."""

CAVEAT = (
    "An adaptive run's other figures (MVR, accuracies, per-relation rates) are computed correctly on the groups that "
    "ran, but they are estimates on an adaptively chosen sample: each relation ran until its question was settled. "
    "A standard error or Wilson interval assumes a fixed number of groups and does not hold for them; the intervals "
    "in this table do (confidence sequences, valid at any stop, simultaneous over the relations at alpha)."
)
"""Printed with every adaptive summary."""

TITLE_NOTE = (
    "; with adaptive runs (-T adaptive) among the logs, their rates are estimates on an adaptively chosen sample and "
    "their standard errors and Wilson intervals do not hold (valid intervals: adaptive.csv)"
)
"""Appended to a suite's table titles when an adaptive log is among those reported."""


@dataclass(frozen=True)
class AdaptiveSummary:
    """An adaptive run's summary, read back from its log.

    Attributes:
        design: `threshold` or `weakest`.
        tau: The threshold design's rate.
        margin: The designs' margin.
        alpha: The simultaneous error level.
        relations: One row per relation (`relation`, `groups`, `violations`, `lower`, `upper`, `decision`, `run`,
            `skipped`, `pool`), as the manager logged them.
        calls_made: Model calls of the groups run.
        calls_uniform: Model calls a uniform run of the same task makes.
        groups_run: Groups served.
        groups_skipped: Groups skipped.
        skipping: Why nothing was skipped, when Inspect never asked (else None).
    """

    design: str
    tau: float
    margin: float
    alpha: float
    relations: list[dict[str, Any]]
    calls_made: int
    calls_uniform: int
    groups_run: int
    groups_skipped: int
    skipping: str | None = None

    @property
    def calls_saved(self) -> int:
        """Calls a uniform run of the task would have made beyond this run's."""
        return self.calls_uniform - self.calls_made


def adaptive_summary(log: EvalLog) -> AdaptiveSummary | None:
    """The adaptive summary of a log, or None for a log of a uniform run (or of an unfinished one)."""
    stopping = log.results.early_stopping if log.results is not None else None
    if stopping is None or stopping.manager != MANAGER:
        return None
    meta: dict[str, Any] = dict(stopping.metadata)
    calls, groups = meta.get("calls") or {}, meta.get("groups") or {}
    return AdaptiveSummary(
        design=str(meta["design"]),
        tau=float(meta["tau"]),
        margin=float(meta["margin"]),
        alpha=float(meta["alpha"]),
        relations=[dict(row) for row in meta.get("relations") or []],
        calls_made=int(calls.get("made", 0)),
        calls_uniform=int(calls.get("uniform", 0)),
        groups_run=int(groups.get("run", 0)),
        groups_skipped=int(groups.get("skipped", 0)),
        skipping=meta.get("skipping"),
    )


def adaptive_frame(summary: AdaptiveSummary) -> pd.DataFrame:
    """The per-relation table with exactly `ADAPTIVE_COLUMNS` (what `adaptive.csv` holds)."""
    import pandas as pd

    return pd.DataFrame([[row[c] for c in ADAPTIVE_COLUMNS] for row in summary.relations], columns=ADAPTIVE_COLUMNS)


def _settings(summary: AdaptiveSummary) -> str:
    if summary.design == "threshold":
        return f"threshold (tau {summary.tau:g}, margin {summary.margin:g}, alpha {summary.alpha:g})"
    return f"{summary.design} (margin {summary.margin:g}, alpha {summary.alpha:g})"


def calls_line(summary: AdaptiveSummary) -> str:
    """The groups run and skipped and the calls made and saved, in one sentence."""
    share = summary.calls_made / summary.calls_uniform if summary.calls_uniform else float("nan")
    return (
        f"Groups run: {summary.groups_run}, skipped: {summary.groups_skipped}. Model calls: {summary.calls_made} of "
        f"the uniform run's {summary.calls_uniform} ({share:.0%}), {summary.calls_saved} saved."
    )


def adaptive_markdown(summary: AdaptiveSummary) -> str:
    """The adaptive section of `lgmt report`: the design, the per-relation table, the calls, the caveat.

    The table adds `run` and `skipped` (groups served and skipped) to `ADAPTIVE_COLUMNS`; `groups` counts only the
    groups that were a test with every answer parsed, the ones the interval is on.
    """
    names = [*ADAPTIVE_COLUMNS, "run", "skipped"]
    lines = [
        f"**Adaptive run:** {_settings(summary)}. Per relation, the groups counted (a test, every answer parsed), "
        "the violations, the anytime-valid interval of the violation rate and the design's decision:",
        "",
        f"| {' | '.join(names)} |",
        f"|{'---|' * len(names)}",
    ]
    for row in summary.relations:
        cells = [
            str(row["relation"]),
            str(row["groups"]),
            str(row["violations"]),
            f"{row['lower']:.3f}",
            f"{row['upper']:.3f}",
            str(row["decision"]),
            str(row.get("run", "")),
            str(row.get("skipped", "")),
        ]
        lines.append(f"| {' | '.join(cells)} |")
    lines += ["", calls_line(summary)]
    if summary.skipping:
        lines.append(f"Skipping was {summary.skipping}.")
    lines += ["", CAVEAT]
    return "\n".join(lines)


def read_header(log: str | Path | EvalLog) -> EvalLog:
    """A log as given, or its header read from a file."""
    return log if isinstance(log, EvalLog) else read_eval_log(str(log), header_only=True)


def adaptive_tables(logs: Iterable[str | Path | EvalLog]) -> tuple[dict[str, pd.DataFrame], dict[str, str]]:
    """The `adaptive` table of every adaptive log among `logs` (file stem → frame) and its title.

    One adaptive log: stem `adaptive`; several: `adaptive_1`, `adaptive_2`, … in the order given, each titled with
    its log's file name and model (the columns stay exactly `ADAPTIVE_COLUMNS`).
    """
    found = [(log, summary) for log in map(read_header, logs) if (summary := adaptive_summary(log)) is not None]
    tables: dict[str, pd.DataFrame] = {}
    titles: dict[str, str] = {}
    for index, (log, summary) in enumerate(found, start=1):
        stem = ADAPTIVE_TABLE if len(found) == 1 else f"{ADAPTIVE_TABLE}_{index}"
        tables[stem] = adaptive_frame(summary)
        titles[stem] = (
            f"Adaptive run {_settings(summary)} of {log.eval.model} ({Path(str(log.location)).name}): per relation the "
            f"groups counted, violations, anytime-valid interval and decision. {calls_line(summary)}"
        )
    return tables, titles


def noted_titles(titles: dict[str, str], stems: Sequence[str]) -> dict[str, str]:
    """`titles` with `TITLE_NOTE` appended to every title but the adaptive tables' own (`stems`)."""
    return {stem: title if stem in stems else title + TITLE_NOTE for stem, title in titles.items()}


__all__ = [
    "ADAPTIVE_COLUMNS",
    "ADAPTIVE_TABLE",
    "CAVEAT",
    "TITLE_NOTE",
    "AdaptiveSummary",
    "adaptive_frame",
    "adaptive_markdown",
    "adaptive_summary",
    "adaptive_tables",
    "calls_line",
    "noted_titles",
]
