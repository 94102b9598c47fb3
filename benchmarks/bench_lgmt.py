"""LGMT build speed and relation applicability per source dataset.

Writes `benchmarks/results/lgmt.json` and `benchmarks/results/lgmt_applicability.md`, and prints both tables.
Run: `.venv/bin/python benchmarks/bench_lgmt.py [--per-mr N]` from the repository root (needs ../shared/data).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import date
from pathlib import Path

import z3

from lgmt_tasks import __version__
from lgmt_tasks.builders.lgmt import LgmtConfig, build_lgmt, prove_sources
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.relations import RELATIONS
from lgmt_tasks.relations.survey import applicability
from lgmt_tasks.sources.common import load_source
from lgmt_tasks.sources.generated import generate_cases

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
    return load_source(name, path)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-mr", type=int, default=10)
    args = parser.parse_args()
    rows, speed = [], []
    for name, path in SOURCES.items():
        cases = prove_sources(source_cases(name, path), BuildStats(), 10_000)
        table = applicability(cases)
        rows.append((name, len(cases), table))
        config = LgmtConfig(source=name, source_path=str(path) if path else None, per_mr=args.per_mr)
        start = time.perf_counter()
        build = build_lgmt(config)
        seconds = time.perf_counter() - start
        tried = sum(c.get("tried", 0) for m, c in build.stats.counts.items() if m in RELATIONS)
        speed.append({"source": name, "groups": len(build.dataset), "tried": tried, "seconds": round(seconds, 2),
                      "groups_per_s": round(len(build.dataset) / seconds, 1),
                      "candidate_pool": build.stats.notes["candidate_pool"]})
    header = "| relation | " + " | ".join(f"{n} ({k} cases)" for n, k, _ in rows) + " |"
    lines = [header, "|---" * (len(rows) + 1) + "|"]
    for mr in RELATIONS:
        cells = [f"{t[mr][0]} ({t[mr][0] / max(t[mr][1], 1):.0%})" for _, _, t in rows]
        lines.append(f"| {mr} | " + " | ".join(cells) + " |")
    md = "\n".join(lines)
    speed_md = "\n".join(
        ["| source | groups | follow-ups tried | seconds | groups/s | candidate pool |", "|---|---|---|---|---|---|"]
        + [f"| {s['source']} | {s['groups']} | {s['tried']} | {s['seconds']} | {s['groups_per_s']} | "
           f"{s['candidate_pool']} |" for s in speed]
    )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "lgmt_applicability.md").write_text(md + "\n", encoding="utf-8")
    meta = {"date": date.today().isoformat(), "version": __version__, "cores": os.cpu_count(),
            "python": platform.python_version(), "z3": z3.get_version_string(), "per_mr": args.per_mr}
    (RESULTS / "lgmt.json").write_text(json.dumps({"machine": meta, "build": speed}, indent=2) + "\n")
    print(md, "\n\n" + speed_md, "\n\n", json.dumps(meta))


if __name__ == "__main__":
    main()
