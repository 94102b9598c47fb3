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

Modules: `followup` (FollowUp, Obligation, the categories and directions; `Case` is `lgmt_tasks.sources.case`),
`base` (the Relation protocol, options, sites), `equivalence` (MR-E), `symbols` (MR-S and fresh names), `premises`
(MR-P), `conclusion` (MR-C), `catalogue` (`RELATIONS` and `relations_in`), `compose` (chains and multi-follow-up
groups), `check` (proof obligations, discharged by Z3: `verify`, `recheck`; import it explicitly, it loads Z3),
`survey` (`applicability` tables and the prover-checked `property_run`).
"""

from __future__ import annotations

from lgmt_tasks.lgmt import CATEGORIES
from lgmt_tasks.lgmt.relations.base import Options, Relation, Site
from lgmt_tasks.lgmt.relations.catalogue import RELATIONS, relations_in
from lgmt_tasks.lgmt.relations.compose import chain, compose, compose_random, followups
from lgmt_tasks.lgmt.relations.followup import DIRECTIONS, FollowUp, Obligation
from lgmt_tasks.lgmt.relations.survey import applicability, direction_counts
from lgmt_tasks.sources.case import Case

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
