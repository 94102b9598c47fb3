"""What a review of follow-up English looks at: the changed sentences, a seeded sample of them, and style markers.

Why: the logic of a group is proven, its English is not. A follow-up should read like its source except for the law
under test, so two things are measured on a build (issue #26): how many follow-ups carry the paper's formal phrasing
"x bears relation R to y" for a predicate that has a natural name (a style marker beside natural source English;
for a placeholder such as `Pre1`, which MR-S2 and MR-P3 introduce by their law, it is the paper's own phrasing), and
how many changed sentences a careful reader finds ungrammatical, on a seeded sample reviewed against the written
checklist `english_checklist.md` (verdicts in `tests/lgmt/data/english_review.jsonl`).

The review per relation category (issue #36). A sample of distinct sentences hides where the errors are: most
changed sentences are MR-E's, a frequent sentence counts once, and a category with few errors dilutes one with many.
`stratified_sample` therefore draws, for each category (MR-E, MR-S, MR-P, MR-C), a seeded sample of
`PER_CATEGORY` changed-sentence *occurrences* (a sentence counts once per row that has it, within its category), so
each category's share of ungrammatical sentences is measured on its own. `python -m lgmt_tasks.lgmt.english_review
BUILD OUT` writes it from a build folder (`lgmt build lgmt --out BUILD`) with empty verdict fields for a reviewer.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lgmt_tasks.logic.phrasing import looks_abstract

REVIEW_SEED = 26
REVIEW_SIZE = 100
CATEGORIES = ("MR-C", "MR-E", "MR-P", "MR-S")
"""The relation categories a review reports on separately (issue #36)."""
STRATIFIED_SEED = 36
PER_CATEGORY = 25
_FORMAL_RELATION = re.compile(r"\bbears relation (\S+) to\b|\bstand in relation (\S+?)[.,]?(?:\s|$)")


@dataclass(frozen=True)
class ChangedSentence:
    """A follow-up sentence that is not one of its source's sentences verbatim."""

    id: str
    mr: str
    sentence: str


def _followup_sentences(row: Mapping[str, Any]) -> list[str]:
    out = [*row["followup_premises"], row["followup_conclusion"]]
    for extra in row.get("extra_followups") or ():
        out += [*extra["premises"], extra["conclusion"]]
    return out


def changed_sentences(rows: Iterable[Mapping[str, Any]]) -> list[ChangedSentence]:
    """Every distinct changed sentence of the rows (first row that has it), in row order."""
    seen: set[str] = set()
    out: list[ChangedSentence] = []
    for row in rows:
        source = {*row["premises"], row["conclusion"]}
        for sentence in _followup_sentences(row):
            if sentence and sentence not in source and sentence not in seen:
                seen.add(sentence)
                out.append(ChangedSentence(row["id"], row["mr"], sentence))
    return out


def review_sample(
    rows: Iterable[Mapping[str, Any]], size: int = REVIEW_SIZE, seed: int = REVIEW_SEED
) -> list[ChangedSentence]:
    """The seeded sample of changed sentences a review reads, sorted by sentence for a stable file.

    The pool is sorted by sentence before sampling, so the sample depends on which sentences a build has, not on the
    order of its rows.
    """
    pool = sorted(changed_sentences(rows), key=lambda c: (c.sentence, c.id))
    picked = random.Random(seed).sample(pool, min(size, len(pool)))
    return sorted(picked, key=lambda c: (c.sentence, c.id))


def category_of(mr: str) -> str:
    """The relation category of relation id `mr`: "MR-E1.4" -> "MR-E" (its letters before the first digit)."""
    m = re.match(r"[A-Za-z]+-[A-Za-z]+", mr)
    return m.group() if m else mr


@dataclass(frozen=True)
class SampledSentence:
    """One occurrence of a changed sentence in a stratified review sample."""

    id: str
    mr: str
    category: str
    sentence: str


def changed_occurrences(rows: Iterable[Mapping[str, Any]]) -> list[SampledSentence]:
    """Every changed sentence of every row (once per row), with its row's relation category, in row order."""
    out: list[SampledSentence] = []
    for row in rows:
        source = {*row["premises"], row["conclusion"]}
        seen: set[str] = set()
        for sentence in _followup_sentences(row):
            if sentence and sentence not in source and sentence not in seen:
                seen.add(sentence)
                out.append(SampledSentence(row["id"], row["mr"], category_of(row["mr"]), sentence))
    return out


def stratified_sample(
    rows: Iterable[Mapping[str, Any]], per_category: int = PER_CATEGORY, seed: int = STRATIFIED_SEED
) -> list[SampledSentence]:
    """A seeded sample of `per_category` changed-sentence occurrences from each relation category (issue #36).

    Each category's pool is sorted (by sentence, then row id) before sampling with its own generator, seeded by
    `seed` and the category's name, so the sample depends on which occurrences a build has, not on the order of
    its rows, and one category's pool never changes another's sample. A category with fewer occurrences gives them
    all. The result is ordered by category, then sentence, then row id.
    """
    pools: dict[str, list[SampledSentence]] = {c: [] for c in CATEGORIES}
    for item in changed_occurrences(rows):
        pools.setdefault(item.category, []).append(item)
    out: list[SampledSentence] = []
    for cat in sorted(pools):
        pool = sorted(pools[cat], key=lambda c: (c.sentence, c.id))
        picked = random.Random(f"{seed}:{cat}").sample(pool, min(per_category, len(pool)))
        out += sorted(picked, key=lambda c: (c.sentence, c.id))
    return out


def sample_records(sample: Iterable[SampledSentence]) -> list[dict[str, Any]]:
    """The sample as review records: the sentence and empty verdict fields (`english_checklist.md`)."""
    return [
        {"id": s.id, "mr": s.mr, "category": s.category, "sentence": s.sentence, "verdict": "", "items": [], "note": ""}
        for s in sample
    ]


def read_build_rows(folder: str | Path) -> list[dict[str, Any]]:
    """The rows of an `lgmt build lgmt --out FOLDER` build (every `*.jsonl.gz` or `*.jsonl` under `data/`)."""
    rows: list[dict[str, Any]] = []
    for path in sorted(Path(folder, "data").rglob("*.jsonl*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as f:  # type: ignore[operator]
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


def formal_relation_symbols(text: str) -> list[str]:
    """The predicate symbols `text` speaks in the paper's formal relation phrasing."""
    return [a or b for a, b in _FORMAL_RELATION.findall(text)]


def style_markers(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How many follow-ups speak a relation formally, for a named predicate and for a placeholder, per relation.

    Returns:
        `groups`, `named` (groups whose follow-up says "bears relation"/"stand in relation" for a predicate with a
        natural name), `placeholder` (the same for a placeholder symbol), their shares, and both per relation.
    """
    named: Counter[str] = Counter()
    placeholder: Counter[str] = Counter()
    per_mr: Counter[str] = Counter()
    for row in rows:
        per_mr[row["mr"]] += 1
        symbols = formal_relation_symbols(" ".join(_followup_sentences(row)))
        if any(not looks_abstract(s) for s in symbols):
            named[row["mr"]] += 1
        elif symbols:
            placeholder[row["mr"]] += 1
    n = len(rows)
    return {
        "groups": n,
        "named": sum(named.values()),
        "named_share": sum(named.values()) / n if n else 0.0,
        "placeholder": sum(placeholder.values()),
        "placeholder_share": sum(placeholder.values()) / n if n else 0.0,
        "per_relation": {
            mr: {"groups": per_mr[mr], "named": named[mr], "placeholder": placeholder[mr]} for mr in sorted(per_mr)
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m lgmt_tasks.lgmt.english_review BUILD OUT [PER_CATEGORY [SEED]]`: write the stratified sample."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2:
        print(main.__doc__, file=sys.stderr)
        return 2
    per = int(args[2]) if len(args) > 2 else PER_CATEGORY
    seed = int(args[3]) if len(args) > 3 else STRATIFIED_SEED
    sample = stratified_sample(read_build_rows(args[0]), per, seed)
    with open(args[1], "w", encoding="utf-8") as f:
        for record in sample_records(sample):
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(dict(Counter(s.category for s in sample)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
