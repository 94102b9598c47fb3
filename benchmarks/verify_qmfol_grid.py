"""Verify the full default QMFOL grid (2,880 tasks): every quality bar of the issue, on every row.

Builds the paper's grid (or reads a built folder with `--dataset`), then re-checks every row from its columns
(`lgmt_tasks.qmfol.proofs`): the paper's id, depth and width measured from the rules, minimal rules, every
label re-proven by Z3 with and without distractors (the distractor property, consistency included), template
English read back to its formulas, and over the grid: completeness, unique ids, balanced labels. Too slow for the
test suite (which checks a seeded sub-grid the same way); run it once per change of the construction:

    python benchmarks/verify_qmfol_grid.py [--workers 2] [--dataset datasets/qmfol]

Writes `benchmarks/results/qmfol_grid_verification.json` and exits non-zero on any problem.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.proofs import grid_problems, verify_rows

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "qmfol_grid_verification.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="Processes for building and proving.")
    parser.add_argument("--dataset", default=None, help="A folder written by `lgmt build qmfol` (default: build).")
    args = parser.parse_args()
    config = QmfolConfig()
    start = time.perf_counter()
    if args.dataset:
        rows = [dict(r) for r in load_dataset_repo(args.dataset)]
        build_s = 0.0
    else:
        build = build_qmfol(config, workers=args.workers)
        rows = [dict(r) for r in build.dataset]
        build_s = time.perf_counter() - start
    report = verify_rows(rows, workers=args.workers)
    report.problems += grid_problems(
        rows, config.depths, config.widths, config.distractors, config.labels, config.topics, config.seed_values
    )
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "grid": config.key(),
        "requested": config.size(),
        "rows": report.rows,
        "distinct_z3_obligations": report.proofs,
        "labels": report.labels,
        "constructions": report.constructions,
        "problems": report.problems[:50],
        "problem_count": len(report.problems),
        "ok": report.ok,
        "build_seconds": round(build_s, 1),
        "verify_seconds": report.seconds,
        "workers": args.workers,
    }
    text = json.dumps(result, indent=2)
    print(text)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text + "\n", encoding="utf-8")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
