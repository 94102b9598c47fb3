"""Tests for the Z3 prover: every outcome, the limits, free variables, and properties against brute force."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic.prover import (
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    Contradictory,
    Label,
    Undecided,
    entailment,
    entails,
    equivalent,
    satisfiable,
)
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
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
    Top,
    Var,
    Xor,
)
from tests.fol_strategies import formulas

x, y, z = Var("x"), Var("y"), Var("z")
a, b, c = Const("a"), Const("b"), Const("c")
rain = Atom("Rain")


def P(t: Var | Const) -> Atom:
    return Atom("P", (t,))


def Q(t: Var | Const) -> Atom:
    return Atom("Q", (t,))


def L(s: Var | Const, t: Var | Const) -> Atom:
    return Atom("L", (s, t))


def pigeonhole(n: int) -> list[Formula]:
    """n + 1 pigeons in n holes, propositionally: unsatisfiable, and hard for resolution/CDCL."""

    def p(i: int, j: int) -> Atom:
        return Atom(f"p{i}_{j}")

    clauses: list[Formula] = [Or(tuple(p(i, j) for j in range(n))) for i in range(n + 1)]
    for j in range(n):
        for i, k in itertools.combinations(range(n + 1), 2):
            clauses.append(Or((Not(p(i, j)), Not(p(k, j)))))
    return clauses


# Strict order without a least element: satisfiable only in infinite models, which Z3's model finder never builds.
SERIAL = Forall("x", Exists("y", L(x, y)))
IRREFLEXIVE = Forall("x", Not(L(x, x)))
TRANSITIVE = Forall("x", Forall("y", Forall("z", Implies(And((L(x, y), L(y, z))), L(x, z)))))
INFINITE_ONLY = [SERIAL, IRREFLEXIVE, TRANSITIVE]

AT_LEAST_TWO_P = Exists("x", Exists("y", And((P(x), P(y), Not(Eq(x, y))))))
AT_MOST_ONE_P = Forall("x", Forall("y", Implies(And((P(x), P(y))), Eq(x, y))))


# --------------------------------------------------------------------------- the outcome types


def test_label_values_are_the_dataset_strings() -> None:
    assert [label.value for label in Label] == ["True", "False", "Unknown"]
    assert Label("Unknown") is Label.UNKNOWN
    assert Label.TRUE == "True"
    assert str(Label.FALSE) == "False"
    assert f"{Label.UNKNOWN}" == "Unknown"


def test_undecided_has_no_truth_value() -> None:
    undecided = Undecided("timeout")
    with pytest.raises(TypeError):
        bool(undecided)
    with pytest.raises(TypeError):
        if undecided:
            pass
    with pytest.raises(TypeError):
        _ = not undecided


def test_undecided_compares_by_reason_only_and_is_frozen() -> None:
    assert Undecided("timeout", "premises: canceled") == Undecided("timeout")
    assert Undecided("timeout") != Undecided("incomplete")
    with pytest.raises(AttributeError):
        Undecided("timeout").reason = "x"  # type: ignore[misc]


def test_contradictory_default_reason() -> None:
    assert Contradictory().reason == "premises are unsatisfiable"


def test_defaults_are_sensible() -> None:
    assert 1_000 <= DEFAULT_TIMEOUT_MS <= 60_000
    assert DEFAULT_RLIMIT >= 100_000


def test_outcomes_pickle() -> None:
    for outcome in (Label.TRUE, Undecided("timeout", "x"), Contradictory()):
        assert pickle.loads(pickle.dumps(outcome)) == outcome


# --------------------------------------------------------------------------- entailment: each label


def test_true_by_universal_instantiation() -> None:
    premises = [Forall("x", Implies(P(x), Q(x))), P(a)]
    assert entailment(premises, Q(a)) is Label.TRUE


def test_false_when_negation_follows() -> None:
    premises = [Forall("x", Implies(P(x), Not(Q(x)))), P(a)]
    assert entailment(premises, Q(a)) is Label.FALSE


def test_unknown_existential_does_not_name_a_witness() -> None:
    assert entailment([Exists("x", P(x))], P(a)) is Label.UNKNOWN


def test_contradictory_premises_are_not_a_label() -> None:
    assert entailment([P(a), Not(P(a))], Q(b)) == Contradictory()
    assert entailment([FALSE], TRUE) == Contradictory()
    assert entailment([AT_LEAST_TWO_P, AT_MOST_ONE_P], Q(a)) == Contradictory()


def test_no_premises() -> None:
    assert entailment([], Or((rain, Not(rain)))) is Label.TRUE
    assert entailment([], And((rain, Not(rain)))) is Label.FALSE
    assert entailment([], rain) is Label.UNKNOWN
    assert entailment([], TRUE) is Label.TRUE
    assert entailment([], FALSE) is Label.FALSE


@pytest.mark.parametrize(
    ("premises", "conclusion", "label"),
    [
        # "at least two" with equality
        ([P(a), P(b), Not(Eq(a, b))], AT_LEAST_TWO_P, Label.TRUE),
        ([P(a), P(b)], AT_LEAST_TWO_P, Label.UNKNOWN),  # a and b may name one object
        ([AT_MOST_ONE_P, P(a), P(b)], Eq(a, b), Label.TRUE),
        ([Forall("x", Forall("y", Eq(x, y)))], AT_LEAST_TWO_P, Label.FALSE),
        # equality is a congruence
        ([Eq(a, b), P(a)], P(b), Label.TRUE),
        ([Eq(a, b), L(a, c)], L(b, c), Label.TRUE),
        # the domain is non-empty (standard FOL)
        ([Forall("x", P(x))], Exists("x", P(x)), Label.TRUE),
        ([], Implies(Forall("x", P(x)), Exists("x", P(x))), Label.TRUE),
        # the same name with two arities is two predicates
        ([P(a)], Atom("P", (a, b)), Label.UNKNOWN),
        ([Atom("P", ())], P(a), Label.UNKNOWN),
        # a constant and a bound variable with the same name are unrelated
        ([Forall("a", P(Var("a")))], P(a), Label.TRUE),
        ([Exists("a", P(Var("a")))], P(a), Label.UNKNOWN),
        # shadowing: the inner binder wins
        ([Forall("x", Exists("x", P(x)))], Exists("x", P(x)), Label.TRUE),
        ([Exists("x", Forall("x", P(x)))], P(a), Label.TRUE),
        # quantifier order
        ([Exists("y", Forall("x", L(x, y)))], Forall("x", Exists("y", L(x, y))), Label.TRUE),
        ([Forall("x", Exists("y", L(x, y)))], Exists("y", Forall("x", L(x, y))), Label.UNKNOWN),
        # exclusive or, ⊤ and ⊥
        ([Xor(P(a), Q(a)), P(a)], Q(a), Label.FALSE),
        ([Xor(P(a), Q(a)), Not(P(a))], Q(a), Label.TRUE),
        ([Iff(P(a), TRUE)], P(a), Label.TRUE),
        ([Or((P(a), FALSE))], P(a), Label.TRUE),
        # n-ary connectives
        ([Or((P(a), P(b), P(c))), Not(P(a)), Not(P(b))], P(c), Label.TRUE),
    ],
)
def test_entailment_cases(premises: list[Formula], conclusion: Formula, label: Label) -> None:
    assert entailment(premises, conclusion) is label


def _rabbit_story() -> list[Formula]:
    """FOLIO v0 validation, story 6 ("All rabbits are cute. Some turtles exist. ..."), built by hand."""
    rock = Const("rock")

    def one(name: str, t: Var | Const) -> Atom:
        return Atom(name, (t,))

    return [
        Forall("x", Implies(one("Rabbit", x), one("Cute", x))),
        Exists("x", one("Turtle", x)),
        Forall("x", Or((one("Rabbit", x), one("Squirrel", x)))),
        Forall("x", Implies(one("Skittish", x), Not(one("Still", x)))),
        Forall("x", Implies(one("Squirrel", x), one("Skittish", x))),
        one("Still", rock),
    ]


def test_folio_rabbit_story_labels() -> None:
    rock = Const("rock")
    story = _rabbit_story()
    turtle, squirrel = Atom("Turtle", (rock,)), Atom("Squirrel", (rock,))
    cute, skittish = Atom("Cute", (rock,)), Atom("Skittish", (rock,))
    assert entailment(story, turtle) is Label.UNKNOWN  # folio_v0_validation_0016
    assert entailment(story, Implies(Not(And((turtle, squirrel))), Xor(cute, skittish))) is Label.TRUE  # _0019
    assert entailment(story, squirrel) is Label.FALSE
    assert entailment(story, cute) is Label.TRUE


# --------------------------------------------------------------------------- undecided, limits, determinism


def test_undecided_under_a_tiny_rlimit_and_decided_under_the_default() -> None:
    hard = pigeonhole(7)
    assert satisfiable(hard) is False
    result = satisfiable(hard, rlimit=1_000)
    assert isinstance(result, Undecided)
    assert result.reason == "resource limit"
    # Deterministic: the same limit gives the same outcome again.
    assert satisfiable(hard, rlimit=1_000) == result


def test_undecided_under_a_tiny_timeout() -> None:
    hard = pigeonhole(7)  # about 70 ms of solving: far above 1 ms on any machine
    result = satisfiable(hard, timeout_ms=1, rlimit=None)
    assert isinstance(result, Undecided)
    assert result.reason == "timeout"
    assert satisfiable(hard, timeout_ms=60_000, rlimit=None) is False


def test_entailment_undecided_is_never_a_label() -> None:
    conclusion = Not(And(tuple(pigeonhole(7))))  # valid, but proving it is the hard part
    assert entailment([], conclusion) is Label.TRUE
    assert isinstance(entailment([], conclusion, rlimit=1_000), Undecided)
    assert isinstance(entailment([], conclusion, timeout_ms=1, rlimit=None), Undecided)
    assert entails([], conclusion) is True
    assert isinstance(entails([], conclusion, rlimit=1_000), Undecided)
    assert equivalent(conclusion, TRUE) is True
    assert isinstance(equivalent(conclusion, TRUE, rlimit=1_000), Undecided)


def test_contradiction_found_only_with_enough_resources() -> None:
    assert entailment(pigeonhole(7), FALSE) == Contradictory()
    assert isinstance(entailment(pigeonhole(7), FALSE, rlimit=1_000), Undecided)


def test_one_side_refuted_other_undecided_is_not_a_label() -> None:
    # Γ ∧ q is refuted at once (q contradicts irreflexivity); Γ ∧ ¬q and Γ alone need an infinite model.
    # FALSE would be right only if Γ were shown satisfiable; Z3 cannot, so the answer must be Undecided.
    result = entailment(INFINITE_ONLY, Exists("x", L(x, x)), rlimit=200_000)
    assert isinstance(result, Undecided)
    assert result.detail.startswith("premises:")


def test_z3_incompleteness_gives_undecided() -> None:
    result = satisfiable(INFINITE_ONLY, rlimit=200_000)
    assert isinstance(result, Undecided)


@pytest.mark.parametrize("kwargs", [{"timeout_ms": 0}, {"rlimit": 0}, {"timeout_ms": -5}])
def test_invalid_limits(kwargs: Mapping[str, int]) -> None:
    with pytest.raises(ValueError):
        satisfiable([rain], **kwargs)


# --------------------------------------------------------------------------- free variables


def test_free_variables_are_rejected_with_their_names() -> None:
    with pytest.raises(ValueError, match=r"premise 1 has free variable\(s\) x, y"):
        entailment([P(a), L(x, y)], P(a))
    with pytest.raises(ValueError, match=r"conclusion has free variable\(s\) z"):
        entailment([P(a)], P(z))
    with pytest.raises(ValueError, match="x"):
        entails([P(x)], P(a))
    with pytest.raises(ValueError, match="x"):
        satisfiable([Forall("y", L(x, y))])


def test_equivalent_closes_open_formulas_universally() -> None:
    assert equivalent(And((P(x), Q(x))), And((Q(x), P(x)))) is True
    assert equivalent(P(x), P(y)) is False  # ∀x ∀y (P(x) ↔ P(y)) is not valid
    assert equivalent(Implies(P(x), Q(y)), Or((Not(P(x)), Q(y)))) is True
    # A free variable is not a constant of the same name.
    assert equivalent(P(x), P(Const("x"))) is False


# --------------------------------------------------------------------------- equivalence, entails, satisfiable


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (Not(And((P(a), Q(a)))), Or((Not(P(a)), Not(Q(a))))),
        (Not(Or((P(a), Q(a), rain))), And((Not(P(a)), Not(Q(a)), Not(rain)))),
        (Not(Forall("x", P(x))), Exists("x", Not(P(x)))),
        (Not(Exists("x", P(x))), Forall("x", Not(P(x)))),
        (Forall("x", And((P(x), Q(x)))), And((Forall("x", P(x)), Forall("y", Q(y))))),
        (Exists("x", Or((P(x), Q(x)))), Or((Exists("x", P(x)), Exists("y", Q(y))))),
        (Forall("x", Forall("y", L(x, y))), Forall("y", Forall("x", L(x, y)))),
        (Forall("x", rain), rain),  # vacuous quantifier, non-empty domain
        (Xor(P(a), Q(a)), Not(Iff(P(a), Q(a)))),
        (Implies(P(a), Q(a)), Implies(Not(Q(a)), Not(P(a)))),
        (Not(Not(P(a))), P(a)),
        (Eq(a, b), Eq(b, a)),
        (Top(), Or((rain, Not(rain)))),
    ],
)
def test_equivalences(left: Formula, right: Formula) -> None:
    assert equivalent(left, right) is True
    assert equivalent(right, left) is True


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (Forall("x", Or((P(x), Q(x)))), Or((Forall("x", P(x)), Forall("x", Q(x))))),
        (Exists("x", And((P(x), Q(x)))), And((Exists("x", P(x)), Exists("x", Q(x))))),
        (Forall("x", Exists("y", L(x, y))), Exists("y", Forall("x", L(x, y)))),
        (Implies(P(a), Q(a)), Implies(Q(a), P(a))),
        (Xor(P(a), Q(a)), Or((P(a), Q(a)))),
        (P(a), P(b)),
        (Atom("P", (a,)), Atom("P", (a, a))),
        (Bottom(), And((rain, Atom("Snow")))),
    ],
)
def test_non_equivalences(left: Formula, right: Formula) -> None:
    assert equivalent(left, right) is False
    assert equivalent(right, left) is False


def test_entails_is_classical() -> None:
    assert entails([Forall("x", Implies(P(x), Q(x))), P(a)], Q(a)) is True
    assert entails([Exists("x", P(x))], P(a)) is False
    assert entails([P(a), Not(P(a))], Q(b)) is True  # ex falso: contradictions entail everything


def test_satisfiable() -> None:
    assert satisfiable([]) is True
    assert satisfiable([FALSE]) is False
    assert satisfiable([AT_LEAST_TWO_P, Not(P(a))]) is True
    assert satisfiable([Forall("x", Not(Eq(x, a)))]) is False  # a itself is in the domain
    assert satisfiable([AT_LEAST_TWO_P, AT_MOST_ONE_P]) is False
    assert satisfiable([Forall("x", Exists("y", Not(Eq(x, y))))]) is True


def test_thread_pool_gives_the_sequential_answers() -> None:
    cases = [
        (_rabbit_story(), Atom(name, (Const("rock"),)))
        for name in ("Turtle", "Squirrel", "Cute", "Skittish", "Still", "Rabbit")
    ] * 8
    sequential = [entailment(p, q) for p, q in cases]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda case: entailment(*case), cases))
    assert parallel == sequential
    assert set(sequential) == {Label.TRUE, Label.FALSE, Label.UNKNOWN}


# --------------------------------------------------------------------------- properties


PROPOSITIONS = ("p", "q", "r")


def propositional(max_depth: int = 4) -> st.SearchStrategy[Formula]:
    leaves = st.one_of(st.sampled_from(PROPOSITIONS).map(Atom), st.just(TRUE), st.just(FALSE))
    if max_depth <= 1:
        return leaves
    sub = propositional(max_depth - 1)
    return st.one_of(
        leaves,
        sub.map(Not),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
        st.tuples(st.sampled_from([Implies, Iff, Xor]), sub, sub).map(lambda t: t[0](t[1], t[2])),
    )


def evaluate(f: Formula, row: Mapping[str, bool]) -> bool:
    """Truth value of a propositional formula under an assignment."""
    if isinstance(f, Atom):
        return row[f.pred]
    if isinstance(f, Top):
        return True
    if isinstance(f, Bottom):
        return False
    if isinstance(f, Not):
        return not evaluate(f.body, row)
    if isinstance(f, And):
        return all(evaluate(g, row) for g in f.args)
    if isinstance(f, Or):
        return any(evaluate(g, row) for g in f.args)
    if isinstance(f, Implies):
        return not evaluate(f.left, row) or evaluate(f.right, row)
    if isinstance(f, Iff):
        return evaluate(f.left, row) == evaluate(f.right, row)
    if isinstance(f, Xor):
        return evaluate(f.left, row) != evaluate(f.right, row)
    raise TypeError(f"not propositional: {f!r}")


ROWS = [dict(zip(PROPOSITIONS, values, strict=True)) for values in itertools.product([False, True], repeat=3)]


def brute_force_label(premises: list[Formula], conclusion: Formula) -> Label | Contradictory:
    models = [row for row in ROWS if all(evaluate(p, row) for p in premises)]
    if not models:
        return Contradictory()
    values = {evaluate(conclusion, row) for row in models}
    if values == {True}:
        return Label.TRUE
    if values == {False}:
        return Label.FALSE
    return Label.UNKNOWN


@settings(max_examples=300, deadline=None)
@given(propositional(), propositional())
def test_equivalent_matches_truth_tables(left: Formula, right: Formula) -> None:
    expected = all(evaluate(left, row) == evaluate(right, row) for row in ROWS)
    assert equivalent(left, right) is expected


@settings(max_examples=300, deadline=None)
@given(st.lists(propositional(3), max_size=3), propositional())
def test_entailment_matches_truth_tables(premises: list[Formula], conclusion: Formula) -> None:
    assert entailment(premises, conclusion) == brute_force_label(premises, conclusion)
    assert satisfiable(premises) is any(all(evaluate(p, row) for p in premises) for row in ROWS)


NEGATED = {Label.TRUE: Label.FALSE, Label.FALSE: Label.TRUE, Label.UNKNOWN: Label.UNKNOWN}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(formulas(max_depth=3), min_size=1, max_size=3), formulas(max_depth=3))
def test_entailment_consistency_on_first_order_formulas(premises: list[Formula], conclusion: Formula) -> None:
    label = entailment(premises, conclusion)
    if isinstance(label, Undecided):
        event(f"undecided: {label.reason}")
    assume(not isinstance(label, Undecided))
    negated = entailment(premises, Not(conclusion))
    assume(not isinstance(negated, Undecided))
    sat = satisfiable(premises)
    assume(not isinstance(sat, Undecided))
    if isinstance(label, Contradictory):
        assert negated == Contradictory()
        assert sat is False
        return
    assert sat is True
    assert negated is NEGATED[label]
    holds = entails(premises, conclusion)
    assume(not isinstance(holds, Undecided))
    assert holds is (label is Label.TRUE)
    # Adding the conclusion (when not refuted) keeps the premises satisfiable and makes it TRUE.
    if label is not Label.FALSE:
        extended = entailment([*premises, conclusion], conclusion)
        assert extended is Label.TRUE or isinstance(extended, Undecided)
