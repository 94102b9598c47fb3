"""Every LogicAsker yes-test needs every premise, and its effective depth equals its length, on a lengths 1-7 build.

Builds `lgmt build logicasker --length 1..7 --per-skill N` (default N = 1: 644 tests, 322 yes; the build issue #27
measured), writes it as `lgmt build` does, then re-reads every row from its columns with `lgmt verify`'s claims
(`lgmt_tasks.logicasker.claims`): the answer, one `premise needed` claim per premise of every yes-test (without that
premise the conclusion does not follow), and the effective-depth column against the length. Z3 re-proves every
claim (`--prover z3`, all rows); `--prover eprover` asks E instead (the second prover). Too slow for the test suite
(minutes; the tests check the default build and a lengths 1-3 build of a few skills the same way):

    python benchmarks/logicasker_minimal_premises.py [--per-skill 1] [--num-proc 2] [--prover z3]

Writes `benchmarks/results/logicasker_minimal_premises.json` and exits non-zero on any exception.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from lgmt_tasks.logicasker.build import build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.claims import PREMISE_NEEDED
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.logicasker.generate import NEEDLESS_PREMISE
from lgmt_tasks.verify.dataset import verify_dataset

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "logicasker_minimal_premises.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-skill", type=int, default=1, help="Tests per skill and length.")
    parser.add_argument("--num-proc", type=int, default=2, help="Processes for the build.")
    parser.add_argument("--prover", default="z3", help="z3 (default) or eprover.")
    args = parser.parse_args()
    config = LogicAskerConfig(lengths=tuple(range(1, 8)), per_skill=args.per_skill)
    start = time.perf_counter()
    build = build_logicasker(config, num_proc=args.num_proc)
    build_s = time.perf_counter() - start
    rows = list(build.dataset)
    rejected = sum(c.get(NEEDLESS_PREMISE, 0) for c in build.stats.dropped.values())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "logicasker"
        write_logicasker_repo(build, folder)
        start = time.perf_counter()
        verified = verify_dataset(folder, prover=args.prover, timeout_s=10.0)
        verify_s = time.perf_counter() - start
    summary = verified.summary()
    needed = summary["by_claim"].get(PREMISE_NEEDED, {})
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
        "config": {"lengths": "1..7", "per_skill": args.per_skill, "seed": config.seed},
        "prover": args.prover,
        "tests": len(rows),
        "yes": sum(r["answer"] == "yes" for r in rows),
        "tests_by_length": dict(sorted(Counter(str(r["length"]) for r in rows).items())),
        "attempts_rejected_for_a_needless_premise": rejected,
        "premise_needed_claims": needed,
        "yes_tests_with_a_needless_premise": len(
            {d["id"] for d in summary["disagreements"] if d["claim"].startswith("premise")}
        ),
        "effective_depth_differs_from_length": sum(r["effective_depth"] != r["length"] for r in rows),
        "disagreements": summary["disagreements"],
        "undecided": summary["undecided"],
        "unparsable": summary["unparsable_items"],
        "build_seconds": round(build_s, 1),
        "verify_seconds": round(verify_s, 1),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k not in ("disagreements",)}, indent=2))
    bad = (
        result["yes_tests_with_a_needless_premise"]
        + result["effective_depth_differs_from_length"]
        + len(result["disagreements"])
        + len(result["undecided"])
        + len(result["unparsable"])
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
