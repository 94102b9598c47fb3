"""Z3 in process against E prover per process call, on the same entailment queries in one run.

The papers' pipelines call an external prover once per query (QMFOL: Vampire, ProverQA: Prover9); we decide every
label with Z3 in process and use E only as a cross-check (`lgmt_tasks.logic.eprover`). This benchmark puts numbers
on both choices: for the first `--limit` parsable problems of each dataset, the three-valued label query is asked
of Z3 (`prover.entailment`, default limits) and of E (`eprover_entailment`: two or three ``eprover`` processes,
``--cpu-limit`` = `--timeout-s`), alternating per query so that both see the same machine load. It reports median
and p95 milliseconds per query for each prover, how often they agree on queries both decide (disagreements are
listed by problem id), and what E leaves undecided and why.

Writes ``benchmarks/results/z3_vs_eprover.json`` and ``.md`` with the machine facts (cores, load average, Python,
Z3 and E versions, date). Run from the repository root (needs ../shared/data and the ``eprover`` binary):

    python benchmarks/bench_z3_vs_eprover.py            # 40 problems from each of 5 files: 200 queries
    python benchmarks/bench_z3_vs_eprover.py --limit 0 --out benchmarks/results/z3_vs_eprover_full.json  # all
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import z3
from bench_prover import DATASETS, percentile  # the same problems and percentile as the Z3-only benchmark

from lgmt_tasks.logic.eprover import EPROVER_FLAGS, eprover_entailment, eprover_version
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment
from lgmt_tasks.sources.common import SourceRecordError, iter_problems, parse_problem

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "results" / "z3_vs_eprover.json"


def outcome_text(outcome: Label | Undecided | Contradictory) -> str:
    """A label as its value; the other outcomes by kind (an undecided one with its reason)."""
    if isinstance(outcome, Label):
        return outcome.value
    if isinstance(outcome, Contradictory):
        return "Contradictory"
    return f"Undecided ({outcome.reason})"


def decided(outcome: Label | Undecided | Contradictory) -> bool:
    """Whether the prover settled the query (a label or Contradictory)."""
    return not isinstance(outcome, Undecided)


def bench(source: str, path: Path, limit: int | None, timeout_s: float) -> dict[str, Any]:
    problems = []
    for problem in iter_problems(source, path):  # type: ignore[arg-type]
        try:
            problems.append((problem.id, *parse_problem(problem)))
        except SourceRecordError:
            continue
        if limit and len(problems) == limit:
            break
    z3_ms: list[float] = []
    e_ms: list[float] = []
    counts: Counter[str] = Counter()
    e_undecided: Counter[str] = Counter()
    disagreements: list[dict[str, str]] = []
    for problem_id, premises, conclusion in problems:
        t0 = time.perf_counter()
        ours = entailment(premises, conclusion)
        t1 = time.perf_counter()
        theirs = eprover_entailment(premises, conclusion, timeout_s=timeout_s)
        t2 = time.perf_counter()
        z3_ms.append((t1 - t0) * 1000)
        e_ms.append((t2 - t1) * 1000)
        if isinstance(theirs, Undecided):
            e_undecided[theirs.reason] += 1
        if decided(ours) and decided(theirs):
            if ours == theirs:
                counts["agree"] += 1
            else:
                counts["disagree"] += 1
                disagreements.append({"id": problem_id, "z3": outcome_text(ours), "eprover": outcome_text(theirs)})
        elif decided(ours):
            counts["z3_only"] += 1
        elif decided(theirs):
            counts["eprover_only"] += 1
        else:
            counts["neither"] += 1
    return {
        "queries": len(problems),
        "premises_mean": round(statistics.fmean(len(p) for _, p, _ in problems), 1),
        "z3_median_ms": round(statistics.median(z3_ms), 2),
        "z3_p95_ms": round(percentile(z3_ms, 95), 2),
        "eprover_median_ms": round(statistics.median(e_ms), 2),
        "eprover_p95_ms": round(percentile(e_ms, 95), 2),
        "eprover_max_ms": round(max(e_ms), 2),
        "both_decided": counts["agree"] + counts["disagree"],
        "agree": counts["agree"],
        "disagree": counts["disagree"],
        "decided_by_z3_only": counts["z3_only"],
        "decided_by_eprover_only": counts["eprover_only"],
        "decided_by_neither": counts["neither"],
        "eprover_undecided": sum(e_undecided.values()),
        "eprover_undecided_reasons": dict(e_undecided.most_common()),
        "disagreements": disagreements,
        "_z3_ms": z3_ms,
        "_e_ms": e_ms,
    }


def machine(timeout_s: float) -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in load] if load else None,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "z3": z3.get_version_string(),
        "eprover": eprover_version(),
        "eprover_flags": [*EPROVER_FLAGS, f"--cpu-limit={timeout_s:g} (rounded up)"],
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "z3_timeout_ms": DEFAULT_TIMEOUT_MS,
        "z3_rlimit": DEFAULT_RLIMIT,
        "eprover_timeout_s": timeout_s,
    }


def markdown(info: dict[str, Any], results: dict[str, dict[str, Any]]) -> str:
    lines = [
        "| dataset | queries | Z3 median ms | Z3 p95 ms | E median ms | E p95 ms | both decided | agree | "
        "disagree | E undecided |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for title, r in results.items():
        lines.append(
            f"| {title} | {r['queries']} | {r['z3_median_ms']} | {r['z3_p95_ms']} | {r['eprover_median_ms']} | "
            f"{r['eprover_p95_ms']} | {r['both_decided']} | {r['agree']} | {r['disagree']} | "
            f"{r['eprover_undecided']} |"
        )
    lines += [
        "",
        f"{info['cores']} cores ({info['processor']}), load average {info['load_average_1_5_15']} before and "
        f"{info['load_average_after']} after, Python {info['python']}, Z3 {info['z3']}, {info['eprover']}, "
        f"{info['date']}. E flags: `{' '.join(info['eprover_flags'])}`.",
    ]
    disagreements = [(title, d) for title, r in results.items() for d in r["disagreements"]]
    if disagreements:
        lines += ["", "Disagreements:", ""]
        lines += [f"- {title} `{d['id']}`: Z3 {d['z3']}, E {d['eprover']}" for title, d in disagreements]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=40, help="problems per dataset (default: 40; 0: all)")
    parser.add_argument("--timeout-s", type=float, default=10.0, help="E's CPU seconds per run (default: 10)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    # Warm-up: the first Z3 call pays one-off initialisation, the first E run loads the binary from disk.
    entailment([], parse("P(a)"))
    eprover_entailment([], parse("P(a)"), timeout_s=args.timeout_s)
    info = machine(args.timeout_s)
    results = {title: bench(source, DATA / rel, args.limit or None, args.timeout_s) for title, source, rel in DATASETS}
    z3_all = [ms for r in results.values() for ms in r.pop("_z3_ms")]
    e_all = [ms for r in results.values() for ms in r.pop("_e_ms")]
    totals = {
        key: sum(r[key] for r in results.values())
        for key in (
            "queries",
            "both_decided",
            "agree",
            "disagree",
            "decided_by_z3_only",
            "decided_by_eprover_only",
            "decided_by_neither",
            "eprover_undecided",
        )
    }
    reasons: Counter[str] = Counter()
    for r in results.values():
        reasons.update(r["eprover_undecided_reasons"])
    results["all"] = {
        **totals,
        "premises_mean": round(sum(r["premises_mean"] * r["queries"] for r in results.values()) / totals["queries"], 1),
        "z3_median_ms": round(statistics.median(z3_all), 2),
        "z3_p95_ms": round(percentile(z3_all, 95), 2),
        "eprover_median_ms": round(statistics.median(e_all), 2),
        "eprover_p95_ms": round(percentile(e_all, 95), 2),
        "eprover_max_ms": round(max(e_all), 2),
        "eprover_undecided_reasons": dict(reasons.most_common()),
        "disagreements": [],
    }
    info["load_average_after"] = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    table = markdown(info, results)
    print(table)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"machine": info, "results": results}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}")


if __name__ == "__main__":
    main()
