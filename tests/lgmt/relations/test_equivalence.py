"""MR-E1.1-E1.6 and MR-E2.1-E2.4 on hand-built formulas: where they apply, exact rewrites, seeds, directions."""

from __future__ import annotations

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.base import canonical_key
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import alpha_equivalent
from tests.lgmt.relations.helpers import apply, case, outcomes, rewritten

E = [m for m in RELATIONS if m.startswith("MR-E")]


def only(mr: str, premise: str, seed: int = 0, **options: object):
    """The single rewritten premise of a one-premise case."""
    (out,) = rewritten(mr, case(premise), seed, **options)
    return out


def all_results(mr: str, premise: str, seeds: int = 60, **options: object) -> set:
    return {fu.premises_fol[0] for fu in outcomes(mr, case(premise), seeds, **options)}


# --------------------------------------------------------------------------- generic behaviour


@pytest.mark.parametrize("mr", E)
def test_formula_relations_rewrite_one_premise_and_record_an_equivalence(mr):
    c = case("∀x (P(x) → (Q(x) ∨ ¬¬R(x)))", "P(a) ∧ (∀x Q(x)) ∧ ∀y ∀x Likes(x, y)", conclusion="R(a)")
    fu = apply(mr, c, 3, direction="any")
    assert fu is not None
    assert fu.mr == mr and fu.category == "MR-E"
    assert fu.premise_origin.count(None) == 1
    i = fu.premise_origin.index(None)
    assert fu.changed == f"premise {i + 1}"
    assert fu.site.startswith(f"premise {i + 1} [")
    assert fu.obligation == ("equivalence", c.premises_fol[i], fu.premises_fol[i])
    assert fu.premises_fol[i] != c.premises_fol[i]
    assert fu.conclusion_fol == c.conclusion_fol and not fu.conclusion_changed
    assert fu.direction in RELATIONS[mr].directions


@pytest.mark.parametrize("mr", E)
@pytest.mark.parametrize("direction", ["any", "paper"])
def test_same_seed_same_followup(mr, direction):
    c = case("∀x (P(x) → (Q(x) ∨ ¬¬R(x)))", "P(a) ∧ (∀x Q(x)) ∧ ∀y ∀x Likes(x, y)", conclusion="R(a)")
    for seed in range(5):
        assert apply(mr, c, seed, direction=direction) == apply(mr, c, seed, direction=direction)


@pytest.mark.parametrize("mr", E)
def test_different_seeds_reach_different_sites(mr):
    c = case(
        "∀x (P(x) → (Q(x) ∨ ¬¬R(x)))",
        "P(a) ∧ (∀x Q(x)) ∧ ∀y ∀x Likes(x, y)",
        "(∀z P(z)) ∨ ¬(P(b) ∧ ∃y Q(y)) ∨ (P(c) ↔ Q(c))",
        "∃y ∃x Likes(x, y)",
    )
    sites = {fu.site for d in ("forward", "introduction") for fu in outcomes(mr, c, 60, direction=d)}
    assert len(sites) >= 2, sites


@pytest.mark.parametrize("mr", E)
def test_scope_conclusion_rewrites_the_conclusion(mr):
    c = case("P(a)", conclusion="∀x ∀y ((P(x) ∧ ¬¬Q(y)) → (Likes(x, y) ∨ ∃z P(z)))")
    fu = apply(mr, c, 1, scope="conclusion", direction="any")
    assert fu is not None
    assert fu.conclusion_changed and fu.changed == "conclusion"
    assert fu.premises_fol == c.premises_fol and fu.premise_origin == (0,)
    assert fu.obligation == ("equivalence", c.conclusion_fol, fu.conclusion_fol)


def test_default_scope_leaves_the_conclusion_alone():
    c = case("P(a)", conclusion="P(a) → Q(a)")
    assert apply("MR-E1.1", c, direction="forward") is None
    assert apply("MR-E1.1", c, direction="forward", scope="all") is not None


# --------------------------------------------------------------------------- MR-E1.1


def test_e11_implication_and_biconditional_elimination():
    assert only("MR-E1.1", "P(a) → Q(a)") == parse("¬P(a) ∨ Q(a)")
    assert only("MR-E1.1", "P(a) ↔ Q(a)") == parse("(¬P(a) ∨ Q(a)) ∧ (¬Q(a) ∨ P(a))")
    assert only("MR-E1.1", "∀x (P(x) → Q(x))") == parse("∀x (¬P(x) ∨ Q(x))")


def test_e11_exclusive_or_is_extended():
    fu = apply("MR-E1.1", case("P(a) ⊕ Q(a)"), direction="any")
    assert fu.premises_fol[0] == parse("(P(a) ∨ Q(a)) ∧ (¬P(a) ∨ ¬Q(a))")
    assert fu.direction == "extended" and fu.law == "exclusive-or elimination"


def test_e11_introduction():
    assert only("MR-E1.1", "¬P(a) ∨ Q(a)", direction="any") == parse("P(a) → Q(a)")
    assert only("MR-E1.1", "P(a) ∨ Q(a) ∨ R(a)", direction="any") == parse("¬P(a) → (Q(a) ∨ R(a))")
    assert only("MR-E1.1", "(¬P(a) ∨ Q(a)) ∧ (¬Q(a) ∨ P(a))", direction="introduction") in {
        parse("P(a) ↔ Q(a)"),
        parse("(P(a) → Q(a)) ∧ (¬Q(a) ∨ P(a))"),
        parse("(¬P(a) ∨ Q(a)) ∧ (Q(a) → P(a))"),
    }
    assert parse("P(a) ↔ Q(a)") in all_results("MR-E1.1", "(¬P(a) ∨ Q(a)) ∧ (¬Q(a) ∨ P(a))", direction="any")


def test_e11_does_not_apply_without_connectives_to_eliminate_or_introduce():
    assert not RELATIONS["MR-E1.1"].applies(case("P(a) ∧ ¬Q(b)", "∀x P(x)"), direction="any")


def test_any_direction_prefers_forward_sites():
    c = case("P(a) → Q(a)", "P(b) ∨ Q(b)")
    assert {fu.direction for fu in outcomes("MR-E1.1", c, direction="any")} == {"forward"}
    assert {fu.direction for fu in outcomes("MR-E1.1", c, direction="introduction")} == {"introduction"}
    assert RELATIONS["MR-E1.1"].applies(c, direction="forward")
    assert not RELATIONS["MR-E1.1"].applies(case("P(a) ∨ Q(a)"), direction="forward")
    assert RELATIONS["MR-E1.1"].applies(case("P(a) ∨ Q(a)"), direction="introduction")


# --------------------------------------------------------------------------- MR-E1.2


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("¬¬P(a)", "P(a)"),
        ("¬(P(a) ∧ Q(a))", "¬P(a) ∨ ¬Q(a)"),
        ("¬(P(a) ∨ Q(a) ∨ R(a))", "¬P(a) ∧ ¬Q(a) ∧ ¬R(a)"),
        ("¬∀x P(x)", "∃x ¬P(x)"),
        ("¬∃x P(x)", "∀x ¬P(x)"),
    ],
)
def test_e12_negation_normalisation(source, expected):
    assert only("MR-E1.2", source) == parse(expected)


def test_e12_is_one_step():
    assert only("MR-E1.2", "¬¬¬(P(a) ∧ Q(a))", direction="forward") in {
        parse("¬(P(a) ∧ Q(a))"),
        parse("¬¬(¬P(a) ∨ ¬Q(a))"),
    }


def test_e12_introduction():
    results = all_results("MR-E1.2", "(∃x P(x)) ∨ Q(a)", direction="introduction")
    assert parse("¬¬((∃x P(x)) ∨ Q(a))") in results
    assert parse("¬((¬∃x P(x)) ∧ ¬Q(a))") in results
    assert parse("(¬∀x ¬P(x)) ∨ Q(a)") in results
    assert parse("(∃x ¬¬P(x)) ∨ Q(a)") in results
    assert only("MR-E1.2", "¬P(a) ∧ ¬Q(a)", direction="introduction", seed=0) is not None
    assert parse("¬(P(a) ∨ Q(a))") in all_results("MR-E1.2", "¬P(a) ∧ ¬Q(a)", direction="introduction")


# --------------------------------------------------------------------------- MR-E1.3


def test_e13_lifting_both_sides():
    assert only("MR-E1.3", "(∀x P(x)) ∧ Q(a)") == parse("∀x (P(x) ∧ Q(a))")
    assert only("MR-E1.3", "Q(a) ∨ ∃x P(x)") == parse("∃x (Q(a) ∨ P(x))")


def test_e13_side_condition():
    # x is free in the other operand: no lifting (under ∀x the inner x is bound by the outer quantifier)
    assert not RELATIONS["MR-E1.3"].applies(case("∀x ((∀x P(x)) ∧ Q(x))"), direction="forward")
    # x only bound in the other operand: the paper's condition x ∉ FV(ψ) holds
    assert RELATIONS["MR-E1.3"].applies(case("(∀x P(x)) ∧ ∃x Q(x)"), direction="forward")


def test_e13_extended_through_implication():
    assert only("MR-E1.3", "Q(a) → ∀x P(x)", direction="any") == parse("∀x (Q(a) → P(x))")
    assert only("MR-E1.3", "(∀x P(x)) → Q(a)", direction="any") == parse("∃x (P(x) → Q(a))")
    assert only("MR-E1.3", "(∃x P(x)) → Q(a)", direction="any") == parse("∀x (P(x) → Q(a))")
    assert apply("MR-E1.3", case("Q(a) → ∀x P(x)"), direction="any").direction == "extended"


def test_e13_introduction_lowers():
    fu = apply("MR-E1.3", case("∀x (P(x) ∧ Q(a) ∧ R(x))"), direction="any")
    assert fu.direction == "introduction"
    assert fu.premises_fol[0] == parse("(∀x (P(x) ∧ R(x))) ∧ Q(a)")
    assert not RELATIONS["MR-E1.3"].applies(case("∀x (P(x) ∧ R(x))"), direction="any")


# --------------------------------------------------------------------------- MR-E1.4


def test_e14_flatten_and_sort():
    assert only("MR-E1.4", "P(a) ∧ (Q(a) ∧ R(a))") == parse("P(a) ∧ Q(a) ∧ R(a)")
    assert only("MR-E1.4", "R(a) ∨ P(a) ∨ Q(a)") == parse("P(a) ∨ Q(a) ∨ R(a)")
    results = all_results("MR-E1.4", "R(a) ∧ (Q(a) ∧ P(a))")
    # the root is already in canonical order (a literal sorts before a conjunction): flatten, or sort the inner ∧
    assert results == {parse("R(a) ∧ Q(a) ∧ P(a)"), parse("R(a) ∧ (P(a) ∧ Q(a))")}
    assert only("MR-E1.4", "(Q(a) ∧ P(a)) ∨ R(a)", direction="forward") in {
        parse("R(a) ∨ (Q(a) ∧ P(a))"),
        parse("(P(a) ∧ Q(a)) ∨ R(a)"),
    }


def test_e14_extended_permutes_sorted_operands():
    results = all_results("MR-E1.4", "P(a) ∧ Q(a) ∧ R(a)", direction="any")
    assert parse("P(a) ∧ Q(a) ∧ R(a)") not in results
    assert len(results) >= 3
    for f in results:
        assert sorted(f.args, key=canonical_key) == list(parse("P(a) ∧ Q(a) ∧ R(a)").args)
    assert apply("MR-E1.4", case("P(a) ∧ Q(a)"), direction="any").direction == "extended"


def test_e14_does_not_apply_to_identical_operands_only():
    assert not RELATIONS["MR-E1.4"].applies(case("P(a) ∧ P(a)"), direction="any")
    assert not RELATIONS["MR-E1.4"].applies(case("∀x (P(x) → Q(x))"), direction="any")


@pytest.mark.parametrize(
    "source",
    ["(R(a) ∨ ¬P(b)) ∧ P(b) ∧ ⊤ ∧ a = b", "¬(Q(a) ∧ (P(a) ∨ R(b))) ∨ (P(a) → ⊥)", "(P(a) ↔ Q(b)) ∧ ¬R(a)"],
)
def test_e14_canonical_order_is_the_pnnf_order_on_ground_formulas(source):
    from lgmt_tasks.lgmt.relations import Case
    from lgmt_tasks.logic.normal_forms import pnnf

    canonical = Case((pnnf(parse(source)),), parse("Rain"))
    assert not RELATIONS["MR-E1.4"].applies(canonical, direction="forward")


# --------------------------------------------------------------------------- MR-E1.5


def test_e15_renames_a_conflicting_variable_to_a_fresh_one():
    fu = apply("MR-E1.5", case("(∀x P(x)) ∧ Q(x0) ∧ ∃x R(x)"), direction="forward")
    assert fu.direction == "forward"
    new = fu.premises_fol[0]
    assert alpha_equivalent(new, parse("(∀x P(x)) ∧ Q(x0) ∧ ∃x R(x)"))
    assert new in {parse("(∀y P(y)) ∧ Q(x0) ∧ ∃x R(x)"), parse("(∀x P(x)) ∧ Q(x0) ∧ ∃y R(y)")}


def test_e15_fresh_variable_avoids_every_name_of_the_case():
    from dataclasses import replace

    from lgmt_tasks.logic.syntax import Atom, Const

    c = case("(∀x P(x)) ∧ ∃x Q(x)", "∀y ∀z Likes(y, z)")
    c = replace(c, conclusion_fol=Atom("P", (Const("w"),)))  # a constant named like a variable
    fu = apply("MR-E1.5", c, direction="forward")
    assert fu.premises_fol[0] in {parse("(∀v P(v)) ∧ ∃x Q(x)"), parse("(∀x P(x)) ∧ ∃v Q(v)")}


def test_e15_extended_renames_any_quantifier():
    fu = apply("MR-E1.5", case("∀x (P(x) → Q(x))"), direction="any")
    assert fu.direction == "extended"
    assert fu.premises_fol[0] == parse("∀y (P(y) → Q(y))")


def test_e15_needs_a_quantifier():
    assert not RELATIONS["MR-E1.5"].applies(case("P(a) ∧ Q(b)"), direction="any")


# --------------------------------------------------------------------------- MR-E1.6


def test_e16_orders_a_block_by_first_occurrence():
    fu = apply("MR-E1.6", case("∀y ∀x (Likes(x, y) → P(x))"))
    assert fu.direction == "forward"
    assert fu.premises_fol[0] == parse("∀x ∀y (Likes(x, y) → P(x))")


def test_e16_extended_permutes_a_canonical_block():
    fu = apply("MR-E1.6", case("∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))"), direction="any")
    assert fu.direction == "extended"
    assert fu.premises_fol[0] != parse("∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))")
    assert all_results("MR-E1.6", "∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))", direction="any").__len__() >= 3


@pytest.mark.parametrize("direction", ["any", "paper", "counts"])
def test_e16_needs_two_identical_adjacent_quantifiers(direction):
    assert not RELATIONS["MR-E1.6"].applies(case("∀x ∃y Likes(x, y)"), direction=direction)
    assert not RELATIONS["MR-E1.6"].applies(case("∀x ∀x P(x)"), direction=direction)
    assert RELATIONS["MR-E1.6"].applies(case("P(a) ∧ ∀y ∀x Likes(x, y)"), direction=direction)
    # a block already in canonical order: only our permutation applies, never the paper's law (issue #36)
    canonical = RELATIONS["MR-E1.6"].applies(case("P(a) ∧ ∀x ∀y Likes(x, y)"), direction=direction)
    assert canonical == (direction != "paper")


# --------------------------------------------------------------------------- MR-E2.1


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("P(a) ∨ P(a)", "P(a)"),
        ("P(a) ∧ P(a)", "P(a)"),
        ("P(a) ∨ (P(a) ∧ Q(a))", "P(a)"),
        ("P(a) ∧ (Q(a) ∨ P(a))", "P(a)"),
        ("Q(b) ∨ P(a) ∨ Q(b)", "Q(b) ∨ P(a)"),
        ("(∀x P(x)) ∨ ∀y P(y)", "∀x P(x)"),
    ],
)
def test_e21_forward(source, expected):
    assert only("MR-E2.1", source) == parse(expected)


def test_e21_introduction():
    results = all_results("MR-E2.1", "P(a)", seeds=80, direction="introduction")
    assert parse("P(a) ∨ P(a)") in results and parse("P(a) ∧ P(a)") in results
    assert parse("(P(a) ∨ (P(a) ∧ Q(b))) ∧ Q(b)") in all_results("MR-E2.1", "P(a) ∧ Q(b)", seeds=200, direction="any")
    fu = apply("MR-E2.1", case("P(a)"), direction="introduction")
    assert fu.direction == "introduction" and fu.law.endswith("introduction")


@pytest.mark.parametrize("mr", ["MR-E2.1", "MR-E2.2", "MR-E2.3", "MR-E2.4"])
def test_e2_introduction_atom_comes_from_the_case_and_fits_the_site(mr):
    from lgmt_tasks.logic.syntax import is_sentence, signature

    c = case("∀x (P(x) → Q(x))", "∃y Likes(y, a)", conclusion="R(b)")
    seen = outcomes(mr, c, 120, direction="introduction")
    assert len(seen) > 10
    for fu in seen:
        assert all(is_sentence(p) for p in fu.premises_fol)
        new, source = signature(*fu.premises_fol), signature(*c.premises_fol, c.conclusion_fol)
        assert new.predicates <= source.predicates and new.constants <= source.constants


# --------------------------------------------------------------------------- MR-E2.2


def test_e22_forward():
    assert only("MR-E2.2", "P(a) ∨ ¬P(a)") == parse("⊤")
    assert only("MR-E2.2", "Q(a) ∧ ¬P(a) ∧ P(a)") == parse("⊥")
    assert apply("MR-E2.2", case("∀x (P(x) ∨ ¬P(x))")).premises_fol[0] == parse("∀x ⊤")


def test_e22_introduction():
    results = all_results("MR-E2.2", "P(a)", seeds=80, direction="any")
    assert results == {parse("P(a) ∧ (Rain ∨ ¬Rain)"), parse("P(a) ∨ (Rain ∧ ¬Rain)")}
    at_top = all_results("MR-E2.2", "P(a) ∧ ⊤", seeds=200, direction="any")
    assert parse("P(a) ∧ (Rain ∨ ¬Rain)") in at_top and parse("P(a) ∧ (P(a) ∨ ¬P(a))") in at_top


# --------------------------------------------------------------------------- MR-E2.3


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("P(a) ∧ ⊤", "P(a)"),
        ("P(a) ∨ ⊥", "P(a)"),
        ("P(a) ∨ ⊤", "⊤"),
        ("P(a) ∧ ⊥", "⊥"),
        ("P(a) ∧ ⊤ ∧ Q(a)", "P(a) ∧ Q(a)"),
    ],
)
def test_e23_forward(source, expected):
    assert only("MR-E2.3", source) == parse(expected)


def test_e23_introduction():
    results = all_results("MR-E2.3", "P(a)", seeds=80, direction="any")
    assert results == {
        parse("P(a) ∧ ⊤"),
        parse("P(a) ∨ ⊥"),
        parse("P(a) ∧ (Rain ∨ ⊤)"),
        parse("P(a) ∨ (Rain ∧ ⊥)"),
    }


# --------------------------------------------------------------------------- MR-E2.4


def test_e24_distributes_both_ways():
    assert only("MR-E2.4", "P(a) ∧ (Q(a) ∨ R(a))") == parse("(P(a) ∧ Q(a)) ∨ (P(a) ∧ R(a))")
    assert only("MR-E2.4", "P(a) ∨ (Q(a) ∧ R(a))") == parse("(P(a) ∨ Q(a)) ∧ (P(a) ∨ R(a))")
    assert only("MR-E2.4", "(Q(a) ∨ R(a)) ∧ P(a)") == parse("(Q(a) ∧ P(a)) ∨ (R(a) ∧ P(a))")


def test_e24_nary_keeps_the_other_operands():
    results = all_results("MR-E2.4", "S(a) ∧ P(a) ∧ (Q(a) ∨ R(a))")
    assert parse("S(a) ∧ ((P(a) ∧ Q(a)) ∨ (P(a) ∧ R(a)))") in results
    assert parse("((S(a) ∧ Q(a)) ∨ (S(a) ∧ R(a))) ∧ P(a)") in results


def test_e24_introduction_factoring_and_expansion():
    assert only("MR-E2.4", "(P(a) ∧ Q(a)) ∨ (P(a) ∧ R(a))", direction="forward") is not None
    assert parse("P(a) ∧ (Q(a) ∨ R(a))") in all_results(
        "MR-E2.4", "(P(a) ∧ Q(a)) ∨ (P(a) ∧ R(a))", direction="introduction"
    )
    assert parse("P(a) ∨ (Q(a) ∧ R(a))") in all_results(
        "MR-E2.4", "(P(a) ∨ Q(a)) ∧ (P(a) ∨ R(a))", direction="introduction"
    )
    results = all_results("MR-E2.4", "P(a)", direction="any")
    assert results == {parse("(P(a) ∧ Rain) ∨ (P(a) ∧ ¬Rain)"), parse("(P(a) ∨ Rain) ∧ (P(a) ∨ ¬Rain)")}
