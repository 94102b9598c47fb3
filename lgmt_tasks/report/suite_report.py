"""The one shape every suite's paper report takes, so `lgmt report --out DIR` can write any suite the same way.

Each suite's report module (`lgmt_tasks/report/<suite>.py`) exposes
`suite_report(paths: list[str], out_dir: Path | None) -> SuiteReport`: it reads that suite's Inspect logs, returns
the paper's tables as data frames (named by a file stem such as `table4_per_model`) and writes its PNG plots under
`out_dir/<suite>/` when one is given (`out_dir` is the report folder of `lgmt report --out`). `write_tables`
turns the tables into the CSV and Markdown files a reader opens: in the Markdown a missing value (NaN: no group, no
parsed answer) is `–`, as the papers print it, and in the CSV an empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported by `markdown`: `report.suites` (imported by the tasks) imports `SuiteReport`,
    import pandas as pd  # and Inspect imports every installed plugin before any eval


@dataclass(frozen=True)
class SuiteReport:
    """A suite's tables and plots from a set of logs.

    Attributes:
        suite: Suite name (one of `lgmt_tasks.suites.SUITE_NAMES`).
        tables: File stem -> table (ordered as they should be read); written as `<suite>/<stem>.csv` and `.md`.
        plots: PNG files already written under the output folder.
        titles: File stem -> human title (the paper table it reproduces, e.g. "Table 4: MVR per model").
    """

    suite: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    plots: list[Path] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)


def write_tables(report: SuiteReport, out_dir: Path) -> list[Path]:
    """Write every table of a report as CSV and Markdown under `out_dir/<suite>/`; return the files written."""
    folder = Path(out_dir) / report.suite
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for stem, table in report.tables.items():
        csv_path, md_path = folder / f"{stem}.csv", folder / f"{stem}.md"
        table.to_csv(csv_path, index=False)
        title = report.titles.get(stem)
        body = markdown(table)
        md_path.write_text((f"## {title}\n\n" if title else "") + body + "\n", encoding="utf-8")
        written += [csv_path, md_path]
    return written


MISSING = "–"
"""How a table's Markdown prints a missing value (the papers' dash; pandas would print `nan`)."""

NO_PARSED_GROUP = "no parsed group"
"""How a rate prints where there were groups but none with a parsed answer (a rate over no parsed group is NaN): one
wording in every table, the headline included (`MISSING` stays for a row with no group at all)."""


def no_parsed_group(groups: object, parsed: object) -> bool:
    """Whether a row had groups (samples) but none with a parsed answer, read from its counts."""
    try:
        return float(groups) > 0 and float(parsed) == 0  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def markdown(table: pd.DataFrame) -> str:
    """A table as Markdown, floats to three decimals, missing values (NaN, None) as `MISSING`.

    In a table with `groups` and `parsed` columns, a missing value of a row with groups but no parsed one prints as
    `NO_PARSED_GROUP` instead.

    Only the columns that have a missing value are touched, so a table without one prints as `to_markdown` does; a
    numeric column keeps its numeric alignment even when every value is missing.
    """
    import pandas as pd

    missing = table.isna().any().to_numpy()
    if not missing.any():
        return table.to_markdown(index=False, floatfmt=".3f")
    shown = table.copy()
    unparsed_rows = (
        [no_parsed_group(g, p) for g, p in zip(table["groups"], table["parsed"], strict=True)]
        if "groups" in table and "parsed" in table
        else [False] * len(table)
    )
    for column in shown.columns[missing]:
        cells = shown[column].astype(object)
        values = [
            value if pd.notna(value) else (NO_PARSED_GROUP if unparsed else None)
            for value, unparsed in zip(cells, unparsed_rows, strict=True)
        ]
        if NO_PARSED_GROUP in values:  # a column with words: tabulate no longer formats its numbers, so we do
            values = [f"{v:.3f}" if isinstance(v, float) else v for v in values]
        shown[column] = pd.Series(values, index=shown.index, dtype=object)
    align = ["decimal" if pd.api.types.is_numeric_dtype(dtype) else "left" for dtype in table.dtypes]
    return shown.to_markdown(index=False, floatfmt=".3f", missingval=MISSING, colalign=align)
