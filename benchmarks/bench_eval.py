"""Eval overhead: our group solver + metamorphic scorer per group, against a plain single-generate Inspect task.

The same LGMT groups (`lgmt_tasks/mr_e`, built once beforehand, build time not counted) are run through three tasks
on a scripted `mockllm/model` (answers are instant, so what is timed is Inspect plus our code):

- `mr_e`: our task: one Sample per group, the group solver asks the model once per member (source and follow-up,
  concurrently), the metamorphic scorer parses both answers and scores the pair;
- `plain`: `Task(dataset, solver=generate(), scorer=match())` over the same groups' source prompts (one model call
  per sample);
- `plain_members`: the same plain task over every member prompt (two samples per group), i.e. the same number of
  model calls as `mr_e`, so the difference is what grouping costs beyond the extra calls.

Each task runs `--repeats` times at `--groups` groups; the median wall time of `eval()` (logs written to a temporary
folder, `display="none"`) gives milliseconds per group. The marginal cost per group is the slope between a run at
half the groups and the full run (it leaves out Inspect's fixed start-up per eval). Writes
`benchmarks/results/eval_overhead.json` and `.md` with the machine facts (cores, load average, Python, Inspect
version, date): the machine's load changes the numbers, so compare runs on the same machine.

Run from the repository root:

    python benchmarks/bench_eval.py [--groups 200] [--repeats 3]
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
import tempfile
import time
from pathlib import Path
from typing import Any

import inspect_ai
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from lgmt_tasks import __version__

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "eval_overhead.json"
LABELS = ("True", "False", "Unknown")


def scripted_model() -> Model:
    """`mockllm/model` answering a label chosen from the prompt's length (deterministic, instant), usage set."""

    def outputs(messages: list[ChatMessage], *args: Any, **kwargs: Any) -> ModelOutput:
        prompt = next(m.text for m in messages if m.role == "user")
        out = ModelOutput.from_content("mockllm/model", f"Answer: {LABELS[len(prompt) % 3]}")
        out.usage = ModelUsage(input_tokens=len(prompt) // 4, output_tokens=3, total_tokens=len(prompt) // 4 + 3)
        return out

    return get_model("mockllm/model", custom_outputs=outputs)


def groups_of_mr_e(groups: int) -> tuple[Task, list[Sample]]:
    """The `mr_e` task (built once, or read from the build cache) and its first `groups` samples."""
    from lgmt_tasks.lgmt.task import mr_e

    ours = mr_e(per_mr=max(1, -(-groups // 10)), seed=0)  # mr_e has 10 relations; rows are mixed by a seeded order
    samples = list(ours.dataset)[:groups]
    if len(samples) < groups:
        raise SystemExit(f"mr_e built only {len(samples)} groups; ask for --groups {len(samples)} or fewer")
    return ours, samples


def tasks(ours: Task, samples: list[Sample]) -> dict[str, Task]:
    """The three tasks over `samples` (groups of `mr_e`; see the module docstring)."""
    plain = [Sample(id=s.id, input=s.input, target=s.target) for s in samples]
    members = [
        Sample(id=f"{s.id}-{k}", input=prompt, target=s.target)
        for s in samples
        for k, prompt in enumerate((s.metadata or {})["members"])
    ]
    return {
        "mr_e": Task(dataset=MemoryDataset(samples, name="lgmt_mr_e"), solver=ours.solver, scorer=ours.scorer),
        "plain": Task(dataset=MemoryDataset(plain), solver=generate(), scorer=match()),
        "plain_members": Task(dataset=MemoryDataset(members), solver=generate(), scorer=match()),
    }


def run_once(task: Task, model: Model) -> float:
    """Wall seconds of one `eval()` of `task` (logs in a throw-away folder); raises if the eval did not succeed."""
    with tempfile.TemporaryDirectory() as logs:
        start = time.perf_counter()
        (log,) = eval(task, model=model, log_dir=logs, display="none")
        seconds = time.perf_counter() - start
    if log.status != "success":
        raise RuntimeError(f"eval of {task.name} ended with status {log.status}: {log.error}")
    return seconds


def bench(groups: int, repeats: int) -> dict[str, Any]:
    model = scripted_model()
    ours, samples = groups_of_mr_e(groups)
    full, half = tasks(ours, samples), tasks(ours, samples[: groups // 2])
    run_once(full["plain"], model)  # warm-up: imports and one-off initialisation inside Inspect
    results: dict[str, Any] = {}
    for name in full:
        times = [run_once(full[name], model) for _ in range(repeats)]
        halves = [run_once(half[name], model) for _ in range(repeats)]
        median, median_half = statistics.median(times), statistics.median(halves)
        results[name] = {
            "samples": len(full[name].dataset),
            "model_calls_per_group": len(full[name].dataset) // groups if name != "mr_e" else 2,
            "median_s": round(median, 3),
            "runs_s": [round(t, 3) for t in times],
            "ms_per_group": round(1000 * median / groups, 2),
            "marginal_ms_per_group": round(1000 * (median - median_half) / (groups - groups // 2), 2),
        }
    for name in ("plain", "plain_members"):
        results[f"mr_e_minus_{name}"] = {
            key: round(results["mr_e"][key] - results[name][key], 2)
            for key in ("ms_per_group", "marginal_ms_per_group")
        }
    return results


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
        "inspect_ai": inspect_ai.__version__,
        "lgmt_tasks": __version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def markdown(report: dict[str, Any]) -> str:
    r, m = report["results"], report["machine"]
    lines = [
        "| task | samples | model calls per group | median s | ms per group | marginal ms per group |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in ("mr_e", "plain", "plain_members"):
        x = r[name]
        lines.append(
            f"| {name} | {x['samples']} | {x['model_calls_per_group']} | {x['median_s']} | {x['ms_per_group']} | "
            f"{x['marginal_ms_per_group']} |"
        )
    for name in ("plain", "plain_members"):
        d = r[f"mr_e_minus_{name}"]
        lines.append(f"| mr_e − {name} | | | | {d['ms_per_group']} | {d['marginal_ms_per_group']} |")
    lines += [
        "",
        f"{report['groups']} groups, median of {report['repeats']} runs; {m['cores']} cores, load average "
        f"{m['load_average_1_5_15']} (after: {m['load_average_after']}), Python {m['python']}, Inspect "
        f"{m['inspect_ai']}, lgmt-tasks {m['lgmt_tasks']}, {m['date']}.",
        f"Command: `{report['command']}`",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=200, help="Groups per eval (mr_e has 10 relations).")
    parser.add_argument("--repeats", type=int, default=3, help="Runs per task and size; the median is reported.")
    parser.add_argument("--no-write", action="store_true", help="Print only; do not write the results files.")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    info = machine()
    results = bench(args.groups, args.repeats)
    info["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    command = "python benchmarks/bench_eval.py " + shlex.join(sys.argv[1:])
    report = {
        "machine": info,
        "command": command.strip(),
        "groups": args.groups,
        "repeats": args.repeats,
        "results": results,
    }
    md = markdown(report)
    print(md)
    if not args.no_write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        OUT.with_suffix(".md").write_text(md + "\n", encoding="utf-8")
        print(f"written to {OUT} and {OUT.with_suffix('.md')}")


if __name__ == "__main__":
    main()
