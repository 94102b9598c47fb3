"""How many groups adaptive testing saves, and when it does not pay (issue #37): the table of the READMEs.

Twenty relations with planted violation rates spread evenly over 0.02-0.40 (the issue's setting), simulated as an
adaptive LGMT run serves them (`lgmt_tasks.adaptive.simulate`: one group per open relation per round, decisions
from the Beta-binomial confidence sequences at alpha 0.05 over the 20 relations). For each question:

- `threshold` ("which relations violate more than tau = 0.10?", margin 0.05) and `weakest` ("which relation
  violates most?", margin 0.05): the mean groups of the adaptive run, the decisions beyond the margin and the
  relations left undecided, against the fixed-n design that answers the same question with Wilson intervals at the
  same level (`simulate.fixed_n`; n chosen in advance for the planted rates);
- `estimate` ("every rate to ± 0.05"): the groups per relation at which the confidence sequence, and Wilson's fixed-n
  interval, are at most 0.10 wide at the relation's rate. Here adaptivity does not pay: the anytime interval is
  wider, so `lgmt plan --rate R --width 0.1` (fixed n) is the tool.

Writes `benchmarks/results/adaptive_simulation.json` and `.md`. Run from the repository root:
`.venv/bin/python benchmarks/adaptive_simulation.py [--runs 200] [--weakest-runs 40]`.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from statistics import NormalDist

from machine import machine_info  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks.adaptive.design import Settings
from lgmt_tasks.adaptive.sequences import confidence_sequence, per_relation_alpha
from lgmt_tasks.adaptive.simulate import fixed_n, simulate
from lgmt_tasks.scorers.intervals import wilson_interval

RESULTS = Path(__file__).with_name("results")
RATES = tuple(round(0.02 + 0.38 * i / 19, 4) for i in range(20))
POOL = 100_000  # no relation runs out: the design's own cost


def width_needed(rate: float, width: float, interval) -> int:  # type: ignore[no-untyped-def]
    """The smallest n at which `interval(n, rate * n)` is at most `width` wide."""
    n = 1
    while True:
        low, high = interval(n, round(rate * n))
        if high - low <= width:
            return n
        n += 1 if n < 200 else max(1, n // 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="simulated runs of the threshold design")
    parser.add_argument("--weakest-runs", type=int, default=40, help="simulated runs of the weakest design")
    args = parser.parse_args()
    rows = []
    for design, runs in (("threshold", args.runs), ("weakest", args.weakest_runs)):
        settings = Settings(design)  # type: ignore[arg-type]
        start = time.perf_counter()
        result = simulate(RATES, settings, pool=POOL, runs=runs, seed=37)
        fixed = fixed_n(RATES, settings) * len(RATES)
        rows.append(
            {
                "question": design,
                "runs": runs,
                "adaptive_groups": round(result.groups, 1),
                "fixed_n_groups": fixed,
                "saving": round(fixed / result.groups, 2),
                "wrong_decisions": result.wrong,
                "undecided_per_run": round(result.undecided, 3),
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    level = per_relation_alpha(0.05, len(RATES))
    z = NormalDist().inv_cdf(1 - level / 2)
    sequence_n = sum(
        width_needed(r, 0.10, lambda n, v: (lambda i: (i.lower, i.upper))(confidence_sequence(n, v, level)))
        for r in RATES
    )
    wilson_n = sum(width_needed(r, 0.10, lambda n, v: wilson_interval(v, n, z=z)) for r in RATES)
    rows.append(
        {
            "question": "estimate",
            "runs": 0,
            "adaptive_groups": sequence_n,
            "fixed_n_groups": wilson_n,
            "saving": round(wilson_n / sequence_n, 2),
            "wrong_decisions": 0,
            "undecided_per_run": 0.0,
            "seconds": 0.0,
        }
    )
    RESULTS.mkdir(exist_ok=True)
    record = {"rates": RATES, "tau": 0.10, "margin": 0.05, "alpha": 0.05, "rows": rows, "machine": machine_info()}
    (RESULTS / "adaptive_simulation.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    lines = [
        "| question | adaptive groups (mean) | fixed-n groups | fixed-n / adaptive | wrong | undecided / run |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['question']} | {row['adaptive_groups']:,} | {row['fixed_n_groups']:,} | {row['saving']:.2f} | "
            f"{row['wrong_decisions']} | {row['undecided_per_run']} |"
        )
    (RESULTS / "adaptive_simulation.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
