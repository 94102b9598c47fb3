"""TPTP export: hand cases for every connective and for awkward names, and fuzzing through E's own parser."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.eprover import EproverError, check_syntax
from lgmt_tasks.logic.parse import parse
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
from lgmt_tasks.logic.tptp import (
    constant_symbol,
    predicate_symbol,
    to_tptp,
    to_tptp_open,
    tptp_problem,
    variable_symbol,
)
from tests.eprover_support import requires_eprover
from tests.fol_strategies import formulas

LOWER_WORD = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
UPPER_WORD = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")

P, Q, R = Atom("P"), Atom("Q"), Atom("R")
a, b = Const("a"), Const("b")


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        (Atom("Rain"), "p0_Rain"),
        (Atom("Likes", (a, b)), "p2_Likes(c_a, c_b)"),
        (Eq(a, b), "c_a = c_b"),
        (TRUE, "$true"),
        (FALSE, "$false"),
        (Not(P), "~ p0_P"),
        (Not(Not(P)), "~ ~ p0_P"),
        (Not(Eq(a, b)), "~ (c_a = c_b)"),
        (Not(And((P, Q))), "~ (p0_P & p0_Q)"),
        (And((P, Q, R)), "p0_P & p0_Q & p0_R"),
        (And((P, And((Q, R)))), "p0_P & (p0_Q & p0_R)"),
        (Or((P, Not(Q))), "p0_P | ~ p0_Q"),
        (Implies(P, Q), "p0_P => p0_Q"),
        (Iff(P, Q), "p0_P <=> p0_Q"),
        (Xor(P, Q), "p0_P <~> p0_Q"),
        (Implies(Implies(P, Q), R), "(p0_P => p0_Q) => p0_R"),
        (Xor(Xor(P, Q), R), "(p0_P <~> p0_Q) <~> p0_R"),
        (Forall("x", Atom("Happy", (Var("x"),))), "![V_x]: (p1_Happy(V_x))"),
        (Exists("y", Eq(Var("y"), a)), "?[V_y]: (V_y = c_a)"),
        (And((Forall("x", Atom("H", (Var("x"),))), P)), "(![V_x]: (p1_H(V_x))) & p0_P"),
        (Or((Not(Exists("x", Atom("H", (Var("x"),)))), P)), "(~ ?[V_x]: (p1_H(V_x))) | p0_P"),
        (Forall("x", Exists("x", Atom("H", (Var("x"),)))), "![V_x]: (?[V_x]: (p1_H(V_x)))"),
    ],
)
def test_each_connective(formula, expected) -> None:
    assert to_tptp(formula) == expected


def test_docstring_example() -> None:
    assert to_tptp(parse("∀x (Dog(x) → ¬(x = rex) ∨ Happy(x))")) == (
        "![V_x]: (p1_Dog(V_x) => (~ (V_x = c_rex) | p1_Happy(V_x)))"
    )


def test_problem_layout() -> None:
    premises = [parse("∀x (Man(x) → Mortal(x))"), parse("Man(socrates)")]
    assert tptp_problem(premises, parse("Mortal(socrates)")) == (
        "fof(p1, axiom, ![V_x]: (p1_Man(V_x) => p1_Mortal(V_x))).\n"
        "fof(p2, axiom, p1_Man(c_socrates)).\n"
        "fof(goal, conjecture, p1_Mortal(c_socrates)).\n"
    )
    assert tptp_problem(premises) == "".join(tptp_problem(premises, P).splitlines(keepends=True)[:2])
    assert tptp_problem([], None) == ""


def test_names_differing_only_by_case_or_arity_stay_apart() -> None:
    assert constant_symbol("Alice") != constant_symbol("alice")
    assert predicate_symbol("Likes", 2) != predicate_symbol("likes", 2)
    assert predicate_symbol("P", 0) != predicate_symbol("P", 1)
    # A constant, a predicate and a variable of the same name never share a symbol either.
    assert len({constant_symbol("p"), predicate_symbol("p", 0), variable_symbol("p")}) == 3


@pytest.mark.parametrize("name", ["fof", "cnf", "axiom", "conjecture", "include", "true", "false", "esk1_0"])
def test_tptp_keywords_and_e_internal_names_are_prefixed(name: str) -> None:
    assert to_tptp(Atom(name, (Const(name),))) == f"p1_{name.replace('_', '__')}(c_{name.replace('_', '__')})"


def test_escaping_is_injective_on_tricky_names() -> None:
    names = ["a_b", "a__b", "a-b", "a_2d_b", "a.b", "ab", "a'b", "é", "_", "__", "a_", "_a", ""]
    symbols = [constant_symbol(n) for n in names]
    assert len(set(symbols)) == len(names)
    assert all(LOWER_WORD.match(s) for s in symbols)


@given(st.text(max_size=8), st.text(max_size=8), st.integers(0, 3), st.integers(0, 3))
def test_symbols_are_tptp_words_and_injective(n1: str, n2: str, k1: int, k2: int) -> None:
    for symbol in (constant_symbol(n1), predicate_symbol(n1, k1)):
        assert LOWER_WORD.match(symbol), symbol
    assert UPPER_WORD.match(variable_symbol(n1))
    if n1 != n2:
        assert constant_symbol(n1) != constant_symbol(n2)
        assert variable_symbol(n1) != variable_symbol(n2)
    if (n1, k1) != (n2, k2):
        assert predicate_symbol(n1, k1) != predicate_symbol(n2, k2)


def test_free_variables_are_refused_or_made_constants() -> None:
    open_formula = Atom("P", (Var("x"),))
    with pytest.raises(ValueError, match="free variable"):
        to_tptp(open_formula)
    with pytest.raises(ValueError, match="premise 2"):
        tptp_problem([P, open_formula])
    with pytest.raises(ValueError, match="conclusion"):
        tptp_problem([P], open_formula)
    # In open mode a free x is the constant v_x, distinct from the constant named x (c_x) and from a bound x.
    mixed = And((Atom("P", (Var("x"), Const("x"))), Forall("x", Atom("P", (Var("x"), Var("x"))))))
    assert to_tptp_open(mixed) == "p2_P(v_x, c_x) & (![V_x]: (p2_P(V_x, V_x)))"


# --------------------------------------------------------------------------- through E's parser


@requires_eprover
def test_e_parses_hand_cases_with_awkward_names() -> None:
    awkward = [Const(n) for n in ("fof", "Alice", "alice", "a-b", "o'neil", "zoë", "_", "x")]
    premises: list[Formula] = [Atom("P", (c,)) for c in awkward]
    premises += [Atom("fof"), Atom("P", (a, b)), Atom("p"), Eq(awkward[1], awkward[2]), Xor(TRUE, FALSE)]
    check_syntax(tptp_problem(premises, Forall("x", Exists("X", Atom("P", (Var("x"), Var("X")))))))


@requires_eprover
def test_check_syntax_reports_e_errors() -> None:
    with pytest.raises(EproverError, match="Column"):
        check_syntax("fof(p1, axiom, p & ).\n")


@requires_eprover
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(formulas(max_depth=4), min_size=1, max_size=6), formulas(max_depth=4))
def test_random_formulas_round_trip_through_e_parser(premises, conclusion) -> None:
    check_syntax(tptp_problem(premises, conclusion))
