"""Start-up cost of being installed: importing the Inspect entry point, and `lgmt --version` / `lgmt --help`.

Inspect imports every installed plugin (`[project.entry-points.inspect_ai]`, ours `lgmt_tasks._registry`) before any
eval, even one of someone else's tasks, so what our import adds is paid by every `inspect eval` of everyone who
installs lgmt-tasks. Issue #28's goals: the entry point adds at most 10% to `import inspect_ai`; `lgmt --version` and
`lgmt --help` finish in at most 0.5 s on an idle machine. (`bench_start.py` measures the other start: a task's
first model call.)

Three measurements, each in fresh processes, alternating so that every pair sees the same load:

- `-X importtime` of `import inspect_ai; import lgmt_tasks._registry` in one process: the registry's cumulative
  import time (everything it imports beyond Inspect) as a ratio to `inspect_ai`'s, and the packages that make it up.
- Wall and CPU seconds of `python -c "import inspect_ai"` and of `python -c "import inspect_ai, lgmt_tasks._registry"`;
  the ratio is the difference over the first (interpreter start-up included in both).
- Wall and CPU seconds of the `lgmt` console script with `--version`, `--help` and a few light subcommands, beside
  `python -c pass` (the interpreter's own start-up, which no command can avoid).

Medians of `--repeats` runs. A loaded machine inflates wall seconds (CPU seconds much less), so the machine's load
average is recorded before and after. Writes `benchmarks/results/import.json` and `.md`.

Run from the repository root:

    python benchmarks/bench_import.py [--repeats 7]

`--pythonpath DIR` measures another copy of the package instead (put first on the children's `PYTHONPATH`), e.g. an
older commit for a before/after comparison: `git archive <commit> lgmt_tasks solvers scorers task_configs | tar -x -C
DIR`, then move `solvers`, `scorers` and `task_configs` into `DIR/lgmt_tasks/` (the package-dir mapping).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from machine import machine_info

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "import.json"
RATIO_TARGET = 0.10
CLI_TARGET_S = 0.5
ENTRY_POINT = "lgmt_tasks._registry"
CLI_COMMANDS: tuple[tuple[str, ...], ...] = (("--version",), ("--help",), ("suites", "--names"), ("cache", "list"))


PYTHONPATH: list[str] = []
"""`--pythonpath`: another copy of the package to measure (see the module docstring)."""


def env() -> dict[str, str]:
    """The children's environment: offline, and `--pythonpath` first on the path."""
    extra = {"PYTHONPATH": os.pathsep.join([*PYTHONPATH, os.environ.get("PYTHONPATH", "")])} if PYTHONPATH else {}
    return {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", **extra}


def timed(argv: Sequence[str], cwd: str) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env(), cwd=cwd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def importtime(cwd: str) -> dict[str, Any]:
    """`-X importtime` of Inspect then the entry point, in one process: cumulative seconds and the top packages.

    The entry point's cumulative time counts only what Inspect had not imported already, which is what it adds.
    """
    code = f"import inspect_ai; import {ENTRY_POINT}"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], env=env(), cwd=cwd, check=True, capture_output=True, text=True
    )
    rows: list[tuple[int, int, str]] = []  # self µs, cumulative µs, indented name
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "cumulative" not in line:
            own_us, cumulative_us, name = line[len("import time:") :].split("|")
            rows.append((int(own_us), int(cumulative_us), name.rstrip()))
    cumulative = {name.strip(): c for _, c, name in rows if name.strip() in ("inspect_ai", ENTRY_POINT)}
    start = next(i for i, (_, _, name) in enumerate(rows) if name.strip() == "inspect_ai") + 1
    ours: dict[str, int] = {}  # self time of everything imported after inspect_ai, by top-level package
    for own, _, name in rows[start:]:
        package = name.strip().split(".")[0]
        ours[package] = ours.get(package, 0) + own
    top = sorted(ours.items(), key=lambda kv: -kv[1])[:8]
    return {
        "inspect_ai_s": cumulative["inspect_ai"] / 1e6,
        "entry_point_s": cumulative[ENTRY_POINT] / 1e6,
        "ratio": cumulative[ENTRY_POINT] / cumulative["inspect_ai"],
        "top_packages_s": {name: round(us / 1e6, 3) for name, us in top},
    }


def median_runs(runs: list[tuple[float, float]]) -> dict[str, Any]:
    """Median wall and CPU seconds of runs, and the wall runs themselves."""
    return {
        "wall_s": round(statistics.median(r[0] for r in runs), 3),
        "cpu_s": round(statistics.median(r[1] for r in runs), 3),
        "wall_runs_s": [round(r[0], 3) for r in runs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--pythonpath", type=Path, default=None, help="measure the package copy in this folder")
    args = parser.parse_args()
    if args.pythonpath is not None:
        PYTHONPATH.append(str(args.pythonpath.resolve()))
    lgmt = shutil.which("lgmt", path=str(Path(sys.executable).parent)) or shutil.which("lgmt")
    if lgmt is None:
        sys.exit("the `lgmt` console script is not installed beside this Python (pip install -e .)")
    load_before = [round(x, 2) for x in os.getloadavg()]
    python = [sys.executable, "-c"]
    # not the repository root, whose `datasets/` folder would shadow Hugging Face datasets
    with tempfile.TemporaryDirectory(prefix="lgmt-import-") as cwd:
        for warm in (["pass"], ["import inspect_ai"], [f"import {ENTRY_POINT}"]):  # page cache, .pyc files
            timed([*python, *warm], cwd)
        imports: list[dict[str, Any]] = []
        walls: dict[str, list[tuple[float, float]]] = {"python": [], "inspect_ai": [], "entry_point": []}
        cli: dict[str, list[tuple[float, float]]] = {" ".join(c): [] for c in CLI_COMMANDS}
        for _ in range(args.repeats):
            imports.append(importtime(cwd))
            walls["python"].append(timed([*python, "pass"], cwd))
            walls["inspect_ai"].append(timed([*python, "import inspect_ai"], cwd))
            walls["entry_point"].append(timed([*python, f"import inspect_ai, {ENTRY_POINT}"], cwd))
            for command in CLI_COMMANDS:
                cli[" ".join(command)].append(timed([lgmt, *command], cwd))
    inspect_s = statistics.median(r["inspect_ai_s"] for r in imports)
    ours_s = statistics.median(r["entry_point_s"] for r in imports)
    ratio = statistics.median(r["ratio"] for r in imports)
    added = [e[0] - i[0] for e, i in zip(walls["entry_point"], walls["inspect_ai"], strict=True)]
    wall_ratio = statistics.median(a / i[0] for a, i in zip(added, walls["inspect_ai"], strict=True))
    added_cpu = [e[1] - i[1] for e, i in zip(walls["entry_point"], walls["inspect_ai"], strict=True)]
    cpu_ratio = statistics.median(a / i[1] for a, i in zip(added_cpu, walls["inspect_ai"], strict=True))
    report = {
        "machine": machine_info(load_average_before=load_before, inspect_ai=_inspect_version()),
        "package": str(args.pythonpath.resolve()) if args.pythonpath else "installed",
        "repeats": args.repeats,
        "targets": {"entry_point_ratio": RATIO_TARGET, "cli_s": CLI_TARGET_S},
        "importtime": {
            "inspect_ai_s": round(inspect_s, 3),
            "entry_point_s": round(ours_s, 3),
            "ratio": round(ratio, 3),
            "meets_target": ratio <= RATIO_TARGET,
            "top_packages_s": imports[-1]["top_packages_s"],
        },
        "wall": {
            **{name: median_runs(runs) for name, runs in walls.items()},
            "entry_point_added_s": round(statistics.median(added), 3),
            "ratio": round(wall_ratio, 3),
            "entry_point_added_cpu_s": round(statistics.median(added_cpu), 3),
            "cpu_ratio": round(cpu_ratio, 3),
        },
        "cli": {
            name: {**median_runs(runs), "meets_target": statistics.median(r[0] for r in runs) <= CLI_TARGET_S}
            for name, runs in cli.items()
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(report), encoding="utf-8")
    print(markdown(report))
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}")


def _inspect_version() -> str:
    from importlib.metadata import version

    return version("inspect_ai")


def markdown(report: dict[str, Any]) -> str:
    """The results as two tables, with the machine facts."""
    m, it, wall = report["machine"], report["importtime"], report["wall"]
    python_s = wall["python"]["wall_s"]
    lines = [
        "# Start-up: the Inspect entry point and the `lgmt` command",
        "",
        f"Medians of {report['repeats']} fresh processes each, alternating. {m['date']}; {m['cores']} cores, load "
        f"average {m['load_average_before']} before and {m['load_average_after']} after; {m['platform']}; Python "
        f"{m['python']}; inspect_ai {m['inspect_ai']}; lgmt-tasks {m['version']}. A loaded machine inflates the wall "
        "seconds; CPU seconds (user + system) move much less."
        + ("" if report["package"] == "installed" else f" Package measured: the copy in `{report['package']}`."),
        "",
        f"Importing the entry point (`{ENTRY_POINT}`), what every `inspect eval` pays once lgmt-tasks is installed; "
        f"target: adds ≤ {report['targets']['entry_point_ratio']:.0%} to `import inspect_ai`.",
        "",
        "| measure | `import inspect_ai` | entry point adds | ratio | ≤ target |",
        "|---|---:|---:|---:|---|",
        f"| `-X importtime`, cumulative (s) | {it['inspect_ai_s']:.3f} | {it['entry_point_s']:.3f} | "
        f"{it['ratio']:.1%} | {'yes' if it['meets_target'] else 'no'} |",
        f"| process wall (s) | {wall['inspect_ai']['wall_s']:.3f} | {wall['entry_point_added_s']:.3f} | "
        f"{wall['ratio']:.1%} | {'yes' if wall['ratio'] <= report['targets']['entry_point_ratio'] else 'no'} |",
        f"| process CPU (s) | {wall['inspect_ai']['cpu_s']:.3f} | {wall['entry_point_added_cpu_s']:.3f} | "
        f"{wall['cpu_ratio']:.1%} | {'yes' if wall['cpu_ratio'] <= report['targets']['entry_point_ratio'] else 'no'} |",
        "",
        "What the entry point imports beyond Inspect (`-X importtime` self time, last run): "
        + ", ".join(f"{name} {s:.3f} s" for name, s in it["top_packages_s"].items())
        + ".",
        "",
        f"The `lgmt` console script; target ≤ {report['targets']['cli_s']} s on an idle machine. `python -c pass` "
        f"(the interpreter alone) took {python_s:.3f} s wall.",
        "",
        "| command | wall (s) | CPU (s) | ≤ target |",
        "|---|---:|---:|---|",
    ]
    for name, r in report["cli"].items():
        ok = "yes" if r["meets_target"] else "no"
        lines.append(f"| `lgmt {name}` | {r['wall_s']:.3f} | {r['cpu_s']:.3f} | {ok} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
