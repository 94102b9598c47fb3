"""How long the test suite takes, and where: `benchmarks/results/test_durations.md` (issue #35).

Runs pytest as `make test` does (on every core, `--durations=0`), or reads the output of such a run (`--from-log`),
and records for one label (`before`, `after`, ...): wall time, tests passed, the load and machine, the time by test
folder (setup + call + teardown summed per test, then per folder; with workers the sum exceeds the wall time), the 30
slowest tests, and optionally line coverage (`--cov`: `lgmt_tasks`, `scorers`, `solvers`, `task_configs`, measured
by coverage.py through pytest-cov; coverage slows the run, so its wall time is not the suite's). The Markdown page is
rendered from every label recorded so far (`results/test_durations.json`), so before and after sit side by side.

Run from the repository root:

    python benchmarks/suite_durations.py --label after [--workers auto] [--cov]
    python benchmarks/suite_durations.py --label before --from-log pytest.log --wall-s 1203 [--coverage-json cov.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results" / "test_durations.json"
PAGE = HERE / "results" / "test_durations.md"
COVERED = ("lgmt_tasks", "scorers", "solvers", "task_configs")
SLOWEST = 30

sys.path.insert(0, str(HERE))
from machine import machine_info  # noqa: E402

_DURATION = re.compile(r"^([\d.]+)s (setup|call|teardown)\s+(\S+)", re.M)
_SUMMARY = re.compile(r"^=*\s*(.*\d+ passed.*?) in ([\d.]+)s", re.M)


def per_test(log: str) -> Counter[str]:
    """Seconds per test (setup + call + teardown) from pytest's `--durations=0` table."""
    table = log.split("slowest durations", 1)[-1]
    seconds: Counter[str] = Counter()
    for match in _DURATION.finditer(table):
        seconds[match.group(3)] += float(match.group(1))
    return seconds


def folder_of(test: str) -> str:
    """`tests/lgmt` for `tests/lgmt/relations/test_x.py::t`; `tests/*.py` for a top-level test file."""
    parts = test.split("::", 1)[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else "tests/*.py"


def summarise(log: str, wall_s: float, **facts: Any) -> dict[str, Any]:
    """One label's record from a pytest log."""
    seconds = per_test(log)
    folders: Counter[str] = Counter()
    for test, s in seconds.items():
        folders[folder_of(test)] += s
    summary = _SUMMARY.findall(log)
    return {
        **facts,
        "wall_s": round(wall_s, 1),
        "pytest_summary": summary[-1][0].strip(" =") if summary else None,
        "pytest_s": float(summary[-1][1]) if summary else None,
        "test_seconds_total": round(sum(seconds.values()), 1),
        "by_folder": {f: round(s, 1) for f, s in folders.most_common()},
        "slowest": [[t, round(s, 1)] for t, s in seconds.most_common(SLOWEST)],
    }


def coverage_percent(path: Path) -> float:
    """Line coverage (statements) in percent from a coverage.py JSON report."""
    totals = json.loads(path.read_text(encoding="utf-8"))["totals"]
    return round(float(totals["percent_covered"]), 2)


def run(workers: str, cov: bool, extra: list[str]) -> tuple[str, float, float | None]:
    """Run the suite; returns its output, the wall time and (with `cov`) the coverage."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", workers, "--dist", "loadfile", "-p", "no:cacheprovider"]
    cmd += ["--durations=0", *extra]
    report = ROOT / ".coverage-suite.json"
    if cov:
        cmd += [f"--cov={name}" for name in COVERED] + [f"--cov-report=json:{report}"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    covered = coverage_percent(report) if cov else None
    report.unlink(missing_ok=True)
    return done.stdout + done.stderr, wall, covered


def render(records: dict[str, dict[str, Any]]) -> str:
    """The Markdown page: one section per label, then the folders side by side."""
    lines = [
        "# Test-suite durations",
        "",
        "Written by `python benchmarks/suite_durations.py` (see its docstring). Time per test is setup + call +",
        "teardown; a folder's time is the sum over its tests, so with two workers it exceeds the wall time.",
        "",
    ]
    labels = list(records)
    lines += ["| run | wall (min) | pytest | line coverage |", "|---|---:|---|---:|"]
    for label, record in records.items():
        covered = f"{record['coverage_percent']}%" if record.get("coverage_percent") else "–"
        cells = [label, f"{record['wall_s'] / 60:.1f}", str(record["pytest_summary"]), covered]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    folders = sorted({f for r in records.values() for f in r["by_folder"]})
    lines += ["## By folder (seconds)", "", "| folder | " + " | ".join(labels) + " |"]
    lines += ["|---|" + "---:|" * len(labels)]
    for folder in sorted(folders, key=lambda f: -max(r["by_folder"].get(f, 0) for r in records.values())):
        lines.append(
            f"| {folder} | " + " | ".join(str(r["by_folder"].get(folder, "–")) for r in records.values()) + " |"
        )
    lines.append("| **all tests** | " + " | ".join(str(r["test_seconds_total"]) for r in records.values()) + " |")
    lines.append("")
    for label, record in records.items():
        machine = record.get("machine", {})
        lines += [f"## {label}", ""]
        lines.append(f"- command: `{record.get('command', '')}`")
        lines.append(
            f"- wall time: {record['wall_s']} s ({record['wall_s'] / 60:.1f} min); pytest: {record['pytest_summary']}"
        )
        if record.get("coverage_percent") is not None:
            lines.append(f"- line coverage of {', '.join(COVERED)}: {record['coverage_percent']}%")
        for key in ("note",):
            if record.get(key):
                lines.append(f"- {record[key]}")
        lines.append(
            f"- machine: {machine.get('cores')} cores, {machine.get('platform')}, Python {machine.get('python')}, "
            f"lgmt-tasks {machine.get('version')}, {machine.get('date')}; load average before "
            f"{record.get('load_before')}, after {machine.get('load_average_after')}"
        )
        lines += ["", f"{SLOWEST} slowest tests (seconds):", "", "| seconds | test |", "|---:|---|"]
        lines += [f"| {s} | `{t}` |" for t, s in record["slowest"]]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--label", required=True, help="the record's name, e.g. before or after")
    parser.add_argument("--workers", default="auto", help="pytest-xdist workers (-n), as `make test` (auto)")
    parser.add_argument("--cov", action="store_true", help="measure line coverage too (slower)")
    parser.add_argument("--from-log", type=Path, help="read this pytest output instead of running the suite")
    parser.add_argument("--wall-s", type=float, help="with --from-log: the run's wall time")
    parser.add_argument("--coverage-json", type=Path, help="with --from-log: that run's coverage.py JSON report")
    parser.add_argument("--command", help="with --from-log: the command that ran")
    parser.add_argument("--note", help="a sentence recorded with the label (what differed, what was measured)")
    parser.add_argument("pytest_args", nargs="*", help="passed on to pytest (after --)")
    parser.add_argument("--render-only", action="store_true", help="rewrite the page from the recorded labels")
    args = parser.parse_args()
    if args.render_only:
        PAGE.write_text(render(json.loads(RESULTS.read_text(encoding="utf-8"))) + "\n", encoding="utf-8")
        return
    load_before = [round(x, 2) for x in os.getloadavg()]
    if args.from_log:
        log, wall = args.from_log.read_text(encoding="utf-8"), float(args.wall_s or 0)
        covered = coverage_percent(args.coverage_json) if args.coverage_json else None
        command = args.command or ""
    else:
        log, wall, covered = run(args.workers, args.cov, args.pytest_args)
        command = f"pytest -q -n {args.workers} --dist loadfile --durations=0" + (" --cov" if args.cov else "")
    record = summarise(log, wall, command=command, coverage_percent=covered, load_before=load_before, note=args.note)
    record["machine"] = machine_info()
    records = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    records[args.label] = record
    RESULTS.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    PAGE.write_text(render(records) + "\n", encoding="utf-8")
    print(f"{args.label}: {record['pytest_summary']} in {record['wall_s']} s wall; wrote {PAGE}")


if __name__ == "__main__":
    main()
