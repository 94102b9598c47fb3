"""Negation normal form and the canonical prenex negation normal form (the NP procedure of LGMT Appendix A).

The LGMT paper proves that its MR-E1 rewrites reach a canonical PNNF. These functions are the executable
version of that procedure: MR-E1 relations apply one of the rewrite steps at one site, and `pnnf` applies them
all with a fixed strategy. Each step is an equivalence, so `pnnf(f)` is logically equivalent to `f` (property
tested with Z3); the strategy and tie-breaks below are what make the result a function of `f`.

`nnf` (MR-E1.1, MR-E1.2)
    ``φ → ψ ⇝ ¬φ ∨ ψ`` and ``φ ↔ ψ ⇝ (¬φ ∨ ψ) ∧ (¬ψ ∨ φ)`` as in the paper. The paper has no ``⊕``; we use
    ``φ ⊕ ψ ⇝ (φ ∨ ψ) ∧ (¬φ ∨ ¬ψ)`` (FOLIO's exclusive or). Then negations are pushed to the atoms by double
    negation, De Morgan and quantifier duality, and ``¬⊤ ⇝ ⊥``, ``¬⊥ ⇝ ⊤`` (``⊤``/``⊥`` count as atoms for the
    paper's purposes, but a negated constant has a one-symbol equivalent, so NNF never keeps one). Nothing else is
    simplified: ``⊤``/``⊥`` operands stay (dropping them would be MR-E2.3, not MR-E1), nesting of ``∧``/``∨`` is
    kept, and ``↔``/``⊕`` elimination duplicates its operands (the size may grow exponentially with nesting, as with
    the paper's rule).

`pnnf` (NP: MR-E1.1-E1.6, in the order of Definition 3)
    1. `nnf`.
    2. Quantifier lifting (MR-E1.3) with α-renaming (MR-E1.5): the prefix is the quantifiers in left-to-right,
       outermost-first order of the NNF (lifting always the leftmost quantified operand first). Every bound
       variable is renamed apart, which satisfies the side condition of MR-E1.3 everywhere; the paper renames only
       when lifting is blocked, but step 5 renames canonically anyway, so the difference is invisible.
    3. Structural normalisation (MR-E1.4) of the quantifier-free matrix: nested ``∧`` in ``∧`` (and ``∨`` in ``∨``)
       are flattened, and operands are sorted stably by a fixed total order that does not look at bound-variable
       names (a bound variable counts only by the index of its quantifier block, which step 4 cannot change):
       ``⊤``, ``⊥``, then literals by atom (equalities first, then by predicate name, arity and arguments, constants
       before free variables before bound variables) with ``A`` just before ``¬A``, then conjunctions, then
       disjunctions.
    4. Canonical quantifier ordering (MR-E1.6): within each maximal block of equal quantifiers, variables are ordered
       by their first occurrence in the matrix (pre-order, arguments left to right); variables that do not occur
       come last, in prefix order.
    5. Bound variables are renamed ``x, y, z, u, v, w, x1, y1, …`` in prefix order, skipping the names of free
       variables and constants of `f`.

    Vacuous quantifiers (``∀x φ`` with ``x`` not free in ``φ``) are kept, since removing them is not an MR-E1
    step (it would also rely on the domain being non-empty, which holds in standard FOL and in Z3).

Canonicity, exactly: `pnnf` is deterministic, idempotent (``pnnf(pnnf(f)) == pnnf(f)`` as structural equality,
not only up to α-equivalence: steps 3-5 are stable on their own output) and `pnnf(f)` satisfies `is_pnnf`. It is
*not* invariant under every MR-E1 step applied to `f`, despite the paper's Lemma 7: the quantifier prefix depends on
the order of ``∧``/``∨`` operands (``(∀x P(x)) ∧ (∃y Q(y))`` gives ``∀x ∃y``, the swapped conjunction ``∃y ∀x``; both
are correct prenex forms but not α-equivalent), and sort ties between operands that differ only in bound variables of
one block keep their input order. Use Z3 equivalence, not `pnnf` equality, to decide whether two formulas agree.

Single-step helpers for the MR-E1 relations: `lift_quantifier` (MR-E1.3 at one site) and `alpha_rename`
(MR-E1.5 at one site).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeAlias

from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Path,
    Term,
    Top,
    Var,
    Xor,
    all_vars,
    at,
    children,
    free_vars,
    replace_at,
    signature,
    substitute,
)

__all__ = ["alpha_rename", "is_nnf", "is_pnnf", "lift_quantifier", "nnf", "pnnf"]

_Key: TypeAlias = tuple[Any, ...]
_Prefix: TypeAlias = list[tuple[bool, str]]  # (is_forall, variable), outermost first

CANONICAL_VARIABLES = ("x", "y", "z", "u", "v", "w")
"""The first canonical bound-variable names; then the same letters with 1, 2, … appended."""


# --------------------------------------------------------------------------- NNF


def _eliminate(f: Formula) -> Formula:
    """MR-E1.1 (and our ⊕ rule) everywhere, bottom-up."""
    if isinstance(f, (Atom, Eq, Top, Bottom)):
        return f
    if isinstance(f, Implies):
        return Or((Not(_eliminate(f.left)), _eliminate(f.right)))
    if isinstance(f, Iff):
        a, b = _eliminate(f.left), _eliminate(f.right)
        return And((Or((Not(a), b)), Or((Not(b), a))))
    if isinstance(f, Xor):
        a, b = _eliminate(f.left), _eliminate(f.right)
        return And((Or((a, b)), Or((Not(a), Not(b)))))
    if isinstance(f, Not):
        return Not(_eliminate(f.body))
    if isinstance(f, And):
        return And(tuple(_eliminate(a) for a in f.args))
    if isinstance(f, Or):
        return Or(tuple(_eliminate(a) for a in f.args))
    if isinstance(f, (Forall, Exists)):
        return type(f)(f.var, _eliminate(f.body))
    raise TypeError(f"not a formula: {f!r}")


def _push_negations(f: Formula, negate: bool) -> Formula:
    """MR-E1.2 everywhere on a formula without →, ↔, ⊕; `negate` says whether `f` sits under a pending ¬."""
    if isinstance(f, (Atom, Eq)):
        return Not(f) if negate else f
    if isinstance(f, Top):
        return Bottom() if negate else f
    if isinstance(f, Bottom):
        return Top() if negate else f
    if isinstance(f, Not):
        return _push_negations(f.body, not negate)
    if isinstance(f, (And, Or)):
        args = tuple(_push_negations(a, negate) for a in f.args)
        dual = isinstance(f, And) == negate  # ¬(∧) is ∨, ¬(∨) is ∧
        return Or(args) if dual else And(args)
    if isinstance(f, (Forall, Exists)):
        body = _push_negations(f.body, negate)
        universal = isinstance(f, Forall) != negate
        return Forall(f.var, body) if universal else Exists(f.var, body)
    raise TypeError(f"not an implication-free formula: {f!r}")


def nnf(f: Formula) -> Formula:
    """Rewrite `f` to negation normal form by MR-E1.1 and MR-E1.2 (see the module docstring for the rules).

    Args:
        f: Any formula (open formulas are fine; free variables are untouched).

    Returns:
        An equivalent formula satisfying `is_nnf`, with ``∧``/``∨`` nesting and operand order kept.
    """
    return _push_negations(_eliminate(f), negate=False)


def is_nnf(f: Formula) -> bool:
    """Check that `f` has no ``→``, ``↔``, ``⊕`` and negates only atoms and equalities (not ``⊤``/``⊥``)."""
    if isinstance(f, (Atom, Eq, Top, Bottom)):
        return True
    if isinstance(f, Not):
        return isinstance(f.body, (Atom, Eq))
    if isinstance(f, (Implies, Iff, Xor)):
        return False
    return all(is_nnf(c) for c in children(f))


# --------------------------------------------------------------------------- PNNF


def is_pnnf(f: Formula) -> bool:
    """Check that `f` is a quantifier prefix over a quantifier-free NNF matrix (canonical or not)."""
    while isinstance(f, (Forall, Exists)):
        f = f.body
    return is_nnf(f) and not _has_quantifier(f)


def _has_quantifier(f: Formula) -> bool:
    return isinstance(f, (Forall, Exists)) or any(_has_quantifier(c) for c in children(f))


def _names(avoid: frozenset[str], bases: tuple[str, ...]) -> Iterator[str]:
    """Endless deterministic stream of names `base`, then `base1`, `base2`, … cycling over `bases`, minus `avoid`."""
    round_ = 0
    while True:
        for base in bases:
            name = base if round_ == 0 else f"{base}{round_}"
            if name not in avoid:
                yield name
        round_ += 1


def _rename_term(t: Term, mapping: Mapping[str, str]) -> Term:
    return Var(mapping[t.name]) if isinstance(t, Var) and t.name in mapping else t


def _rename_literal(f: Formula, mapping: Mapping[str, str]) -> Formula:
    """Rename variables in an atom, an equality or a negated one (no binders inside, so no capture)."""
    if isinstance(f, Atom):
        return Atom(f.pred, tuple(_rename_term(t, mapping) for t in f.args))
    if isinstance(f, Eq):
        return Eq(_rename_term(f.left, mapping), _rename_term(f.right, mapping))
    if isinstance(f, Not):
        return Not(_rename_literal(f.body, mapping))
    return f


def _prenex(f: Formula, mapping: Mapping[str, str], fresh: Iterator[str], prefix: _Prefix) -> Formula:
    """Lift all quantifiers of the NNF `f` (MR-E1.3 + MR-E1.5), appending them to `prefix`; return the matrix.

    Every binder gets a fresh name from `fresh` (recorded in `mapping` for its scope), so lifting it over any
    sibling can never capture a variable.
    """
    if isinstance(f, (Forall, Exists)):
        name = next(fresh)
        prefix.append((isinstance(f, Forall), name))
        return _prenex(f.body, {**mapping, f.var: name}, fresh, prefix)
    if isinstance(f, (And, Or)):
        return type(f)(tuple(_prenex(a, mapping, fresh, prefix) for a in f.args))
    return _rename_literal(f, mapping)


def _term_key(t: Term, blocks: Mapping[str, int]) -> _Key:
    if isinstance(t, Const):
        return (0, t.name)
    if t.name in blocks:
        return (2, blocks[t.name])
    return (1, t.name)


def _atom_key(f: Atom | Eq, blocks: Mapping[str, int]) -> _Key:
    if isinstance(f, Eq):
        return (0, "", 2, (_term_key(f.left, blocks), _term_key(f.right, blocks)))
    return (1, f.pred, len(f.args), tuple(_term_key(t, blocks) for t in f.args))


def _canonical_matrix(f: Formula, blocks: Mapping[str, int]) -> tuple[Formula, _Key]:
    """MR-E1.4 on a quantifier-free NNF matrix: flatten and stably sort; return it with its sort key."""
    if isinstance(f, Top):
        return f, (0, 0)
    if isinstance(f, Bottom):
        return f, (0, 1)
    if isinstance(f, (Atom, Eq)):
        return f, (1, _atom_key(f, blocks), 0)
    if isinstance(f, Not) and isinstance(f.body, (Atom, Eq)):
        return f, (1, _atom_key(f.body, blocks), 1)
    if isinstance(f, (And, Or)):
        parts: list[tuple[Formula, _Key]] = []
        for arg in f.args:
            canon, key = _canonical_matrix(arg, blocks)
            if type(canon) is type(f):
                assert isinstance(canon, (And, Or))
                parts.extend(zip(canon.args, key[1], strict=True))
            else:
                parts.append((canon, key))
        parts.sort(key=lambda part: part[1])
        tag = 2 if isinstance(f, And) else 3
        return type(f)(tuple(p for p, _ in parts)), (tag, tuple(k for _, k in parts))
    raise TypeError(f"not a quantifier-free NNF matrix: {f!r}")


def _first_occurrences(f: Formula) -> dict[str, int]:
    """Variable names of `f` mapped to the rank of their first occurrence (pre-order, arguments left to right)."""
    seen: dict[str, int] = {}

    def visit(g: Formula) -> None:
        terms: tuple[Term, ...] = ()
        if isinstance(g, Atom):
            terms = g.args
        elif isinstance(g, Eq):
            terms = (g.left, g.right)
        for t in terms:
            if isinstance(t, Var) and t.name not in seen:
                seen[t.name] = len(seen)
        for c in children(g):
            visit(c)

    visit(f)
    return seen


def _order_blocks(prefix: _Prefix, matrix: Formula) -> _Prefix:
    """MR-E1.6: order each maximal same-quantifier block by first occurrence in the matrix (absent ones last)."""
    first = _first_occurrences(matrix)
    out: _Prefix = []
    start = 0
    while start < len(prefix):
        end = start
        while end < len(prefix) and prefix[end][0] == prefix[start][0]:
            end += 1
        block = prefix[start:end]
        # sorted() is stable, so variables absent from the matrix keep their prefix order.
        out.extend(sorted(block, key=lambda q: first.get(q[1], len(first))))
        start = end
    return out


def _block_indices(prefix: _Prefix) -> dict[str, int]:
    blocks: dict[str, int] = {}
    index = 0
    for i, (universal, name) in enumerate(prefix):
        if i and universal != prefix[i - 1][0]:
            index += 1
        blocks[name] = index
    return blocks


def _rename_matrix(f: Formula, mapping: Mapping[str, str]) -> Formula:
    if isinstance(f, (And, Or)):
        return type(f)(tuple(_rename_matrix(a, mapping) for a in f.args))
    return _rename_literal(f, mapping)


def pnnf(f: Formula) -> Formula:
    """Compute the canonical prenex negation normal form NP(f) of LGMT Appendix A, Definition 3.

    See the module docstring for the exact strategy, the canonical order and what canonicity does and does not
    guarantee.

    Args:
        f: Any formula; free variables are kept and never captured.

    Returns:
        A formula equivalent to `f`, satisfying `is_pnnf`, with ``pnnf(pnnf(f)) == pnnf(f)``.
    """
    sig = signature(f)
    taken = all_vars(f) | sig.constants
    prefix: _Prefix = []
    matrix = _prenex(nnf(f), {}, _names(taken, ("#",)), prefix)
    blocks = _block_indices(prefix)
    matrix, _ = _canonical_matrix(matrix, blocks)
    prefix = _order_blocks(prefix, matrix)
    canonical = _names(free_vars(f) | sig.constants, CANONICAL_VARIABLES)
    mapping = {name: next(canonical) for _, name in prefix}
    out = _rename_matrix(matrix, mapping)
    for universal, name in reversed(prefix):
        out = Forall(mapping[name], out) if universal else Exists(mapping[name], out)
    return out


# --------------------------------------------------------------------------- single steps for the MRs


def lift_quantifier(f: Formula, path: Path, index: int) -> Formula:
    """Apply MR-E1.3 once: lift the quantified operand `index` of the ``∧``/``∨`` at `path` above it.

    ``ψ1 ∘ … ∘ (Qx φ) ∘ … ∘ ψn ⇝ Qx (ψ1 ∘ … ∘ φ ∘ … ∘ ψn)``, keeping operand order (the paper's binary rule,
    for our n-ary connectives).

    Args:
        f: The formula to rewrite.
        path: Position of an `And` or `Or` in `f`.
        index: Which operand of it to lift; it must be a `Forall` or `Exists`.

    Returns:
        The rewritten formula (equivalent to `f`).

    Raises:
        ValueError: The site is not a quantified operand of ``∧``/``∨``, or the side condition fails (the
            variable is free in another operand; apply `alpha_rename` first, which is MR-E1.5).
    """
    node = at(f, path)
    if not isinstance(node, (And, Or)):
        raise ValueError(f"no ∧/∨ at {path}: {type(node).__name__}")
    quantified = node.args[index]
    if not isinstance(quantified, (Forall, Exists)):
        raise ValueError(f"operand {index} at {path} is not quantified: {type(quantified).__name__}")
    others = node.args[:index] + node.args[index + 1 :]
    if any(quantified.var in free_vars(o) for o in others):
        raise ValueError(f"{quantified.var!r} is free in another operand; α-rename it first (MR-E1.5)")
    args = (*node.args[:index], quantified.body, *node.args[index + 1 :])
    return replace_at(f, path, type(quantified)(quantified.var, type(node)(args)))


def alpha_rename(f: Formula, path: Path, new: str) -> Formula:
    """Apply MR-E1.5 once: rename the variable bound by the quantifier at `path` to `new`.

    Args:
        f: The formula to rewrite.
        path: Position of a `Forall` or `Exists` in `f`.
        new: The new variable name; it must not occur in the quantifier's body (the paper's ``y ∉ Var(φ)``),
            which makes the renaming capture-free. The MR chooses it to also avoid the sibling operands.

    Returns:
        The α-equivalent formula.

    Raises:
        ValueError: No quantifier at `path`, or `new` occurs in its body.
    """
    node = at(f, path)
    if not isinstance(node, (Forall, Exists)):
        raise ValueError(f"no quantifier at {path}: {type(node).__name__}")
    if new == node.var:
        return f
    if new in all_vars(node.body):
        raise ValueError(f"{new!r} already occurs in the body of the quantifier at {path}")
    return replace_at(f, path, type(node)(new, substitute(node.body, node.var, Var(new))))
