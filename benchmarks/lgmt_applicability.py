"""Applicability of the 20 LGMT relations under `direction=paper`, `forward` and `any`, per source dataset (issue #25).

For each source, the proven source cases (loaded and proven exactly as the builder does: `load_sources`, then
`prove_sources`) are surveyed: per relation and direction, the number of cases with at least one site, i.e. the
`--per-mr all` candidate pool of that relation (`survey.applicability`). The `paper` pool is also split by the
direction of its sites (`survey.direction_counts(..., direction="paper")`: e.g. MR-E1.2's forward De Morgan steps
and extended negated →/↔/⊕), so the README can say which part of each paper pool is the law as written.

Sources: `generated` (the default build's 300 source problems, seed 0), FOLIO v2 train (the paper's), ProverQA dev
(easy, medium and hard together, and each level alone), LogicNLI dev and test (the loader's default
consistent-subset mode). The paper's own group counts (Table 9; 200 is its sampling cap, the others are whole
candidate pools) are written beside them as constants, to compare orders of magnitude: our sources are not all the
paper's (it used 995 FOLIO v2 train cases, 1,000 ProverQA and 4,245 LogicNLI cases;
`lgmt_tasks/lgmt/issue25_paper_reading.md` §1).

Writes `benchmarks/results/lgmt_applicability.json` (and `.md`) and prints the table (Markdown). Not part of
`make bench` (`run_all.py` runs `bench_*.py`).
Run: `.venv/bin/python benchmarks/lgmt_applicability.py [--sources folio logicnli] [--num-proc 2]` from the
repository root (needs ../shared/data).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from machine import machine_info  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.survey import applicability, direction_counts
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.pipeline import SourceConfig, load_sources, prove_sources

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"
OUT = RESULTS / "lgmt_applicability.json"

DIRECTIONS = ("paper", "forward", "any")

SOURCES: dict[str, tuple[Path, ...]] = {
    "generated": (),
    "folio": (DATA / "folio" / "folio_v2_train.jsonl",),
    "proverqa": tuple(DATA / "proverqa" / f"proverqa_dev_{level}.jsonl" for level in ("easy", "medium", "hard")),
    # One level each: which 1,000 of the 1,500 the paper's "complete set of 1,000" could be (README, paper set).
    **{
        f"proverqa_{level}": (DATA / "proverqa" / f"proverqa_dev_{level}.jsonl",)
        for level in ("easy", "medium", "hard")
    },
    "logicnli": (DATA / "logicnli" / "logicnli_dev.jsonl", DATA / "logicnli" / "logicnli_test.jsonl"),
}

PAPER_GROUPS: dict[str, int] = {
    mr: {"MR-E1.3": 42, "MR-E1.5": 22, "MR-E2.1": 12, "MR-E2.2": 15, "MR-E2.3": 0}.get(mr, 200) for mr in RELATIONS
}
"""Groups per relation in the paper's evaluation set, implied by Table 9 (each MVR is k/n with one n per relation;
§4.3's total 3,091 = 15 × 200 + 42 + 22 + 12 + 15). 200 is the sampling cap ("up to 200 instances per sub-rule"),
so only the smaller numbers are whole candidate pools; MR-E2.3 had none ("–", App. D)."""


def source_cases(name: str, paths: tuple[Path, ...], num_proc: int) -> tuple[list[Case], dict[str, Any]]:
    """The proven source cases of one source, as the builder has them, with load and prove counts and seconds."""
    default = LgmtConfig()  # the default build's generated source: its seed, size and timeout
    if name == "generated":
        configs = default.source_configs()
    else:
        source = name.split("_")[0]  # `proverqa_easy`: one level of proverqa
        configs = [SourceConfig(source, str(p), default.seed, timeout_ms=default.timeout_ms) for p in paths]
    stats = BuildStats()
    start = time.perf_counter()
    with process_pool(num_proc) as workers:
        loaded = load_sources(configs, stats, workers)
        proven = prove_sources(loaded, stats, default.timeout_ms, workers)
    info = {
        "files": [str(p.relative_to(DATA.parent)) for p in paths],
        "loaded": len(loaded),
        "cases": len(proven),
        "load_and_prove_s": round(time.perf_counter() - start, 2),
    }
    return proven, info


def survey(cases: list[Case]) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]], float]:
    """Per relation: cases with ≥ 1 site under each direction, and the paper pool split by site direction."""
    start = time.perf_counter()
    tables = {d: applicability(cases, direction=d) for d in DIRECTIONS}
    counts = {mr: {d: tables[d][mr][0] for d in DIRECTIONS} for mr in RELATIONS}
    paper_split = {
        mr: dict(sorted(direction_counts(cases, r, direction="paper").items()))
        for mr, r in RELATIONS.items()
        if mr.startswith("MR-E")
    }
    return counts, paper_split, round(time.perf_counter() - start, 2)


def markdown(results: dict[str, Any]) -> str:
    sources = results["sources"]
    header = "| relation | " + " | ".join(f"{name} ({s['cases']})" for name, s in sources.items())
    lines = [
        header + " | paper's groups (Table 9) |",
        "|---" + "|---:" * (len(sources) + 1) + "|",
    ]
    for mr in RELATIONS:
        cells = []
        for s in sources.values():
            c = s["relations"][mr]
            cells.append(f"**{c['paper']:,}** / {c['forward']:,} / {c['any']:,}")
        lines.append(f"| {mr} | " + " | ".join(cells) + f" | {PAPER_GROUPS[mr]} |")
    lines += [
        "",
        "Cells: proven source cases with at least one site under **paper** / forward / any (the `--per-mr all` "
        "candidate pool). The paper's 200 is its sampling cap; the smaller numbers are its whole pools.",
    ]
    split = []
    for mr in RELATIONS:
        parts = [
            f"{name} {', '.join(f'{d} {n}' for d, n in s['paper_by_direction'][mr].items()) or '0'}"
            for name, s in sources.items()
            if mr in s["paper_by_direction"]
        ]
        if parts and any(set(s["paper_by_direction"][mr]) - {"forward"} for s in sources.values()):
            split.append(f"- {mr}: " + "; ".join(parts))
    if split:
        lines += [
            "",
            "Paper pools by site direction (cases with ≥ 1 site of that kind, where not all forward):",
            *split,
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sources", nargs="+", default=list(SOURCES), choices=list(SOURCES))
    parser.add_argument("--num-proc", type=int, default=1, help="Processes for loading and proving the sources.")
    args = parser.parse_args()
    wall = time.perf_counter()
    sources: dict[str, Any] = {}
    for name in args.sources:
        cases, info = source_cases(name, SOURCES[name], args.num_proc)
        counts, split, seconds = survey(cases)
        sources[name] = {**info, "survey_s": seconds, "relations": counts, "paper_by_direction": split}
        print(f"{name}: {info['cases']} proven cases; load+prove {info['load_and_prove_s']} s, survey {seconds} s")
    results: dict[str, Any] = {
        "machine": machine_info(
            timeout_ms=DEFAULT_TIMEOUT_MS,
            num_proc=args.num_proc,
            command="python benchmarks/lgmt_applicability.py " + shlex.join(sys.argv[1:]),
        ),
        "directions": list(DIRECTIONS),
        "paper_groups_table9": PAPER_GROUPS,
        "sources": sources,
        "total_s": round(time.perf_counter() - wall, 2),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    OUT.with_suffix(".md").write_text(markdown(results) + "\n", encoding="utf-8")
    print("\n" + markdown(results) + f"\n\nTotal {results['total_s']} s; written to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
