"""Every premise of a yes-test is needed (issue #27): the builder rejects a test with a needless premise, and
`lgmt verify` re-proves the minimality of every yes-test. The lengths 1-7 build is measured by
`benchmarks/logicasker_minimal_premises.py` (0 exceptions, minutes); here the default build and a lengths 1-2 build."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entails
from lgmt_tasks.logicasker.build import LogicAskerBuild
from lgmt_tasks.logicasker.claims import PREMISE_NEEDED, row_claims
from lgmt_tasks.logicasker.generate import Rejected, needless_premises
from lgmt_tasks.verify.check import ClaimChecker
from lgmt_tasks.verify.claims import NOT_ENTAILED
from lgmt_tasks.verify.provers import get_prover

ROOT = Path(__file__).resolve().parents[2]


def exceptions(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The ids of yes-rows with a needless premise (proven by Z3 on the row's FOL) or a depth below the length."""
    bad = []
    for row in rows:
        if row["effective_depth"] != row["length"]:
            bad.append(f"{row['id']}: effective depth {row['effective_depth']} < length {row['length']}")
        if row["answer"] != "yes":
            continue
        spare = needless_premises([parse(p) for p in row["premises_fol"]], parse(row["conclusion_fol"]))
        assert not isinstance(spare, Rejected), (row["id"], spare)
        if spare:
            bad.append(f"{row['id']}: premises {spare} not needed")
    return bad


def test_needless_premises_finds_a_planted_premise() -> None:
    premises = [parse("A"), parse("A → B"), parse("C")]
    assert needless_premises(premises, parse("B")) == [2]
    assert needless_premises(premises[:2], parse("B")) == []
    # the cancelling case: A ∧ B simplified to A, then A and B conjoined back: B is a stray premise
    assert needless_premises([parse("A ∧ B"), parse("B"), parse("A → C")], parse("C")) == [1]


def test_every_yes_test_of_the_default_build_needs_every_premise(default_build: LogicAskerBuild) -> None:
    rows = list(default_build.dataset)
    assert sum(r["answer"] == "yes" for r in rows) == 184
    assert exceptions(rows) == []


def test_every_yes_test_of_a_two_length_build_needs_every_premise(small_repo: Path) -> None:
    rows = list(load_dataset_repo(str(small_repo), "default", "test"))
    assert {r["length"] for r in rows} == {1, 2} and any(r["answer"] == "yes" and r["length"] == 2 for r in rows)
    assert exceptions(rows) == []


def test_the_committed_default_build_needs_every_premise() -> None:
    rows = list(load_dataset_repo(str(ROOT / "datasets" / "logicasker"), "default", "test"))
    assert exceptions(rows) == []


def test_verify_claims_every_premise_needed_and_catches_a_needless_one() -> None:
    row = {
        "answer": "yes",
        "premises_fol": ["A", "A → B", "C"],
        "conclusion_fol": "B",
        "length": 1,
        "effective_depth": 1,
    }
    claims = [c for c in row_claims(row, "r1") if c.group == PREMISE_NEEDED]
    assert len(claims) == 3 and all(c.expected == NOT_ENTAILED for c in claims)
    checker = ClaimChecker(get_prover("z3", 5))
    assert [checker.check(c).status for c in claims] == ["agree", "agree", "disagree"]
    assert entails([parse("A"), parse("A → B")], parse("B")) is True
    no = {**row, "answer": "no", "conclusion_fol": "¬B"}
    assert [c.group for c in row_claims(no, "r2")] == ["answer"]


def test_verify_flags_an_effective_depth_below_the_length() -> None:
    row = {"answer": "no", "premises_fol": ["A"], "conclusion_fol": "B", "length": 3, "effective_depth": 2}
    (depth,) = [c for c in row_claims(row, "r1") if c.malformed]
    assert "effective_depth 2 differs from length 3" in depth.malformed
