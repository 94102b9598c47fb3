"""`direction="paper"` (issues #25, #36): which sites each MR-E relation keeps, the new rewrites, `variant`, surveys.

The paper's reading of each law is argued in `lgmt_tasks/lgmt/issue25_paper_reading.md`; issue #36 moved MR-E1.2's
negated →/↔/⊕, MR-E1.6's permuted canonical blocks and MR-E2.4's ⊕ step out of it into `direction="counts"`. Every
rewrite here is discharged by the real prover (`check.verify`), no mocks.
"""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS, FollowUp, applicability, compose, direction_counts
from lgmt_tasks.lgmt.relations.base import Options
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.relations.equivalence import NegationNormalization, quantifier_order_deviation
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import Exists, Forall, Formula, Iff, alpha_equivalent, at, binders_above, subformulas
from tests.lgmt.relations.helpers import apply, case, outcomes

E = [m for m in RELATIONS if m.startswith("MR-E")]
NegationLaws = frozenset(NegationNormalization._LAWS.values())


def paper_sites(mr: str, premise: str) -> list:
    return RELATIONS[mr].sites(case(premise), direction="paper")


def nests_a_same_name_quantifier(f: Formula) -> bool:
    """Whether some quantifier Qx sits inside another quantifier over the same x."""
    return any(
        isinstance(node, (Forall, Exists)) and node.var in binders_above(f, path) for path, node in subformulas(f)
    )


# --------------------------------------------------------------------------- options


def test_paper_is_the_default_direction_and_named_in_errors():
    assert Options().direction == "paper"
    with pytest.raises(ValueError, match="'paper', 'forward', 'introduction', 'any', 'counts'"):
        Options.parse({"direction": "extended"})


# --------------------------------------------------------------------------- which sites are in, which out

# (relation, premise whose sites include a paper site, premise with sites but none of the paper's)
IN_AND_OUT = [
    ("MR-E1.1", "P(a) → Q(a)", "P(a) ⊕ Q(a)"),  # ⊕ elimination (extended) and ∨ ⇝ → (introduction) are out
    ("MR-E1.1", "P(a) ↔ Q(a)", "P(a) ∨ Q(a)"),
    ("MR-E1.2", "¬(P(a) ∧ Q(a))", "¬P(a) ∧ Q(a)"),  # only ¬¬ introduction there
    ("MR-E1.2", "¬∀x P(x)", "¬(P(a) → Q(a))"),  # issue #36: ¬ over → is MR-E1.1's first (App. A.5)
    ("MR-E1.2", "¬∃x ¬P(x)", "¬(P(a) ⊕ Q(a))"),  # ¬(φ ⊕ ψ) ⇝ φ ↔ ψ would add a ↔ (i(·), App. A.3)
    ("MR-E1.3", "(∀x P(x)) ∧ Q(a)", "Q(a) → ∀x P(x)"),  # lifting out of → is extended
    ("MR-E1.3", "Q(a) ∨ ∃x P(x)", "∀x (P(x) ∧ Q(a) ∧ R(x))"),  # lowering is introduction
    ("MR-E1.4", "R(a) ∨ P(a)", "P(a) ∧ Q(a)"),  # permuting sorted operands is extended
    ("MR-E1.5", "(∀x P(x)) ∧ ∃x Q(x)", "∀x (P(x) → Q(x))"),  # renaming that resolves nothing is out
    ("MR-E1.5", "∀x (P(x) → ∃x Q(x))", "(∀x P(x)) → ∃y Q(y)"),
    ("MR-E1.6", "∀y ∀x (Likes(x, y) → P(x))", "∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))"),  # issue #36: canonical out
    ("MR-E2.1", "P(a) ∨ (P(a) ∧ Q(a))", "P(a) ∧ Q(a)"),  # only introductions there
    ("MR-E2.2", "P(a) ∨ ¬P(a)", "P(a) ∧ ¬Q(a)"),
    ("MR-E2.3", "P(a) ∧ ⊤", "P(a) ∧ Q(a)"),
    ("MR-E2.4", "P(a) ∧ (Q(a) ∨ R(a))", "(P(a) ∨ Q(a)) → R(a)"),
    ("MR-E2.4", "P(a) ∨ (Q(a) ∧ R(a))", "P(a) ⊕ Q(a)"),  # issue #36: ⊕ read as a disjunction is out
]


@pytest.mark.parametrize(("mr", "positive", "negative"), IN_AND_OUT)
def test_paper_keeps_the_papers_sites_and_only_those(mr, positive, negative):
    relation = RELATIONS[mr]
    assert relation.applies(case(positive), direction="paper")
    assert paper_sites(mr, positive)
    fu = apply(mr, case(positive), direction="paper")
    assert fu is not None and fu.variant == "paper"
    # the negative formula has sites in other modes, but none the paper's reading keeps: no fallback
    assert relation.applies(case(negative), direction="any")
    assert not relation.applies(case(negative), direction="paper")
    assert paper_sites(mr, negative) == []
    assert apply(mr, case(negative), direction="paper") is None


@pytest.mark.parametrize("mr", ["MR-E1.1", "MR-E1.3", "MR-E1.4", "MR-E2.1", "MR-E2.2", "MR-E2.3"])
def test_paper_is_forward_for_the_laws_read_as_written(mr):
    c = case(
        "∀x (P(x) → (Q(x) ∨ ¬¬R(x)))",
        "(P(a) ∧ ⊤) ∨ (∀x Q(x)) ∨ ∀y ∀x Likes(x, y) ∨ (P(b) ∧ ¬P(b)) ∨ P(a) ∨ P(a)",
        "(P(c) ⊕ Q(c)) ∧ ¬(P(c) → R(c))",
    )
    relation = RELATIONS[mr]
    assert relation.sites(c, direction="paper") == relation.sites(c, direction="forward")
    assert relation.sites(c, direction="forward")


def test_e23_has_no_paper_site_on_a_formula_with_only_introduction_sites():
    c = case("∀x (P(x) → Q(x))", "P(a) ∨ ¬Q(b)", conclusion="Q(a)")
    relation = RELATIONS["MR-E2.3"]
    assert {s.direction for s in relation.sites(c, direction="any")} == {"introduction"}
    assert relation.sites(c, direction="paper") == []
    assert relation.apply(c, random.Random(0)) is None  # the default is `paper`


# --------------------------------------------------------------------------- MR-E1.2: the law's list (issue #36)


@pytest.mark.parametrize(
    ("source", "expected", "law"),
    [
        ("¬(P(a) → Q(a))", "P(a) ∧ ¬Q(a)", "negated implication"),
        ("¬(P(a) ↔ Q(a))", "¬P(a) ↔ Q(a)", "negated biconditional"),
        ("¬(P(a) ⊕ Q(a))", "P(a) ↔ Q(a)", "negated exclusive or"),
        ("∀x ¬(P(x) → ¬Q(x))", "∀x (P(x) ∧ ¬¬Q(x))", "negated implication"),  # one step: ¬¬ is the next one
        ("¬((∃x P(x)) ↔ ∀y Q(y))", "(¬∃x P(x)) ↔ ∀y Q(y)", "negated biconditional"),
    ],
)
def test_e12_counts_pushes_a_negation_into_implication_biconditional_and_xor_as_ours(source, expected, law):
    c = case(source, conclusion="R(a)")
    assert apply("MR-E1.2", c, direction="paper") is None  # not the paper's text (issue #36)
    fu = apply("MR-E1.2", c, direction="counts")
    assert fu.premises_fol[0] == parse(expected)
    assert (fu.direction, fu.variant, fu.law) == ("extended", "extended", law)
    assert verify(c, fu).status == "proven"


def test_e12_paper_never_makes_a_biconditional_out_of_a_negated_xor():
    """App. A.3 orders the measure (i, n, ...) with i(·) = the → and ↔ count first: E1.2 may not add a ↔."""
    c = case("¬(P(a) ⊕ Q(a))", "¬¬(P(b) ⊕ Q(b))", "¬(¬(P(c) ⊕ Q(c)) ∧ R(c))", conclusion="R(a)")
    seen = outcomes("MR-E1.2", c, 40, direction="paper")
    assert seen
    for fu in seen:
        assert fu.direction == "forward" and fu.variant == "paper"
        assert fu.law in NegationLaws
        before = sum(isinstance(n, Iff) for p in c.premises_fol for _, n in subformulas(p))
        after = sum(isinstance(n, Iff) for p in fu.premises_fol for _, n in subformulas(p))
        assert after == before == 0
        assert verify(c, fu).status == "proven"


def test_e12_new_sites_leave_the_older_modes_unchanged():
    c = case("¬(P(a) → Q(a))", "¬(P(b) ⊕ Q(b))")
    relation = RELATIONS["MR-E1.2"]
    every = relation.all_sites(c)
    assert {s.law for s in every if s.direction == "extended"} == {"negated implication", "negated exclusive or"}
    for direction in ("forward", "introduction", "any", "paper"):
        assert all(s.direction != "extended" for s in relation.sites(c, direction=direction)), direction
    assert relation.sites(c, direction="paper") == []
    assert {s.direction for s in relation.sites(c, direction="counts")} == {"extended"}


# --------------------------------------------------------------------------- MR-E1.3: lift an α-variant


@pytest.mark.parametrize("direction", ["paper", "forward", "any"])
def test_e13_lifts_a_fresh_variable_when_x_is_bound_in_the_other_operand(direction):
    c = case("(∃x P(x)) ∧ (∃x Q(x))", conclusion="R(a)")
    seen = outcomes("MR-E1.3", c, 20, direction=direction)
    assert len(seen) == 2  # either quantifier can be lifted
    for fu in seen:
        new = fu.premises_fol[0]
        assert not nests_a_same_name_quantifier(new), new
        assert fu.law == "quantifier lifting (∃, ∧) with α-renaming" and fu.direction == "forward"
        assert verify(c, fu).status == "proven"
    results = {fu.premises_fol[0] for fu in seen}
    assert parse("∃y (P(y) ∧ ∃x Q(x))") in results
    assert any(alpha_equivalent(r, parse("∃x (P(x) ∧ ∃x Q(x))")) for r in results)


def test_e13_keeps_its_variable_when_nothing_clashes():
    fu = apply("MR-E1.3", case("(∃x P(x)) ∧ ∃y Q(y)", conclusion="R(a)"), direction="paper")
    assert fu.premises_fol[0] in {parse("∃x (P(x) ∧ ∃y Q(y))"), parse("∃y ((∃x P(x)) ∧ Q(y))")}
    assert "α-renaming" not in fu.law


def test_e13_implication_branch_also_lifts_an_alpha_variant():
    c = case("(∃x P(x)) → ∃x Q(x)", conclusion="R(a)")
    seen = outcomes("MR-E1.3", c, 20, direction="any")
    assert {fu.premises_fol[0] for fu in seen} == {parse("∀y (P(y) → ∃x Q(x))"), parse("∃y ((∃x P(x)) → Q(y))")}
    for fu in seen:
        assert fu.direction == "extended" and fu.law.endswith("with α-renaming")
        assert verify(c, fu).status == "proven"
    assert not RELATIONS["MR-E1.3"].applies(c, direction="paper")  # lifting out of → is not the paper's


def test_e13_fresh_variable_avoids_every_name_of_the_case():
    c = case("(∀x P(x)) ∨ (∀x Q(x))", "∀y ∀z Likes(y, z)", conclusion="R(w)")  # w: a constant
    results = {fu.premises_fol[0] for fu in outcomes("MR-E1.3", c, 20)}
    assert results == {parse("∀v (P(v) ∨ ∀x Q(x))"), parse("∀v ((∀x P(x)) ∨ Q(v))")}


# --------------------------------------------------------------------------- MR-E1.5: clashing variables only


@pytest.mark.parametrize(
    ("source", "renamed"),
    [
        ("(∀x P(x)) ∧ ∃x Q(x)", {"(∀y P(y)) ∧ ∃x Q(x)", "(∀x P(x)) ∧ ∃y Q(y)"}),  # the law's own ∧ conflict
        ("∀x (P(x) → ∃x Q(x))", {"∀x (P(x) → ∃y Q(y))"}),  # bound by an enclosing ∀x: only the inner one
        ("(∃y P(y)) → ∃y Q(y)", {"(∃x P(x)) → ∃y Q(y)", "(∃y P(y)) → ∃x Q(x)"}),  # another quantifier's y
        ("∃x ∃x P(x)", {"∃x ∃y P(y)"}),
    ],
)
def test_e15_paper_renames_a_clashing_variable(source, renamed):
    c = case(source, conclusion="R(a)")
    seen = outcomes("MR-E1.5", c, 20, direction="paper")
    assert {fu.premises_fol[0] for fu in seen} == {parse(r) for r in renamed}
    for fu in seen:
        assert fu.variant == "paper"
        assert fu.law.startswith("α-renaming of a c")  # "conflicting" (forward) or "clashing" (extended)
        assert verify(c, fu).status == "proven"


@pytest.mark.parametrize("source", ["∀x (P(x) → Q(x))", "(∀x P(x)) → ∃y Q(y)", "∀x ∃y Likes(x, y)"])
def test_e15_paper_does_not_rename_a_variable_that_clashes_with_nothing(source):
    c = case(source, conclusion="R(a)")
    assert not RELATIONS["MR-E1.5"].applies(c, direction="paper")
    fu = apply("MR-E1.5", c, direction="any")
    assert (fu.direction, fu.variant, fu.law[:12]) == ("extended", "extended", "α-renaming (")


def test_e15_clash_is_counted_per_premise():
    # x is bound in premise 2 too, but a premise is its own scope: no clash in premise 1
    c = case("∀x (P(x) → Q(x))", "∃x R(x)", conclusion="R(a)")
    assert not RELATIONS["MR-E1.5"].applies(c, direction="paper")


# --------------------------------------------------------------------------- MR-E1.6: toward canonical order (#36)


def test_e16_paper_sorts_an_out_of_order_block_and_counts_takes_every_block():
    sorted_block = case("∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))", conclusion="R(a)")
    assert not RELATIONS["MR-E1.6"].applies(sorted_block, direction="paper")  # already canonical: no site
    assert not RELATIONS["MR-E1.6"].applies(sorted_block, direction="forward")
    fu = apply("MR-E1.6", sorted_block, direction="counts")
    assert (fu.direction, fu.variant) == ("extended", "extended")  # issue #25's reading, ours
    unsorted = case("∀y ∀x (Likes(x, y) → P(x))", conclusion="R(a)")
    fu = apply("MR-E1.6", unsorted, direction="paper")
    assert fu.premises_fol[0] == parse("∀x ∀y (Likes(x, y) → P(x))")
    assert (fu.direction, fu.variant) == ("forward", "paper")
    for c in (sorted_block, unsorted):
        assert RELATIONS["MR-E1.6"].sites(c, direction="counts") == RELATIONS["MR-E1.6"].all_sites(c)
        assert verify(c, apply("MR-E1.6", c, direction="counts")).status == "proven"
    assert not RELATIONS["MR-E1.6"].applies(case("∀x ∃y Likes(x, y)"), direction="counts")  # no block


E16_CASES = [
    "∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))",
    "∀y ∀x (Likes(x, y) → P(x))",
    "∀z ∀y ∀x (Likes(x, y) ∧ Likes(y, z))",
    "∀x (P(x) → ∃z ∃y (Likes(x, y) ∧ Likes(y, z)))",
    "∃y ∃x (Likes(x, y) ∧ ∀w ∀v Likes(v, w))",
    "∀y ∀x (P(x) ∧ Q(y)) ∧ ∃x ∃y Likes(x, y)",
    "∀u ∀y ∀x Likes(x, y)",  # u does not occur: it goes last
]


@pytest.mark.parametrize("source", E16_CASES)
def test_e16_paper_never_rewrites_a_canonical_block_and_strictly_decreases_d(source):
    """App. A.3: "MR-E1.6 strictly decreases d(·)"; every site under `paper` is a block out of canonical order."""
    c = case(source, conclusion="R(a)")
    relation = RELATIONS["MR-E1.6"]
    for site in relation.sites(c, direction="paper"):
        formula = c.premises_fol[site.target]
        block = at(formula, site.path)
        assert quantifier_order_deviation(block) > 0, site  # the block itself was not canonical
    before = quantifier_order_deviation(c.premises_fol[0])
    seen = outcomes("MR-E1.6", c, 20, direction="paper")
    assert bool(seen) == (before > 0)
    for fu in seen:
        assert fu.direction == "forward" and fu.variant == "paper"
        assert quantifier_order_deviation(fu.premises_fol[0]) < before
        assert verify(c, fu).status == "proven"


def test_quantifier_order_deviation_counts_inversions_per_block():
    assert quantifier_order_deviation(parse("∃x ∃y ∃z (Likes(x, y) ∧ Likes(y, z))")) == 0
    assert quantifier_order_deviation(parse("∀y ∀x Likes(x, y)")) == 1
    assert quantifier_order_deviation(parse("∀z ∀y ∀x (Likes(x, y) ∧ Likes(y, z))")) == 3
    assert quantifier_order_deviation(parse("∀y ∀x Likes(x, y) ∧ ∃z ∃w Likes(w, z)")) == 2
    assert quantifier_order_deviation(parse("∀x ∃y Likes(x, y)")) == 0


# --------------------------------------------------------------------------- MR-E2.4: the law as written (#36)


def test_e24_paper_applies_the_law_as_written_only():
    c = case("P(a) ⊕ Q(a)", "S(a) ∧ (Q(a) ∨ R(a))", "∀x (P(x) ∨ (Q(x) ∧ ¬R(x)))", conclusion="R(a)")
    seen = outcomes("MR-E2.4", c, 40, direction="paper")
    assert seen
    for fu in seen:
        assert (fu.direction, fu.variant) == ("forward", "paper")
        assert fu.law in ("distributivity (∧ over ∨)", "distributivity (∨ over ∧)")
        assert fu.premises_fol[0] == c.premises_fol[0]  # the ⊕ premise is never touched
        assert verify(c, fu).status == "proven"
    assert not RELATIONS["MR-E2.4"].applies(case("P(a) ⊕ Q(a)", "∀x (P(x) ⊕ ¬Q(x))"), direction="paper")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("P(a) ⊕ Q(a)", "((P(a) ∧ ¬Q(a)) ∨ ¬P(a)) ∧ ((P(a) ∧ ¬Q(a)) ∨ Q(a))"),
        ("∀x (P(x) ⊕ ¬Q(x))", "∀x (((P(x) ∧ ¬¬Q(x)) ∨ ¬P(x)) ∧ ((P(x) ∧ ¬¬Q(x)) ∨ ¬Q(x)))"),
    ],
)
def test_e24_counts_distributes_once_over_xor_read_as_dnf_as_ours(source, expected):
    c = case(source, conclusion="R(a)")
    fu = apply("MR-E2.4", c, direction="counts")
    assert fu.premises_fol[0] == parse(expected)
    assert (fu.direction, fu.variant) == ("extended", "extended")
    assert fu.law == "distributivity (⊕ read as (φ ∧ ¬ψ) ∨ (¬φ ∧ ψ))"
    assert verify(c, fu).status == "proven"


def test_e24_xor_step_leaves_the_older_modes_unchanged():
    c = case("P(a) ⊕ Q(a)", conclusion="R(a)")
    relation = RELATIONS["MR-E2.4"]
    assert not relation.applies(c, direction="forward")
    assert not relation.applies(c, direction="paper")
    for direction in ("introduction", "any"):
        assert all(not s.law.startswith("distributivity (⊕") for s in relation.sites(c, direction=direction))


# --------------------------------------------------------------------------- variant


def test_variant_is_paper_for_the_papers_sites_else_the_direction():
    assert apply("MR-E1.1", case("P(a) → Q(a)"), direction="any").variant == "paper"
    assert apply("MR-E1.1", case("P(a) ⊕ Q(a)"), direction="any").variant == "extended"
    assert apply("MR-E2.2", case("P(a)"), direction="any").variant == "introduction"
    assert apply("MR-E1.5", case("∀x (P(x) → ∃x Q(x))"), direction="any").variant == "paper"  # a clash
    assert apply("MR-E1.6", case("∃x ∃y Likes(x, y)"), direction="any").variant == "extended"  # issue #36
    assert apply("MR-E1.6", case("∃y ∃x Likes(x, y)"), direction="any").variant == "paper"
    for mr in ("MR-S2", "MR-P1", "MR-P2", "MR-C1", "MR-C3"):
        assert apply(mr, case("P(a)", "Q(a) ∧ R(a)", conclusion="P(a)"), direction="any").variant == "paper", mr


@pytest.mark.parametrize("direction", ["paper", "forward", "introduction", "any", "counts"])
def test_every_followup_has_a_variant(direction):
    c = case(
        "∀x (P(x) → (Q(x) ∨ ¬¬R(x)))",
        "P(a) ∧ (∀x Q(x)) ∧ ∀y ∀x Likes(x, y)",
        "(∀z P(z)) ∨ ¬(P(b) ⊕ ∃y Q(y)) ∨ (P(c) ↔ Q(c))",
        conclusion="R(a)",
    )
    for mr, relation in RELATIONS.items():
        for seed in range(5):
            fu = relation.apply(c, random.Random(seed), direction=direction)
            if fu is not None:
                assert fu.variant in ("paper", "introduction", "extended"), (mr, fu.variant)
                if direction == "paper":
                    assert fu.variant == "paper", mr


def test_chain_joins_variants_like_directions():
    c = case("P(a) ⊕ Q(a)", conclusion="R(a)")
    fu = compose([RELATIONS["MR-E1.1"], RELATIONS["MR-C3"]], c, random.Random(0), direction="any")
    assert fu.direction == "extended+forward" and fu.variant == "extended+paper"
    assert compose([RELATIONS["MR-E2.4"], RELATIONS["MR-C3"]], c, random.Random(0)) is None  # paper: no ⊕ step
    fu = compose([RELATIONS["MR-E2.4"], RELATIONS["MR-C3"]], c, random.Random(0), direction="counts")
    assert fu.direction == "extended+forward" and fu.variant == "extended+paper"


def test_followup_variant_defaults_from_its_direction():
    p = parse("P(a)")
    common = dict(conclusion_changed=False, mr="MR-X", category="MR-P", changed="", site="", obligation=("label",))
    assert FollowUp((p,), p, (0,), direction="forward", **common).variant == "paper"
    assert FollowUp((p,), p, (0,), direction="forward+introduction", **common).variant == "paper+introduction"
    assert FollowUp((p,), p, (0,), direction="extended", **common).variant == "extended"
    assert FollowUp((p,), p, (0,), direction="extended", variant="paper", **common).variant == "paper"


# --------------------------------------------------------------------------- survey


def test_survey_accepts_the_paper_direction():
    cases = [case("¬(P(a) → Q(a))"), case("∃x ∃y Likes(x, y)"), case("P(a) ⊕ Q(a)"), case("P(a) ∧ ⊤")]
    paper = applicability(cases, direction="paper")
    assert paper == applicability(cases)  # the default
    assert paper["MR-E1.2"] == (0, 4) and paper["MR-E1.6"] == (0, 4) and paper["MR-E2.4"] == (0, 4)  # issue #36
    assert paper["MR-E2.3"] == (1, 4) and paper["MR-E2.2"] == (0, 4) and paper["MR-C1"] == (4, 4)
    assert paper == applicability(cases, direction="forward")  # here (no clashing variable) paper is the law
    counts = applicability(cases, direction="counts")
    assert counts["MR-E1.2"] == (1, 4) and counts["MR-E1.6"] == (1, 4) and counts["MR-E2.4"] == (1, 4)
    assert direction_counts(cases, RELATIONS["MR-E1.2"], direction="paper") == {}
    assert direction_counts(cases, RELATIONS["MR-E1.2"], direction="counts") == {"extended": 1}
    every = direction_counts(cases, RELATIONS["MR-E1.2"])
    assert every == {"introduction": 4, "extended": 1}
    assert direction_counts(cases, RELATIONS["MR-E2.4"], direction="counts") == {"extended": 1}
    assert direction_counts(cases, RELATIONS["MR-E2.3"], direction="paper") == {"forward": 1}
    with pytest.raises(ValueError, match="direction="):
        direction_counts(cases, RELATIONS["MR-E2.3"], direction="sideways")


@pytest.mark.parametrize("mr", E)
def test_paper_sites_are_a_subset_of_all_sites(mr):
    c = case(
        "∀x (P(x) → (Q(x) ∨ ¬¬R(x)))",
        "P(a) ∧ (∀x Q(x)) ∧ ∀y ∀x Likes(x, y)",
        "(∀z P(z)) ∨ ¬(P(b) ⊕ ∃y Q(y)) ∨ (P(c) ↔ Q(c))",
        "∃y ∃x Likes(x, y) ∧ ∀x (P(x) → ∃x Q(x))",
    )
    relation = RELATIONS[mr]
    every = relation.all_sites(c)
    assert relation.sites(c, direction="paper") == [s for s in every if relation.paper_site(s)]
    assert relation.sites(c, direction="counts") == [s for s in every if relation.counts_site(s)]
    assert set(relation.sites(c, direction="paper")) <= set(relation.sites(c, direction="counts"))
