"""QMFOL build speed at the paper's largest configuration: depth 20, width 20, 20 distractors.

Three stages are timed separately, in this process, over `--seeds` seeds × the three labels (logical tasks) and
the four topics (English):

- generate: Algorithm 1, Eqs. 1–4, Algorithm 2 and the shuffle (`make_logic_task`), per logical task;
- prove: every check of the builder (`check_task`: depth/width measured, minimality, the basic label by Z3, the label
  with distractors by Z3), per logical task;
- English: the template sentences of one task in one topic, each read back (`template_english`), per task;

and the whole pipeline as `build_qmfol` runs it (one process), in tasks (topic × logical task) per second. Writes
`benchmarks/results/qmfol.json` with the machine facts (cores, load average, Python, Z3 version, date); the
machine's load changes the numbers, so compare runs on the same machine.

Run from the repository root:

    python benchmarks/bench_qmfol.py [--seeds 10]
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

from lgmt_tasks.builders.qmfol import QmfolConfig, build_qmfol, check_task, template_english
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.qmfol.construction import LABELS, make_logic_task
from lgmt_tasks.qmfol.english import TOPICS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "qmfol.json"
DEPTH, WIDTH, DISTRACTORS = 20, 20, 20


def per_second(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds else float("inf")


def bench(seeds: int) -> dict[str, Any]:
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
    t0 = time.perf_counter()
    build = build_qmfol(config)
    build_s = time.perf_counter() - t0
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
        },
    }


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "z3": z3.get_version_string(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10, help="Seeds (× 3 labels = logical tasks; × 4 topics = tasks).")
    parser.add_argument("--no-write", action="store_true", help="Print only; do not write the results file.")
    args = parser.parse_args()
    info = machine()
    results = bench(args.seeds)
    info["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    report = {"machine": info, "results": results}
    text = json.dumps(report, indent=2)
    print(text)
    if not args.no_write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(text + "\n", encoding="utf-8")
        print(f"written to {OUT}")


if __name__ == "__main__":
    main()
