"""QMFOL build speed at the paper's largest configuration: depth 20, width 20, 20 distractors.

Three stages are timed separately, in this process, over `--seeds` seeds × the three labels (logical tasks) and
the four topics (English):

- generate: Algorithm 1, Eqs. 1–4, Algorithm 2 and the shuffle (`make_logic_task`), per logical task;
- prove: every check of the builder (`check_task`: depth/width measured, minimality, the basic label by Z3, the label
  with distractors by Z3), per logical task;
- English: the template sentences of one task in one topic, each read back (`template_english`), per task;

and the whole pipeline as `build_qmfol` runs it, in tasks (topic × logical task) per second: in one process, and
with each `--num-proc` value (one basic task, with its proofs and its English in every topic, per unit of work; the
rows and statistics must equal the serial build's, or the script stops), alternately, `--repeats` times each; the
fastest build of each is kept (the one least slowed by other jobs). The pool's one-off start-up (the fork
server importing the builders, paid once per process) is measured separately and left out of the parallel times;
`speedup_with_startup` puts it back. Writes `benchmarks/results/qmfol.json` and `qmfol.md` with the machine facts
(cores, load average, Python, Z3 version, date); the machine's load changes the numbers, so compare runs on the same
machine.

Run from the repository root:

    python benchmarks/bench_qmfol.py [--seeds 20] [--num-proc 2]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import z3
from cpu_meter import CpuMeter  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks import __version__
from lgmt_tasks.builders.parallel import process_pool, start_method
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.qmfol import construction
from lgmt_tasks.qmfol.build import QmfolBuild, build_qmfol, check_task, template_english
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.construction import LABELS, make_logic_task
from lgmt_tasks.qmfol.english import TOPICS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "qmfol.json"
DEPTH, WIDTH, DISTRACTORS = 20, 20, 20


def per_second(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds else float("inf")


def pool_startup(num_proc: int) -> float:
    """Seconds to start a pool of `num_proc` workers and run one trivial job on each."""
    start = time.perf_counter()
    with process_pool(num_proc) as workers:
        workers.map(abs, list(range(num_proc)))
    return round(time.perf_counter() - start, 2)


def bench(seeds: int, num_procs: list[int], repeats: int) -> dict[str, Any]:
    keys = [(seed, label) for seed in range(seeds) for label in LABELS]
    t0 = time.perf_counter()
    tasks = [make_logic_task(DEPTH, WIDTH, seed, label, DISTRACTORS) for seed, label in keys]
    generate_s = time.perf_counter() - t0

    prove_ms: list[float] = []
    proven = 0
    for task in tasks:
        t = time.perf_counter()
        proven += check_task(task, DEFAULT_TIMEOUT_MS).ok
        prove_ms.append((time.perf_counter() - t) * 1000)
    prove_s = sum(prove_ms) / 1000

    t0 = time.perf_counter()
    sentences = sum(len(template_english(topic, task).premises) + 1 for task in tasks for topic in TOPICS)
    english_s = time.perf_counter() - t0

    config = QmfolConfig(depths=(DEPTH,), widths=(WIDTH,), distractors=(DISTRACTORS,), seeds=seeds)
    startup = {n: pool_startup(n) for n in num_procs}
    build: QmfolBuild | None = None
    timings: dict[int, list[dict[str, Any]]] = {}
    for _ in range(repeats):  # serial and parallel builds alternate, so that both see the same load
        for n in [1, *num_procs]:
            before = [round(x, 2) for x in os.getloadavg()]
            # The screened distractors are cached per process (`construction._screened`): clear them, or every
            # serial build after the first (and after the timings above) reuses this process's proofs while the
            # parallel builds' fresh workers redo them.
            construction._screened.cache_clear()
            with CpuMeter() as meter:
                t0 = time.perf_counter()
                again = build_qmfol(config, num_proc=n)
                seconds = time.perf_counter() - t0
            build = build or again
            if again.dataset.to_list() != build.dataset.to_list() or again.stats.to_dict() != build.stats.to_dict():
                raise SystemExit(f"the build with num_proc={n} differs from the serial build")
            run = {
                "seconds": round(seconds, 2),
                **meter.result(),
                "load_before": before,
                "load_after": [round(x, 2) for x in os.getloadavg()],
            }
            timings.setdefault(n, []).append(run)
    assert build is not None
    serial = min(timings[1], key=lambda r: r["seconds"])
    build_s = serial["seconds"]
    parallel = []
    for n in num_procs:
        fastest = min(timings[n], key=lambda r: r["seconds"])
        seconds = fastest["seconds"]
        parallel.append(
            {
                "num_proc": n,
                **fastest,
                "tasks_generated_and_proven_per_s": per_second(len(build.dataset), seconds),
                "speedup": round(build_s / seconds, 2),
                "pool_startup_s": startup[n],
                "speedup_with_startup": round(build_s / (seconds + startup[n]), 2),
                "cpu_speedup_estimate": round(serial["total_cpu_s"] / fastest["critical_path_cpu_s"], 2),
                "identical_to_serial": True,
                "of_runs": len(timings[n]),
            }
        )
    return {
        "configuration": {
            "depth": DEPTH,
            "width": WIDTH,
            "distractors": DISTRACTORS,
            "seeds": seeds,
            "labels": len(LABELS),
            "topics": len(TOPICS),
        },
        "logical_tasks": len(tasks),
        "premises_per_task": round(statistics.fmean(len(t.premises) for t in tasks), 1),
        "generate": {"seconds": round(generate_s, 3), "logical_tasks_per_s": per_second(len(tasks), generate_s)},
        "prove": {
            "seconds": round(prove_s, 2),
            "proven": proven,
            "logical_tasks_per_s": per_second(len(tasks), prove_s),
            "median_ms_per_task": round(statistics.median(prove_ms), 1),
            "max_ms_per_task": round(max(prove_ms), 1),
        },
        "english": {
            "seconds": round(english_s, 3),
            "tasks": len(tasks) * len(TOPICS),
            "sentences": sentences,
            "tasks_per_s": per_second(len(tasks) * len(TOPICS), english_s),
        },
        "build_qmfol": {
            "seconds": round(build_s, 2),
            "tasks": len(build.dataset),
            "dropped": build.stats.total_dropped(),
            "tasks_generated_and_proven_per_s": per_second(len(build.dataset), build_s),
            "logical_tasks_per_s": per_second(len(tasks), build_s),
            **serial,
            "of_runs": len(timings[1]),
        },
        "all_runs": timings,
        "build_qmfol_parallel": parallel,
    }


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "z3": z3.get_version_string(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "lgmt_tasks": __version__,
        "start_method": start_method(),
    }


def markdown(report: dict[str, Any]) -> str:
    """The build-speed table (one process and each `--num-proc`) with the machine line and the command."""
    r, m = report["results"], report["machine"]
    c = r["configuration"]
    serial = r["build_qmfol"]
    lines = [
        "| processes | tasks | seconds (best of runs) | tasks/s | speed-up | speed-up incl. pool start "
        "| CPU s (total; critical path) | CPU speed-up estimate |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| 1 | {serial['tasks']} | {serial['seconds']} | {serial['tasks_generated_and_proven_per_s']} | 1.0 | 1.0 | "
        f"{serial['total_cpu_s']}; {serial['critical_path_cpu_s']} | 1.0 |",
    ]
    for p in r["build_qmfol_parallel"]:
        lines.append(
            f"| {p['num_proc']} | {serial['tasks']} | {p['seconds']} | {p['tasks_generated_and_proven_per_s']} | "
            f"{p['speedup']} | {p['speedup_with_startup']} | {p['total_cpu_s']}; {p['critical_path_cpu_s']} | "
            f"{p['cpu_speedup_estimate']} |"
        )
    lines += [
        "",
        f"Depth {c['depth']}, width {c['width']}, {c['distractors']} distractors, {c['seeds']} seeds × {c['labels']} "
        f"labels × {c['topics']} topics; per logical task: generate {r['generate']['logical_tasks_per_s']}/s, "
        f"prove {r['prove']['logical_tasks_per_s']}/s (median {r['prove']['median_ms_per_task']} ms), English "
        f"{r['english']['tasks_per_s']} tasks/s.",
        f"{m['cores']} cores, load average {m['load_average_1_5_15']} (after: {m['load_average_after']}), "
        f"{m['platform']}, Python {m['python']}, Z3 {m['z3']}, lgmt-tasks {m['lgmt_tasks']}, {m['date']}.",
        f"Command: `{report['command']}`",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="Seeds (× 3 labels = logical tasks; × 4 topics = tasks).")
    parser.add_argument("--num-proc", type=int, nargs="+", default=[2], help="Process counts to compare with 1.")
    parser.add_argument("--repeats", type=int, default=3, help="Builds per process count (the fastest is kept).")
    parser.add_argument("--no-write", action="store_true", help="Print only; do not write the results file.")
    args = parser.parse_args()
    info = machine()
    results = bench(args.seeds, args.num_proc, args.repeats)
    info["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    command = ("python benchmarks/bench_qmfol.py " + shlex.join(sys.argv[1:])).strip()
    report = {"machine": info, "command": command, "results": results}
    text = json.dumps(report, indent=2)
    print(text)
    md = markdown(report)
    print(md)
    if not args.no_write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(text + "\n", encoding="utf-8")
        OUT.with_suffix(".md").write_text(md + "\n", encoding="utf-8")
        print(f"written to {OUT} and {OUT.with_suffix('.md')}")


if __name__ == "__main__":
    main()
