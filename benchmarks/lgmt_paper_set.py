"""The paper's evaluation set, built as `lgmt build lgmt --source paper` builds it, beside the paper's figures.

LGMT (§4.1, §4.3) samples up to 200 groups per relation from the candidate pool over FOLIO (995 source cases),
LogicNLI (4,245) and ProverQA (1,000): 76,298 candidates, 3,091 groups. This script builds our counterpart from the
shared data folder (`source="paper"`: the files `lgmt_tasks.sources.paper.PAPER_FILES` names, FOLIO v2, LogicNLI dev +
test, ProverQA dev easy + medium + hard) with the default build parameters (200 groups per relation, seed 0, the default
`direction`, which it records), once, and reports per source the records read, the cases loaded, proven and used in
a group, the candidate pool and the groups, and per relation the pool and the groups, each beside the paper's number
(per relation: the count Table 9's MVRs imply).

It also measures, in the same run, the build's speed against the proof work it needs (issue #36, P2;
`build_clock.py`): the wall time, the seconds spent in the prover summed over the processes, the P2 ratio wall /
(proof time / processes) (goal at most 1.5), and the seconds the source-fidelity check took, with the load average
before and after (the JSON's `proof_time`, one paragraph of the Markdown).

Writes `benchmarks/results/lgmt_paper_set.json` and `lgmt_paper_set.md`, and prints the tables. One build, no
repeats: a few minutes on 2 cores, so it is cheap to re-run when a default changes.
Run: `.venv/bin/python benchmarks/lgmt_paper_set.py [--num-proc 2] [--direction D] [--out FOLDER]` from the
repository root (needs ../shared/data; `--out` also writes the build, as `lgmt build` would).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from build_clock import load, timed_lgmt_build  # benchmarks/ is on sys.path when this script runs
from cpu_meter import CpuMeter  # benchmarks/ is on sys.path when this script runs
from machine import machine_info  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.sources.paper import (
    PAPER,
    PAPER_CANDIDATE_POOL,
    PAPER_GROUPS,
    PAPER_GROUPS_PER_RELATION,
    PAPER_SOURCE_CASES,
    PAPER_SPLITS,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"
SOURCES = ("folio", "logicnli", "proverqa")


def relative(path: str | None) -> str | None:
    """A data path relative to the folder holding `data/` (the JSON is the same on every machine)."""
    if path is None:
        return None
    try:
        return str(Path(path).resolve().relative_to(DATA.parent.resolve()))
    except ValueError:
        return path


def report(
    build: Any, data: Path, seconds: float, cpu: dict[str, Any], argv: list[str], clocks: dict[str, Any]
) -> dict[str, Any]:
    stats, rows = build.stats, build.dataset.to_list()
    notes = stats.notes
    read = notes.get("read_by_source", {})
    proven = notes.get("proven_by_source", {})
    pools = notes.get("pool_by_source", {})
    used: dict[str, set[str]] = {s: set() for s in SOURCES}
    groups: dict[str, int] = dict.fromkeys(SOURCES, 0)
    by_relation: dict[str, dict[str, int]] = {mr: {} for mr in RELATIONS}
    for row in rows:
        used[row["source_dataset"]].add(row["source_id"])
        groups[row["source_dataset"]] += 1
        by_mr = by_relation[row["mr"]]
        by_mr[row["source_dataset"]] = by_mr.get(row["source_dataset"], 0) + 1
    sources = {
        s: {
            "files": PAPER_SPLITS[s],
            "records_read": read.get(s, {}).get("records", 0),
            "loaded": read.get(s, {}).get("loaded", 0),
            "proven": proven.get(s, 0),
            "used": len(used[s]),
            "candidate_pool": sum(pools.get(s, {}).values()),
            "groups": groups[s],
            "paper_source_cases": PAPER_SOURCE_CASES[s],
        }
        for s in SOURCES
    }
    relations = {
        mr: {
            "candidates": stats.counts[mr]["candidates"],
            "groups": sum(by_relation[mr].values()),
            "paper_groups": PAPER_GROUPS_PER_RELATION[mr],
            "candidates_by_source": {s: pools.get(s, {}).get(mr, 0) for s in SOURCES},
            "groups_by_source": {s: by_relation[mr].get(s, 0) for s in SOURCES},
        }
        for mr in RELATIONS
    }
    key = build.config.key()
    key["source_path"] = relative(key["source_path"])
    key["extra_sources"] = [[s, relative(p)] for s, p in key.get("extra_sources", ())]
    return {
        "machine": machine_info(command="python benchmarks/lgmt_paper_set.py " + shlex.join(argv)),
        "build_command": reproduce_command("lgmt", build.config, "datasets/lgmt-paper").replace(
            str(data), "../shared/data" if data.resolve() == DATA.resolve() else str(data)
        ),
        "direction": build.config.direction,
        "per_mr": build.config.per_mr,
        "seed": build.config.seed,
        "config": key,
        "seconds": round(seconds, 1),
        **cpu,
        "proof_time": clocks,
        "totals": {
            "source_cases_proven": {"ours": sum(proven.values()), "paper": sum(PAPER_SOURCE_CASES.values())},
            "candidate_pool": {"ours": notes["candidate_pool"], "paper": PAPER_CANDIDATE_POOL},
            "groups": {"ours": len(rows), "paper": PAPER_GROUPS},
            "dropped": stats.total_dropped(),
        },
        # Every source-stage drop by reason (reading: unparsable, free variable, ...; proving: gold label disagrees,
        # contradictory premises, ...), and the slips repaired, beside §4.1's counts.
        "source_drops": source_drops(stats, data),
        "source_counts": {
            _short(bucket, data): dict(c) for bucket, c in sorted(stats.counts.items()) if bucket not in RELATIONS
        },
        "sources": sources,
        "relations": relations,
    }


def _short(bucket: str, data: Path) -> str:
    """A statistics bucket named without the machine's path to the data folder."""
    return bucket.replace(str(data) + "/", "").replace(str(data.resolve()) + "/", "")


def source_drops(stats: Any, data: Path) -> dict[str, dict[str, int]]:
    """Source-stage drops by bucket and reason; the proving stage's shared bucket split by the dropped ids' dataset."""
    out: dict[str, dict[str, int]] = {}
    for bucket, reasons in sorted(stats.dropped.items()):
        if bucket in RELATIONS or not reasons:
            continue
        for reason, n in sorted(reasons.items()):
            ids = stats.dropped_ids.get(bucket, {}).get(reason, [])
            if bucket == "source" and len(ids) == n:  # the proving stage: every source's cases in one bucket
                for dataset in SOURCES:
                    k = sum(str(i).startswith(f"{dataset}_") for i in ids)
                    if k:
                        out.setdefault(f"proving {dataset}", {})[reason] = k
            else:
                out.setdefault(_short(bucket, data), {})[reason] = n
    return out


def proof_lines(result: dict[str, Any]) -> list[str]:
    """The P2 ratio (issue #36) and the source-fidelity cost, measured in the same run (`build_clock`)."""
    c = result.get("proof_time")
    if not c:
        return []
    return [
        f"Speed (issue #36, P2): wall {c['wall_s']} s on {c['cores_used']} processes, Z3 proof time "
        f"{c['prover_s']} s ({c['prover_calls']:,} prover calls, summed over the processes): P2 ratio wall / (proof / "
        f"cores) = **{c['p2_ratio']}** (goal <= {c['p2_goal']}). In CPU seconds: {c['cpu_s']} s of building, "
        f"{c['prover_cpu_s']} s of it in the prover: ratio {c['p2_ratio_cpu']} (what idle, balanced cores would "
        f"give). "
        + (
            f"Source-fidelity check: {c['fidelity_s']} s ({c['fidelity_cpu_s']} CPU s) summed "
            f"over the processes (model load included; {c['fidelity_sentences']:,} sentence pairs), "
            f"{100 * c['fidelity_wall_share']:.1f}% of the wall time per core. "
            if c["fidelity_sentences"]
            else "Source-fidelity check: off (opt-in, `--check-fidelity`). "
        )
        + f"Load average before → after: "
        f"{c['load_before'][0]} → {c['load_after'][0]} (a loaded machine inflates the wall time and so the ratio).",
        "",
    ]


def drop_lines(result: dict[str, Any]) -> list[str]:
    """Every source-stage drop by reason, and the repaired records, as a table (issue #36: beside §4.1's counts)."""
    drops, counts = result.get("source_drops", {}), result.get("source_counts", {})
    if not drops:
        return []
    lines = ["| stage | reason | records |", "|---|---|---:|"]
    for bucket, reasons in drops.items():
        lines += [f"| {bucket} | {reason} | {n:,} |" for reason, n in reasons.items()]
    for bucket, c in counts.items():
        if c.get("repaired records"):
            lines.append(f"| {bucket} | (loaded after repairing a slip with one reading) | {c['repaired records']:,} |")
    return [*lines, ""]


def markdown(result: dict[str, Any]) -> str:
    m, t = result["machine"], result["totals"]
    lines = [
        f"# The paper's evaluation set: ours beside §4.1/§4.3 and Table 9 (direction={result['direction']}, "
        f"per_mr={result['per_mr']}, seed={result['seed']})",
        "",
        f"`{result['build_command']}`: {result['seconds']} s on {m['cores']} cores ({m['date']}, lgmt-tasks "
        f"{m['version']}, Z3 {m['z3']}).",
        "",
        "| source | files | records read | loaded | proven | used in a group | candidate pool | groups | the paper's "
        "source cases |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s, row in result["sources"].items():
        lines.append(
            f"| {s} | {row['files']} | {row['records_read']:,} | {row['loaded']:,} | {row['proven']:,} | "
            f"{row['used']:,} | {row['candidate_pool']:,} | {row['groups']:,} | {row['paper_source_cases']:,} |"
        )
    total = {k: sum(row[k] for row in result["sources"].values()) for k in ("records_read", "loaded", "used")}
    lines.append(
        f"| **total** | | {total['records_read']:,} | {total['loaded']:,} | {t['source_cases_proven']['ours']:,} | "
        f"{total['used']:,} | {t['candidate_pool']['ours']:,} | {t['groups']['ours']:,} | "
        f"{t['source_cases_proven']['paper']:,} |"
    )
    lines += [
        "",
        f"Candidate pool: ours {t['candidate_pool']['ours']:,}, the paper's {t['candidate_pool']['paper']:,}. "
        f"Groups: ours {t['groups']['ours']:,}, the paper's {t['groups']['paper']:,}.",
        "",
        *drop_lines(result),
        *proof_lines(result),
        "| relation | candidates (FOLIO / LogicNLI / ProverQA) | groups (FOLIO / LogicNLI / ProverQA) | paper |",
        "|---|---:|---:|---:|",
    ]
    for mr, row in result["relations"].items():
        cand = " / ".join(f"{row['candidates_by_source'][s]:,}" for s in SOURCES)
        grp = " / ".join(str(row["groups_by_source"][s]) for s in SOURCES)
        lines.append(f"| {mr} | {row['candidates']:,} ({cand}) | {row['groups']} ({grp}) | {row['paper_groups']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="The data folder (folio/, logicnli/, proverqa/).")
    parser.add_argument("--num-proc", type=int, default=2)
    parser.add_argument("--direction", default=None, help="MR-E direction (default: the build's default).")
    parser.add_argument("--out", type=Path, default=None, help="Also write the build here (an lgmt build folder).")
    args = parser.parse_args()
    options = {"direction": args.direction} if args.direction else {}
    config = LgmtConfig(source=PAPER, source_path=str(args.data), **options)
    load_before = load()
    with CpuMeter() as meter:
        start = time.perf_counter()
        build, clocks = timed_lgmt_build(config, num_proc=args.num_proc, progress=True)
        seconds = time.perf_counter() - start
    clocks = {**clocks, "load_before": load_before, "load_after": load()}
    result = report(build, args.data, seconds, meter.result(), sys.argv[1:], clocks)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "lgmt_paper_set.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    text = markdown(result)
    (RESULTS / "lgmt_paper_set.md").write_text(text, encoding="utf-8")
    print(text)
    if args.out is not None:
        from lgmt_tasks.lgmt.card import write_lgmt_repo

        write_lgmt_repo(build, args.out)


if __name__ == "__main__":
    main()
