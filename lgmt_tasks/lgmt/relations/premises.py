"""MR-P: premise transformations (paper §3.3.3), (Γ, q) ⇝ (Γ', q).

Every MR-P follow-up has the obligation "label": Z3 proves the entailment label unchanged.

Choices where the paper leaves room:

* MR-P1 draws a seeded permutation that changes the sequence of premises (not merely their indices).
* MR-P2 inserts the copy at a seeded position (anywhere, not only next to the original).
* MR-P3 adds a premise built only from FRESH symbols, from templates that are satisfiable in every non-empty
  domain (a fact, a negated fact, a rule, an existential, a disjunctive fact, a relation fact). Such a premise
  is irrelevant and consistent by construction: any model of Γ (with or without ¬q) expands to a model of the
  new premise, because the new symbols are interpreted freely and the premise does not constrain the size of
  the domain. The prover still checks the label.
* MR-P4 ("combined into a conjunctive premise φ ∧ ψ, which is added to the premise set"): by default φ and ψ
  are REPLACED by φ ∧ ψ (at φ's position), the transformation that actually changes the structure; option
  `fuse="add"` keeps φ and ψ and inserts φ ∧ ψ at a seeded position.
* MR-P5 ("decomposed into two separate premises φ and ψ, which are added to the premise set") splits an n-ary
  conjunctive premise into ALL its conjuncts. By default they REPLACE it in place (the relation's option `split`;
  the tasks' `p5` defaults to `add`, the paper's wording); `split="add"` keeps the conjunction and inserts the
  conjuncts, together and in order, at a seeded position.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from lgmt_tasks.lgmt.relations.base import Options, Relation, Site, fresh_variable, premise_name, used_names
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.lgmt.relations.symbols import fresh_constant, fresh_predicate
from lgmt_tasks.logic.syntax import And, Atom, Const, Exists, Forall, Formula, Implies, Not, Or, Var
from lgmt_tasks.sources.case import Case


class _PremiseRelation(Relation):
    category = "MR-P"

    def _followup(
        self,
        case: Case,
        premises: tuple[Formula, ...],
        origin: tuple[int | None, ...],
        changed: str,
        site: str,
        law: str,
    ) -> FollowUp:
        return FollowUp(
            premises_fol=premises,
            conclusion_fol=case.conclusion_fol,
            premise_origin=origin,
            conclusion_changed=False,
            mr=self.id,
            category=self.category,
            direction="forward",
            changed=changed,
            site=site,
            obligation=LABEL_OBLIGATION,
            law=law,
        )


class PremiseReordering(_PremiseRelation):
    """MR-P1 (Premise Reordering).

    Law (§3.3.3): "The order of premises in Γ is permuted." A seeded permutation whose result differs from the
    source order; applies when Γ has at least two different premises.
    """

    id = "MR-P1"
    name = "Premise Reordering"
    law = "Γ ⇝ π(Γ), π a permutation"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        if len(set(case.premises_fol)) >= 2:
            yield Site(None, (), "forward", "premise permutation")

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        n = len(case.premises_fol)
        order = list(range(n))
        for _ in range(64):
            rng.shuffle(order)
            if any(case.premises_fol[k] != case.premises_fol[i] for i, k in enumerate(order)):
                break
        else:  # vanishingly unlikely: fall back to the first swap of two different premises
            order = list(range(n))
            j = next(j for j in range(1, n) if case.premises_fol[j] != case.premises_fol[0])
            order[0], order[j] = j, 0
        premises = tuple(case.premises_fol[k] for k in order)
        return self._followup(case, premises, tuple(order), "premises", f"order {[k + 1 for k in order]}", site.law)


class PremiseDuplication(_PremiseRelation):
    """MR-P2 (Premise Duplication).

    Law (§3.3.3): "A premise already occurring in Γ is duplicated and added again to the premise set." The
    premise is chosen uniformly; the copy is inserted at a seeded position.
    """

    id = "MR-P2"
    name = "Premise Duplication"
    law = "Γ ⇝ Γ ∪ {φ}, φ ∈ Γ (a second copy)"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        for i in range(len(case.premises_fol)):
            yield Site(i, (), "forward", "premise duplication", (i,))

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        assert site.target is not None
        i, n = site.target, len(case.premises_fol)
        k = rng.randrange(n + 1)
        premises = (*case.premises_fol[:k], case.premises_fol[i], *case.premises_fol[k:])
        origin: tuple[int | None, ...] = (*range(k), i, *range(k, n))
        where = f"{premise_name(i)} copied as {premise_name(k)}"
        return self._followup(case, premises, origin, premise_name(k), where, site.law)


IRRELEVANT_SHAPES: tuple[str, ...] = (
    "fact",  # P(c)
    "negated fact",  # ¬P(c)
    "rule",  # ∀x (P(x) → Q(x))
    "existential",  # ∃x P(x)
    "disjunctive fact",  # P(c) ∨ Q(c)
    "relation fact",  # R(c, d)
)
"""MR-P3 premise shapes over fresh symbols; each is satisfiable in every non-empty domain."""


def _irrelevant(shape: str, pred: Callable[[int], str], const: Callable[[], str], x: str) -> Formula:
    """Build an MR-P3 premise of `shape`; `pred(arity)` and `const()` give a new fresh symbol per call."""
    if shape == "fact":
        return Atom(pred(1), (Const(const()),))
    if shape == "negated fact":
        return Not(Atom(pred(1), (Const(const()),)))
    if shape == "rule":
        p, q = pred(1), pred(1)
        return Forall(x, Implies(Atom(p, (Var(x),)), Atom(q, (Var(x),))))
    if shape == "existential":
        return Exists(x, Atom(pred(1), (Var(x),)))
    if shape == "disjunctive fact":
        c = Const(const())
        p, q = pred(1), pred(1)
        return Or((Atom(p, (c,)), Atom(q, (c,))))
    if shape == "relation fact":
        r = pred(2)
        return Atom(r, (Const(const()), Const(const())))
    raise ValueError(f"unknown MR-P3 shape {shape!r}")


class IrrelevantExtension(_PremiseRelation):
    """MR-P3 (Irrelevant Extension).

    Law (§3.3.3): "A logically irrelevant but non-contradictory premise is added to the premise set." The new
    premise uses only fresh symbols (abstract or natural, option `names`) and a template satisfiable in every
    non-empty domain, so it is irrelevant and consistent by construction (see the module docstring); it is
    inserted at a seeded position.
    """

    id = "MR-P3"
    name = "Irrelevant Extension"
    law = "Γ ⇝ Γ ∪ {χ}, χ consistent with Γ and irrelevant to q"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        for shape in IRRELEVANT_SHAPES:
            yield Site(None, (), "forward", f"irrelevant {shape}")

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        taken: set[str] = set()

        def pred(arity: int) -> str:
            name = fresh_predicate(case, arity, opts.names, rng, frozenset(taken))
            taken.add(name)
            return name

        def const() -> str:
            name = fresh_constant(case, opts.names, rng, frozenset(taken))
            taken.add(name)
            return name

        shape = site.law.removeprefix("irrelevant ")
        x = fresh_variable(used_names(case))
        new = _irrelevant(shape, pred, const, x)
        n = len(case.premises_fol)
        k = rng.randrange(n + 1)
        premises = (*case.premises_fol[:k], new, *case.premises_fol[k:])
        origin: tuple[int | None, ...] = (*range(k), None, *range(k, n))
        return self._followup(case, premises, origin, premise_name(k), f"{premise_name(k)} (new)", site.law)


class PremiseFusion(_PremiseRelation):
    """MR-P4 (Premise Fusion).

    Law (§3.3.3): "Two premises φ, ψ ∈ Γ are combined into a conjunctive premise φ ∧ ψ, which is added to the
    premise set." The pair is chosen uniformly (φ before ψ in Γ). By default φ ∧ ψ replaces φ and ψ, at φ's
    position (option `fuse="add"` keeps them and inserts φ ∧ ψ at a seeded position).
    """

    id = "MR-P4"
    name = "Premise Fusion"
    law = "Γ ∪ {φ, ψ} ⇝ Γ ∪ {φ ∧ ψ}"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        n = len(case.premises_fol)
        for i in range(n):
            for j in range(i + 1, n):
                yield Site(i, (), "forward", f"premise fusion ({opts.fuse})", (i, j))

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        i, j = site.detail
        assert isinstance(i, int) and isinstance(j, int)
        ps, n = case.premises_fol, len(case.premises_fol)
        fused = And((ps[i], ps[j]))
        if opts.fuse == "replace":
            keep = [k for k in range(n) if k != j]
            premises = tuple(fused if k == i else ps[k] for k in keep)
            origin: tuple[int | None, ...] = tuple(None if k == i else k for k in keep)
            position = i
        else:
            position = rng.randrange(n + 1)
            premises = (*ps[:position], fused, *ps[position:])
            origin = (*range(position), None, *range(position, n))
        where = f"{premise_name(i)} ∧ {premise_name(j)} as {premise_name(position)}"
        return self._followup(case, premises, origin, premise_name(position), where, site.law)


class PremiseDecomposition(_PremiseRelation):
    """MR-P5 (Premise Decomposition).

    Law (§3.3.3): "A conjunctive premise φ ∧ ψ ∈ Γ is decomposed into two separate premises φ and ψ, which are
    added to the premise set." The conjunctive premise is chosen uniformly and gives all its conjuncts (an n-ary
    φ₁ ∧ ⋯ ∧ φₙ gives n premises). With `split="add"` (the tasks' default `p5=add`, the paper's "added") the
    conjunction stays and its conjuncts are inserted, in order, at a seeded position; with `split="replace"`
    (this option's default, the tasks' behaviour before `p5`) they replace it in place.
    """

    id = "MR-P5"
    name = "Premise Decomposition"
    law = "Γ ∪ {φ ∧ ψ} ⇝ Γ ∪ {φ, ψ}"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        for i, p in enumerate(case.premises_fol):
            if isinstance(p, And):
                yield Site(i, (), "forward", f"premise decomposition ({opts.split})", (i,))

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        assert site.target is not None
        i, ps = site.target, case.premises_fol
        conj = ps[i]
        assert isinstance(conj, And)
        m, n = len(conj.args), len(ps)
        if opts.split == "replace":
            premises = (*ps[:i], *conj.args, *ps[i + 1 :])
            origin: tuple[int | None, ...] = (*range(i), *([None] * m), *range(i + 1, n))
            position, where = i, f"{premise_name(i)} split"
        else:
            position = rng.randrange(n + 1)
            premises = (*ps[:position], *conj.args, *ps[position:])
            origin = (*range(position), *([None] * m), *range(position, n))
            where = f"{premise_name(i)} split, its conjuncts added as premises {position + 1}-{position + m}"
        changed = f"premises {position + 1}-{position + m}"
        return self._followup(case, premises, origin, changed, where, site.law)


MR_P: tuple[Relation, ...] = (
    PremiseReordering(),
    PremiseDuplication(),
    IrrelevantExtension(),
    PremiseFusion(),
    PremiseDecomposition(),
)
