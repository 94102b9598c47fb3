"""The README's applicability table (issue #25) is the benchmark's result, and the benchmark's FOLIO column is what
the relations do now.

`benchmarks/lgmt_applicability.py` surveys every source (about 75 s, mostly LogicNLI) and writes
`benchmarks/results/lgmt_applicability.json`; the README quotes it. Here the README table is re-rendered from the
JSON and must appear verbatim, and the FOLIO column (FOLIO v2 train, a few seconds) is recomputed live, so neither a
stale README nor a stale JSON survives a change to the relations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "lgmt_applicability.json"
README = ROOT / "lgmt_tasks" / "lgmt" / "README.md"
FOLIO = ROOT.parent / "shared" / "data" / "folio" / "folio_v2_train.jsonl"
COLUMNS = (("generated", "generated"), ("folio", "FOLIO v2 train"), ("proverqa", "ProverQA dev"),
           ("logicnli", "LogicNLI dev+test"))  # fmt: skip


def render(results: dict) -> str:
    """The README table: per relation, Table 9's group count and, per source, `paper / forward / any` counts."""
    sources = results["sources"]
    head = " | ".join(f"{title} ({sources[key]['cases']:,})" for key, title in COLUMNS)
    lines = [f"| relation | paper (Table 9) | {head} |", "|---|---:|" + "---:|" * len(COLUMNS)]
    for mr, implied in results["paper_groups_table9"].items():
        cells = []
        for key, _ in COLUMNS:
            counts = sources[key]["relations"][mr]
            values = [counts[d] for d in ("paper", "forward", "any")]
            cells.append(f"{values[0]:,}" if len(set(values)) == 1 else " / ".join(f"{v:,}" for v in values))
        paper = "–" if implied == 0 else f"{implied}" + (" (cap)" if implied == 200 else "")
        lines.append(f"| {mr} | {paper} | {' | '.join(cells)} |")
    return "\n".join(lines)


def test_the_readme_quotes_the_benchmark_table() -> None:
    table = render(json.loads(RESULTS.read_text(encoding="utf-8")))
    assert table in README.read_text(encoding="utf-8"), "re-render the table with tests/lgmt/test_applicability_readme"


@pytest.mark.skipif(not FOLIO.parent.is_dir(), reason="../shared/data is absent (never in CI)")
def test_the_folio_column_is_what_the_relations_do_now() -> None:
    from lgmt_tasks.builders.stats import BuildStats
    from lgmt_tasks.lgmt.relations.survey import applicability
    from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
    from lgmt_tasks.sources.pipeline import SourceConfig, load_sources, prove_sources

    config = SourceConfig("folio", str(FOLIO), 0, timeout_ms=DEFAULT_TIMEOUT_MS)
    stats = BuildStats()
    cases = prove_sources(load_sources([config], stats), stats, DEFAULT_TIMEOUT_MS)
    recorded = json.loads(RESULTS.read_text(encoding="utf-8"))["sources"]["folio"]
    assert len(cases) == recorded["cases"]
    for direction in ("paper", "forward", "any"):
        live = applicability(cases, direction=direction)
        assert {mr: live[mr][0] for mr in recorded["relations"]} == {
            mr: counts[direction] for mr, counts in recorded["relations"].items()
        }, direction


if __name__ == "__main__":  # print the table for the README
    print(render(json.loads(RESULTS.read_text(encoding="utf-8"))))
