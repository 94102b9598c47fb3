"""Tests of `lgmt_tasks.logic.printer`: the canonical form, exact round trips, and refusals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.printer import show, show_ascii
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
from tests.fol_strategies import formulas

x, y = Var("x"), Var("y")
a, b = Const("a"), Const("b")
A, B, C = Atom("A"), Atom("B"), Atom("C")


def P(*args):  # noqa: N802 - reads like the formula
    return Atom("P", tuple(args))


CANONICAL: list[tuple[Formula, str, str]] = [
    (P(a, b), "P(a, b)", "P(a, b)"),
    (A, "A", "A"),
    (Eq(a, b), "a = b", "a = b"),
    (TRUE, "⊤", "$true"),
    (FALSE, "⊥", "$false"),
    (Not(P(a)), "¬P(a)", "-P(a)"),
    (Not(Not(P(a))), "¬¬P(a)", "--P(a)"),
    (Not(Eq(a, b)), "¬(a = b)", "-(a = b)"),
    (Not(And((A, B))), "¬(A ∧ B)", "-(A & B)"),
    (And((A, B, C)), "A ∧ B ∧ C", "A & B & C"),
    (And((A, And((B, C)))), "A ∧ (B ∧ C)", "A & (B & C)"),
    (Or((And((A, B)), C)), "(A ∧ B) ∨ C", "(A & B) | C"),
    (Implies(And((A, B)), C), "(A ∧ B) → C", "(A & B) -> C"),
    (Implies(A, Implies(B, C)), "A → (B → C)", "A -> (B -> C)"),
    (Xor(Xor(A, B), C), "(A ⊕ B) ⊕ C", "(A <~> B) <~> C"),
    (Iff(Not(A), B), "¬A ↔ B", "-A <-> B"),
    (Forall("x", P(x)), "∀x (P(x))", "forall x. (P(x))"),
    (Exists("x", Forall("y", P(x, y))), "∃x (∀y (P(x, y)))", "exists x. (forall y. (P(x, y)))"),
    (Forall("x", Implies(P(x), Atom("Q", (x,)))), "∀x (P(x) → Q(x))", "forall x. (P(x) -> Q(x))"),
    (And((Forall("x", P(x)), Atom("Q", (a,)))), "(∀x (P(x))) ∧ Q(a)", "(forall x. (P(x))) & Q(a)"),
    (Implies(Not(Exists("x", P(x))), A), "(¬∃x (P(x))) → A", "(-exists x. (P(x))) -> A"),
    (Not(Forall("x", P(x))), "¬∀x (P(x))", "-forall x. (P(x))"),
    (And((Eq(x, y), P(x))), "x = y ∧ P(x)", "x = y & P(x)"),
    (Atom("Anti-abortion", (Const("mr.smith"),)), "Anti-abortion(mr.smith)", "Anti-abortion(mr.smith)"),
]


@pytest.mark.parametrize(("formula", "unicode", "ascii"), CANONICAL)
def test_canonical_forms(formula, unicode, ascii):
    assert show(formula) == unicode
    assert show_ascii(formula) == ascii
    assert parse(unicode) == formula
    assert parse(ascii) == formula


# `formulas()` costs about 20 ms per example, so one test checks both notations and the fixed point.
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas())
def test_show_and_show_ascii_round_trip_exactly(f):
    text = show(f)
    assert parse(text) == f
    assert show(parse(text)) == text
    ascii_text = show_ascii(f)
    assert ascii_text.isascii()  # the strategy's names are ASCII
    assert parse(ascii_text) == f


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(bound=("x", "y")))
def test_free_variables_u_to_z_round_trip(f):
    assert parse(show(f)) == f
    assert parse(show_ascii(f)) == f


def test_folio_formula_is_normalised():
    source = "∀x ∀y (GoodGuy(x) ∧ Fights(x, y) ⟷ BadGuy(y) ∧ Fights(y, x))"
    assert show(parse(source)) == "∀x (∀y ((GoodGuy(x) ∧ Fights(x, y)) ↔ (BadGuy(y) ∧ Fights(y, x))))"


def test_keyword_and_odd_names_round_trip():
    for f in [
        Atom("forall"),
        And((Atom("exists"), Atom("forall", (Const("forall"),)))),
        Eq(Const("forall"), Const("exists")),
        Forall("forall", Atom("P", (Var("forall"),))),
        Not(Atom("1984")),
        Atom("P", (Const("c++"), Const("świątek"), Const("GrowthCompanies’Stocks"))),
    ]:
        assert parse(show(f)) == f
        assert parse(show_ascii(f)) == f


@pytest.mark.parametrize(
    "formula",
    [
        P(Const("x")),  # a constant named like a free variable
        P(Const("u")),
        Forall("alice", P(Const("alice"))),  # a constant named like an enclosing bound variable
        P(Var("alice")),  # a free variable that would read back as a constant
        P(Const("captain america")),
        P(Const("a-")),
        P(Const("")),
        Atom("P Q"),
        Atom("$true"),
        Atom(""),
        Forall("x.y", P(Var("x.y"))),
        Forall("c++", A),
    ],
)
def test_unprintable_names_raise_value_error(formula):
    with pytest.raises(ValueError):
        show(formula)
    with pytest.raises(ValueError):
        show_ascii(formula)


def test_not_a_formula_is_a_type_error():
    with pytest.raises(TypeError):
        show("P(a)")  # type: ignore[arg-type]
