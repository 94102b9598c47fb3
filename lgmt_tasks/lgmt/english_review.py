"""What a review of follow-up English looks at: the changed sentences, a seeded sample of them, and style markers.

Why: the logic of a group is proven, its English is not. A follow-up should read like its source except for the law
under test, so two things are measured on a build (issue #26): how many follow-ups carry the paper's formal phrasing
"x bears relation R to y" for a predicate that has a natural name (a style marker beside natural source English;
for a placeholder such as `Pre1`, which MR-S2 and MR-P3 introduce by their law, it is the paper's own phrasing), and
how many changed sentences a careful reader finds ungrammatical, on a seeded sample reviewed against the written
checklist `english_checklist.md` (verdicts in `tests/lgmt/data/english_review.jsonl`).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lgmt_tasks.logic.phrasing import looks_abstract

REVIEW_SEED = 26
REVIEW_SIZE = 100
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
