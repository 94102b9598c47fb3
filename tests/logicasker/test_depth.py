"""Effective depth: cancelling chains are measured shallower than their length and never shipped."""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logicasker.catalogue import get_skill
from lgmt_tasks.logicasker.depth import effective_depth
from lgmt_tasks.logicasker.generate import Problem, contradict, generate


def _f(*texts: str) -> list:
    return [parse(t) for t in texts]


def test_a_cancelling_simplification_then_conjunction_is_one_step():
    # Modus ponens on A1 → A2, A1; then A1 supported by simplification from A1 ∧ A3, then A1 ∧ A3 by conjunction:
    # A1 is back among the premises (A3 is stray), so the chain of length 3 needs one step.
    base = (_f("A1 → A2", "A1"), parse("A2"))
    premises = _f("A1 → A2", "A1", "A3")
    through = _f("A1", "A1 ∧ A3")
    assert effective_depth(premises, parse("A2"), 3, base, through) == 1


def test_biconditional_elimination_undone_by_introduction_is_caught():
    premises = _f("A1 → A2", "A2 → A1")
    through = _f("A1 → A2", "A1 ↔ A2")
    assert effective_depth(premises, parse("¬A1 ∨ A2"), 3, (_f("A1 → A2"), parse("¬A1 ∨ A2")), through) == 1


def test_an_honest_chain_needs_every_step():
    # A1 → A2 by transitivity from A1 → A3, A3 → A2; A1 by modus ponens from A4 → A1, A4: three steps.
    premises = _f("A1 → A3", "A3 → A2", "A4 → A1", "A4")
    through = _f("A1 → A2", "A1")
    base = (_f("A1 → A2", "A1"), parse("A2"))
    assert effective_depth(premises, parse("A2"), 3, base, through) == 3
    assert effective_depth(premises, parse("A2"), 2, base, through) is None  # beyond the bound


def test_quantified_steps_instantiation_and_generalisation():
    premises = _f("∀x (P1(x))", "∀x (P2(x))")
    through = _f("∃x (P1(x) ∧ P2(x))", "P1(c1) ∧ P2(c1)")
    base = (_f("∃x (P1(x) ∧ P2(x))"), parse("∃x (P1(x))"))
    # ∀x P1(x) ⊢ P1(c1) ⊢ ∃x P1(x): two steps, though the chain took five.
    assert effective_depth(premises, parse("∃x (P1(x))"), 5, base, through) == 2
    assert effective_depth(premises, parse("∀x (P1(x))"), 5) == 0


@pytest.mark.parametrize("name", ["modus ponens", "universal disjunctive syllogism", "existential simplification"])
def test_generated_chains_have_their_requested_depth(name):
    skill = get_skill(name)
    made = 0
    for seed in range(12):
        result = generate(skill, "valid", 4, random.Random(seed))
        if isinstance(result, Problem):
            made += 1
            assert result.effective_depth == result.length == 4
        else:
            assert result.reason  # rejected attempts say why (cancelling chains among them)
    assert made > 0


def test_contradiction_pushes_the_negation_to_the_literals():
    assert contradict(parse("∀x (P(x) → Q(x))")) == parse("∃x (P(x) ∧ ¬Q(x))")
    assert contradict(parse("p ∨ ¬q")) == parse("¬p ∧ q")
    assert contradict(parse("p ↔ q")) == parse("p ↔ ¬q")
    assert contradict(parse("¬p")) == parse("p")
