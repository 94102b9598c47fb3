"""Prover speed on real benchmark problems: milliseconds per three-valued entailment query.

For each dataset, every problem whose formulas parse is asked once, in this process, with the prover's default
limits (`entailment` = two Z3 checks, occasionally three) and its default mode, or the one `--mode` names
(`prover.PROVER_MODES`; ``bench_z3_vs_eprover.py`` compares the modes side by side). Prints a Markdown table
(queries, median and p95 ms per query, total seconds, queries per second) and writes
`benchmarks/results/prover.json` with the machine facts needed to compare runs (cores, load average, Python, Z3
version, date).

Run from the repository root (needs ../shared/data):

    python benchmarks/bench_prover.py
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

import z3

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, PROVER_MODES, Label, entailment
from lgmt_tasks.sources.common import SourceRecordError, parse_problem
from lgmt_tasks.sources.load import iter_problems

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "results" / "prover.json"

DATASETS: list[tuple[str, str, str]] = [
    ("FOLIO v2 validation", "folio", "folio/folio_v2_validation.jsonl"),
    ("FOLIO v0 validation", "folio", "folio/folio_v0_validation.jsonl"),
    ("ProverQA dev easy", "proverqa", "proverqa/proverqa_dev_easy.jsonl"),
    ("ProverQA dev medium", "proverqa", "proverqa/proverqa_dev_medium.jsonl"),
    ("ProverQA dev hard", "proverqa", "proverqa/proverqa_dev_hard.jsonl"),
]


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def bench(source: str, path: Path, limit: int | None, mode: str | None = None) -> dict[str, Any]:
    problems = []
    for problem in iter_problems(source, path):  # type: ignore[arg-type]
        try:
            problems.append(parse_problem(problem))
        except SourceRecordError:
            continue
    problems = problems[:limit] if limit else problems
    times_ms: list[float] = []
    decided = 0
    start = time.perf_counter()
    for premises, conclusion in problems:
        t0 = time.perf_counter()
        outcome = entailment(premises, conclusion, mode=mode)  # type: ignore[arg-type]
        times_ms.append((time.perf_counter() - t0) * 1000)
        decided += isinstance(outcome, Label)
    total = time.perf_counter() - start
    return {
        "queries": len(times_ms),
        "decided": decided,
        "premises_mean": round(statistics.fmean(len(p) for p, _ in problems), 1),
        "median_ms": round(statistics.median(times_ms), 2),
        "p95_ms": round(percentile(times_ms, 95), 2),
        "max_ms": round(max(times_ms), 2),
        "total_s": round(total, 2),
        "queries_per_s": round(len(times_ms) / total, 1),
    }


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in load] if load else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "z3": z3.get_version_string(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "timeout_ms": DEFAULT_TIMEOUT_MS,
        "rlimit": DEFAULT_RLIMIT,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="queries per dataset (default: all)")
    parser.add_argument("--mode", choices=PROVER_MODES, default=None, help="prover mode (default: the prover's)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    entailment([], parse("P(a)"), mode=args.mode)  # warm-up: the first Z3 call pays one-off initialisation
    info = machine()
    info["mode"] = args.mode or "default (shared)"
    results = {title: bench(source, DATA / rel, args.limit, args.mode) for title, source, rel in DATASETS}
    info["load_average_after"] = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    lines = [
        "| dataset | queries | mean premises | median ms | p95 ms | max ms | total s | queries/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for title, r in results.items():
        lines.append(
            f"| {title} | {r['queries']} | {r['premises_mean']} | {r['median_ms']} | {r['p95_ms']} | "
            f"{r['max_ms']} | {r['total_s']} | {r['queries_per_s']} |"
        )
    print("\n".join(lines))
    print(
        f"\n{info['cores']} cores, Python {info['python']}, Z3 {info['z3']}, load average {info['load_average_1_5_15']}"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"machine": info, "results": results}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
