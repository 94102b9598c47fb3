"""The paper-scale LGMT pool: `--per-mr all` over the union of the source datasets, unsharded and sharded.

The pool is every applicable (proven source case, relation) pair of the paper's set as `--source paper` reads it
(`lgmt_tasks.sources.paper.PAPER_FILES`: FOLIO v2 train, LogicNLI dev and test problems with premises restricted to
each story's maximal consistent subset, the loader's default, ProverQA dev easy, medium, hard), built in one
`build_lgmt` call and reported beside the paper's pool of 76,298 (`PAPER_CANDIDATE_POOL`). Measured, each build in
its own fresh Python process so that peak memory is that build's alone:

* the unsharded build with 1 and with 2 processes: wall seconds, CPU seconds (`cpu_meter.CpuMeter`), peak memory
  (`resource.getrusage`: the builder process's peak RSS; and, polled every 0.2 s with psutil, the peak RSS of any
  one worker and the peak sum over the whole process tree), groups per source and relation, and the Z3 proof time
  measured in the same run with the P2 ratio wall / (proof time / processes) (issue #36, goal at most 1.5;
  `build_clock.py`);
* the sharded build as a job array would run it, here one shard after the other (`--shards`, each with the same
  process count), then the merge (`merge_shards`); the merged rows and statistics must equal the unsharded build's
  (the script stops otherwise).

Writes `benchmarks/results/pool.json` and `pool.md` after every run (a cut-short run keeps what it measured).
Run: `.venv/bin/python benchmarks/bench_pool.py [--num-proc 2 1] [--shards 2]` from the repository root (needs
../shared/data). `--one` is the worker mode the script calls itself with.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psutil  # a dependency of inspect_ai

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"

PAPER_POOL = 76298
"""The paper's candidate pool (`lgmt_tasks.sources.paper.PAPER_CANDIDATE_POOL`; checked in `machine`)."""


def pool_sources() -> list[tuple[str, str]]:
    """(source, path) pairs of the pool, in `--source`/`--source-path` order: the paper's set's files."""
    from lgmt_tasks.sources.paper import PAPER_FILES

    return [(source, str(DATA / file)) for source, file in PAPER_FILES]


def pool_config(only: list[str], mrs: list[str]) -> Any:
    """The pool's config (`only`: a subset of the sources, `mrs`: of the relations, for a quick trial run)."""
    from lgmt_tasks.lgmt.config import LgmtConfig
    from lgmt_tasks.lgmt.relations import RELATIONS

    (source, path), *rest = [(s, p) for s, p in pool_sources() if not only or s in only]
    return LgmtConfig(
        source=source, source_path=path, extra_sources=tuple(rest), per_mr="all", mrs=tuple(mrs or RELATIONS)
    )


class MemMeter:
    """Peak RSS of this process tree, polled: the largest sum over all processes and the largest worker."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval = interval
        self.peak_tree = 0
        self.peak_worker = 0
        self._me = psutil.Process()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _poll(self) -> None:
        total = 0
        for p in [self._me, *self._me.children(recursive=True)]:
            try:
                rss = p.memory_info().rss
            except psutil.Error:
                continue
            total += rss
            if p.pid != self._me.pid:
                self.peak_worker = max(self.peak_worker, rss)
        self.peak_tree = max(self.peak_tree, total)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._poll()

    def __enter__(self) -> MemMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def one(num_proc: int, shard: str | None, out: Path | None, only: list[str], mrs: list[str]) -> dict[str, Any]:
    """One build in this (fresh) process; a shard is written to `out` for the merge."""
    from build_clock import timed_lgmt_build  # benchmarks/ is on sys.path when this script runs
    from cpu_meter import CpuMeter

    from lgmt_tasks.builders.parallel import Shard
    from lgmt_tasks.lgmt.build import build_lgmt_shard

    config = pool_config(only, mrs)
    with MemMeter() as mem, CpuMeter() as cpu:
        start = time.perf_counter()
        if shard is None:
            build, clocks = timed_lgmt_build(config, num_proc=num_proc)
            groups = len(build.dataset)
            notes = build.stats.notes
            extra = {
                "proof_time": clocks,
                "candidate_pool": notes["candidate_pool"],
                "proven_by_source": notes.get("proven_by_source", {}),
                "pool_by_source": notes.get("pool_by_source", {}),
                "groups_by_source": notes.get("groups_by_source", {}),
                "dropped": build.stats.total_dropped(),
            }
        else:
            from lgmt_tasks.lgmt.shards import write_lgmt_shard

            part = build_lgmt_shard(config, Shard.parse(shard), num_proc=num_proc)
            groups = sum(len(rows) for rows, _ in part.results.values())
            extra = {"units": len(part.results), "of_units": part.jobs}
        seconds = time.perf_counter() - start
    if shard is not None:
        assert out is not None
        write_lgmt_shard(part, out)
    elif out is not None:
        from lgmt_tasks.lgmt.card import write_lgmt_repo

        write_lgmt_repo(build, out)
    return {
        "num_proc": num_proc,
        "shard": shard,
        "groups": groups,
        "seconds": round(seconds, 1),
        "groups_per_s": round(groups / seconds, 1),
        "peak_rss_main_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "peak_rss_worker_mb": round(mem.peak_worker / 2**20),
        "peak_rss_tree_mb": round(mem.peak_tree / 2**20),
        **cpu.result(),
        **extra,
    }


def spawn(
    num_proc: int, only: list[str], mrs: list[str], shard: str | None = None, out: Path | None = None
) -> dict[str, Any]:
    """Run `one` in a fresh process and return its measurements (with the load averages around it)."""
    before = [round(x, 2) for x in os.getloadavg()]
    command = [sys.executable, __file__, "--one", str(num_proc)]
    command += ["--shard", shard] if shard else []
    command += ["--out", str(out)] if out else []
    command += [a for name in only for a in ("--only", name)] + [a for mr in mrs for a in ("--mr", mr)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"{shlex.join(command)} failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        **result,
        "peak_rss_any_child_so_far_mb": round(children / 1024),
        "load_before": before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def machine(only: list[str], mrs: list[str]) -> dict[str, Any]:
    import z3

    from lgmt_tasks import __version__
    from lgmt_tasks.builders.parallel import start_method
    from lgmt_tasks.sources.paper import PAPER_CANDIDATE_POOL

    assert PAPER_CANDIDATE_POOL == PAPER_POOL

    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "version": __version__,
        "cores": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "z3": z3.get_version_string(),
        "start_method": start_method(),
        "sources": [f"{s} {Path(p).relative_to(DATA.parent)}" for s, p in pool_sources() if not only or s in only],
        "relations": mrs or "all 20",
        "command": "python benchmarks/bench_pool.py " + shlex.join(sys.argv[1:]),
    }


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [
        "| build | processes | groups | seconds | groups/s | CPU s (total; critical path) | Z3 proof s | P2 ratio | "
        "peak RSS MB (main; largest worker; whole tree) | load before → after |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in report["runs"]:
        name = f"shard {r['shard']}" if r.get("shard") else r.get("kind", "unsharded")
        proof = r.get("proof_time", {})
        lines.append(
            f"| {name} | {r['num_proc']} | {r['groups']} | {r['seconds']} | {r['groups_per_s']} | "
            f"{r['total_cpu_s']}; {r['critical_path_cpu_s']} | {proof.get('prover_s', '–')} | "
            f"{proof.get('p2_ratio', '–')} | {r['peak_rss_main_mb']}; {r['peak_rss_worker_mb']}; "
            f"{r['peak_rss_tree_mb']} | {r['load_before'][0]} → {r['load_after'][0]} |"
        )
    if "sharded" in report:
        s = report["sharded"]
        lines += [
            "",
            f"Sharded: {s['shards']} shards one after the other ({s['shard_seconds']} s) + merge "
            f"({s['merge_seconds']} s) = {s['total_seconds']} s; merged build byte-identical to the unsharded one: "
            f"{s['identical']}.",
        ]
    first = next((r for r in report["runs"] if "pool_by_source" in r), None)
    if first:
        pools, groups = first["pool_by_source"], first["groups_by_source"]
        sources = sorted(pools)
        mrs = sorted({mr for by in pools.values() for mr in by})
        lines += [
            "",
            "P2 ratio (issue #36): the wall time over the Z3 proof time per process, both measured in the same run "
            "(`build_clock.py`; goal at most 1.5). Source-fidelity check: "
            + "; ".join(
                f"{r['num_proc']} processes {r['proof_time']['fidelity_s']} s summed over the processes"
                for r in report["runs"]
                if "proof_time" in r
            )
            + ".",
            "",
            f"Candidate pool {first['candidate_pool']:,} (the paper's {PAPER_POOL:,}), groups {first['groups']:,} "
            f"(dropped {first['dropped']}). Pool / groups per relation and source:",
            "",
            "| relation | " + " | ".join(sources) + " |",
            "|---" + "|---:" * len(sources) + "|",
            "| proven source cases | " + " | ".join(str(first["proven_by_source"].get(s, 0)) for s in sources) + " |",
        ]
        for mr in mrs:
            cells = [f"{pools[s].get(mr, 0)} / {groups.get(s, {}).get(mr, 0)}" for s in sources]
            lines.append(f"| {mr} | " + " | ".join(cells) + " |")
        totals = [f"{sum(pools[s].values())} / {sum(groups.get(s, {}).values())}" for s in sources]
        lines.append("| all | " + " | ".join(totals) + " |")
    lines += [
        "",
        f"{m['cores']} cores, {m['memory_gb']} GB; {m['platform']}; Python {m['python']}; Z3 {m['z3']}; lgmt-tasks "
        f"{m['version']}; {m['date']}. Sources: {'; '.join(m['sources'])}.",
        f"Command: `{m['command'].strip()}`",
    ]
    return "\n".join(lines)


def save(report: dict[str, Any], results: Path) -> None:
    results.mkdir(parents=True, exist_ok=True)
    (results / "pool.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (results / "pool.md").write_text(markdown(report) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-proc", type=int, nargs="+", default=[2, 1], help="Process counts (in this order).")
    parser.add_argument("--shards", type=int, default=2, help="Shards to run one after the other (0: none).")
    parser.add_argument("--only", action="append", default=[], help="Use only this source (repeatable; trials).")
    parser.add_argument("--mr", action="append", default=[], help="Use only this relation (repeatable; trials).")
    parser.add_argument("--results", type=Path, default=RESULTS, help="Folder for pool.json and pool.md.")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--shard", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one(args.one, args.shard, Path(args.out) if args.out else None, args.only, args.mr)))
        return
    import tempfile

    from lgmt_tasks.lgmt.build import merge_shards
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.shards import read_lgmt_shard

    report: dict[str, Any] = {"machine": machine(args.only, args.mr), "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        whole = work / "whole"
        for i, n in enumerate(args.num_proc):
            run = spawn(n, args.only, args.mr, out=whole if i == 0 else None)
            report["runs"].append({"kind": "unsharded", **run})
            save(report, args.results)
            print(json.dumps({k: v for k, v in run.items() if not k.endswith("_by_source")}), flush=True)
            if i == 0 and args.shards:
                n_shards, procs = args.shards, n
                for k in range(n_shards):
                    run = spawn(procs, args.only, args.mr, shard=f"{k}/{n_shards}", out=work / f"shard{k}")
                    report["runs"].append({"kind": "shard", **run})
                    save(report, args.results)
                    print(json.dumps(run), flush=True)
                start = time.perf_counter()
                merged = merge_shards([read_lgmt_shard(work / f"shard{k}") for k in range(n_shards)])
                write_lgmt_repo(merged, work / "merged")
                merge_seconds = round(time.perf_counter() - start, 1)
                identical = files_of(work / "merged") == files_of(whole)
                shard_seconds = round(sum(r["seconds"] for r in report["runs"] if r["kind"] == "shard"), 1)
                report["sharded"] = {
                    "shards": n_shards,
                    "num_proc": procs,
                    "shard_seconds": shard_seconds,
                    "merge_seconds": merge_seconds,
                    "total_seconds": round(shard_seconds + merge_seconds, 1),
                    "identical": identical,
                }
                save(report, args.results)
                if not identical:
                    raise SystemExit("the merged shards differ from the unsharded build")
    print(markdown(report))


if __name__ == "__main__":
    main()
