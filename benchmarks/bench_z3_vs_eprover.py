"""Z3 in process (the original path and the current one) against E prover per process call, on the same queries.

The papers' pipelines call an external prover once per query (QMFOL: Vampire, ProverQA: Prover9); we decide every
label with Z3 in process and use E only as a cross-check (`lgmt_tasks.logic.eprover`). This benchmark puts numbers
on both choices: for the first `--limit` parsable problems of each dataset, the three-valued label query is asked
of Z3 (`prover.entailment`, default limits) in each of its modes and of E (`eprover_entailment`: two or three
``eprover`` processes, ``--cpu-limit`` = `--timeout-s`), one after the other for each query, the order rotating
from query to query, so that all see the same machine load. The Z3 modes (`prover.PROVER_MODES`): ``python``, the
original path (a fresh context per query through z3's Python layer); ``fresh``, a fresh context driven through the
C API (the same Z3 calls); ``shared``, the default (one context per thread, reused, with a fresh solver per query).
It reports median and p95 milliseconds per query for each, the ratios that matter (shared vs E, shared vs python),
whether every Z3 mode gives the same outcome on every query, how often Z3 and E agree on queries both decide
(disagreements are listed by problem id), and what E leaves undecided and why.

Writes ``benchmarks/results/z3_vs_eprover.json`` and ``.md`` with the machine facts (cores, load average, Python,
Z3 and E versions, date). Run from the repository root (needs ../shared/data and the ``eprover`` binary):

    python benchmarks/bench_z3_vs_eprover.py            # 60 problems from each of 5 files: 300 queries
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
from lgmt_tasks.logic.prover import (
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    PROVER_MODES,
    Contradictory,
    Label,
    Undecided,
    entailment,
)
from lgmt_tasks.sources.common import SourceRecordError, parse_problem
from lgmt_tasks.sources.load import iter_problems

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "results" / "z3_vs_eprover.json"
NEW, OLD = "shared", "python"
"""The default Z3 mode and the original one, the pair the ratios compare."""


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
    z3_ms: dict[str, list[float]] = {mode: [] for mode in PROVER_MODES}
    e_ms: list[float] = []
    counts: Counter[str] = Counter()
    e_undecided: Counter[str] = Counter()
    disagreements: list[dict[str, str]] = []
    mode_mismatches: list[dict[str, str]] = []
    askers = [*PROVER_MODES, "eprover"]
    for n, (problem_id, premises, conclusion) in enumerate(problems):
        found: dict[str, Label | Undecided | Contradictory] = {}
        for asker in askers[n % len(askers) :] + askers[: n % len(askers)]:  # rotate who goes first
            t0 = time.perf_counter()
            if asker == "eprover":
                found[asker] = eprover_entailment(premises, conclusion, timeout_s=timeout_s)
                e_ms.append((time.perf_counter() - t0) * 1000)
            else:
                found[asker] = entailment(premises, conclusion, mode=asker)  # type: ignore[arg-type]
                z3_ms[asker].append((time.perf_counter() - t0) * 1000)
        ours, theirs = found[NEW], found["eprover"]
        if any(outcome_text(found[mode]) != outcome_text(ours) for mode in PROVER_MODES):
            mode_mismatches.append({"id": problem_id, **{m: outcome_text(found[m]) for m in PROVER_MODES}})
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
        **summary(z3_ms, e_ms),
        "z3_modes_differ": len(mode_mismatches),
        "both_decided": counts["agree"] + counts["disagree"],
        "agree": counts["agree"],
        "disagree": counts["disagree"],
        "decided_by_z3_only": counts["z3_only"],
        "decided_by_eprover_only": counts["eprover_only"],
        "decided_by_neither": counts["neither"],
        "eprover_undecided": sum(e_undecided.values()),
        "eprover_undecided_reasons": dict(e_undecided.most_common()),
        "disagreements": disagreements,
        "z3_mode_mismatches": mode_mismatches,
        "_z3_ms": z3_ms,
        "_e_ms": e_ms,
    }


def summary(z3_ms: dict[str, list[float]], e_ms: list[float]) -> dict[str, Any]:
    """Median and p95 ms per mode and for E, and the median ratios E/shared and python/shared."""
    out: dict[str, Any] = {}
    for mode, times in z3_ms.items():
        out[f"z3_{mode}_median_ms"] = round(statistics.median(times), 2)
        out[f"z3_{mode}_p95_ms"] = round(percentile(times, 95), 2)
    out["eprover_median_ms"] = round(statistics.median(e_ms), 2)
    out["eprover_p95_ms"] = round(percentile(e_ms, 95), 2)
    out["eprover_max_ms"] = round(max(e_ms), 2)
    new = statistics.median(z3_ms[NEW])
    out["eprover_over_shared"] = round(statistics.median(e_ms) / new, 1)
    out["python_over_shared"] = round(statistics.median(z3_ms[OLD]) / new, 2)
    return out


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
        "| dataset | queries | Z3 shared median ms | Z3 fresh median ms | Z3 python (original) median ms | "
        "E median ms | E / shared | python / shared | Z3 shared p95 ms | E p95 ms | Z3 modes differ | "
        "both decided | agree | disagree | E undecided |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for title, r in results.items():
        lines.append(
            f"| {title} | {r['queries']} | {r['z3_shared_median_ms']} | {r['z3_fresh_median_ms']} | "
            f"{r['z3_python_median_ms']} | {r['eprover_median_ms']} | {r['eprover_over_shared']}x | "
            f"{r['python_over_shared']}x | {r['z3_shared_p95_ms']} | {r['eprover_p95_ms']} | {r['z3_modes_differ']} | "
            f"{r['both_decided']} | {r['agree']} | {r['disagree']} | {r['eprover_undecided']} |"
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
    mismatches = [(title, d) for title, r in results.items() for d in r["z3_mode_mismatches"]]
    if mismatches:
        lines += ["", "Z3 modes that differ:", ""]
        lines += [
            f"- {title} `{d['id']}`: " + ", ".join(f"{m} {d[m]}" for m in PROVER_MODES) for title, d in mismatches
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=60, help="problems per dataset (default: 60; 0: all)")
    parser.add_argument("--timeout-s", type=float, default=10.0, help="E's CPU seconds per run (default: 10)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    # Warm-up: the first Z3 call pays one-off initialisation, the first E run loads the binary from disk.
    for mode in PROVER_MODES:
        entailment([], parse("P(a)"), mode=mode)  # type: ignore[arg-type]
    eprover_entailment([], parse("P(a)"), timeout_s=args.timeout_s)
    info = machine(args.timeout_s)
    results = {title: bench(source, DATA / rel, args.limit or None, args.timeout_s) for title, source, rel in DATASETS}
    z3_all = {mode: [ms for r in results.values() for ms in r["_z3_ms"][mode]] for mode in PROVER_MODES}
    for r in results.values():
        del r["_z3_ms"]
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
            "z3_modes_differ",
        )
    }
    reasons: Counter[str] = Counter()
    for r in results.values():
        reasons.update(r["eprover_undecided_reasons"])
    results["all"] = {
        **totals,
        "premises_mean": round(sum(r["premises_mean"] * r["queries"] for r in results.values()) / totals["queries"], 1),
        **summary(z3_all, e_all),
        "eprover_undecided_reasons": dict(reasons.most_common()),
        "disagreements": [],
        "z3_mode_mismatches": [],
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
