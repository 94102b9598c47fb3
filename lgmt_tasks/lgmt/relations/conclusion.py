"""MR-C: conclusion transformations (paper §3.3.4), (Γ, q) ⇝ (Γ, q').

Each q' is logically equivalent to q, so the obligation is the equivalence ("equivalence", q, q'): cheaper to
prove than two entailment labels, and it implies the label is unchanged. The transformation wraps the whole
conclusion (no flattening: q ∧ True stays a conjunction of q and True even when q is itself a conjunction).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from lgmt_tasks.lgmt.relations.base import Options, Relation, Site
from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.syntax import FALSE, TRUE, And, Formula, Not, Or
from lgmt_tasks.sources.case import Case


class _ConclusionRelation(Relation):
    category = "MR-C"

    def _transform(self, q: Formula) -> Formula:
        raise NotImplementedError

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        yield Site(None, (), "forward", self.name.lower())

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        q = case.conclusion_fol
        new = self._transform(q)
        return FollowUp(
            premises_fol=case.premises_fol,
            conclusion_fol=new,
            premise_origin=tuple(range(len(case.premises_fol))),
            conclusion_changed=True,
            mr=self.id,
            category=self.category,
            direction="forward",
            changed="conclusion",
            site="conclusion []",
            obligation=("equivalence", q, new),
            law=site.law,
        )


class ConjunctionWithTruth(_ConclusionRelation):
    """MR-C1 (Conjunction with Truth).

    Law (§3.3.4): "The conclusion q is transformed into q ∧ True."
    """

    id = "MR-C1"
    name = "Conjunction with Truth"
    law = "q ⇝ q ∧ True"

    def _transform(self, q: Formula) -> Formula:
        return And((q, TRUE))


class DisjunctionWithFalsehood(_ConclusionRelation):
    """MR-C2 (Disjunction with Falsehood).

    Law (§3.3.4): "The conclusion q is transformed into q ∨ False."
    """

    id = "MR-C2"
    name = "Disjunction with Falsehood"
    law = "q ⇝ q ∨ False"

    def _transform(self, q: Formula) -> Formula:
        return Or((q, FALSE))


class DoubleNegation(_ConclusionRelation):
    """MR-C3 (Double Negation).

    Law (§3.3.4): "The conclusion q is transformed into ¬¬q."
    """

    id = "MR-C3"
    name = "Double Negation"
    law = "q ⇝ ¬¬q"

    def _transform(self, q: Formula) -> Formula:
        return Not(Not(q))


MR_C: tuple[Relation, ...] = (ConjunctionWithTruth(), DisjunctionWithFalsehood(), DoubleNegation())
