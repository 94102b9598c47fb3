"""The 20 metamorphic relations of LGMT (Zhou et al., §3.3), composable and prover-checked.

`RELATIONS` maps each id to its relation, in the paper's order: MR-E1.1–E1.6, MR-E2.1–E2.4, MR-S1–S2,
MR-P1–P5, MR-C1–C3. It is a read-only mapping; relations are stateless.

    >>> import random
    >>> from lgmt_tasks.lgmt.relations import RELATIONS, Case
    >>> from lgmt_tasks.logic.syntax import Atom, Const, Forall, Implies, Not, Or, Var
    >>> x = Var("x")
    >>> case = Case((Forall("x", Implies(Atom("Bird", (x,)), Atom("Fly", (x,)))), Atom("Bird", (Const("tweety"),))),
    ...             Atom("Fly", (Const("tweety"),)))
    >>> fu = RELATIONS["MR-E1.1"].apply(case, random.Random(0))
    >>> fu.premises_fol[0] == Forall("x", Or((Not(Atom("Bird", (x,))), Atom("Fly", (x,)))))
    True
    >>> fu.premise_origin, fu.changed, fu.obligation[0]
    ((None, 1), 'premise 1', 'equivalence')

Modules: `case` (Case, FollowUp, the direction vocabulary), `base` (the Relation protocol, options, sites),
`equivalence` (MR-E), `symbols` (MR-S and fresh names), `premises` (MR-P), `conclusion` (MR-C), `compose`
(chains and multi-follow-up groups), `check` (proof obligations, discharged by Z3: `verify`, `recheck`; import
it explicitly, it loads Z3), `survey` (`applicability` tables and the prover-checked `property_run`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from lgmt_tasks.lgmt.relations.base import Options, Relation, Site
from lgmt_tasks.lgmt.relations.compose import chain, compose, compose_random, followups
from lgmt_tasks.lgmt.relations.conclusion import MR_C
from lgmt_tasks.lgmt.relations.equivalence import MR_E1, MR_E2
from lgmt_tasks.lgmt.relations.followup import CATEGORIES, DIRECTIONS, FollowUp, Obligation
from lgmt_tasks.lgmt.relations.premises import MR_P
from lgmt_tasks.lgmt.relations.survey import applicability, direction_counts
from lgmt_tasks.lgmt.relations.symbols import MR_S
from lgmt_tasks.sources.case import Case

RELATIONS: Mapping[str, Relation] = MappingProxyType({r.id: r for r in (*MR_E1, *MR_E2, *MR_S, *MR_P, *MR_C)})
"""Every relation by id, in the paper's order (read-only)."""


def relations_in(category: str) -> tuple[Relation, ...]:
    """Return the relations of a category ("MR-E", "MR-S", "MR-P", "MR-C") or sub-family ("MR-E1", "MR-E2")."""
    if category in CATEGORIES:
        return tuple(r for r in RELATIONS.values() if r.category == category)
    found = tuple(r for r in RELATIONS.values() if r.id.startswith(category + "."))
    if not found:
        raise ValueError(f"unknown category {category!r}: expected one of {CATEGORIES} or MR-E1 / MR-E2")
    return found


__all__ = [
    "CATEGORIES",
    "DIRECTIONS",
    "RELATIONS",
    "Case",
    "FollowUp",
    "Obligation",
    "Options",
    "Relation",
    "Site",
    "applicability",
    "chain",
    "compose",
    "compose_random",
    "direction_counts",
    "followups",
    "relations_in",
]
