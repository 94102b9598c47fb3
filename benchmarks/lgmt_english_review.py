"""The English of LGMT follow-ups on FOLIO, measured: formal-relation style markers and the reviewed sample (issue #26).

Builds FOLIO v2 validation with all 20 relations (`per_mr=all`, seed 0, the default `direction=paper`), then
reports (1) how many follow-ups speak a relation in the paper's formal phrasing ("x bears relation R to y") for a
predicate with a natural name, a style marker beside natural source English (target: at most 3% of follow-ups), and
for a placeholder symbol that MR-S2/MR-P3 introduce by their law (the paper's own phrasing for placeholders);
(2) the seeded sample of 100 changed sentences that the review reads (`lgmt_tasks.lgmt.english_review`), written to
`benchmarks/results/lgmt_english_review_sample.jsonl`, and, when the verdicts in
`tests/lgmt/data/english_review.jsonl` are verdicts on this very sample, how many are ungrammatical under the
checklist `lgmt_tasks/lgmt/english_checklist.md` (target: at most 10).

Writes `benchmarks/results/lgmt_english_review.json`. About a minute on 2 cores.
Run: `.venv/bin/python benchmarks/lgmt_english_review.py` from the repository root (needs ../shared/data).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from machine import machine_info  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english_review import review_sample, style_markers

ROOT = Path(__file__).resolve().parents[1]
FOLIO = ROOT.parent / "shared" / "data" / "folio" / "folio_v2_validation.jsonl"
RESULTS = ROOT / "benchmarks" / "results"
VERDICTS = ROOT / "tests" / "lgmt" / "data" / "english_review.jsonl"


def main() -> int:
    if not FOLIO.exists():
        print(f"needs {FOLIO} (the shared data folder beside the repository)", file=sys.stderr)
        return 2
    rows = build_lgmt(LgmtConfig(source="folio", source_path=str(FOLIO), per_mr="all")).dataset.to_list()
    markers = style_markers(rows)
    sample = review_sample(rows)
    RESULTS.mkdir(parents=True, exist_ok=True)
    with (RESULTS / "lgmt_english_review_sample.jsonl").open("w", encoding="utf-8") as f:
        for item in sample:
            f.write(json.dumps(asdict(item), ensure_ascii=False) + "\n")
    review: dict[str, Any] = {"verdicts": str(VERDICTS.relative_to(ROOT)), "matches_sample": False}
    if VERDICTS.exists():
        verdicts = [json.loads(line) for line in VERDICTS.read_text(encoding="utf-8").splitlines() if line.strip()]
        review["matches_sample"] = [v["sentence"] for v in verdicts] == [s.sentence for s in sample]
        counts = Counter(v["verdict"] for v in verdicts)
        review["sentences"] = len(verdicts)
        review["ungrammatical"] = counts["ungrammatical"]
        review["items"] = dict(sorted(Counter(i for v in verdicts for i in v["items"]).items()))
    out = {
        "machine": machine_info(),
        "build": {"source": "folio", "source_path": "shared/data/folio/folio_v2_validation.jsonl", "per_mr": "all"},
        "style_markers": markers,
        "sample": {"size": len(sample), "seed": 26},
        "review": review,
    }
    (RESULTS / "lgmt_english_review.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in markers.items() if k != "per_relation"}, indent=2))
    print(json.dumps(review, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
