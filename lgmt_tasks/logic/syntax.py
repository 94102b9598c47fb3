"""Immutable, hashable abstract syntax for first-order logic with equality.

Every other part of the package (parser, printer, prover, normal forms, English realiser, the metamorphic
relations) speaks this one representation, so it is deliberately small: frozen dataclasses, tuples for
children, and a generic child/rebuild protocol (`children`, `with_children`) that lets traversals and
position-based rewrites be written once.

Conventions
-----------
* Terms are `Var` (a variable) or `Const` (an individual constant). There are no function symbols: none of
  our sources use them.
* `Atom(pred, args)` with `args == ()` is a propositional atom (LogicAsker, DivLogicEval).
* `And`/`Or` are n-ary (at least two operands) and keep their operands in order; nesting is preserved, so
  `A ∧ (B ∧ C)` and `A ∧ B ∧ C` are different trees (the parser and printer keep that distinction).
* `Implies`, `Iff` and `Xor` are binary.
* `Top`/`Bottom` are the constants True/False (LGMT's MR-E2 and MR-C use them).
* A position (`Path`) is a tuple of child indices from the root; `()` is the root.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Var:
    """A variable, bound by a quantifier or free."""

    name: str


@dataclass(frozen=True, slots=True)
class Const:
    """An individual constant (a named object of the domain)."""

    name: str


Term: TypeAlias = Var | Const


@dataclass(frozen=True, slots=True)
class Atom:
    """A predicate applied to terms; `args == ()` is a propositional atom."""

    pred: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Eq:
    """Equality between two terms (`t1 = t2`)."""

    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Top:
    """The constant True (⊤)."""


@dataclass(frozen=True, slots=True)
class Bottom:
    """The constant False (⊥)."""


@dataclass(frozen=True, slots=True)
class Not:
    """Negation."""

    body: Formula


@dataclass(frozen=True, slots=True)
class And:
    """N-ary conjunction (at least two operands, order kept)."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        if len(self.args) < 2:
            raise ValueError(f"And needs at least two operands, got {len(self.args)}")


@dataclass(frozen=True, slots=True)
class Or:
    """N-ary disjunction (at least two operands, order kept)."""

    args: tuple[Formula, ...]

    def __post_init__(self) -> None:
        if len(self.args) < 2:
            raise ValueError(f"Or needs at least two operands, got {len(self.args)}")


@dataclass(frozen=True, slots=True)
class Implies:
    """Material implication `left → right`."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Iff:
    """Biconditional `left ↔ right`."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Xor:
    """Exclusive or `left ⊕ right` (FOLIO's ⊕)."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Forall:
    """Universal quantification `∀var (body)`."""

    var: str
    body: Formula


@dataclass(frozen=True, slots=True)
class Exists:
    """Existential quantification `∃var (body)`."""

    var: str
    body: Formula


Formula: TypeAlias = Atom | Eq | Top | Bottom | Not | And | Or | Implies | Iff | Xor | Forall | Exists
Quantified: TypeAlias = Forall | Exists
Path: TypeAlias = tuple[int, ...]

TRUE = Top()
FALSE = Bottom()


# --------------------------------------------------------------------------- generic structure


def children(f: Formula) -> tuple[Formula, ...]:
    """Immediate sub-formulas of `f`, in order (atoms, equalities and constants have none)."""
    if isinstance(f, (Atom, Eq, Top, Bottom)):
        return ()
    if isinstance(f, Not):
        return (f.body,)
    if isinstance(f, (And, Or)):
        return f.args
    if isinstance(f, (Implies, Iff, Xor)):
        return (f.left, f.right)
    if isinstance(f, (Forall, Exists)):
        return (f.body,)
    raise TypeError(f"not a formula: {f!r}")


def with_children(f: Formula, new: tuple[Formula, ...]) -> Formula:
    """Rebuild `f` with the same connective and new immediate sub-formulas."""
    if isinstance(f, (Atom, Eq, Top, Bottom)):
        if new:
            raise ValueError(f"{type(f).__name__} has no sub-formulas")
        return f
    if isinstance(f, Not):
        (body,) = new
        return Not(body)
    if isinstance(f, And):
        return And(tuple(new))
    if isinstance(f, Or):
        return Or(tuple(new))
    if isinstance(f, (Implies, Iff, Xor)):
        left, right = new
        return type(f)(left, right)
    if isinstance(f, (Forall, Exists)):
        (body,) = new
        return type(f)(f.var, body)
    raise TypeError(f"not a formula: {f!r}")


def subformulas(f: Formula, path: Path = ()) -> Iterator[tuple[Path, Formula]]:
    """Every sub-formula with its position, pre-order (the root first, at path `()`)."""
    yield path, f
    for i, child in enumerate(children(f)):
        yield from subformulas(child, (*path, i))


def at(f: Formula, path: Path) -> Formula:
    """The sub-formula of `f` at `path`."""
    for i in path:
        f = children(f)[i]
    return f


def replace_at(f: Formula, path: Path, new: Formula) -> Formula:
    """`f` with the sub-formula at `path` replaced by `new` (no renaming: the caller checks capture)."""
    if not path:
        return new
    kids = list(children(f))
    kids[path[0]] = replace_at(kids[path[0]], path[1:], new)
    return with_children(f, tuple(kids))


def binders_above(f: Formula, path: Path) -> tuple[str, ...]:
    """Variables bound by the quantifiers strictly above `path`, outermost first."""
    bound: list[str] = []
    for i in path:
        if isinstance(f, (Forall, Exists)):
            bound.append(f.var)
        f = children(f)[i]
    return tuple(bound)


# --------------------------------------------------------------------------- variables and symbols


def term_vars(t: Term) -> frozenset[str]:
    """Variable names in a term."""
    return frozenset({t.name}) if isinstance(t, Var) else frozenset()


def free_vars(f: Formula) -> frozenset[str]:
    """Names of the variables that occur free in `f`."""
    if isinstance(f, Atom):
        return frozenset(a.name for a in f.args if isinstance(a, Var))
    if isinstance(f, Eq):
        return term_vars(f.left) | term_vars(f.right)
    if isinstance(f, (Forall, Exists)):
        return free_vars(f.body) - {f.var}
    out: frozenset[str] = frozenset()
    for child in children(f):
        out |= free_vars(child)
    return out


def all_vars(f: Formula) -> frozenset[str]:
    """Names of every variable in `f`, free or bound (including quantified names that never occur)."""
    if isinstance(f, (Atom, Eq)):
        return free_vars(f)
    own = frozenset({f.var}) if isinstance(f, (Forall, Exists)) else frozenset()
    for child in children(f):
        own |= all_vars(child)
    return own


def is_sentence(f: Formula) -> bool:
    """True when `f` has no free variables (what a premise or conclusion must be)."""
    return not free_vars(f)


@dataclass(frozen=True, slots=True)
class Signature:
    """The non-logical symbols of a formula or a problem: predicates with their arity, and constants."""

    predicates: frozenset[tuple[str, int]]
    constants: frozenset[str]

    def __or__(self, other: Signature) -> Signature:
        return Signature(self.predicates | other.predicates, self.constants | other.constants)

    @property
    def predicate_names(self) -> frozenset[str]:
        """Predicate names without arities."""
        return frozenset(name for name, _ in self.predicates)


EMPTY_SIGNATURE = Signature(frozenset(), frozenset())


def signature(*formulas: Formula) -> Signature:
    """Predicates (with arity) and constants occurring in the formulas."""
    preds: set[tuple[str, int]] = set()
    consts: set[str] = set()
    for f in formulas:
        for _, sub in subformulas(f):
            if isinstance(sub, Atom):
                preds.add((sub.pred, len(sub.args)))
                consts.update(a.name for a in sub.args if isinstance(a, Const))
            elif isinstance(sub, Eq):
                consts.update(t.name for t in (sub.left, sub.right) if isinstance(t, Const))
    return Signature(frozenset(preds), frozenset(consts))


def size(f: Formula) -> int:
    """Number of nodes (connectives, quantifiers, atoms)."""
    return 1 + sum(size(c) for c in children(f))


def depth(f: Formula) -> int:
    """Height of the tree; an atom has depth 1."""
    kids = children(f)
    return 1 + (max(depth(c) for c in kids) if kids else 0)


# --------------------------------------------------------------------------- substitution and renaming


def fresh_name(base: str, avoid: frozenset[str] | set[str]) -> str:
    """`base` if unused, else `base1`, `base2`, ... (deterministic, no global counters)."""
    if base not in avoid:
        return base
    i = 1
    while f"{base}{i}" in avoid:
        i += 1
    return f"{base}{i}"


def _subst_term(t: Term, var: str, by: Term) -> Term:
    return by if isinstance(t, Var) and t.name == var else t


def substitute(f: Formula, var: str, by: Term) -> Formula:
    """Capture-avoiding substitution `f[var := by]` of a term for the free occurrences of `var`.

    A quantifier that would capture a variable of `by` is α-renamed to a fresh name first.
    """
    if isinstance(f, Atom):
        return Atom(f.pred, tuple(_subst_term(a, var, by) for a in f.args))
    if isinstance(f, Eq):
        return Eq(_subst_term(f.left, var, by), _subst_term(f.right, var, by))
    if isinstance(f, (Forall, Exists)):
        if f.var == var or var not in free_vars(f.body):
            return f
        body, name = f.body, f.var
        if isinstance(by, Var) and by.name == name:
            name = fresh_name(name, all_vars(f.body) | {by.name, var})
            body = substitute(body, f.var, Var(name))
        return type(f)(name, substitute(body, var, by))
    return with_children(f, tuple(substitute(c, var, by) for c in children(f)))


def _map_atoms(f: Formula, fn: object) -> Formula:
    """Apply `fn` (Atom|Eq -> Formula) to every atom and equality."""
    if isinstance(f, (Atom, Eq)):
        out = fn(f)  # type: ignore[operator]
        assert isinstance(out, (Atom, Eq, Top, Bottom, Not, And, Or, Implies, Iff, Xor, Forall, Exists))
        return out
    return with_children(f, tuple(_map_atoms(c, fn) for c in children(f)))


def rename_constant(f: Formula, old: str, new: str) -> Formula:
    """Uniformly rename the constant `old` to `new` (MR-S1)."""

    def term(t: Term) -> Term:
        return Const(new) if isinstance(t, Const) and t.name == old else t

    def atom(a: Atom | Eq) -> Formula:
        if isinstance(a, Atom):
            return Atom(a.pred, tuple(term(t) for t in a.args))
        return Eq(term(a.left), term(a.right))

    return _map_atoms(f, atom)


def rename_predicate(f: Formula, old: str, new: str) -> Formula:
    """Uniformly rename the predicate `old` (every arity) to `new` (MR-S2)."""

    def atom(a: Atom | Eq) -> Formula:
        return Atom(new, a.args) if isinstance(a, Atom) and a.pred == old else a

    return _map_atoms(f, atom)


def alpha_equivalent(a: Formula, b: Formula) -> bool:
    """True when `a` and `b` differ only by a consistent renaming of bound variables."""
    return _alpha(a, b, {}, {}, 0)


def _alpha(a: Formula, b: Formula, left: dict[str, int], right: dict[str, int], level: int) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (Forall, Exists)):
        assert isinstance(b, (Forall, Exists))
        return _alpha(a.body, b.body, {**left, a.var: level}, {**right, b.var: level}, level + 1)
    if isinstance(a, (Atom, Eq)):
        ta = a.args if isinstance(a, Atom) else (a.left, a.right)
        tb = b.args if isinstance(b, Atom) else (b.left, b.right)  # type: ignore[union-attr]
        if isinstance(a, Atom) and a.pred != b.pred:  # type: ignore[union-attr]
            return False
        if len(ta) != len(tb):
            return False
        for x, y in zip(ta, tb):
            if type(x) is not type(y):
                return False
            if isinstance(x, Const):
                if x.name != y.name:
                    return False
            elif x.name in left or y.name in right:
                if left.get(x.name) != right.get(y.name):
                    return False
            elif x.name != y.name:
                return False
        return True
    ka, kb = children(a), children(b)
    return len(ka) == len(kb) and all(_alpha(x, y, left, right, level) for x, y in zip(ka, kb))
