"""The answer reader against a careful human grader: agreement on the adversarial reply corpus (issue #26).

`tests/scorers/answer_corpus.jsonl` holds realistic replies in the three answer formats (True/False/Unknown for
LGMT, lexical and QMFOL; yes/no for LogicAsker; A-D for DivLogicEval) under the four prompting strategies, each with
the label a careful grader reads from it or `unparsed` (the grading rules: `tests/scorers/answer_corpus.md`). This
script reads every reply with the one answer parser (`parse_answer` with the format's `AnswerFormat`) and counts,
overall, per format, per prompting and per format and prompting:

- `correct`: the parser reads what the grader reads (the same label, or both unparsed);
- `wrong_label`: both read a label, and they differ;
- `over_read`: the parser reads a label where the grader finds no answer;
- `under_read`: the parser says unparsed where the grader reads an answer;
- `unparsed_share_of_answered`: under-reads over the replies the grader reads an answer in (target: at most 5%).

The same counts per style tag (`by_tag`); the replies tagged `held-out` were written and graded after the parser
was changed, in three rounds, each run once before any fix (see `tests/scorers/answer_corpus.md`). Every
disagreement is listed with its id. `--parser PATH` reads with another copy of `scorers/answers.py` (for
example the version before a change, copied out of git), so that before and after can be compared on one corpus;
each run is stored under its `--name` in `benchmarks/results/answer_reader.json`, next to the runs already there.

Run from the repository root:

    python benchmarks/answer_reader.py [--name current] [--parser scorers/answers.py]
    git show 41b7889:scorers/answers.py > /tmp/answers_before.py
    python benchmarks/answer_reader.py --name before --parser /tmp/answers_before.py
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.util
import json
import platform
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "scorers" / "answer_corpus.jsonl"
OUT = ROOT / "benchmarks" / "results" / "answer_reader.json"
FORMAT_NAMES = {"truth": "TRUTH_FORMAT", "yes_no": "YES_NO_FORMAT", "choice": "CHOICE_FORMAT"}
OUTCOMES = ("correct", "wrong_label", "over_read", "under_read")
UNPARSED = "unparsed"


def load_corpus(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus entries, in file order (one JSON object per line)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_parser(path: Path | None) -> ModuleType:
    """The answer parser module: the package's own, or the file at `path` (another version of `answers.py`)."""
    if path is None:
        import lgmt_tasks.scorers.answers as answers

        return answers
    spec = importlib.util.spec_from_file_location("answers_under_test", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def outcome(grader: str, parsed: str | None) -> str:
    """How the parser's reading compares with the grader's (one of `OUTCOMES`)."""
    if parsed is None:
        return "correct" if grader == UNPARSED else "under_read"
    if grader == UNPARSED:
        return "over_read"
    return "correct" if parsed == grader else "wrong_label"


def tally(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The counts of one group of read entries, with the under-read share of the replies that have an answer."""
    rows = list(rows)
    counts = Counter(row["outcome"] for row in rows)
    answered = sum(row["label"] != UNPARSED for row in rows)
    result: dict[str, Any] = {"replies": len(rows), "answered": answered}
    result |= {name: counts[name] for name in OUTCOMES}
    result["agreement"] = round(counts["correct"] / len(rows), 4) if rows else None
    result["unparsed_share_of_answered"] = round(counts["under_read"] / answered, 4) if answered else None
    return result


def read_all(corpus: list[dict[str, Any]], parser: ModuleType) -> list[dict[str, Any]]:
    """Every entry with what the parser read from it and the outcome."""
    rows = []
    for entry in corpus:
        parsed = parser.parse_answer(entry["reply"], getattr(parser, FORMAT_NAMES[entry["format"]]))
        rows.append(
            {**entry, "parsed": parsed.label, "detail": parsed.detail, "outcome": outcome(entry["label"], parsed.label)}
        )
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall, per format, per prompting and per format and prompting counts, and the disagreements."""
    formats = sorted({row["format"] for row in rows})
    promptings = sorted({row["prompting"] for row in rows})
    return {
        "overall": tally(rows),
        "by_format": {f: tally(r for r in rows if r["format"] == f) for f in formats},
        "by_prompting": {p: tally(r for r in rows if r["prompting"] == p) for p in promptings},
        "by_format_and_prompting": {
            f"{f}/{p}": tally(r for r in rows if r["format"] == f and r["prompting"] == p)
            for f in formats
            for p in promptings
            if any(r["format"] == f and r["prompting"] == p for r in rows)
        },
        "by_tag": {t: tally(r for r in rows if t in r["tags"]) for t in sorted({t for r in rows for t in r["tags"]})},
        "disagreements": [
            {"id": r["id"], "outcome": r["outcome"], "grader": r["label"], "parser": r["parsed"] or UNPARSED}
            for r in rows
            if r["outcome"] != "correct"
        ],
    }


def git_commit() -> str | None:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def table(result: dict[str, Any]) -> str:
    """A Markdown table of the per-format-and-prompting counts and the total."""
    lines = [
        "| format / prompting | replies | correct | wrong label | over-read | under-read | unparsed of answered |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    groups = list(result["by_format_and_prompting"].items()) + [("**all**", result["overall"])]
    for name, t in groups:
        share = t["unparsed_share_of_answered"]
        lines.append(
            f"| {name} | {t['replies']} | {t['correct']} | {t['wrong_label']} | {t['over_read']} | "
            f"{t['under_read']} | {'' if share is None else f'{share:.1%}'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--name", default="current", help="the run's key in the results file")
    parser.add_argument("--parser", type=Path, default=None, help="another answers.py to read with")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--verbose", action="store_true", help="print every disagreement with the parser's detail")
    args = parser.parse_args()

    corpus = load_corpus(args.corpus)
    rows = read_all(corpus, load_parser(args.parser))
    result = summary(rows)
    print(table(result))
    if args.verbose:
        for row in rows:
            if row["outcome"] != "correct":
                print(
                    f"\n{row['id']} {row['outcome']}: grader {row['label']}, parser {row['parsed']} ({row['detail']})"
                )
                print("   " + row["reply"].replace("\n", "\n   "))

    stored = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    runs = stored.get("runs", {})
    runs[args.name] = {
        "date": datetime.date.today().isoformat(),
        "commit": git_commit(),
        "parser": str(args.parser) if args.parser else "scorers/answers.py (working tree)",
        "corpus_sha256": hashlib.sha256(args.corpus.read_bytes()).hexdigest(),
        "python": platform.python_version(),
        **result,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    document = {"corpus": str(args.corpus.relative_to(ROOT)) if args.corpus.is_relative_to(ROOT) else str(args.corpus)}
    document["runs"] = runs
    args.out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out} (run {args.name!r})")


if __name__ == "__main__":
    main()
