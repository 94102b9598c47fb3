"""Beyond the paper: composed relations (chains) and groups of several follow-ups.

A chain applies 2–3 relations in sequence, each to the previous step's follow-up, and tracks provenance back
to the original source: a premise's origin is the source premise it still copies verbatim after every step;
renamings are composed into one net map (c ⇝ Con1 then Con1 ⇝ Con2 is recorded as c ⇝ Con2). The chain's
obligation is end to end, ("label",): the final follow-up's label equals the source's. Each step keeps its own
obligation in `FollowUp.steps` (relative to the previous step's case), which `check.verify(..., steps=True)`
can discharge as well.

Ids and categories of a chain join its steps' with "+": `mr="MR-E1.1+MR-C3"`, `category="MR-E+MR-C"` (distinct
categories in order, so a chain of two MR-E relations stays `MR-E`), `direction="forward+introduction"`,
`variant="paper+introduction"`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from lgmt_tasks.lgmt.relations.base import Relation, premise_name
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.sources.case import Case


def _net_renaming(steps: Sequence[FollowUp]) -> tuple[tuple[str, str, str], ...]:
    net: list[tuple[str, str, str]] = []
    for step in steps:
        for kind, old, new in step.renaming:
            for k, (kind0, old0, new0) in enumerate(net):
                if kind0 == kind and new0 == old:
                    net[k] = (kind, old0, new)
                    break
            else:
                net.append((kind, old, new))
    return tuple(r for r in net if r[1] != r[2])


def changed_text(
    source: Case, premises: Sequence[object], origin: Sequence[int | None], conclusion_changed: bool
) -> str:
    """Describe what a follow-up changed relative to `source`: "premise k", "premises", "conclusion" or "all"."""
    n = len(source.premises_fol)
    in_place = len(premises) == n and all(o is None or o == k for k, o in enumerate(origin))
    rewritten = [k for k, o in enumerate(origin) if o is None]
    premises_changed = not in_place or bool(rewritten)
    if premises_changed and conclusion_changed:
        return "all"
    if conclusion_changed:
        return "conclusion"
    if in_place and len(rewritten) == 1:
        return premise_name(rewritten[0])
    return "premises"


def chain(source: Case, steps: Sequence[FollowUp]) -> FollowUp | None:
    """Return the end-to-end follow-up of `steps` applied to `source` in order (None if it equals the source).

    Args:
        source: The original case.
        steps: Follow-ups, the first relative to `source`, each next one relative to the previous step's
            `as_case`.
    """
    if not steps:
        raise ValueError("a chain needs at least one step")
    if len(steps) == 1:
        return steps[0]
    origin: tuple[int | None, ...] = tuple(range(len(source.premises_fol)))
    for step in steps:
        origin = tuple(None if o is None else origin[o] for o in step.premise_origin)
    last = steps[-1]
    conclusion_changed = last.conclusion_fol != source.conclusion_fol
    if last.premises_fol == source.premises_fol and not conclusion_changed:
        return None
    return FollowUp(
        premises_fol=last.premises_fol,
        conclusion_fol=last.conclusion_fol,
        premise_origin=origin,
        conclusion_changed=conclusion_changed,
        mr="+".join(s.mr for s in steps),
        category="+".join(dict.fromkeys(s.category for s in steps)),
        direction="+".join(s.direction for s in steps),
        changed=changed_text(source, last.premises_fol, origin, conclusion_changed),
        site="; ".join(f"{s.mr}: {s.site}" for s in steps),
        obligation=LABEL_OBLIGATION,
        renaming=_net_renaming(steps),
        law="+".join(s.law for s in steps),
        variant="+".join(s.variant for s in steps),
        steps=tuple(steps),
    )


def compose(relations: Sequence[Relation], case: Case, rng: random.Random, **options: object) -> FollowUp | None:
    """Apply `relations` in sequence (each to the previous follow-up) and return the end-to-end follow-up.

    Args:
        relations: The chain, typically 2–3 relations (the same relation may occur twice).
        case: The source case.
        rng: Seeded generator (consumed by each step in turn).
        **options: Relation options, passed to every step.

    Returns:
        The composed follow-up, or None when a step does not apply or the chain undoes itself.
    """
    if not relations:
        raise ValueError("compose needs at least one relation")
    steps: list[FollowUp] = []
    current = case
    for relation in relations:
        step = relation.apply(current, rng, **options)
        if step is None:
            return None
        steps.append(step)
        current = step.as_case(current)
    return chain(case, steps)


def compose_random(
    first: Relation,
    pool: Sequence[Relation],
    length: int,
    case: Case,
    rng: random.Random,
    **options: object,
) -> FollowUp | None:
    """Draw a chain of `length` relations starting with `first`, each next link among those that apply.

    Each next link is drawn uniformly from the relations of `pool` that apply to the previous step's case, so
    a chain fails only when nothing applies (`compose` with a fixed chain fails whenever one link does not).

    Args:
        first: The chain's first relation (the group's relation in a builder's bucket).
        pool: Candidates for the other links (a relation may be drawn more than once).
        length: Number of links (2 or 3 in the builder).
        case: The source case.
        rng: Seeded generator.
        **options: Relation options, passed to every step.
    """
    if length < 1:
        raise ValueError(f"length={length}: a chain needs at least one link")
    step = first.apply(case, rng, **options)
    if step is None:
        return None
    steps = [step]
    current = step.as_case(case)
    for _ in range(length - 1):
        candidates = [r for r in pool if r.applies(current, **options)]
        if not candidates:
            return None
        step = rng.choice(candidates).apply(current, rng, **options)
        if step is None:
            return None
        steps.append(step)
        current = step.as_case(current)
    return chain(case, steps)


def followups(
    case: Case, relations: Sequence[Relation], k: int, rng: random.Random, **options: object
) -> list[FollowUp]:
    """Up to `k` follow-ups of `case` from DIFFERENT relations, for a multi-follow-up group.

    Relations are tried in a seeded order; those that do not apply, and follow-ups identical to one already
    chosen, are skipped.
    """
    unique = list({r.id: r for r in relations}.values())
    out: list[FollowUp] = []
    seen: set[tuple[object, object]] = set()
    for relation in rng.sample(unique, len(unique)):
        if len(out) >= k:
            break
        fu = relation.apply(case, rng, **options)
        if fu is None or (fu.premises_fol, fu.conclusion_fol) in seen:
            continue
        seen.add((fu.premises_fol, fu.conclusion_fol))
        out.append(fu)
    return out
