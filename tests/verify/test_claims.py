"""Claims read back from rows, and how a claim's outcome is decided (with the real Z3, no mocked prover)."""

from __future__ import annotations

from typing import Any

import pytest

from lgmt_tasks.divlogiceval.claims import row_claims as divlogiceval_claims
from lgmt_tasks.lgmt.claims import row_claims as lgmt_claims
from lgmt_tasks.logicasker.claims import row_claims as logicasker_claims
from lgmt_tasks.suites import SUITES, suite
from lgmt_tasks.verify.check import ClaimChecker, Outcome
from lgmt_tasks.verify.claims import check_columns, detect_suite
from lgmt_tasks.verify.provers import get_prover


def lgmt_row(**changes: Any) -> dict[str, Any]:
    row = {
        "id": "g1",
        "mr": "MR-E1.1",
        "category": "MR-E",
        "premises_fol": ["∀x (P(x) → Q(x))", "P(a)"],
        "conclusion_fol": "Q(a)",
        "label": "True",
        "followup_premises_fol": ["∀x (¬P(x) ∨ Q(x))", "P(a)"],
        "followup_conclusion_fol": "Q(a)",
        "extra_followups": [],
    }
    return {**row, **changes}


def test_an_lgmt_rewrite_claims_both_labels_and_the_equivalence_of_the_one_changed_formula() -> None:
    claims = lgmt_claims(lgmt_row(), "g1")
    assert [(c.group, c.kind, c.expected) for c in claims] == [
        ("source label", "label", "True"),
        ("follow-up label", "label", "True"),
        ("follow-up equivalence", "equivalent", "equivalent"),
    ]
    assert claims[2].formulas == ("∀x (P(x) → Q(x))", "∀x (¬P(x) ∨ Q(x))")
    assert claims[2].what == "follow-up equivalence (MR-E1.1, premise 1)"
    checker = ClaimChecker(get_prover("z3", 5))
    assert [checker.check(c).status for c in claims] == ["agree"] * 3


def test_premise_and_symbol_relations_claim_only_the_label_and_a_bad_rewrite_is_malformed() -> None:
    added = lgmt_row(mr="MR-P1", category="MR-P", followup_premises_fol=["∀x (P(x) → Q(x))", "P(a)", "R(b)"])
    assert [c.group for c in lgmt_claims(added, "g1")] == ["source label", "follow-up label"]
    two = lgmt_row(followup_premises_fol=["∀x (¬P(x) ∨ Q(x))", "P(b)"])
    (bad,) = [c for c in lgmt_claims(two, "g1") if c.group == "follow-up equivalence"]
    assert "exactly one formula" in bad.malformed
    assert ClaimChecker(get_prover("z3", 5)).check(bad).status == "unparsable"


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"premises_fol": "P(a)"}, "'premises_fol' is str, expected a list of strings"),
        ({"label": None}, "'label' is None, expected one of True, False, Unknown"),
        ({"conclusion_fol": 3}, "'conclusion_fol' is int, expected a string"),
    ],
)
def test_a_row_of_the_wrong_shape_gives_malformed_claims_not_an_exception(changes: dict[str, Any], reason: str) -> None:
    claims = lgmt_claims(lgmt_row(**changes), "g1")
    assert any(reason in c.malformed for c in claims)


def test_unparsable_formulas_and_free_variables_are_unparsable_outcomes() -> None:
    checker = ClaimChecker(get_prover("z3", 5))
    row = {"premises_fol": ["P(a) →"], "conclusion_fol": "P(a)", "answer": "yes"}
    claim = logicasker_claims(row, "r1")[0]
    outcome = checker.check(claim)
    assert (outcome.status, "syntax error" in outcome.got) == ("unparsable", True)
    row = {"premises_fol": ["P(x)"], "conclusion_fol": "P(a)", "answer": "yes"}
    outcome = checker.check(logicasker_claims(row, "r2")[0])
    assert outcome == Outcome("unparsable", "'P(x)': free variable(s) x")


def test_contradictory_premises_are_a_decided_answer_that_disagrees_with_a_label() -> None:
    row = lgmt_row(premises_fol=["P(a)", "¬P(a)"], mr="MR-P1", category="MR-P")
    outcome = ClaimChecker(get_prover("z3", 5)).check(lgmt_claims(row, "g1")[0])
    assert (outcome.status, outcome.got) == ("disagree", "contradictory")


def test_divlogiceval_claims_follow_the_question_type() -> None:
    row = {
        "question_type": "3c1e",
        "content_logic": ["A → B", "B → C", "A"],
        "answer": 2,
        "options_logic": ["¬C", "D", "C", "¬A"],
        "conclusion_logic": "",
    }
    claims = divlogiceval_claims(row, "d1")
    key = [c for c in claims if c.group == "answer key"]
    assert [(c.formulas[-1], c.expected) for c in key] == [
        ("C", "entailed"),
        ("¬C", "not entailed"),
        ("D", "not entailed"),
        ("¬A", "not entailed"),
    ]
    construction = [c for c in claims if c.group == "construction"]
    assert [c.formulas for c in construction] == [("A → B", "C"), ("B → C", "C"), ("A", "C")]
    checker = ClaimChecker(get_prover("z3", 5))
    assert {checker.check(c).status for c in claims} == {"agree"}


def test_suites_are_recognised_by_their_columns() -> None:
    for entry in SUITES:
        assert detect_suite([*entry.columns, "id"]) == entry.name
    with pytest.raises(ValueError, match="no suite"):
        detect_suite(["id", "text"])
    with pytest.raises(ValueError, match="rules_fol"):
        check_columns("qmfol", list(suite("lgmt").columns))
