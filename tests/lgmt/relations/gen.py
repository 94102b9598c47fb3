"""A small seeded generator of random, prover-friendly cases on which every relation has sites.

Formulas are small (depth ≤ 3, two or three unary predicates, one binary, one propositional atom, two
constants) so that Z3 decides every query quickly, and shapes that the paper's relations look for are planted
often: implications, biconditionals, exclusive ors, negated compounds, quantifiers next to ∧/∨ (with variable
clashes), blocks of identical quantifiers, duplicates, absorptions, complementary pairs, ⊤/⊥ operands,
distributable and factorable shapes, conjunctive premises.
"""

from __future__ import annotations

import random

from lgmt_tasks.lgmt.relations import Case
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
    Term,
    Var,
    Xor,
)

UNARY = ("Happy", "Rich", "Tall")
BINARY = ("Likes",)
PROPOSITIONS = ("Rain",)
CONSTANTS = ("alice", "bob")
VARIABLES = ("x", "y", "z")


def _term(rng: random.Random, bound: tuple[str, ...]) -> Term:
    if bound and rng.random() < 0.7:
        return Var(rng.choice(bound))
    return Const(rng.choice(CONSTANTS))


def leaf(rng: random.Random, bound: tuple[str, ...]) -> Formula:
    r = rng.random()
    if r < 0.55:
        return Atom(rng.choice(UNARY), (_term(rng, bound),))
    if r < 0.75:
        return Atom(rng.choice(BINARY), (_term(rng, bound), _term(rng, bound)))
    if r < 0.85:
        return Atom(rng.choice(PROPOSITIONS))
    if r < 0.95:
        return Eq(_term(rng, bound), _term(rng, bound))
    return rng.choice((TRUE, FALSE))


def _quantified(rng: random.Random, depth: int, bound: tuple[str, ...]) -> Formula:
    v = rng.choice(VARIABLES)
    inner = (*bound, v)
    return rng.choice((Forall, Exists))(v, formula(rng, depth - 1, inner))


def _planted(rng: random.Random, depth: int, bound: tuple[str, ...]) -> Formula:
    def f() -> Formula:
        return formula(rng, depth - 1, bound)

    a = f()
    shape = rng.randrange(12)
    if shape == 0:
        return rng.choice((Or, And))((a, a))
    if shape == 1:
        return Or((a, And((a, f())))) if rng.random() < 0.5 else And((a, Or((f(), a))))
    if shape == 2:
        return rng.choice((Or, And))((a, Not(a)))
    if shape == 3:
        return rng.choice((And, Or))((a, rng.choice((TRUE, FALSE))))
    if shape == 4:  # a quantifier next to an operand mentioning its variable: MR-E1.5 conflicts
        v = rng.choice(VARIABLES)
        q = rng.choice((Forall, Exists))(v, Atom(rng.choice(UNARY), (Var(v),)))
        other = rng.choice((Forall, Exists))(v, Atom(rng.choice(UNARY), (Var(v),)))
        return rng.choice((And, Or))((q, other))
    if shape == 5:  # a block of identical quantifiers, sometimes out of canonical order
        q = rng.choice((Forall, Exists))
        x, y = rng.sample(VARIABLES, 2)
        body = formula(rng, max(depth - 1, 1), (*bound, x, y))
        if rng.random() < 0.5:
            body = And((Atom("Likes", (Var(y), Var(x))), body))
        return q(x, q(y, body))
    if shape == 6:
        return And((a, Or((f(), f())))) if rng.random() < 0.5 else Or((a, And((f(), f()))))
    if shape == 7:
        return Or((And((a, f())), And((a, f()))))
    if shape == 8:
        return Not(rng.choice((And((a, f())), Or((a, f())), Not(a), _quantified(rng, depth, bound))))
    if shape == 9:
        return And((a, And((f(), f()))))
    if shape == 10:
        return rng.choice((Implies, Iff, Xor))(a, f())
    return And((_quantified(rng, depth, bound), f()))


def formula(rng: random.Random, depth: int, bound: tuple[str, ...] = ()) -> Formula:
    """A random formula whose free variables are among `bound`."""
    if depth <= 1:
        return leaf(rng, bound)
    r = rng.random()
    if r < 0.2:
        return leaf(rng, bound)
    if r < 0.45:
        return _planted(rng, depth, bound)
    if r < 0.55:
        return Not(formula(rng, depth - 1, bound))
    if r < 0.7:
        return rng.choice((And, Or))(tuple(formula(rng, depth - 1, bound) for _ in range(rng.choice((2, 2, 3)))))
    if r < 0.85:
        return rng.choice((Implies, Implies, Iff, Xor))(formula(rng, depth - 1, bound), formula(rng, depth - 1, bound))
    return _quantified(rng, depth, bound)


def random_case(rng: random.Random, index: int = 0) -> Case:
    """A random case with 2-4 premises; shapes that some relations need are planted often.

    The first premise is often a conjunction (MR-P5), the last often a block of identical quantifiers (MR-E1.6),
    and a middle one often a quantifier next to ∧/∨ (MR-E1.3).
    """
    n = rng.choice((2, 3, 3, 4))
    premises = [formula(rng, 3) for _ in range(n)]
    if rng.random() < 0.75:
        premises[0] = And((formula(rng, 2), formula(rng, 2)))
    if rng.random() < 0.7:
        q = rng.choice((Forall, Exists))
        x, y = ("x", "y") if rng.random() < 0.5 else ("y", "x")
        rule = Implies(Atom("Likes", (Var("x"), Var("y"))), Atom(rng.choice(UNARY), (Var("y"),)))
        premises[-1] = q(x, q(y, rule))
    if n >= 3 and rng.random() < 0.6:
        v = rng.choice(VARIABLES)
        lifted = rng.choice((Forall, Exists))(v, formula(rng, 2, (v,)))
        premises[1] = rng.choice((And, Or))((lifted, leaf(rng, ())) if rng.random() < 0.5 else (leaf(rng, ()), lifted))
    conclusion = formula(rng, 2) if rng.random() < 0.7 else Atom(rng.choice(UNARY), (Const(rng.choice(CONSTANTS)),))
    return Case(tuple(premises), conclusion, source_dataset="random", source_id=f"random-{index}")


def random_cases(n: int, seed: int = 0) -> list[Case]:
    """`n` random cases from one seed."""
    rng = random.Random(seed)
    return [random_case(rng, i) for i in range(n)]
