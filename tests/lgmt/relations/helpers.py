"""Small helpers for the relation tests: cases from formula strings, and applying with many seeds."""

from __future__ import annotations

import random

from lgmt_tasks.lgmt.relations import RELATIONS, Case, FollowUp
from lgmt_tasks.logic.parse import parse


def case(*premises: str, conclusion: str = "Rain", label: str | None = None, english: bool = False) -> Case:
    """A case from formula strings (English premises "s1", "s2", … when `english`)."""
    fol = tuple(parse(p) for p in premises)
    return Case(
        premises_fol=fol,
        conclusion_fol=parse(conclusion),
        premises=tuple(f"s{i + 1}" for i in range(len(fol))) if english else (),
        conclusion="c" if english else "",
        label=label,
        source_dataset="test",
        source_id="t1",
    )


def apply(mr: str, c: Case, seed: int = 0, **options: object) -> FollowUp | None:
    return RELATIONS[mr].apply(c, random.Random(seed), **options)


def outcomes(mr: str, c: Case, seeds: int = 40, **options: object) -> set[FollowUp]:
    """Distinct follow-ups over several seeds."""
    out = set()
    for s in range(seeds):
        fu = apply(mr, c, s, **options)
        if fu is not None:
            out.add(fu)
    return out


def rewritten(mr: str, c: Case, seed: int = 0, **options: object) -> list:
    """The rewritten premises (origin None) of one application."""
    fu = apply(mr, c, seed, **options)
    assert fu is not None
    return [p for p, o in zip(fu.premises_fol, fu.premise_origin, strict=True) if o is None]
