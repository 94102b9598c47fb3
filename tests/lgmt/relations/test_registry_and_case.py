"""The registry (ids, order, categories, documentation), options, and the Case / FollowUp records."""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS, Case, FollowUp, applicability, relations_in
from lgmt_tasks.logic.parse import parse
from tests.lgmt.relations.helpers import case

PAPER_ORDER = [
    *(f"MR-E1.{i}" for i in range(1, 7)),
    *(f"MR-E2.{i}" for i in range(1, 5)),
    "MR-S1",
    "MR-S2",
    *(f"MR-P{i}" for i in range(1, 6)),
    "MR-C1",
    "MR-C2",
    "MR-C3",
]


def test_twenty_relations_in_the_papers_order():
    assert list(RELATIONS) == PAPER_ORDER


def test_registry_is_read_only():
    with pytest.raises(TypeError):
        RELATIONS["MR-X"] = RELATIONS["MR-C1"]  # type: ignore[index]


def test_categories_have_the_papers_sizes():
    assert [len(relations_in(c)) for c in ("MR-E", "MR-S", "MR-P", "MR-C")] == [10, 2, 5, 3]
    assert [len(relations_in(c)) for c in ("MR-E1", "MR-E2")] == [6, 4]
    with pytest.raises(ValueError, match="unknown category"):
        relations_in("MR-Q")


@pytest.mark.parametrize("mr", PAPER_ORDER)
def test_every_relation_is_documented(mr):
    r = RELATIONS[mr]
    assert r.id == mr and r.name and r.law
    assert r.__doc__ and mr in r.__doc__ and "Law (§3.3" in r.__doc__
    assert r.category == mr[:4]
    assert "forward" in r.directions


def test_unknown_or_invalid_options_are_rejected():
    c = case("P(a) → Q(a)")
    with pytest.raises(TypeError, match="unknown relation option"):
        RELATIONS["MR-E1.1"].apply(c, random.Random(0), dirction="forward")
    with pytest.raises(ValueError, match="direction='backward'"):
        RELATIONS["MR-E1.1"].apply(c, random.Random(0), direction="backward")
    # options that do not concern a relation are accepted (a builder passes one set to all)
    assert RELATIONS["MR-C1"].apply(c, random.Random(0), direction="introduction", names="natural") is not None


def test_case_validates_and_normalises():
    c = Case([parse("P(a)")], parse("Q(a)"), ["P of a"], "Q of a", "True")  # type: ignore[arg-type]
    assert isinstance(c.premises_fol, tuple) and isinstance(c.premises, tuple)
    with pytest.raises(ValueError, match="English premises"):
        Case((parse("P(a)"),), parse("Q(a)"), ("a", "b"))
    with pytest.raises(ValueError, match="label"):
        Case((parse("P(a)"),), parse("Q(a)"), label="Yes")


def test_followup_validates_its_provenance():
    p = parse("P(a)")
    kwargs = dict(conclusion_changed=False, mr="MR-X", category="MR-P", direction="forward", changed="", site="")
    with pytest.raises(ValueError, match="origins"):
        FollowUp((p,), p, (0, 1), obligation=("label",), **kwargs)
    with pytest.raises(ValueError, match="obligation"):
        FollowUp((p,), p, (0,), obligation=("proof",), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="renaming kind"):
        FollowUp((p,), p, (0,), obligation=("label",), renaming=(("variable", "x", "y"),), **kwargs)


def test_applicability_table():
    cases = [case("P(a) → Q(a)"), case("P(a) ∧ Q(a)", "R(b)")]
    table = applicability(cases, direction="any")
    assert list(table) == PAPER_ORDER
    assert table["MR-E1.1"] == (1, 2)  # nothing to eliminate, and no ∨ to turn into → in P(a) ∧ Q(a)
    assert table["MR-E1.2"] == (2, 2)  # double negation introduction applies anywhere
    assert table["MR-P5"] == (1, 2) and table["MR-P1"] == (1, 2) and table["MR-C3"] == (2, 2)
    forward = applicability(cases, direction="forward")
    assert forward["MR-E1.1"] == (1, 2) and forward["MR-E1.2"] == (0, 2)


def test_package_docstring_example_runs():
    import doctest

    import lgmt_tasks.lgmt.relations as package

    assert doctest.testmod(package).failed == 0
