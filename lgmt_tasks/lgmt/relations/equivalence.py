"""MR-E: formula-level equivalence relations (paper §3.3.1), MR-E1.1–E1.6 and MR-E2.1–E2.4.

Each relation is a rule schema that rewrites ONE sub-formula of ONE premise, one step, as in the paper
(Γ ⇝ Γ'): the site is chosen uniformly by the seeded generator among all applicable sites of all premises
(option `scope` extends this to the conclusion). The follow-up's obligation is the equivalence of the rewritten
premise with the original one, which Z3 proves before the follow-up is shipped.

Directions (see `followup`): "forward" is the law as written; MR-E1.1–E1.3 and MR-E2 also have an
"introduction" direction (the law read right to left; MR-E2's applies to any sub-formula), and MR-E1.1–E1.6 and
MR-E2.4 have "extended" variants that go beyond the paper's side conditions while staying equivalences.
Where an introduction needs an arbitrary formula ψ (MR-E2), ψ is a seeded atom (`base.seeded_atom`),
preferably one that already occurs in the case and fits the variables bound at the site.

The paper's reading (`direction="paper"`, issues #25 and #36; `lgmt_tasks/lgmt/issue25_paper_reading.md` §2 and
§7) is the forward sites of every relation, plus MR-E1.5's clashing variable: each relation's `paper_site` says
which, and why, in its docstring. Issue #25's reading fitted to Table 9's counts (`direction="counts"`,
`counts_site`) adds MR-E1.2's negated →/↔/⊕, MR-E1.6's permuted canonical blocks and MR-E2.4's ⊕ step, which
issue #36 found beyond the paper's text (their `variant` is `extended`).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from lgmt_tasks.lgmt.relations.base import (
    Options,
    Relation,
    Site,
    canonical_key,
    fresh_variable,
    premise_name,
    seeded_atom,
    site_text,
    used_names,
)
from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Bottom,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Path,
    Top,
    Var,
    Xor,
    all_vars,
    alpha_equivalent,
    at,
    binders_above,
    children,
    free_vars,
    replace_at,
    substitute,
)
from lgmt_tasks.sources.case import Case

NodeSite = tuple[str, str, tuple[int, ...]]  # (direction, law, detail)


@dataclass(frozen=True)
class RewriteContext:
    """What a rewrite may need beyond the node itself: the case, the whole target formula, the generator."""

    case: Case
    formula: Formula
    path: Path
    rng: random.Random

    @cached_property
    def avoid(self) -> frozenset[str]:
        """Names a fresh variable must not take (every symbol and variable of the case)."""
        return used_names(self.case)

    def bound(self) -> tuple[str, ...]:
        """Variables bound at the site."""
        return binders_above(self.formula, self.path)

    def atom(self) -> Formula:
        """Draw a seeded atom ψ (other than the rewritten sub-formula) that fits the site (`seeded_atom`)."""
        return seeded_atom(self.case, self.bound(), self.avoid, self.rng, exclude=at(self.formula, self.path))


def _walk(f: Formula, path: Path = (), parent: Formula | None = None) -> Iterator[tuple[Path, Formula, Formula | None]]:
    yield path, f, parent
    for i, child in enumerate(children(f)):
        yield from _walk(child, (*path, i), f)


def _without(args: tuple[Formula, ...], *drop: int) -> tuple[Formula, ...]:
    return tuple(a for k, a in enumerate(args) if k not in drop)


def _nary(kind: type[And] | type[Or], args: tuple[Formula, ...]) -> Formula:
    """`kind(args)`, or the single operand when only one is left."""
    return args[0] if len(args) == 1 else kind(args)


def _constant(f: Formula) -> bool:
    return isinstance(f, (Top, Bottom))


def _sym(f: Formula) -> str:
    return "∧" if isinstance(f, And) else "∨"


class FormulaRelation(Relation):
    """Base of the MR-E relations: sites are sub-formulas; one site is rewritten in one step."""

    category = "MR-E"

    def _targets(self, case: Case, opts: Options) -> Iterator[tuple[int | None, Formula]]:
        if opts.scope in ("premises", "all"):
            yield from enumerate(case.premises_fol)
        if opts.scope in ("conclusion", "all"):
            yield None, case.conclusion_fol

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        for target, formula in self._targets(case, opts):
            for path, node, parent in _walk(formula):
                for direction, law, detail in self._node_sites(node, parent, path):
                    yield Site(target, path, direction, law, detail)

    @abstractmethod
    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        """Yield the ways this relation can rewrite `node` (whose parent is `parent`)."""

    @abstractmethod
    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        """Return the replacement of `node` at `site`."""

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        formula = case.conclusion_fol if site.target is None else case.premises_fol[site.target]
        node = at(formula, site.path)
        new = replace_at(formula, site.path, self._rewrite(node, site, RewriteContext(case, formula, site.path, rng)))
        if new == formula:
            return None
        premises = case.premises_fol
        origin: tuple[int | None, ...] = tuple(range(len(premises)))
        conclusion = case.conclusion_fol
        if site.target is None:
            conclusion, changed = new, "conclusion"
        else:
            premises = (*premises[: site.target], new, *premises[site.target + 1 :])
            origin = tuple(None if k == site.target else k for k in origin)
            changed = premise_name(site.target)
        return FollowUp(
            premises_fol=premises,
            conclusion_fol=conclusion,
            premise_origin=origin,
            conclusion_changed=site.target is None,
            mr=self.id,
            category=self.category,
            direction=site.direction,
            changed=changed,
            site=site_text(site.target, site.path),
            obligation=("equivalence", formula, new),
            law=site.law,
            variant=self.variant(site),
        )


# =========================================================================== MR-E1


def _negate(f: Formula) -> Formula:
    """¬f, cancelling a leading negation instead of stacking a second one (¬¬a is written a)."""
    return f.body if isinstance(f, Not) else Not(f)


def _is_biconditional_shape(node: Formula) -> bool:
    """Whether `node` is (¬φ ∨ ψ) ∧ (¬ψ ∨ φ), the right-hand side of MR-E1.1's biconditional law."""
    if not (isinstance(node, And) and len(node.args) == 2):
        return False
    a, b = node.args
    if not (isinstance(a, Or) and isinstance(b, Or) and len(a.args) == 2 and len(b.args) == 2):
        return False
    (na, pa), (nb, pb) = a.args, b.args
    return (
        isinstance(na, Not) and isinstance(nb, Not) and alpha_equivalent(na.body, pb) and alpha_equivalent(pa, nb.body)
    )


class ImplicationElimination(FormulaRelation):
    """MR-E1.1 (Implication and biconditional elimination).

    Law (§3.3.1): φ → ψ ⇝ ¬φ ∨ ψ;  φ ↔ ψ ⇝ (¬φ ∨ ψ) ∧ (¬ψ ∨ φ).

    Introduction (right to left): any disjunction φ ∨ ψ ⇝ ¬φ → ψ (with ¬¬φ written φ, so ¬φ ∨ ψ ⇝ φ → ψ
    exactly; an n-ary φ ∨ ψ₁ ∨ ⋯ gives ¬φ → (ψ₁ ∨ ⋯)); (¬φ ∨ ψ) ∧ (¬ψ ∨ φ) ⇝ φ ↔ ψ.

    Extended: φ ⊕ ψ ⇝ (φ ∨ ψ) ∧ (¬φ ∨ ¬ψ) (FOLIO's exclusive or, absent from the paper's symbol set, eliminated
    as `normal_forms.nnf` does).
    """

    id = "MR-E1.1"
    name = "Implication and biconditional elimination"
    law = "φ → ψ ⇝ ¬φ ∨ ψ;  φ ↔ ψ ⇝ (¬φ ∨ ψ) ∧ (¬ψ ∨ φ)"
    directions = ("forward", "introduction", "extended")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, Implies):
            yield "forward", "implication elimination", ()
        elif isinstance(node, Iff):
            yield "forward", "biconditional elimination", ()
        elif isinstance(node, Xor):
            yield "extended", "exclusive-or elimination", ()
        elif isinstance(node, Or):
            yield "introduction", "implication introduction", ()
        elif _is_biconditional_shape(node):
            yield "introduction", "biconditional introduction", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if isinstance(node, Implies):
            return Or((Not(node.left), node.right))
        if isinstance(node, Iff):
            return And((Or((Not(node.left), node.right)), Or((Not(node.right), node.left))))
        if isinstance(node, Xor):
            return And((Or((node.left, node.right)), Or((Not(node.left), Not(node.right)))))
        if isinstance(node, Or):
            return Implies(_negate(node.args[0]), _nary(Or, node.args[1:]))
        assert isinstance(node, And) and isinstance(node.args[0], Or)
        negated, right = node.args[0].args
        assert isinstance(negated, Not)
        return Iff(negated.body, right)


class NegationNormalization(FormulaRelation):
    """MR-E1.2 (Negation normalization): one step of pushing a negation inward.

    Law (§3.3.1): ¬¬φ ⇝ φ;  ¬(φ ∧ ψ) ⇝ (¬φ) ∨ (¬ψ),  ¬(φ ∨ ψ) ⇝ (¬φ) ∧ (¬ψ);
    ¬∀x φ ⇝ ∃x ¬φ,  ¬∃x φ ⇝ ∀x ¬φ. De Morgan is applied to n-ary operands alike.

    Introduction (right to left, pulling a negation outward; ¬¬φ is written φ): any sub-formula φ other than
    ⊤/⊥ ⇝ ¬¬φ; φ ∨ ψ ⇝ ¬(¬φ ∧ ¬ψ); φ ∧ ψ ⇝ ¬(¬φ ∨ ¬ψ); ∃x φ ⇝ ¬∀x ¬φ; ∀x φ ⇝ ¬∃x ¬φ.

    Extended (one inward step of a negation over the connectives the law's list leaves out):
    ¬(φ → ψ) ⇝ φ ∧ ¬ψ;  ¬(φ ↔ ψ) ⇝ ¬φ ↔ ψ;  ¬(φ ⊕ ψ) ⇝ φ ↔ ψ (FOLIO writes "both or neither" as ¬(A ⊕ B)).

    Paper reading (`paper_site`, issue #36): the forward sites, the law's own list. Appendix A.5 (Lemma 2, Def. 3)
    applies MR-E1.1 exhaustively before MR-E1.2, so E1.2 never meets ¬ over → or ↔; A.3's measure puts i(·), the
    count of → and ↔, before n(·) and requires "the first component ... that differs" to decrease, which
    ¬(φ ⊕ ψ) ⇝ φ ↔ ψ breaks (it adds a ↔), and ¬(φ ↔ ψ) ⇝ ¬φ ↔ ψ does not decrease n(·) when φ is not atomic.
    The extended sites are issue #25's reading fitted to Table 9's counts (`counts_site`, `direction="counts"`;
    every non-atomic negation, after A.3's "eliminating a non-atomic negation"); their `variant` is `extended`.
    They are `counts_only`: the forward / introduction / any modes stay as before issue #25.
    """

    id = "MR-E1.2"
    name = "Negation normalization"
    law = "¬¬φ ⇝ φ; ¬(φ ∧ ψ) ⇝ ¬φ ∨ ¬ψ; ¬(φ ∨ ψ) ⇝ ¬φ ∧ ¬ψ; ¬∀x φ ⇝ ∃x ¬φ; ¬∃x φ ⇝ ∀x ¬φ"
    directions = ("forward", "introduction", "extended")

    _LAWS: Mapping[type, str] = MappingProxyType(
        {
            Not: "double negation",
            And: "De Morgan (∧)",
            Or: "De Morgan (∨)",
            Forall: "quantifier duality (∀)",
            Exists: "quantifier duality (∃)",
        }
    )
    # Extended: the connective under the negation -> the law (the paper's reading adds them, see the docstring).
    _EXTENDED: Mapping[type, str] = MappingProxyType(
        {
            Implies: "negated implication",
            Iff: "negated biconditional",
            Xor: "negated exclusive or",
        }
    )
    # Introduction: the connective of the node pulled out from -> the law it reverses.
    _INTRODUCTIONS: Mapping[type, str] = MappingProxyType(
        {
            Or: "De Morgan (∧) introduction",
            And: "De Morgan (∨) introduction",
            Exists: "quantifier duality (∀) introduction",
            Forall: "quantifier duality (∃) introduction",
        }
    )

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, Not) and type(node.body) in self._LAWS:
            yield "forward", self._LAWS[type(node.body)], ()
        if isinstance(node, Not) and type(node.body) in self._EXTENDED:
            yield "extended", self._EXTENDED[type(node.body)], ()
        if not _constant(node):
            yield "introduction", "double negation introduction", ()
        if type(node) in self._INTRODUCTIONS:
            yield "introduction", self._INTRODUCTIONS[type(node)], ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if site.direction == "introduction":
            if site.law == "double negation introduction":
                return Not(Not(node))
            if isinstance(node, Or):
                return Not(And(tuple(_negate(a) for a in node.args)))
            if isinstance(node, And):
                return Not(Or(tuple(_negate(a) for a in node.args)))
            if isinstance(node, Exists):
                return Not(Forall(node.var, _negate(node.body)))
            assert isinstance(node, Forall)
            return Not(Exists(node.var, _negate(node.body)))
        assert isinstance(node, Not)
        body = node.body
        # One step, no cancelling of a resulting ¬¬ (as De Morgan below): that is the next E1.2 step.
        if isinstance(body, Implies):
            return And((body.left, Not(body.right)))
        if isinstance(body, Iff):
            return Iff(Not(body.left), body.right)
        if isinstance(body, Xor):
            return Iff(body.left, body.right)
        if isinstance(body, Not):
            return body.body
        if isinstance(body, And):
            return Or(tuple(Not(a) for a in body.args))
        if isinstance(body, Or):
            return And(tuple(Not(a) for a in body.args))
        if isinstance(body, Forall):
            return Exists(body.var, Not(body.body))
        assert isinstance(body, Exists)
        return Forall(body.var, Not(body.body))

    def counts_site(self, site: Site) -> bool:
        """Forward, and the negated →/↔/⊕ steps (issue #25's every non-atomic negation)."""
        return site.direction in ("forward", "extended")

    def counts_only(self, site: Site) -> bool:
        """The negated →/↔/⊕ steps were added for issue #25's reading: the older modes skip them."""
        return site.direction == "extended"


def _quantifier_symbol(f: Formula) -> str:
    return "∀" if isinstance(f, Forall) else "∃"


class QuantifierLifting(FormulaRelation):
    """MR-E1.3 (Quantifier lifting) toward the prenex prefix.

    Law (§3.3.1), Q ∈ {∀, ∃}, ∘ ∈ {∧, ∨}, provided x ∉ FV(ψ):
    (Qx φ) ∘ ψ ⇝ Qx (φ ∘ ψ);  ψ ∘ (Qx φ) ⇝ Qx (ψ ∘ φ). For an n-ary ∘ the quantifier is lifted over all
    other operands (x free in none of them).

    Introduction (right to left, quantifier lowering): Qx (φ ∘ ψ) ⇝ (Qx φ) ∘ ψ when x ∉ FV(ψ); for an n-ary ∘,
    the operands where x is free stay under Qx (placed where the first of them was) and the others move out.

    Extended (the prenex rules for →, provided x ∉ FV(ψ)): ψ → Qx φ ⇝ Qx (ψ → φ);
    (∀x φ) → ψ ⇝ ∃x (φ → ψ);  (∃x φ) → ψ ⇝ ∀x (φ → ψ).

    Fresh variable (every direction): when x is bound somewhere in ψ (the side condition only excludes x free in ψ),
    the lifted quantifier is an α-variant Qy (φ[x := y] ∘ ψ), y fresh in the case (`base.fresh_variable`), and the
    law says "with α-renaming". Lifting Qx itself would be valid (ψ's inner Qx shadows) but nests a quantifier in
    one of the same name, as in ∃x (P(x) ∧ ∃x Q(x)), whose English reads "there is an x … and there is an x …";
    the paper takes formulas up to α-equivalence (App. A.1) and lifts "using MR-E1.5 when alpha-renaming is needed"
    (App. A.5), so the α-variant is the same E1.3 result (issue25_paper_reading.md §5).

    Paper reading: the forward sites (∧/∨ only; Table 9's n = 42 is the size of the paper's whole pool, and the →
    rules would multiply it by about 100 on LogicNLI; lowering runs against App. A.3's canonical orientation).
    """

    id = "MR-E1.3"
    name = "Quantifier lifting"
    law = "(Qx φ) ∘ ψ ⇝ Qx (φ ∘ ψ); ψ ∘ (Qx φ) ⇝ Qx (ψ ∘ φ)   (x ∉ FV(ψ))"
    directions = ("forward", "introduction", "extended")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, (And, Or)):
            for i, a in enumerate(node.args):
                if isinstance(a, (Forall, Exists)):
                    others = _without(node.args, i)
                    if a.var not in frozenset().union(*(free_vars(b) for b in others)):
                        law = f"quantifier lifting ({_quantifier_symbol(a)}, {_sym(node)})"
                        yield "forward", law + _renaming_note(a, others), (i,)
        elif isinstance(node, Implies):
            right, left = node.right, node.left
            if isinstance(right, (Forall, Exists)) and right.var not in free_vars(left):
                law = f"quantifier lifting from a consequent ({_quantifier_symbol(right)})"
                yield "extended", law + _renaming_note(right, (left,)), (1,)
            if isinstance(left, (Forall, Exists)) and left.var not in free_vars(right):
                law = f"quantifier lifting from an antecedent ({_quantifier_symbol(left)})"
                yield "extended", law + _renaming_note(left, (right,)), (0,)
        elif isinstance(node, (Forall, Exists)) and isinstance(node.body, (And, Or)):
            bound = [node.var in free_vars(a) for a in node.body.args]
            if any(bound) and not all(bound):
                yield "introduction", f"quantifier lowering ({_quantifier_symbol(node)}, {_sym(node.body)})", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if site.direction == "introduction":
            assert isinstance(node, (Forall, Exists)) and isinstance(node.body, (And, Or))
            connective, args = type(node.body), node.body.args
            inside = [k for k, a in enumerate(args) if node.var in free_vars(a)]
            lowered = type(node)(node.var, _nary(connective, tuple(args[k] for k in inside)))
            out = [lowered if k == inside[0] else a for k, a in enumerate(args) if k == inside[0] or k not in inside]
            return connective(tuple(out))
        (i,) = site.detail
        assert isinstance(i, int)
        if isinstance(node, (And, Or)):
            q = node.args[i]
            assert isinstance(q, (Forall, Exists))
            var, body = _lifted(q, _without(node.args, i), ctx)
            lifted = tuple(body if k == i else a for k, a in enumerate(node.args))
            return type(q)(var, type(node)(lifted))
        assert isinstance(node, Implies)
        if i == 1:
            right = node.right
            assert isinstance(right, (Forall, Exists))
            var, body = _lifted(right, (node.left,), ctx)
            return type(right)(var, Implies(node.left, body))
        left = node.left
        assert isinstance(left, (Forall, Exists))
        dual = Exists if isinstance(left, Forall) else Forall
        var, body = _lifted(left, (node.right,), ctx)
        return dual(var, Implies(body, node.right))


def _needs_renaming(q: Forall | Exists, others: tuple[Formula, ...]) -> bool:
    """Whether lifting `q` over `others` would nest a quantifier of the same name: q's variable is bound in them."""
    return any(q.var in all_vars(b) for b in others)


def _renaming_note(q: Forall | Exists, others: tuple[Formula, ...]) -> str:
    """The suffix of MR-E1.3's law when the lifted quantifier is an α-variant (so reports can count those)."""
    return " with α-renaming" if _needs_renaming(q, others) else ""


def _lifted(q: Forall | Exists, others: tuple[Formula, ...], ctx: RewriteContext) -> tuple[str, Formula]:
    """The variable and body of the quantifier to lift over `others`: q's own, or a fresh α-variant.

    The α-variant Qy φ[x := y] (y used nowhere in the case; capture-avoiding substitution) is needed only when x is
    bound in `others`; x free there is excluded by the side condition, so φ ∘ ψ keeps its meaning under Qy.
    """
    if not _needs_renaming(q, others):
        return q.var, q.body
    y = fresh_variable(ctx.avoid)
    return y, substitute(q.body, q.var, Var(y))


def _is_canonical(args: tuple[Formula, ...]) -> bool:
    keys = [canonical_key(a) for a in args]
    return keys == sorted(keys)


def _seeded_reorder(items: tuple, rng: random.Random) -> tuple:  # type: ignore[type-arg]
    """Return a seeded permutation of `items` that differs from `items` (which must not be all equal)."""
    for _ in range(64):
        shuffled = list(items)
        rng.shuffle(shuffled)
        if tuple(shuffled) != items:
            return tuple(shuffled)
    return (*items[1:], items[0])  # a rotation differs unless all items are equal


class StructuralNormalization(FormulaRelation):
    """MR-E1.4 (Structural normalization): one flattening or one reordering of a conjunction/disjunction.

    Law (§3.3.1): (φ ∧ (ψ ∧ θ)) ⇝ (φ ∧ ψ ∧ θ);  (φ ∨ (ψ ∨ θ)) ⇝ (φ ∨ ψ ∨ θ);
    (φ₁ ∧ ⋯ ∧ φₙ) ⇝ (φσ(1) ∧ ⋯ ∧ φσ(n)), σ sorting the operands by a fixed canonical order <.

    The canonical order is `base.canonical_key`. Forward sites: a nested operand of the same connective
    (flattened one at a time), or operands out of canonical order (sorted). Extended: operands already in
    canonical order get a seeded non-identity permutation (so the relation also applies to canonical formulas).
    """

    id = "MR-E1.4"
    name = "Structural normalization"
    law = "(φ ∧ (ψ ∧ θ)) ⇝ (φ ∧ ψ ∧ θ); (φ₁ ∧ ⋯ ∧ φₙ) ⇝ (φσ(1) ∧ ⋯ ∧ φσ(n)) sorted by <; likewise for ∨"
    directions = ("forward", "extended")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if not isinstance(node, (And, Or)):
            return
        for j, a in enumerate(node.args):
            if type(a) is type(node):
                yield "forward", f"flattening ({_sym(node)})", (j,)
        if not _is_canonical(node.args):
            yield "forward", f"canonical ordering ({_sym(node)})", ()
        elif len({canonical_key(a) for a in node.args}) > 1:
            yield "extended", f"operand permutation ({_sym(node)})", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        assert isinstance(node, (And, Or))
        if site.law.startswith("flattening"):
            (j,) = site.detail
            assert isinstance(j, int)
            inner = node.args[j]
            assert isinstance(inner, (And, Or))
            return type(node)((*node.args[:j], *inner.args, *node.args[j + 1 :]))
        if site.law.startswith("canonical"):
            return type(node)(tuple(sorted(node.args, key=canonical_key)))
        return type(node)(_seeded_reorder(node.args, ctx.rng))


class AlphaRenaming(FormulaRelation):
    """MR-E1.5 (α-renaming) of a bound variable to a fresh one.

    Law (§3.3.1): (Qx φ) ∘ ψ ⇝ (Qy φ[x := y]) ∘ ψ, where x ∈ Var(ψ) and y ∉ Var(φ) ∪ Var(ψ).

    Forward sites are the paper's conflicts: a quantified operand of ∧/∨ whose variable occurs (free or bound)
    in another operand. Extended: any other quantifier, renamed although nothing forces it, so the relation
    applies to every quantified formula; the law says "of a clashing variable" when x also occurs in the same
    formula outside the quantifier's scope (free, bound by another quantifier, or bound by an enclosing Qx), and
    plain "α-renaming" when it clashes with nothing. The fresh y is the first of x, y, z, w, v, u, x1, … used
    nowhere in the case (no variable, constant or predicate of that name), so it never shadows or reads as a
    constant.

    Paper reading (`paper_site`): the forward sites and the clashing ones, never a variable that clashes with
    nothing. The paper's E1.5 exists "to resolve variable name conflicts that hinder quantifier lifting" and "is
    applicable only when a variable conflict blocks the application of MR-E1.3" (App. A.3), and Table 9's n = 22
    is the paper's whole pool, where renaming any bound variable gives thousands. A clash outside the operand
    level is the conflict met one level further up on the way to the prenex form (e.g. ∀x (P(x) → ∃x Q(x)), or
    ∃y in both sides of an →); with it the estimate is 4–26 at the paper's FOLIO size (issue25_paper_reading.md §2).
    """

    id = "MR-E1.5"
    name = "α-renaming"
    law = "(Qx φ) ∘ ψ ⇝ (Qy φ[x := y]) ∘ ψ   (x ∈ Var(ψ), y ∉ Var(φ) ∪ Var(ψ))"
    directions = ("forward", "extended")

    _CLASHING = "α-renaming of a clashing variable"

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        """The operand-level sites of `_node_sites`; an extended one is relabelled when its variable clashes.

        A clash needs the whole target formula, which `_node_sites` does not see.
        """
        occurrences: dict[int | None, Counter[str]] = {}
        for site in super()._iter_sites(case, opts):
            if site.direction == "extended":
                formula = case.conclusion_fol if site.target is None else case.premises_fol[site.target]
                if site.target not in occurrences:
                    occurrences[site.target] = _name_occurrences(formula)
                node = at(formula, site.path)
                assert isinstance(node, (Forall, Exists))
                if occurrences[site.target][node.var] > _name_occurrences(node)[node.var]:
                    site = Site(site.target, site.path, site.direction, self._clashing_law(node), site.detail)
            yield site

    def _clashing_law(self, node: Forall | Exists) -> str:
        return f"{self._CLASHING} ({_quantifier_symbol(node)})"

    def paper_site(self, site: Site) -> bool:
        """Forward (the law's ∧/∨ conflict) or a clashing variable; never a rename that resolves nothing."""
        return site.direction == "forward" or site.law.startswith(self._CLASHING)

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if not isinstance(node, (Forall, Exists)):
            return
        if isinstance(parent, (And, Or)):
            others = _without(parent.args, path[-1])
            if any(node.var in all_vars(b) for b in others):
                yield "forward", f"α-renaming of a conflicting variable ({_quantifier_symbol(node)})", ()
                return
        yield "extended", f"α-renaming ({_quantifier_symbol(node)})", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        assert isinstance(node, (Forall, Exists))
        y = fresh_variable(ctx.avoid)
        return type(node)(y, substitute(node.body, node.var, Var(y)))


def _name_occurrences(f: Formula) -> Counter[str]:
    """How often each variable name occurs in `f`, as a term or as a quantifier's variable (MR-E1.5's clashes)."""
    counts: Counter[str] = Counter()
    for _, node, _ in _walk(f):
        if isinstance(node, (Forall, Exists)):
            counts[node.var] += 1
        elif isinstance(node, (Atom, Eq)):
            args = node.args if isinstance(node, Atom) else (node.left, node.right)
            counts.update(t.name for t in args if isinstance(t, Var))
    return counts


def _block(node: Formula) -> tuple[list[str], Formula]:
    """Return the variables of the maximal same-quantifier block starting at `node`, and its matrix."""
    kind = type(node)
    names: list[str] = []
    body = node
    while isinstance(body, (Forall, Exists)) and type(body) is kind:
        names.append(body.var)
        body = body.body
    return names, body


def _first_occurrences(matrix: Formula, names: list[str]) -> dict[str, int]:
    """Position of the first free occurrence of each of `names` in a pre-order walk of `matrix`."""
    seen: dict[str, int] = {}

    def visit(f: Formula, bound: frozenset[str]) -> None:
        if isinstance(f, (Atom, Eq)):
            args = f.args if isinstance(f, Atom) else (f.left, f.right)
            for t in args:
                if isinstance(t, Var) and t.name in names and t.name not in bound and t.name not in seen:
                    seen[t.name] = len(seen)
            return
        inner = bound | {f.var} if isinstance(f, (Forall, Exists)) else bound
        for c in children(f):
            visit(c, inner)

    visit(matrix, frozenset())
    return seen


def _canonical_block(names: list[str], matrix: Formula) -> list[str]:
    first = _first_occurrences(matrix, names)
    return sorted(names, key=lambda v: (first.get(v, len(names)), names.index(v)))


def quantifier_order_deviation(f: Formula) -> int:
    """App. A.3's d(·), the last component of the termination measure m(·), which MR-E1.6 strictly decreases.

    A.3: d "counts deviations in the ordering of bound variables within maximal same-quantifier blocks with respect
    to the canonical order enforced by MR-E1.6"; counted here as the pairs of a block's variables in the wrong order
    (inversions), summed over every maximal block of ≥ 2 distinct variables in `f`.

    0 exactly when every block is in canonical order; MR-E1.6's forward step sorts one block and so decreases it.
    """
    total = 0
    for _, node, parent in _walk(f):
        if not isinstance(node, (Forall, Exists)) or type(parent) is type(node):
            continue
        names, matrix = _block(node)
        if len(names) < 2 or len(set(names)) != len(names):
            continue
        rank = {v: k for k, v in enumerate(_canonical_block(names, matrix))}
        total += sum(1 for i in range(len(names)) for j in range(i + 1, len(names)) if rank[names[i]] > rank[names[j]])
    return total


class QuantifierOrdering(FormulaRelation):
    """MR-E1.6 (Canonical quantifier ordering) of a block of adjacent identical quantifiers.

    Law (§3.3.1): Qx₁ ⋯ Qxᵣ. M ⇝ Qxσ(1) ⋯ Qxσ(r). M, σ ordering the block by the first occurrence of its
    variables in the matrix M (variables that do not occur keep their relative order, last).

    Applied to every maximal block of ≥ 2 identical quantifiers with distinct variables, wherever it occurs
    (not only in a prenex prefix: the equivalence holds anywhere). Forward: a block not in canonical order is
    sorted. Extended: a block already in canonical order gets a seeded non-identity permutation.

    Paper reading (`paper_site`, issue #36): the forward sites only, a block not in canonical order sorted into it.
    §3.3.1: "σ ensures a canonical variable sequence within each quantifier block"; App. A.3: "Each MR is oriented
    from non-canonical to canonical form" and "MR-E1.6 strictly decreases d(·)" (`quantifier_order_deviation`),
    which a permutation of a block already in canonical order (d = 0 there) cannot do. The extended permutations
    are issue #25's reading fitted to Table 9's counts (`counts_site`, `direction="counts"`, and `introduction` /
    `any` as before); their `variant` is `extended`. "Anywhere" is kept: a rule schema "applies to arbitrary
    subformulas" (§3.3.1), and each block heads the prenex prefix of its own sub-formula.
    """

    id = "MR-E1.6"
    name = "Canonical quantifier ordering"
    law = "Qx₁ ⋯ Qxᵣ. M ⇝ Qxσ(1) ⋯ Qxσ(r). M   (σ: order of first occurrence in M)"
    directions = ("forward", "extended")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if not isinstance(node, (Forall, Exists)) or type(parent) is type(node):
            return
        names, matrix = _block(node)
        if len(names) < 2 or len(set(names)) != len(names):
            return
        q = _quantifier_symbol(node)
        if _canonical_block(names, matrix) != names:
            yield "forward", f"quantifier block ordering ({q})", ()
        else:
            yield "extended", f"quantifier block permutation ({q})", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        assert isinstance(node, (Forall, Exists))
        quantifier = type(node)
        names, matrix = _block(node)
        if site.direction == "forward":
            order: list[str] | tuple[str, ...] = _canonical_block(names, matrix)
        else:
            order = _seeded_reorder(tuple(names), ctx.rng)
        out = matrix
        for v in reversed(order):
            out = quantifier(v, out)
        return out

    def counts_site(self, site: Site) -> bool:
        """Every block (issue #25's reading; see the class docstring)."""
        return True


# =========================================================================== MR-E2


def _dual(node: And | Or) -> type[And] | type[Or]:
    return Or if isinstance(node, And) else And


class RedundancyElimination(FormulaRelation):
    """MR-E2.1 (Redundancy elimination): idempotence and absorption.

    Law (§3.3.1): φ ∨ φ ⇝ φ,  φ ∧ φ ⇝ φ;  φ ∨ (φ ∧ ψ) ⇝ φ,  φ ∧ (φ ∨ ψ) ⇝ φ.
    Forward on n-ary operands: a repeated operand (up to α-equivalence) or an absorbed operand is removed.

    Introduction (any sub-formula φ other than ⊤/⊥; ψ a seeded atom, see the module docstring):
    φ ⇝ φ ∨ φ,  φ ⇝ φ ∧ φ,  φ ⇝ φ ∨ (φ ∧ ψ),  φ ⇝ φ ∧ (φ ∨ ψ).
    """

    id = "MR-E2.1"
    name = "Redundancy elimination"
    law = "φ ∨ φ ⇝ φ; φ ∧ φ ⇝ φ; φ ∨ (φ ∧ ψ) ⇝ φ; φ ∧ (φ ∨ ψ) ⇝ φ"
    directions = ("forward", "introduction")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, (And, Or)):
            args = node.args
            for j, a in enumerate(args):
                if any(alpha_equivalent(args[i], a) for i in range(j)):
                    yield "forward", f"idempotence ({_sym(node)})", (j,)
                elif isinstance(a, _dual(node)) and any(
                    alpha_equivalent(args[i], b) for i in range(len(args)) if i != j for b in a.args
                ):
                    yield "forward", f"absorption ({_sym(node)})", (j,)
        if not _constant(node):
            for law in ("idempotence (∨)", "idempotence (∧)", "absorption (∨)", "absorption (∧)"):
                yield "introduction", f"{law} introduction", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if site.direction == "forward":
            assert isinstance(node, (And, Or))
            (j,) = site.detail
            assert isinstance(j, int)
            return _nary(type(node), _without(node.args, j))
        if site.law == "idempotence (∨) introduction":
            return Or((node, node))
        if site.law == "idempotence (∧) introduction":
            return And((node, node))
        if site.law == "absorption (∨) introduction":
            return Or((node, And((node, ctx.atom()))))
        return And((node, Or((node, ctx.atom()))))


def _complementary(a: Formula, b: Formula) -> bool:
    return (isinstance(b, Not) and alpha_equivalent(a, b.body)) or (isinstance(a, Not) and alpha_equivalent(a.body, b))


class TautologyElimination(FormulaRelation):
    """MR-E2.2 (Tautology and contradiction elimination).

    Law (§3.3.1): φ ∨ ¬φ ⇝ True,  φ ∧ ¬φ ⇝ False (on n-ary operands: any complementary pair).

    Introduction (ψ a seeded atom): True ⇝ ψ ∨ ¬ψ and False ⇝ ψ ∧ ¬ψ where the formula has a constant; at any
    other sub-formula φ, φ ⇝ φ ∧ (ψ ∨ ¬ψ) and φ ⇝ φ ∨ (ψ ∧ ¬ψ) (the law read backwards inside MR-E2.3's identity
    law, so that it applies to every formula).
    """

    id = "MR-E2.2"
    name = "Tautology and contradiction elimination"
    law = "φ ∨ ¬φ ⇝ True; φ ∧ ¬φ ⇝ False"
    directions = ("forward", "introduction")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, (And, Or)):
            args = node.args
            if any(_complementary(args[i], args[j]) for i in range(len(args)) for j in range(i + 1, len(args))):
                yield "forward", "excluded middle" if isinstance(node, Or) else "contradiction", ()
        if isinstance(node, Top):
            yield "introduction", "excluded middle introduction", ()
        elif isinstance(node, Bottom):
            yield "introduction", "contradiction introduction", ()
        else:
            yield "introduction", "tautological conjunct introduction", ()
            yield "introduction", "contradictory disjunct introduction", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if site.direction == "forward":
            return TRUE if isinstance(node, Or) else FALSE
        psi = ctx.atom()
        if site.law == "excluded middle introduction":
            return Or((psi, Not(psi)))
        if site.law == "contradiction introduction":
            return And((psi, Not(psi)))
        if site.law == "tautological conjunct introduction":
            return And((node, Or((psi, Not(psi)))))
        return Or((node, And((psi, Not(psi)))))


class IdentityDomination(FormulaRelation):
    """MR-E2.3 (Identity and domination laws).

    Law (§3.3.1): φ ∧ True ⇝ φ,  φ ∨ False ⇝ φ;  φ ∨ True ⇝ True,  φ ∧ False ⇝ False (n-ary alike).

    Introduction (ψ a seeded atom): at any sub-formula φ other than ⊤/⊥, φ ⇝ φ ∧ True, φ ⇝ φ ∨ False,
    φ ⇝ φ ∧ (ψ ∨ True), φ ⇝ φ ∨ (ψ ∧ False); at True, True ⇝ ψ ∨ True; at False, False ⇝ ψ ∧ False.
    """

    id = "MR-E2.3"
    name = "Identity and domination laws"
    law = "φ ∧ True ⇝ φ; φ ∨ False ⇝ φ; φ ∨ True ⇝ True; φ ∧ False ⇝ False"
    directions = ("forward", "introduction")

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, (And, Or)):
            unit, zero = (Top, Bottom) if isinstance(node, And) else (Bottom, Top)
            if any(isinstance(a, zero) for a in node.args):
                yield "forward", f"domination ({_sym(node)})", ()
            for j, a in enumerate(node.args):
                if isinstance(a, unit):
                    yield "forward", f"identity ({_sym(node)})", (j,)
        if isinstance(node, Top):
            yield "introduction", "domination (∨) introduction", ()
        elif isinstance(node, Bottom):
            yield "introduction", "domination (∧) introduction", ()
        else:
            yield "introduction", "identity (∧) introduction", ()
            yield "introduction", "identity (∨) introduction", ()
            yield "introduction", "domination (∨) introduction as a conjunct", ()
            yield "introduction", "domination (∧) introduction as a disjunct", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        law = site.law
        if site.direction == "forward":
            assert isinstance(node, (And, Or))
            if law.startswith("domination"):
                return FALSE if isinstance(node, And) else TRUE
            (j,) = site.detail
            assert isinstance(j, int)
            return _nary(type(node), _without(node.args, j))
        if law == "identity (∧) introduction":
            return And((node, TRUE))
        if law == "identity (∨) introduction":
            return Or((node, FALSE))
        if law == "domination (∨) introduction":
            return Or((ctx.atom(), TRUE))
        if law == "domination (∧) introduction":
            return And((ctx.atom(), FALSE))
        if law == "domination (∨) introduction as a conjunct":
            return And((node, Or((ctx.atom(), TRUE))))
        return Or((node, And((ctx.atom(), FALSE))))


def _common_factor(a: And | Or, b: And | Or) -> tuple[int, int] | None:
    for i, x in enumerate(a.args):
        for j, y in enumerate(b.args):
            if alpha_equivalent(x, y):
                return i, j
    return None


class Distributivity(FormulaRelation):
    """MR-E2.4 (Distributivity law).

    Law (§3.3.1): φ ∧ (ψ ∨ θ) ⇝ (φ ∧ ψ) ∨ (φ ∧ θ);  φ ∨ (ψ ∧ θ) ⇝ (φ ∨ ψ) ∧ (φ ∨ θ). On n-ary operands one
    operand φ is distributed over one operand of the dual connective (all its disjuncts / conjuncts); operand
    order is kept ((ψ ∨ θ) ∧ φ ⇝ (ψ ∧ φ) ∨ (θ ∧ φ)).

    Introduction: factoring, the law read backwards: (φ ∧ ψ) ∨ (φ ∧ θ) ⇝ φ ∧ (ψ ∨ θ) and
    (φ ∨ ψ) ∧ (φ ∨ θ) ⇝ φ ∨ (ψ ∧ θ); and, so that it applies to every formula, the distributive (Shannon)
    expansions over a seeded atom ψ: φ ⇝ (φ ∧ ψ) ∨ (φ ∧ ¬ψ) and φ ⇝ (φ ∨ ψ) ∧ (φ ∨ ¬ψ).

    Extended: one distribution step on φ ⊕ ψ read as (φ ∧ ¬ψ) ∨ (¬φ ∧ ψ), i.e. the forward law X ∨ (Y ∧ Z) ⇝
    (X ∨ Y) ∧ (X ∨ Z) with X = φ ∧ ¬ψ:  φ ⊕ ψ ⇝ ((φ ∧ ¬ψ) ∨ ¬φ) ∧ ((φ ∧ ¬ψ) ∨ ψ).

    Paper reading (`paper_site`, issue #36): the forward sites, the law as written. §3.3.1 states it over ∧ and ∨
    only and App. A's symbol set has no ⊕, so nothing in the text reads φ ⊕ ψ as a disjunction to distribute.
    The ⊕ step is issue #25's inference about the paper's encoding of ⊕ (ProverQA, ⊕ in most cases, was used in
    full; Logic-LM's Prover9 converter writes A ⊕ B as (A ∧ ¬B) ∨ (¬A ∧ B)), fitted to Table 9's 200 groups
    (issue25_paper_reading.md §1.3, §2): `counts_site`, `direction="counts"`, `variant` `extended`. It is
    `counts_only`: the older modes stay as before issue #25.
    """

    id = "MR-E2.4"
    name = "Distributivity law"
    law = "φ ∧ (ψ ∨ θ) ⇝ (φ ∧ ψ) ∨ (φ ∧ θ); φ ∨ (ψ ∧ θ) ⇝ (φ ∨ ψ) ∧ (φ ∨ θ)"
    directions = ("forward", "introduction", "extended")

    _XOR = "distributivity (⊕ read as (φ ∧ ¬ψ) ∨ (¬φ ∧ ψ))"

    def _node_sites(self, node: Formula, parent: Formula | None, path: Path) -> Iterator[NodeSite]:
        if isinstance(node, (And, Or)):
            dual = _dual(node)
            args = node.args
            for j, a in enumerate(args):
                if isinstance(a, dual):
                    for i in range(len(args)):
                        if i != j:
                            yield "forward", f"distributivity ({_sym(node)} over {_sym(a)})", (i, j)
            for i in range(len(args)):
                for j in range(i + 1, len(args)):
                    x, y = args[i], args[j]
                    if isinstance(x, dual) and isinstance(y, dual):
                        common = _common_factor(x, y)
                        if common is not None:
                            yield "introduction", f"factoring ({_sym(x)})", (i, j, *common)
        if isinstance(node, Xor):
            yield "extended", self._XOR, ()
        if not _constant(node):
            yield "introduction", "distributive expansion (∨ of ∧)", ()
            yield "introduction", "distributive expansion (∧ of ∨)", ()

    def _rewrite(self, node: Formula, site: Site, ctx: RewriteContext) -> Formula:
        if site.law == self._XOR:
            assert isinstance(node, Xor)
            first = And((node.left, Not(node.right)))  # the DNF's first disjunct; Not, as MR-E1.1 writes ⊕
            return And((Or((first, Not(node.left))), Or((first, node.right))))
        if site.law.startswith("distributivity"):
            assert isinstance(node, (And, Or))
            i, j = site.detail
            assert isinstance(i, int) and isinstance(j, int)
            phi, inner = node.args[i], node.args[j]
            assert isinstance(inner, (And, Or))
            kind = type(node)
            parts = tuple(kind((phi, b)) if i < j else kind((b, phi)) for b in inner.args)
            spread = type(inner)(parts)
            rest = list(_without(node.args, i, j))
            rest.insert(min(i, j), spread)
            return _nary(kind, tuple(rest))
        if site.law.startswith("factoring"):
            assert isinstance(node, (And, Or))
            i, j, a, b = site.detail
            assert isinstance(i, int) and isinstance(j, int) and isinstance(a, int) and isinstance(b, int)
            x, y = node.args[i], node.args[j]
            assert isinstance(x, (And, Or)) and isinstance(y, (And, Or))
            inner_kind = type(x)
            factor = x.args[a]
            rest_x = _nary(inner_kind, _without(x.args, a))
            rest_y = _nary(inner_kind, _without(y.args, b))
            pair = type(node)((rest_x, rest_y))
            factored = inner_kind((factor, pair)) if a == 0 or b == 0 else inner_kind((pair, factor))
            rest = list(_without(node.args, j))
            rest[i] = factored
            return _nary(type(node), tuple(rest))
        psi = ctx.atom()
        if site.law == "distributive expansion (∨ of ∧)":
            return Or((And((node, psi)), And((node, Not(psi)))))
        return And((Or((node, psi)), Or((node, Not(psi)))))

    def counts_site(self, site: Site) -> bool:
        """Forward, and the ⊕ step (issue #25's reading; see the class docstring)."""
        return site.direction == "forward" or site.law == self._XOR

    def counts_only(self, site: Site) -> bool:
        """The ⊕ step was added for issue #25's reading: the older modes skip it."""
        return site.law == self._XOR


MR_E1: tuple[Relation, ...] = (
    ImplicationElimination(),
    NegationNormalization(),
    QuantifierLifting(),
    StructuralNormalization(),
    AlphaRenaming(),
    QuantifierOrdering(),
)
MR_E2: tuple[Relation, ...] = (
    RedundancyElimination(),
    TautologyElimination(),
    IdentityDomination(),
    Distributivity(),
)
