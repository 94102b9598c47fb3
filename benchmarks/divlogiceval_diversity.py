"""Diversity of DivLogicEval builds beside the benchmarks the README compares them with (§3.2, Table 5).

Per benchmark: word types (NLTK tokens, lower-cased, as Table 5 counts them), word types expected in 10,000 tokens
(rarefied: the benchmarks differ 30-fold in size), for DivLogicEval builds the types from fixed text and from
variable material (`diversity.vocabulary_sources`), the KL divergence to wordfreq English (`lexical_statistics`),
and the syntactic shapes of the sentences a model reads and, for builds, of the variable sentences: distinct
function-word skeletons (`diversity.skeleton`), the share of sentences under the 10 commonest, and the skeletons
expected in a random 500 of the sentences. The paper's Table 5 figures (vocabulary size, KL) are a reference column.

The other benchmarks are read as the README measured them: one row per problem, the premises as content and the
conclusion as question (FOLIO v0 validation, ProverQA dev/hard, LogicNLI test, from ../shared/data).

Writes `benchmarks/results/divlogiceval_diversity.json` and prints two markdown tables. Not part of `make bench`.
Run from the repository root (offline; needs the `stats` extra for the KL column):

    .venv/bin/python benchmarks/divlogiceval_diversity.py --build frames=datasets/divlogiceval [--build snli=PATH]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lgmt_tasks.divlogiceval.diversity import (
    lexical_statistics,
    rarefied_types,
    read_sentences,
    skeleton_statistics,
    variable_sentences,
    vocabulary_sources,
    word_counts,
    wordfreq_reference,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
OUT = ROOT / "benchmarks" / "results" / "divlogiceval_diversity.json"

SOURCES: dict[str, tuple[str, str]] = {
    "FOLIO v0 validation": ("folio", "folio/folio_v0_validation.jsonl"),
    "ProverQA dev/hard": ("proverqa", "proverqa/proverqa_dev_hard.jsonl"),
    "LogicNLI test": ("logicnli", "logicnli/logicnli_test.jsonl"),
}
"""The benchmarks the DivLogicEval README compares with: source name and file under ../shared/data."""

TABLE5: dict[str, dict[str, float]] = {
    "DivLogicEval": {"vocabulary_size": 6748, "kl": 1.87, "instances": 900},
    "FOLIO": {"vocabulary_size": 1140, "kl": 2.77, "instances": 227},
    "LogicNLI": {"vocabulary_size": 241, "kl": 4.62, "instances": 2000},
}
"""The paper's Table 5 (test sets; ProverQA is not in it). Its KL uses a Simple English Wikipedia sample, ours
wordfreq English: compare KL within our column only."""

PAPER_ROW = {"FOLIO v0 validation": "FOLIO", "LogicNLI test": "LogicNLI"}
"""Which Table 5 column each compared benchmark corresponds to (builds correspond to "DivLogicEval")."""

NATURAL_REFERENCE = ("SNLI premises (Glockner set)", "snli_glockner/dataset.jsonl", "sentence1")
"""Natural sentences to compare variable sentences with (distinct premises; positive sentences only, no
negations): their skeleton columns only, a preview of what a pool of real SNLI sentences gives."""

TOKEN_SAMPLE = 10_000
"""Word types are also given at this many tokens (FOLIO v0 validation, the smallest, has 13,738)."""


def read_build(path: Path) -> list[dict[str, Any]]:
    """The rows of a DivLogicEval build: a built repository (`data/*/*.jsonl.gz`, as `lgmt build` writes it), a
    `save_to_disk` folder, or one JSONL (optionally gzipped) file."""
    if path.is_file():
        return _read_jsonl(path)
    files = sorted(path.glob("data/**/*.jsonl.gz")) + sorted(path.glob("data/**/*.jsonl"))
    if files:
        return [row for file in files for row in _read_jsonl(file)]
    import datasets

    if (path / "dataset_info.json").is_file() or (path / "dataset_dict.json").is_file():
        loaded = datasets.load_from_disk(str(path))
        if isinstance(loaded, datasets.DatasetDict):
            loaded = loaded["test"] if "test" in loaded else next(iter(loaded.values()))
        return [dict(row) for row in loaded]
    return [dict(row) for row in datasets.load_dataset(str(path), split="test")]


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def source_rows(name: str, path: Path) -> list[dict[str, Any]]:
    """A source benchmark as rows: the premises as content, the conclusion as question (one row per problem)."""
    from lgmt_tasks.sources.load import iter_problems

    return [{"content": " ".join(p.premises), "question": p.conclusion} for p in iter_problems(name, path)]  # type: ignore[arg-type]


def measure(rows: Sequence[Mapping[str, Any]], reference: Mapping[str, float] | None, build: bool) -> dict[str, Any]:
    """Every statistic of one benchmark (the fixed/variable split and variable skeletons for builds only)."""
    result: dict[str, Any] = dict(lexical_statistics(rows, reference))
    result[f"types_in_{TOKEN_SAMPLE}_tokens"] = rarefied_types(word_counts(rows), TOKEN_SAMPLE)
    if build:
        result.update(vocabulary_sources(rows))
    result["read_sentences"] = skeleton_statistics(read_sentences(rows))
    if build:
        result["variable_sentences"] = skeleton_statistics(variable_sentences(rows))
    return result


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def markdown(results: Mapping[str, Mapping[str, Any]]) -> str:
    """Two tables: vocabulary (with Table 5 as reference) and syntactic shapes."""
    lines = [
        "| benchmark | rows | tokens | word types | types in 10k tokens | types from fixed text | types from variable "
        "material | KL to wordfreq | Table 5: vocabulary (KL) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, r in results.items():
        if r["kind"] == "sentences":
            continue
        paper = TABLE5.get("DivLogicEval" if r["kind"] == "build" else PAPER_ROW.get(name, ""), None)
        reference = f"{paper['vocabulary_size']:,.0f} ({paper['kl']})" if paper else "–"
        lines.append(
            f"| {name} | {_cell(r['rows'])} | {_cell(r['tokens'])} | {_cell(r['vocabulary_size'])} | "
            f"{_cell(r[f'types_in_{TOKEN_SAMPLE}_tokens'])} | {_cell(r.get('types_from_fixed_text'))} | "
            f"{_cell(r.get('types_from_variable_material'))} | {_cell(r.get('kl_to_reference'))} | {reference} |"
        )
    lines += [
        "",
        "| benchmark | sentences read (distinct) | skeletons | per 1,000 sentences | top-10 share | skeletons in "
        "500 sentences | variable sentences (distinct) | skeletons | top-10 share | skeletons in 500 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in results.items():
        s, v = r.get("read_sentences") or {}, r.get("variable_sentences") or {}
        s_share = f"{s['top10_share']:.1%}" if s else "n/a"
        v_share = f"{v['top10_share']:.1%}" if v else "n/a"
        lines.append(
            f"| {name} | {_cell(s.get('sentences'))} | {_cell(s.get('skeletons'))} | "
            f"{_cell(s.get('skeletons_per_1000_sentences'))} | {s_share} | {_cell(s.get('skeletons_in_500'))} | "
            f"{_cell(v.get('sentences'))} | "
            f"{_cell(v.get('skeletons'))} | {v_share} | "
            f"{_cell(v.get('skeletons_in_500'))} |"
        )
    return "\n".join(lines)


def _shown(path: Path) -> str:
    """A path as the results file records it: relative to the repository root (the file does not name the machine)."""
    return os.path.relpath(path, ROOT)


def parse_builds(specs: Sequence[str]) -> dict[str, Path]:
    """`name=path` pairs (a path alone is named by its folder)."""
    builds: dict[str, Path] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = Path(spec).name, spec
        builds[name] = Path(path) if Path(path).is_absolute() else ROOT / path
    return builds


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the builds and the compared benchmarks, write the JSON, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", default=[], help="name=path of a DivLogicEval build (repeatable)")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder (FOLIO, ProverQA, LogicNLI)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--no-sources", action="store_true", help="measure the builds only")
    args = parser.parse_args(argv)
    builds = parse_builds(args.build or ["frames=datasets/divlogiceval"])
    started = time.perf_counter()
    try:
        reference: Mapping[str, float] | None = wordfreq_reference()
    except ImportError:
        reference = None
    results: dict[str, dict[str, Any]] = {}
    for name, path in builds.items():
        results[name] = {"kind": "build", "path": _shown(path), **measure(read_build(path), reference, build=True)}
    if not args.no_sources:
        for name, (source, file) in SOURCES.items():
            path = args.data / file
            if not path.is_file():
                print(f"skipped {name}: {path} not found", file=sys.stderr)
                continue
            results[name] = {
                "kind": "source",
                "path": _shown(path),
                **measure(source_rows(source, path), reference, False),
            }
        label, file, column = NATURAL_REFERENCE
        path = args.data / file
        if path.is_file():
            natural = list(dict.fromkeys(" ".join(str(r[column]).split()) for r in _read_jsonl(path)))
            results[label] = {
                "kind": "sentences",
                "path": _shown(path),
                "variable_sentences": skeleton_statistics(natural),
            }
    table = markdown(results)
    payload = {
        "benchmarks": results,
        "table5": TABLE5,
        "kl_reference": "wordfreq English (top 100,000 words)" if reference else "not computed: pip install wordfreq",
        "sample_sizes": {"tokens": TOKEN_SAMPLE, "sentences": 500},
        "seconds": round(time.perf_counter() - started, 1),
        "markdown": table,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
