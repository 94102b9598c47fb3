"""The skill catalogue: counts, the authors' rule names, and every form proven valid (or, for fallacies, invalid)."""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.logic.prover import entails, satisfiable
from lgmt_tasks.logicasker.catalogue import (
    CATEGORIES,
    LOGICS,
    answer_of,
    catalogue,
    counts,
    counts_markdown,
    get_skill,
    select,
    slug,
)
from lgmt_tasks.logicasker.generate import Symbols, instantiate

# The 82 distinct rule names of the authors' generator (script/rules.py): 24 propositional, 58 predicate.
AUTHORS_PROPOSITIONAL = (
    "modus ponens", "modus tollens", "transitivity", "disjunctive syllogism", "addition", "simplification",
    "conjunction", "resolution", "disjunction elimination", "biconditional introduction",
    "biconditional elimination", "idempotent laws", "associative laws", "commutative laws", "distributive laws",
    "complement laws", "De Morgan's laws", "conditional laws", "biconditional laws", "affirming the consequent",
    "denying the antecedent", "affirming a disjunct", "denying a conjunct", "illicit commutativity",
)  # fmt: skip
AUTHORS_PREDICATE = (
    "universal instantiation", "existential generalization", "universal generalization",
    "Law of quantifier negation", "Law of quantifier distribution", "Law of quantifier movement",
    "existential fallacy", "illicit major", "illicit minor", "undistributed middle",
    *(f"{q} {name}" for name in AUTHORS_PROPOSITIONAL for q in ("universal", "existential")),
)  # fmt: skip


def test_catalogue_counts_per_logic_and_category():
    table = counts()
    assert {k: v["rules"] for k, v in table.items()} == {
        ("propositional", "inference"): 13,
        ("propositional", "equivalence"): 9,
        ("propositional", "fallacy"): 5,
        ("predicate", "inference"): 29,
        ("predicate", "equivalence"): 22,
        ("predicate", "fallacy"): 14,
    }
    assert len(catalogue()) == 92
    # leaves: valid + contradiction + unrelated per non-fallacy rule; fallacy + valid counterpart per fallacy
    assert sum(v["leaves"] for v in table.values()) == 73 * 3 + 19 * 2
    assert counts_markdown().splitlines()[-1] == "| total | 42 / 126 | 31 / 93 | 19 / 38 | 92 / 257 |"


def test_authors_rule_names_are_all_covered():
    assert len(AUTHORS_PROPOSITIONAL) == 24 and len(AUTHORS_PREDICATE) == 58
    found = {name: get_skill(name) for name in AUTHORS_PROPOSITIONAL + AUTHORS_PREDICATE}
    assert len({s.id for s in found.values()}) == 82  # 82 distinct skills
    assert {s.logic for n, s in found.items() if n in AUTHORS_PROPOSITIONAL} == {"propositional"}
    assert {s.logic for n, s in found.items() if n in AUTHORS_PREDICATE} == {"predicate"}
    # the additions, each with its predicate extensions
    for name in ("identity laws", "constructive dilemma", "destructive dilemma", "quantifier commutation"):
        assert get_skill(name)
    assert get_skill("hypothetical syllogism").name == "transitivity"


def test_every_skill_has_the_rule_tree_attributes():
    ids = set()
    for skill in catalogue():
        assert skill.logic in LOGICS and skill.category in CATEGORIES
        assert skill.id == slug(skill.name) and skill.id not in ids
        ids.add(skill.id)
        assert skill.forms and (bool(skill.counterparts) == skill.is_fallacy)
        assert skill.problem_types[0] == "valid" and answer_of("valid") == "yes"
        assert all(answer_of(t) == "no" for t in skill.no_types)
        for problem_type in skill.problem_types:
            assert skill.name in skill.explanation(problem_type, "modus ponens")
        if skill.quantifier is not None:
            assert skill.logic == "predicate" and skill.source == "Appendix C" and get_skill(skill.base or "")


@pytest.mark.parametrize("skill", catalogue(), ids=lambda s: s.id)
def test_every_form_is_proven_valid_or_invalid(skill):
    """Valid forms (and fallacies' counterparts) are entailed; fallacious forms are not, from satisfiable premises.

    Extended skills are checked with every choice of existential premise.
    """
    for forms, valid in ((skill.valid_forms(), True), (skill.forms if skill.is_fallacy else (), False)):
        for form in forms:
            choices = range(len(form.premises)) if skill.quantifier == "existential" else [None]
            for existential in choices:
                premises, conclusion = instantiate(skill, form, random.Random(0), Symbols(), existential)
                assert entails(premises, conclusion) is valid, (skill.name, form, existential)
                assert satisfiable(premises) is True


def test_select_filters_and_errors():
    assert {s.logic for s in select(logic="propositional")} == {"propositional"}
    assert len(select(logic="predicate", category="fallacy")) == 14
    assert [s.name for s in select(rule="modus_ponens, Law of quantifier negation")] == [
        "modus ponens",
        "quantifier negation",
    ]
    with pytest.raises(ValueError, match="expected one of propositional, predicate"):
        select(logic="modal")
    with pytest.raises(ValueError, match="did you mean modus ponens"):
        get_skill("modus ponen")


def _shapes(name: str) -> set[tuple[tuple[str, ...], str]]:
    from lgmt_tasks.logic.printer import show

    return {(tuple(show(p) for p in f.premises), show(f.conclusion)) for f in get_skill(name).forms}


def test_the_authors_extra_forms_are_present_and_proven():
    """The forms of the authors' generator the catalogue lacked (script/rules.py), proven as the README says."""
    from lgmt_tasks.logic.parse import parse

    disjunct = get_skill("affirming a disjunct")
    assert (("p ∨ q", "p"), "q") in _shapes(disjunct.name)
    assert entails([parse("p ∨ q"), parse("p")], parse("q")) is False  # a fallacy: Z3 has a countermodel
    movement = _shapes("quantifier movement")
    for premise, conclusion in (("∃x (p → P(x))", "p → ∃x (P(x))"), ("∀x (P(x)) → p", "∃x (P(x) → p)")):
        assert any(parse(premise) == parse(f[0][0]) and parse(conclusion) == parse(f[1]) for f in movement)
        assert entails([parse(premise)], parse(conclusion)) is True


def test_universal_generalization_is_more_than_renaming():
    from lgmt_tasks.logic.syntax import alpha_equivalent

    for form in get_skill("universal generalization").forms:
        assert not any(alpha_equivalent(p, form.conclusion) for p in form.premises)  # ∀x P(x) ⊢ ∀y P(y) is gone
        assert entails(list(form.premises), form.conclusion) is True
