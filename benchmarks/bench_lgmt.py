"""LGMT build speed (one process and `num_proc` processes) and relation applicability per source dataset.

For each source (our generated problems, FOLIO v2 validation, ProverQA dev medium) the full pipeline of
`build_lgmt` runs (load, prove every source label, apply and prove every relation until `--per-mr` groups each),
in this process and with each `--num-proc` value, alternately, `--repeats` times each (the fastest build of each is
kept: the one least slowed by other jobs); every build must give the same rows and statistics as the first serial
one (the script stops otherwise). Groups built and proven per second and the speed-up are reported.
The pool's one-off start-up (the fork server importing the builders, about 3 s, paid once per process, e.g. once
per `lgmt build`) is measured separately and left out of the build times; `speedup_with_startup` puts it back.
On a shared machine wall time also measures the neighbours, so every build also records CPU seconds (this process
and each worker, `cpu_meter.CpuMeter`): `cpu_speedup_estimate` is the serial build's CPU time over the parallel
build's critical path (parent + busiest worker), about the speed-up on idle cores. Compare runs on the same
machine, and read the load averages written with the results.

Writes `benchmarks/results/lgmt.json` and `benchmarks/results/lgmt.md` (speed), and prints the tables (the
applicability table of record, per direction, is `benchmarks/lgmt_applicability.py`'s).
Run: `.venv/bin/python benchmarks/bench_lgmt.py [--per-mr 200] [--num-proc 2]` from the repository root (needs
../shared/data).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from cpu_meter import CpuMeter  # benchmarks/ is on sys.path when this script runs
from machine import machine_info

from lgmt_tasks.builders.parallel import process_pool, start_method
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.lgmt.build import LgmtBuild, build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.survey import applicability
from lgmt_tasks.sources.generated import generate_cases
from lgmt_tasks.sources.load import load_source
from lgmt_tasks.sources.pipeline import prove_sources

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"

SOURCES = {
    "generated": None,
    "folio": DATA / "folio" / "folio_v2_validation.jsonl",
    "proverqa": DATA / "proverqa" / "proverqa_dev_medium.jsonl",
}


def source_cases(name: str, path: Path | None):
    if name == "generated":
        return generate_cases(300, 0)[0]
    return load_source(name, path)[0]  # type: ignore[arg-type]


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def timed_build(config: LgmtConfig, num_proc: int) -> tuple[LgmtBuild, dict[str, Any]]:
    """One build, with wall seconds, this process's CPU seconds and the load averages around it."""
    before = load()
    with CpuMeter() as meter:
        wall = time.perf_counter()
        build = build_lgmt(config, num_proc=num_proc)
        wall = time.perf_counter() - wall
    return build, {
        "num_proc": num_proc,
        "groups": len(build.dataset),
        "seconds": round(wall, 2),
        "groups_per_s": round(len(build.dataset) / wall, 2),
        **meter.result(),
        "load_before": before,
        "load_after": load(),
    }


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The fastest of repeated runs (the one least slowed by other jobs), with the number of runs."""
    return {**min(runs, key=lambda r: r["seconds"]), "of_runs": len(runs)}


def pool_startup(num_proc: int) -> float:
    """Seconds to start a pool of `num_proc` workers and run one trivial job on each (the first pool pays the
    fork server's start and its imports of the builders)."""
    start = time.perf_counter()
    with process_pool(num_proc) as workers:
        workers.map(abs, list(range(num_proc)))
    return round(time.perf_counter() - start, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-mr", type=int, default=200, help="Groups per relation (the default build: 200).")
    parser.add_argument("--num-proc", type=int, nargs="+", default=[2], help="Process counts to compare with 1.")
    parser.add_argument("--sources", nargs="+", default=list(SOURCES), choices=list(SOURCES))
    parser.add_argument("--repeats", type=int, default=2, help="Builds per source and process count (best kept).")
    args = parser.parse_args()
    startup = {n: pool_startup(n) for n in args.num_proc}
    rows, speed = [], []
    for name in args.sources:
        path = SOURCES[name]
        cases = prove_sources(source_cases(name, path), BuildStats(), 10_000)
        rows.append((name, len(cases), applicability(cases)))
        config = LgmtConfig(source=name, source_path=str(path) if path else None, per_mr=args.per_mr)
        serial, first = timed_build(config, 1)
        tried = sum(c.get("tried", 0) for m, c in serial.stats.counts.items() if m in RELATIONS)
        entry: dict[str, Any] = {
            "source": name,
            "groups": len(serial.dataset),
            "tried": tried,
            "candidate_pool": serial.stats.notes["candidate_pool"],
        }
        timings: dict[int, list[dict[str, Any]]] = {1: [first]}
        for repeat in range(args.repeats):  # serial and parallel builds alternate, so that both see the same load
            for n in ([1] if repeat else []) + args.num_proc:
                build, run = timed_build(config, n)
                same = build.dataset.to_list() == serial.dataset.to_list()
                if not same or build.stats.to_dict() != serial.stats.to_dict():
                    raise SystemExit(f"{name}: the build with num_proc={n} differs from the serial build")
                timings.setdefault(n, []).append(run)
        entry["runs"] = [best(timings[1])]
        one = entry["runs"][0]
        for n in args.num_proc:
            run = {**best(timings[n]), "identical_to_serial": True}
            run["speedup"] = round(one["seconds"] / run["seconds"], 2)
            run["speedup_with_startup"] = round(one["seconds"] / (run["seconds"] + startup[n]), 2)
            run["cpu_speedup_estimate"] = round(one["total_cpu_s"] / run["critical_path_cpu_s"], 2)
            entry["runs"].append(run)
        entry["all_runs"] = timings
        speed.append(entry)
    header = "| relation | " + " | ".join(f"{n} ({k} cases)" for n, k, _ in rows) + " |"
    lines = [header, "|---" * (len(rows) + 1) + "|"]
    for mr in RELATIONS:
        cells = [f"{t[mr][0]} ({t[mr][0] / max(t[mr][1], 1):.0%})" for _, _, t in rows]
        lines.append(f"| {mr} | " + " | ".join(cells) + " |")
    md = "\n".join(lines)
    meta = machine_info(
        start_method=start_method(),
        per_mr=args.per_mr,
        repeats=args.repeats,
        pool_startup_s=startup,
        command="python benchmarks/bench_lgmt.py " + shlex.join(sys.argv[1:]),
    )
    speed_md = speed_markdown(speed, meta)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "lgmt.md").write_text(speed_md + "\n", encoding="utf-8")
    (RESULTS / "lgmt.json").write_text(json.dumps({"machine": meta, "build": speed}, indent=2) + "\n")
    print(md, "\n\n" + speed_md)


def speed_markdown(speed: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [
        "| source | groups | follow-ups tried | processes | seconds | groups/s | speed-up | "
        "speed-up incl. pool start | CPU s (total; critical path) | CPU speed-up estimate | load before → after |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s in speed:
        for r in s["runs"]:
            lines.append(
                f"| {s['source']} | {r['groups']} | {s['tried']} | {r['num_proc']} | {r['seconds']} | "
                f"{r['groups_per_s']} | {r.get('speedup', 1.0)} | {r.get('speedup_with_startup', 1.0)} | "
                f"{r['total_cpu_s']}; {r['critical_path_cpu_s']} | {r.get('cpu_speedup_estimate', 1.0)} | "
                f"{r['load_before'][0]} → {r['load_after'][0]} |"
            )
    lines += [
        "",
        f"per_mr={meta['per_mr']}; best of {meta['repeats']} builds each; {meta['cores']} cores; "
        f"pool start-up (once per process, {meta['start_method']}): {meta['pool_startup_s']} s; "
        f"{meta['platform']}; Python {meta['python']}; Z3 {meta['z3']}; lgmt-tasks {meta['version']}; "
        f"{meta['date']}.",
        f"Command: `{meta['command'].strip()}`",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
