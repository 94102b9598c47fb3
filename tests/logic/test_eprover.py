"""The E cross-check prover: hand cases per outcome, agreement with Z3 on random and real problems, errors.

No mock: every test runs the real ``eprover`` binary (skipped locally without it, failed in CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lgmt_tasks.logic import prover
from lgmt_tasks.logic.eprover import (
    DEBIAN_PACKAGE,
    EproverError,
    EproverUnavailableError,
    eprover_available,
    eprover_entailment,
    eprover_entails,
    eprover_equivalent,
    eprover_satisfiable,
    eprover_version,
    run_eprover,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import Contradictory, Label, Undecided
from lgmt_tasks.sources.common import SourceRecordError, parse_problem
from lgmt_tasks.sources.load import iter_problems
from tests.eprover_support import requires_eprover
from tests.fol_strategies import formulas

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
TIMEOUT_S = 2.0


def fol(*texts: str):
    return [parse(t) for t in texts]


SOCRATES = ("∀x (Man(x) → Mortal(x))", "Man(socrates)")


@requires_eprover
@pytest.mark.parametrize(
    ("premises", "conclusion", "expected"),
    [
        (SOCRATES, "Mortal(socrates)", Label.TRUE),
        (SOCRATES, "¬Mortal(socrates)", Label.FALSE),
        (SOCRATES, "Mortal(plato)", Label.UNKNOWN),
        (("Man(socrates)", "¬Man(socrates)"), "Rain", Contradictory()),
        # equality, the constants True/False, exclusive or, propositional atoms, names differing only by case
        (("alice = bob", "Likes(alice, carol)"), "Likes(bob, carol)", Label.TRUE),
        (("Rain ⊕ Snow", "Rain"), "Snow", Label.FALSE),
        (("Rain → ⊥",), "¬Rain", Label.TRUE),
        ((), "⊤", Label.TRUE),
        (("P(alice)",), "P(Alice)", Label.UNKNOWN),
        (("∀x ∃y (Likes(x, y))",), "∃x ∃y (Likes(x, y))", Label.TRUE),
        (("Likes(alice)", "¬Likes(alice, bob)"), "Likes(alice, bob)", Label.FALSE),  # Likes/1 ≠ Likes/2
        (("∀x (x = a)", "P(a)"), "∀y (P(y))", Label.TRUE),
    ],
)
def test_entailment_hand_cases(premises, conclusion, expected) -> None:
    ps, q = fol(*premises), parse(conclusion)
    assert eprover_entailment(ps, q, timeout_s=TIMEOUT_S) == expected
    assert prover.entailment(ps, q) == expected  # the hand label itself is right


@requires_eprover
def test_infinite_counter_model_is_undecided_never_a_label() -> None:
    # Serial and transitive R without a loop: every counter-model is infinite, so E can never saturate.
    ps = fol("∀x ∃y (R(x, y))", "∀x ∀y ∀z ((R(x, y) ∧ R(y, z)) → R(x, z))")
    outcome = eprover_entailment(ps, parse("∃x (R(x, x))"), timeout_s=1)
    assert isinstance(outcome, Undecided)
    assert outcome.reason == "timeout"
    with pytest.raises(TypeError):
        bool(outcome)


@requires_eprover
def test_entails_equivalent_satisfiable() -> None:
    assert eprover_entails(fol(*SOCRATES), parse("Mortal(socrates)"), timeout_s=TIMEOUT_S) is True
    assert eprover_entails(fol(*SOCRATES), parse("Mortal(plato)"), timeout_s=TIMEOUT_S) is False
    assert eprover_entails(fol("P(a)", "¬P(a)"), parse("Q"), timeout_s=TIMEOUT_S) is True
    assert eprover_equivalent(parse("¬(A ∧ B)"), parse("¬A ∨ ¬B"), timeout_s=TIMEOUT_S) is True
    assert eprover_equivalent(parse("A → B"), parse("B → A"), timeout_s=TIMEOUT_S) is False
    # Open formulas: compared under the closure of their joint free variables, as prover.equivalent does.
    assert eprover_equivalent(parse("P(x) ∧ Q(y)"), parse("Q(y) ∧ P(x)"), timeout_s=TIMEOUT_S) is True
    assert eprover_equivalent(parse("P(x)"), parse("P(y)"), timeout_s=TIMEOUT_S) is False
    assert eprover_equivalent(parse("P(x)"), parse("∀x (P(x))"), timeout_s=TIMEOUT_S) is False
    assert eprover_satisfiable([], timeout_s=TIMEOUT_S) is True
    assert eprover_satisfiable(fol("P(a)", "a = b"), timeout_s=TIMEOUT_S) is True
    assert eprover_satisfiable(fol("P(a)", "a = b", "¬P(b)"), timeout_s=TIMEOUT_S) is False


@requires_eprover
def test_bad_input_raises_instead_of_undecided() -> None:
    with pytest.raises(ValueError, match="premise 0 has free variable"):
        eprover_entailment([parse("P(x)")], parse("Q"))
    with pytest.raises(ValueError, match="timeout_s"):
        eprover_entails([], parse("Q"), timeout_s=0)
    with pytest.raises(EproverError, match="exit code 3"):
        run_eprover("fof(p1, axiom, p & ).\n", timeout_s=1)
    assert eprover_version().startswith("E ")


def test_missing_binary_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    assert not eprover_available()
    with pytest.raises(EproverUnavailableError, match=f"apt-get install -y {DEBIAN_PACKAGE}"):
        eprover_entails([], parse("Q"))


# --------------------------------------------------------------------------- agreement with Z3


def _decided(outcome: object) -> bool:
    return isinstance(outcome, (Label, Contradictory))


@requires_eprover
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(formulas(max_depth=3), max_size=3), formulas(max_depth=3))
def test_agrees_with_z3_on_random_problems(premises, conclusion) -> None:
    ours = prover.entailment(premises, conclusion)
    theirs = eprover_entailment(premises, conclusion, timeout_s=TIMEOUT_S)
    if _decided(ours) and _decided(theirs):
        assert theirs == ours


@requires_eprover
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(("x",), max_depth=3), formulas(("x",), max_depth=3))
def test_equivalence_agrees_with_z3_on_random_open_formulas(a, b) -> None:
    ours = prover.equivalent(a, b)
    theirs = eprover_equivalent(a, b, timeout_s=TIMEOUT_S)
    if not isinstance(ours, Undecided) and not isinstance(theirs, Undecided):
        assert theirs == ours
    assert eprover_equivalent(a, a, timeout_s=TIMEOUT_S) is True


@requires_eprover
@pytest.mark.skipif(not DATA.is_dir(), reason=f"source data folder {DATA} is absent")
@pytest.mark.parametrize(
    ("source", "rel"), [("folio", "folio/folio_v0_validation.jsonl"), ("proverqa", "proverqa/proverqa_dev_hard.jsonl")]
)
def test_agrees_with_z3_on_real_problems(source: str, rel: str) -> None:
    problems = []
    for problem in iter_problems(source, DATA / rel):  # type: ignore[arg-type]
        try:
            problems.append(parse_problem(problem))
        except SourceRecordError:
            continue
        if len(problems) == 8:
            break
    both = 0
    for premises, conclusion in problems:
        ours, theirs = prover.entailment(premises, conclusion), eprover_entailment(premises, conclusion, timeout_s=5)
        if _decided(ours) and _decided(theirs):
            both += 1
            assert theirs == ours, (premises, conclusion)
    assert both > 0  # the check is not vacuous: E decides some real problems
