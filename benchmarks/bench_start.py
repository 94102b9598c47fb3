"""Task start: seconds from process start to the first model call, on a fresh cache, minus Inspect's own start-up.

For every task the package registers, a fresh Python process with an empty `LGMT_CACHE_DIR` (no build cache, no
`datasets` cache) runs `inspect_ai.eval("lgmt_tasks/<task>")` with default parameters on `mockllm/model`, whose
scripted output records `time.time()` at its first call and then stops the process (nothing after the first call is
of interest). The same is done for a trivial task (one `Sample`, `generate()`, defined in this file), which measures
Inspect's own start-up (importing `inspect_ai`, starting the eval); Inspect imports every installed plugin before an
eval, so the baseline marks the plugins as loaded and runs without ours. Our time is the difference: importing our
package, resolving and loading (or building) the rows, making the samples, up to the first request.
The start is the parent's `time.time()` just before it starts the child, so interpreter start-up is in both.

Each measurement is the median of `--repeats` runs, alternating task and baseline so both see the same load. The
target (issue #17) is at most 3 s of our own time. Writes `benchmarks/results/start.json` and `.md` with the machine
facts: a loaded machine makes every number larger, so compare runs made side by side. What installing the plugin
costs every `inspect eval` (importing the entry point) and `lgmt --version` / `--help` are `bench_import.py`'s.

Run from the repository root:

    python benchmarks/bench_start.py [--repeats 3] [--tasks lgmt,qmfol]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "start.json"
TARGET_S = 3.0
BASELINE = "baseline"

CHILD = r"""
import os, sys, time
from inspect_ai import eval
from inspect_ai.model import ModelOutput, get_model

stamp = sys.argv[2]

def first_call(*args, **kwargs):
    with open(stamp, "w") as f:
        f.write(repr(time.time()))
    os._exit(0)  # the first request is what is timed; nothing after it

task = sys.argv[1]
if sys.argv[4] == "build":  # the "before" measurement: ignore the shipped default builds
    import lgmt_tasks.builders.load
    lgmt_tasks.builders.load.shipped_build = lambda *args: None
if task == "baseline":
    # Inspect imports every installed plugin (ours too) before any eval; mark them loaded, so that the baseline is
    # Inspect alone and our import is counted as ours
    import inspect_ai._util.entrypoints
    inspect_ai._util.entrypoints._inspect_ai_eps_loaded_all = True
    from inspect_ai import Task
    from inspect_ai.dataset import Sample
    from inspect_ai.solver import generate
    task = Task(dataset=[Sample(input="Say hi.", target="hi")], solver=generate())
model = get_model("mockllm/model", custom_outputs=first_call)
eval(task, model=model, limit=1, display="none", log_dir=sys.argv[3])
"""


def first_call_after(task: str, build: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds from starting a fresh process to its first model call (`baseline`: the trivial task).

    The CPU seconds (user + system of the child, which exits at the first call) hardly depend on how loaded the
    machine is; the wall seconds do. With `build`, the shipped default builds are ignored (the task builds, as
    before they were shipped).
    """
    with tempfile.TemporaryDirectory(prefix="lgmt-start-") as tmp:
        env = {
            **os.environ,
            "LGMT_CACHE_DIR": str(Path(tmp) / "cache"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "HF_DATASETS_CACHE": str(Path(tmp) / "hf"),
        }
        stamp = Path(tmp) / "first_call"
        name = task if task == BASELINE else f"lgmt_tasks/{task}"
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.time()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, name, str(stamp), str(Path(tmp) / "logs"), "build" if build else "shipped"],
            env=env,
            cwd=tmp,  # not the repository root, whose `datasets/` folder would shadow Hugging Face datasets
            capture_output=True,
            text=True,
            check=False,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if not stamp.exists():
            raise RuntimeError(f"{task}: no model call (exit {done.returncode}):\n{done.stderr[-2000:]}")
        used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
        return float(stamp.read_text()) - started, used


def machine() -> dict[str, Any]:
    """What the numbers depend on."""
    import inspect_ai

    from lgmt_tasks import __version__

    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "inspect_ai": inspect_ai.__version__,
        "lgmt_tasks": __version__,
    }


def main() -> None:
    from lgmt_tasks._registry import __all__ as tasks

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tasks", default=",".join(tasks), help="comma-separated task names (default: all)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--build-tasks",
        default="",
        help="comma-separated tasks also timed once ignoring the shipped builds (the cost they save)",
    )
    args = parser.parse_args()
    chosen = [t for t in args.tasks.split(",") if t]
    facts = machine()
    results: dict[str, Any] = {}
    for task in chosen:
        own, base = [], []
        for _ in range(args.repeats):
            own.append(first_call_after(task))
            base.append(first_call_after(BASELINE))
        ours = statistics.median(o[0] - b[0] for o, b in zip(own, base))
        ours_cpu = statistics.median(o[1] - b[1] for o, b in zip(own, base))
        results[task] = {
            "first_call_s": round(statistics.median(o[0] for o in own), 2),
            "baseline_s": round(statistics.median(b[0] for b in base), 2),
            "ours_s": round(ours, 2),
            "ours_cpu_s": round(ours_cpu, 2),
            "meets_target": ours <= TARGET_S,
            "runs_s": [round(o[0], 2) for o in own],
            "baseline_runs_s": [round(b[0], 2) for b in base],
            "cpu_runs_s": [round(o[1], 2) for o in own],
            "baseline_cpu_runs_s": [round(b[1], 2) for b in base],
        }
        print(f"{task}: {results[task]}", flush=True)
    for task in [t for t in args.build_tasks.split(",") if t in results]:
        built, base = first_call_after(task, build=True)[0], first_call_after(BASELINE)[0]
        results.setdefault(task, {})["building_ours_s"] = round(built - base, 2)
        print(f"{task}, building: {built - base:.2f} s of ours", flush=True)
    facts["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    report = {"machine": facts, "target_s": TARGET_S, "repeats": args.repeats, "tasks": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(report), encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}")


def markdown(report: dict[str, Any]) -> str:
    """The results as a table, with the machine facts."""
    m = report["machine"]
    lines = [
        "# Task start on a fresh cache",
        "",
        f"Seconds from process start to the first model call (`mockllm/model`, default parameters, empty "
        f"`LGMT_CACHE_DIR`), median of {report['repeats']} runs; *ours* is that minus the same measurement for a "
        f"trivial Inspect task run alternately (Inspect's own start-up); *ours, CPU* is the same difference in CPU "
        f"seconds (user + system), which a loaded machine changes much less. Target: ours ≤ "
        f"{report['target_s']:.0f} s. *Building instead*: ours with the shipped builds ignored (one run).",
        "",
        f"{m['date']}; {m['cores']} cores, load average {m['load_average']} before and "
        f"{m['load_average_after']} after; {m['platform']}; Python {m['python']}; inspect_ai {m['inspect_ai']}; "
        f"lgmt-tasks {m['lgmt_tasks']}.",
        "",
        "| task | first call (s) | trivial task (s) | ours (s) | ours, CPU (s) | ≤ target | building instead (s) |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for task, r in report["tasks"].items():
        ok = "yes" if r["meets_target"] else "no"
        built = f"{r['building_ours_s']:.2f}" if "building_ours_s" in r else "-"
        lines.append(
            f"| `{task}` | {r['first_call_s']:.2f} | {r['baseline_s']:.2f} | {r['ours_s']:.2f} | "
            f"{r['ours_cpu_s']:.2f} | {ok} | {built} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
