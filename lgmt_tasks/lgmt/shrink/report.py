"""The shrink part of `lgmt report --shrink DIR --out REPORT`: a table of the minimal groups and the digests.

A shrink folder (`lgmt shrink --out DIR`) is not a log, so `lgmt report` reads it only when named with `--shrink`:
the report then gains `REPORT/lgmt/minimal_counterexamples.csv|.md` (one row per shrunk group: relation, model,
sizes before and after, calls spent, how the search ended: `1-minimal`, `shrunk (budget)`, `not shrunk (budget)`,
`not reproduced`) and a copy of each
folder's `digest.md` as `REPORT/lgmt/shrink_digest_<folder>.md`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from lgmt_tasks.lgmt.shrink.output import DIGEST_FILE, TRACE_FILE

TABLE_STEM = "minimal_counterexamples"
TITLE = "Minimal counterexamples (lgmt shrink)"


def _trace(folder: Path) -> dict:
    path = folder / TRACE_FILE
    if not path.is_file():
        raise ValueError(f"--shrink {folder}: no {TRACE_FILE}; is it a folder written by `lgmt shrink --out`?")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"--shrink {folder}: {TRACE_FILE} is not JSON ({exc})") from None
    if not isinstance(data, dict) or "groups" not in data or "settings" not in data:
        raise ValueError(f"--shrink {folder}: {TRACE_FILE} has no `settings` and `groups`")
    return data


def _ended(group: dict) -> str:
    """How a group's search ended, for a trace written before `ended` was recorded."""
    if group["budget_exhausted"]:
        return "budget" if group["minimal_size"] else "not shrunk (budget)"
    return "1-minimal" if group["reproduced"] else "-"


def shrink_table(folders: Sequence[str | Path]) -> pd.DataFrame:
    """One row per shrunk group of every folder.

    Raises:
        ValueError: Naming the folder, if it has no readable `trace.json`.
    """
    rows = []
    for folder in map(Path, folders):
        data = _trace(folder)
        settings = data["settings"]
        for group in data["groups"]:
            rows.append(
                {
                    "folder": folder.name,
                    "model": settings.get("model"),
                    "mr": group["mr"],
                    "group": group["group"],
                    "reproduced": group["reproduced"],
                    "original_size": tuple(group["original_size"]),
                    "minimal_size": tuple(group["minimal_size"]) if group["minimal_size"] else None,
                    "calls": group["calls"],
                    "ended": group.get("ended") or _ended(group),
                    "undecided": group["undecided_candidates"],
                }
            )
    columns = ["folder", "model", "mr", "group", "reproduced", "original_size", "minimal_size", "calls", "ended"]
    return pd.DataFrame(rows, columns=[*columns, "undecided"])


def write_shrink_report(folders: Sequence[str | Path], out_dir: str | Path) -> list[Path]:
    """Write the table (CSV, Markdown) and each folder's digest under `out_dir/lgmt/`; return the files written."""
    table = shrink_table(folders)
    target = Path(out_dir) / "lgmt"
    target.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = target / f"{TABLE_STEM}.csv", target / f"{TABLE_STEM}.md"
    table.to_csv(csv_path, index=False)
    md_path.write_text(f"## {TITLE}\n\n{table.to_markdown(index=False)}\n", encoding="utf-8")
    written = [csv_path, md_path]
    for folder in map(Path, folders):
        digest = folder / DIGEST_FILE
        if digest.is_file():
            copy = target / f"shrink_digest_{folder.resolve().name}.md"
            copy.write_text(digest.read_text(encoding="utf-8"), encoding="utf-8")
            written.append(copy)
    return written
