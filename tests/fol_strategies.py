"""Hypothesis strategies for random FOL formulas, shared by the logic-core property tests.

Names are drawn from small pools so that formulas share symbols (which makes equivalence and entailment
questions non-trivial). Constants never look like variables (single letters u-z), so printing and parsing
round-trip.
"""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st

from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Var,
    Xor,
)

VARIABLES = ("x", "y", "z")
CONSTANTS = ("alice", "bob", "lawtonPark", "c1")
PREDICATES = (("Happy", 1), ("Likes", 2), ("Rich", 1), ("Between", 3), ("Rain", 0))


@cache
def terms(bound: tuple[str, ...]) -> st.SearchStrategy:
    consts = st.sampled_from(CONSTANTS).map(Const)
    if not bound:
        return consts
    return st.one_of(consts, st.sampled_from(bound).map(Var))


@cache
def atoms(bound: tuple[str, ...], equality: bool = True) -> st.SearchStrategy:
    def atom_for(pred: tuple[str, int]) -> st.SearchStrategy:
        name, arity = pred
        return st.tuples(*[terms(bound)] * arity).map(lambda args: Atom(name, tuple(args)))

    base = st.sampled_from(PREDICATES).flatmap(atom_for)
    if equality:
        base = st.one_of(base, st.builds(Eq, terms(bound), terms(bound)))
    return base


@cache
def formulas(
    bound: tuple[str, ...] = (),
    max_depth: int = 4,
    constants: bool = True,
    equality: bool = True,
    xor: bool = True,
) -> st.SearchStrategy[Formula]:
    """Formulas whose free variables are among `bound` (sentences when `bound == ()`)."""
    leaves = atoms(bound, equality)
    if constants:
        leaves = st.one_of(leaves, st.just(TRUE), st.just(FALSE))
    if max_depth <= 1:
        return leaves

    def sub(b: tuple[str, ...] = bound) -> st.SearchStrategy[Formula]:
        return formulas(b, max_depth - 1, constants, equality, xor)

    binaries = [Implies, Iff] + ([Xor] if xor else [])
    options = [
        leaves,
        sub().map(Not),
        st.lists(sub(), min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
        st.lists(sub(), min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
        st.tuples(st.sampled_from(binaries), sub(), sub()).map(lambda t: t[0](t[1], t[2])),
        st.sampled_from(VARIABLES).flatmap(
            lambda v: st.tuples(st.sampled_from([Forall, Exists]), sub(tuple(dict.fromkeys((*bound, v))))).map(
                lambda t, v=v: t[0](v, t[1])
            )
        ),
    ]
    return st.one_of(*options)


sentences = formulas
