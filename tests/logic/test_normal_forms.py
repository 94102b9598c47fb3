"""Tests for NNF, the canonical PNNF (NP of LGMT Appendix A) and the single-step MR-E1 helpers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.normal_forms import alpha_rename, is_nnf, is_pnnf, lift_quantifier, nnf, pnnf
from lgmt_tasks.logic.prover import Undecided, equivalent
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
    alpha_equivalent,
    free_vars,
    subformulas,
)
from tests.fol_strategies import formulas

x, y, z = Var("x"), Var("y"), Var("z")
a, b = Const("a"), Const("b")
A, B, C = Atom("A"), Atom("B"), Atom("C")


def P(t: Var | Const) -> Atom:
    return Atom("P", (t,))


def Q(t: Var | Const) -> Atom:
    return Atom("Q", (t,))


def L(s: Var | Const, t: Var | Const) -> Atom:
    return Atom("L", (s, t))


def assert_equivalent(f: Formula, g: Formula) -> None:
    """Z3 must prove the equivalence; an undecided query is skipped by Hypothesis but counted as an event."""
    result = equivalent(f, g)
    if isinstance(result, Undecided):
        event(f"undecided: {result.reason}")
    assume(not isinstance(result, Undecided))
    assert result is True, (f, g)


# --------------------------------------------------------------------------- NNF, rule by rule


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # MR-E1.1
        (Implies(A, B), Or((Not(A), B))),
        (Iff(A, B), And((Or((Not(A), B)), Or((Not(B), A))))),
        # ⊕ (ours; the paper has none)
        (Xor(A, B), And((Or((A, B)), Or((Not(A), Not(B)))))),
        # MR-E1.2
        (Not(Not(A)), A),
        (Not(Not(Not(A))), Not(A)),
        (Not(And((A, B, C))), Or((Not(A), Not(B), Not(C)))),
        (Not(Or((A, B))), And((Not(A), Not(B)))),
        (Not(Forall("x", P(x))), Exists("x", Not(P(x)))),
        (Not(Exists("x", P(x))), Forall("x", Not(P(x)))),
        (Not(Implies(A, B)), And((A, Not(B)))),
        (Not(Iff(A, B)), Or((And((A, Not(B))), And((B, Not(A)))))),
        (Not(Xor(A, B)), Or((And((Not(A), Not(B))), And((A, B))))),
        # ⊤ and ⊥: a negated constant flips, otherwise they stay
        (Not(TRUE), FALSE),
        (Not(FALSE), TRUE),
        (And((TRUE, A)), And((TRUE, A))),
        (Implies(FALSE, A), Or((TRUE, A))),
        # atoms and equalities are literals; nesting and operand order are kept
        (Not(Eq(a, b)), Not(Eq(a, b))),
        (And((A, And((B, C)))), And((A, And((B, C))))),
        (Forall("x", Implies(P(x), Exists("y", L(x, y)))), Forall("x", Or((Not(P(x)), Exists("y", L(x, y)))))),
    ],
)
def test_nnf_rules(source: Formula, expected: Formula) -> None:
    assert nnf(source) == expected
    assert is_nnf(expected)


@pytest.mark.parametrize(
    "f",
    [Implies(A, B), Iff(A, B), Xor(A, B), Not(And((A, B))), Not(Not(A)), Not(TRUE), Forall("x", Not(Not(P(x))))],
)
def test_not_nnf(f: Formula) -> None:
    assert not is_nnf(f)


@pytest.mark.parametrize(
    ("f", "expected"),
    [
        (Forall("x", Exists("y", Or((Not(L(x, y)), TRUE)))), True),
        (Or((A, B)), True),
        (Forall("x", And((P(x), Exists("y", Q(y))))), False),
        (Forall("x", Implies(P(x), Q(x))), False),
        (And((Forall("x", P(x)), A)), False),
        (Not(Forall("x", P(x))), False),
    ],
)
def test_is_pnnf(f: Formula, expected: bool) -> None:
    assert is_pnnf(f) is expected


# --------------------------------------------------------------------------- PNNF examples


def test_pnnf_lifts_left_to_right_and_renames_canonically() -> None:
    source = Implies(Forall("x", P(x)), Exists("y", And((Q(y), Forall("x", L(x, y))))))
    # NNF: ∃x ¬P(x) ∨ ∃y (Q(y) ∧ ∀x L(x, y)); prefix ∃ ∃ ∀; the matrix sorted (L before Q); then x, y, z.
    expected = Exists("x", Exists("y", Forall("z", Or((Not(P(x)), And((L(z, y), Q(y))))))))
    assert pnnf(source) == expected


def test_pnnf_orders_a_block_by_first_occurrence() -> None:
    expected = Forall("x", Forall("y", L(x, y)))
    assert pnnf(Forall("x", Forall("y", L(y, x)))) == expected
    assert pnnf(Forall("y", Forall("x", L(x, y)))) == expected
    assert pnnf(Forall("u", Forall("w", L(Var("u"), Var("w"))))) == expected


def test_pnnf_keeps_blocks_of_different_quantifiers_in_place() -> None:
    assert pnnf(Forall("y", Exists("x", L(x, y)))) == Forall("x", Exists("y", L(y, x)))


def test_pnnf_flattens_and_sorts() -> None:
    source = And((Q(a), And((Not(P(a)), Or((B, Or((A, TRUE)))))), P(a)))
    assert pnnf(source) == And((P(a), Not(P(a)), Q(a), Or((TRUE, A, B))))


def test_pnnf_sort_puts_equalities_and_constants_first() -> None:
    source = Forall("x", And((P(x), P(a), Eq(x, a), Not(Atom("P")))))
    # equalities, then atoms by (name, arity, arguments); a constant sorts before a bound variable
    assert pnnf(source) == Forall("x", And((Eq(x, a), Not(Atom("P")), P(a), P(x))))


def test_pnnf_never_captures_free_variables_or_constants() -> None:
    # x is free and "x" is also a constant: neither may be reused for a bound variable.
    source = And((P(x), Q(Const("y")), Forall("x", L(x, x))))
    result = pnnf(source)
    assert result == Forall("z", And((L(z, z), P(x), Q(Const("y")))))
    assert free_vars(result) == {"x"}


def test_pnnf_keeps_vacuous_and_shadowed_quantifiers() -> None:
    assert pnnf(Forall("x", A)) == Forall("x", A)
    assert pnnf(Forall("x", Exists("x", P(x)))) == Forall("x", Exists("y", P(y)))
    # Absent variables go last in their block.
    assert pnnf(Forall("z", Forall("y", P(y)))) == Forall("x", Forall("y", P(x)))


def test_pnnf_of_a_quantifier_free_formula_is_its_canonical_matrix() -> None:
    # (¬B ∨ A) ∧ (¬A ∨ B), each disjunction sorted (A before ¬A before B), then the disjunctions by their keys
    assert pnnf(Iff(B, A)) == And((Or((A, Not(B))), Or((Not(A), B))))


def test_pnnf_at_least_two() -> None:
    source = Not(Forall("x", Forall("y", Implies(And((P(x), P(y))), Eq(x, y)))))
    expected = Exists("x", Exists("y", And((Not(Eq(x, y)), P(x), P(y)))))
    assert pnnf(source) == expected
    assert equivalent(source, expected) is True


# --------------------------------------------------------------------------- single steps


def test_lift_quantifier() -> None:
    f = Or((A, Forall("x", P(x)), B))
    assert lift_quantifier(f, (), 1) == Forall("x", Or((A, P(x), B)))
    nested = Forall("y", And((Q(y), Exists("x", L(x, y)))))
    assert lift_quantifier(nested, (0,), 1) == Forall("y", Exists("x", And((Q(y), L(x, y)))))


def test_lift_quantifier_refuses_when_the_side_condition_fails() -> None:
    f = And((P(x), Forall("x", Q(x))))
    with pytest.raises(ValueError, match="α-rename"):
        lift_quantifier(f, (), 1)
    renamed = alpha_rename(f, (1,), "y")
    assert renamed == And((P(x), Forall("y", Q(y))))
    assert lift_quantifier(renamed, (), 1) == Forall("y", And((P(x), Q(y))))


def test_step_helpers_reject_bad_sites() -> None:
    with pytest.raises(ValueError):
        lift_quantifier(Forall("x", P(x)), (), 0)
    with pytest.raises(ValueError):
        lift_quantifier(And((A, B)), (), 0)
    with pytest.raises(ValueError):
        alpha_rename(And((A, B)), (), "y")
    with pytest.raises(ValueError, match="already occurs"):
        alpha_rename(Forall("x", L(x, y)), (), "y")
    assert alpha_rename(Forall("x", P(x)), (), "x") == Forall("x", P(x))


# --------------------------------------------------------------------------- properties (LGMT Appendix A)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(formulas())
def test_nnf_is_nnf_and_equivalent(f: Formula) -> None:
    g = nnf(f)
    assert is_nnf(g)
    assert nnf(g) == g
    assert free_vars(g) == free_vars(f)
    assert_equivalent(g, f)


@SETTINGS
@given(formulas())
def test_np_is_pnnf_idempotent_and_equivalent(f: Formula) -> None:
    g = pnnf(f)
    assert is_pnnf(g)
    assert pnnf(g) == g
    assert free_vars(g) == free_vars(f)
    assert_equivalent(g, f)


@SETTINGS
@given(formulas(bound=("x", "y")))
def test_np_on_open_formulas(f: Formula) -> None:
    g = pnnf(f)
    assert is_pnnf(g)
    assert pnnf(g) == g
    assert free_vars(g) == free_vars(f)
    assert_equivalent(g, f)


def _rename_all_binders(f: Formula, data: st.DataObject) -> Formula:
    """An α-variant of `f`: every binder renamed (MR-E1.5 steps) to a name drawn from a pool, where allowed."""
    pool = ["x", "y", "z", "w", "v7", "k"]
    paths = [p for p, sub in subformulas(f) if isinstance(sub, (Forall, Exists))]
    for path in paths:
        name = data.draw(st.sampled_from(pool))
        try:
            f = alpha_rename(f, path, name)
        except ValueError:
            continue
    return f


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(), st.data())
def test_np_ignores_bound_variable_names(f: Formula, data: st.DataObject) -> None:
    variant = _rename_all_binders(f, data)
    assert alpha_equivalent(variant, f)
    assert pnnf(variant) == pnnf(f)


@SETTINGS
@given(formulas(max_depth=3), formulas(max_depth=3))
def test_np_is_invariant_under_nnf_steps(f: Formula, g: Formula) -> None:
    # MR-E1.1/E1.2 applied anywhere do not change NP (they are what NP starts with).
    assert pnnf(Implies(f, g)) == pnnf(Or((Not(f), g)))
    assert pnnf(Not(Not(f))) == pnnf(f)
    assert pnnf(Not(And((f, g)))) == pnnf(Or((Not(f), Not(g))))


OPEN_XY = formulas(bound=("x", "y"), max_depth=3)  # built once: building the strategy tree is the slow part


@st.composite
def lifting_sites(draw: st.DrawFn) -> tuple[Formula, int]:
    """An ∧/∨ with one quantified operand; the other operands may mention its variable freely."""
    quantifier = draw(st.sampled_from([Forall, Exists]))
    quantified = quantifier("x", draw(OPEN_XY))
    others = draw(st.lists(OPEN_XY, min_size=1, max_size=2))
    index = draw(st.integers(0, len(others)))
    connective = draw(st.sampled_from([And, Or]))
    return connective((*others[:index], quantified, *others[index:])), index


@settings(max_examples=200, deadline=None)
@given(lifting_sites())
def test_lift_quantifier_preserves_equivalence(site: tuple[Formula, int]) -> None:
    f, index = site
    assert isinstance(f, (And, Or))
    blocked = any("x" in free_vars(arg) for i, arg in enumerate(f.args) if i != index)
    if blocked:
        with pytest.raises(ValueError):
            lift_quantifier(f, (), index)
        renamed = alpha_rename(f, (index,), "k")  # MR-E1.5 with a name used nowhere
        assert alpha_equivalent(renamed, f)
        f = renamed
    g = lift_quantifier(f, (), index)
    assert isinstance(g, (Forall, Exists))
    assert_equivalent(g, f)
