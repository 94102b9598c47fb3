"""Composition (chains, multi-follow-up groups) and the proof obligations (`check`)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS, FollowUp, chain, compose, compose_random, followups
from lgmt_tasks.lgmt.relations.check import Inconclusive, Refuted, Verified, recheck, structural_problem, verify
from lgmt_tasks.logic.parse import parse
from tests.lgmt.relations.gen import random_cases
from tests.lgmt.relations.helpers import apply, case

ZOO = case(
    "∀x (Dog(x) → Mammal(x))",
    "Dog(rex) ∧ Likes(rex, tom)",
    "Cat(tom)",
    conclusion="Mammal(rex)",
    english=True,
    label="True",
)

# --------------------------------------------------------------------------- compose


def test_chain_ids_categories_and_directions():
    fu = compose([RELATIONS["MR-E1.1"], RELATIONS["MR-C3"]], ZOO, random.Random(0))
    assert fu.mr == "MR-E1.1+MR-C3" and fu.category == "MR-E+MR-C" and fu.direction == "forward+forward"
    assert fu.variant == "paper+paper"
    assert fu.obligation == ("label",) and len(fu.steps) == 2
    assert fu.changed == "all" and fu.conclusion_fol == parse("¬¬Mammal(rex)")
    assert fu.premise_origin == (None, 1, 2) and fu.premises_fol[0] == parse("∀x (¬Dog(x) ∨ Mammal(x))")
    same = compose([RELATIONS["MR-E1.1"], RELATIONS["MR-E1.5"]], ZOO, random.Random(0), direction="any")
    assert same.category == "MR-E"
    assert same.direction == "forward+extended" and same.variant == "paper+extended"  # E1.5: no clash in ZOO


def test_chain_composes_origins_through_a_permutation():
    for seed in range(10):
        fu = compose([RELATIONS["MR-P1"], RELATIONS["MR-E1.1"], RELATIONS["MR-P2"]], ZOO, random.Random(seed))
        assert fu is not None
        for p, o in zip(fu.premises_fol, fu.premise_origin, strict=True):
            assert o is None or p == ZOO.premises_fol[o]
        assert fu.premise_origin.count(None) >= 1
        assert structural_problem(ZOO, fu) is None


def test_chain_nets_renamings():
    c = case("P(a)", conclusion="Q(a)")
    fu = compose([RELATIONS["MR-S1"], RELATIONS["MR-S1"]], c, random.Random(0))
    assert fu.renaming == (("constant", "a", "Con2"),)
    assert fu.premises_fol == (parse("P(Con2)"),) and fu.premise_origin == (None,)


def test_chain_that_undoes_itself_is_none():
    c = case("P(a)", conclusion="Q(a)")
    chain_ = [RELATIONS["MR-C3"], RELATIONS["MR-E1.2"]]
    assert compose(chain_, c, random.Random(0), scope="conclusion", direction="forward") is None


def test_chain_stops_when_a_step_does_not_apply():
    assert compose([RELATIONS["MR-C1"], RELATIONS["MR-P5"]], ZOO, random.Random(0)) is not None
    assert compose([RELATIONS["MR-P5"], RELATIONS["MR-P5"]], ZOO, random.Random(0)) is None


def test_compose_random_draws_only_applicable_links():
    pool = [RELATIONS["MR-P5"], RELATIONS["MR-C1"]]
    for seed in range(5):
        fu = compose_random(RELATIONS["MR-P5"], pool, 3, ZOO, random.Random(seed))
        assert fu is not None and fu.mr.startswith("MR-P5+MR-C1")
    assert compose_random(RELATIONS["MR-P5"], [RELATIONS["MR-P5"]], 2, ZOO, random.Random(0)) is None
    assert compose_random(RELATIONS["MR-C1"], pool, 1, ZOO, random.Random(0)) == apply("MR-C1", ZOO)


def test_chain_of_one_is_the_step():
    assert chain(ZOO, [apply("MR-C1", ZOO)]) == apply("MR-C1", ZOO)


def test_followups_come_from_different_relations():
    rels = list(RELATIONS.values())
    for seed in range(5):
        fus = followups(ZOO, rels, 4, random.Random(seed))
        assert len(fus) == 4 and len({fu.mr for fu in fus}) == 4
        assert len({(fu.premises_fol, fu.conclusion_fol) for fu in fus}) == 4
    assert followups(ZOO, [RELATIONS["MR-C1"], RELATIONS["MR-C1"]], 3, random.Random(0)) == [apply("MR-C1", ZOO, 0)]


@pytest.mark.parametrize("direction", ["any", "paper"])
def test_composed_chains_are_proven_end_to_end_and_stepwise(direction):
    rng = random.Random(11)
    rels = list(RELATIONS.values())
    proven = 0
    for c in random_cases(40, seed=3):
        for _ in range(3):
            fu = compose(rng.sample(rels, rng.choice((2, 3))), c, rng, direction=direction)
            if fu is None:
                continue
            verdict = verify(c, fu, steps=True)
            assert verdict.status != "refuted", (fu.mr, verdict)
            proven += verdict.proven
    assert proven >= {"any": 60, "paper": 40}[direction]  # fewer links apply under `paper` (47 of 120 chains)


# --------------------------------------------------------------------------- check


def _fake(c, premises, conclusion=None, origin=None, obligation=("label",)):
    return FollowUp(
        premises_fol=tuple(parse(p) for p in premises),
        conclusion_fol=parse(conclusion) if conclusion else c.conclusion_fol,
        premise_origin=origin if origin is not None else (None,) * len(premises),
        conclusion_changed=conclusion is not None and parse(conclusion) != c.conclusion_fol,
        mr="MR-X",
        category="MR-P",
        direction="forward",
        changed="premises",
        site="",
        obligation=obligation,
    )


def test_verify_proves_real_followups():
    for mr in RELATIONS:
        fu = apply(mr, ZOO, 1)
        if fu is None:
            continue
        assert isinstance(verify(ZOO, fu), Verified), mr
        assert isinstance(recheck(ZOO, fu), Verified), mr


def test_verify_refutes_a_wrong_equivalence():
    c = case("P(a) → Q(a)", conclusion="Q(a)")
    bad = _fake(c, ["Q(a) → P(a)"], obligation=("equivalence", parse("P(a) → Q(a)"), parse("Q(a) → P(a)")))
    assert verify(c, bad) == Refuted("not equivalent")


def test_verify_refutes_a_changed_label():
    bad = _fake(ZOO, ["∀x (Dog(x) → Mammal(x))", "Cat(tom)"], origin=(0, 2))
    verdict = verify(ZOO, bad)
    assert isinstance(verdict, Refuted) and verdict.reason == "label changed: True -> Unknown"


def test_verify_refutes_contradictory_followups():
    bad = _fake(ZOO, ["∀x (Dog(x) → Mammal(x))", "Dog(rex) ∧ ¬Dog(rex)"])
    assert verify(ZOO, bad) == Refuted("follow-up premises contradictory")


def test_verify_is_inconclusive_without_a_source_label():
    c = case("P(a)", "¬P(a)", conclusion="Q(a)")
    fu = apply("MR-P1", c)
    assert verify(c, fu) == Inconclusive("source premises contradictory")
    assert not verify(c, fu).proven and verify(c, fu).status == "undecided"


def test_structural_checks():
    fu = apply("MR-E1.1", ZOO)
    assert structural_problem(ZOO, fu) is None
    lying = replace(fu, premise_origin=(0, 1, 2))
    assert "not a copy" in verify(ZOO, lying).reason
    two_changes = replace(fu, premises_fol=(fu.premises_fol[0], parse("Dog(rex)"), fu.premises_fol[2]))
    assert "only change" in verify(ZOO, replace(two_changes, premise_origin=(None, None, 2))).reason
    longer = replace(fu, premises_fol=(*fu.premises_fol, parse("P(a)")), premise_origin=(*fu.premise_origin, None))
    assert "only change" in verify(ZOO, longer).reason
    open_formula = _fake(ZOO, ["Dog(x)"])
    assert "free variables" in verify(ZOO, open_formula).reason
    assert "conclusion_changed" in verify(ZOO, replace(fu, conclusion_changed=True)).reason


def test_source_label_shortcut_agrees():
    fu = apply("MR-P3", ZOO)
    assert verify(ZOO, fu, source_label="True").proven
    assert isinstance(verify(ZOO, fu, source_label="False"), Refuted)
