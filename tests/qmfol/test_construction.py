"""QMFOL logic construction: Algorithm 1, the implicit rule, Eqs. 2–4, Algorithm 2, each checked (labels by Z3)."""

from __future__ import annotations

import random

import pytest

from lgmt_tasks.logic.prover import Label, entailment, entails
from lgmt_tasks.logic.syntax import Atom, Const, Exists, Forall, Implies, Not, signature
from lgmt_tasks.qmfol.construction import (
    CONSTANT,
    FORMS,
    LABELS,
    SIDES,
    VARIANTS,
    ConclusionShape,
    Node,
    Rule,
    basic_rules,
    conclusion_shape,
    distractor_rules,
    facts_and_conclusion,
    implicit_rule,
    implicit_rule_formula,
    make_logic_task,
    measure,
    predicate_count,
    rule_of,
)

SHAPES = [(1, 0), (1, 3), (2, 0), (3, 5), (5, 5), (7, 12), (20, 20)]


@pytest.mark.parametrize(("depth", "width"), SHAPES)
def test_algorithm_1_gives_minimal_rules_of_the_requested_depth_and_width(depth: int, width: int) -> None:
    for seed in range(5):
        rules = basic_rules(depth, width, random.Random(seed))
        assert len(rules) == depth
        assert measure(rules).__dict__ == {"depth": depth, "width": width, "minimal": True}
        preds = sorted(n.pred for r in rules for n in r.nodes)
        assert sorted(set(preds)) == list(range(depth + width + 1))  # every new node is a new predicate
        for i, rule in enumerate(rules, start=1):  # the chain N_{i-1} -> N_i survives width expansion
            assert rule.lhs[0].pred == i - 1 and rule.rhs[0].pred == i


def test_algorithm_1_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="depth"):
        basic_rules(0, 3, random.Random(0))
    with pytest.raises(ValueError, match="width"):
        basic_rules(3, -1, random.Random(0))


@pytest.mark.parametrize(("depth", "width"), [(1, 0), (3, 5), (6, 9)])
def test_the_rules_entail_the_implicit_rule(depth: int, width: int) -> None:
    rules = basic_rules(depth, width, random.Random(depth * 100 + width))
    ins, outs = implicit_rule(rules)
    assert ins[0].pred == 0 and depth in {n.pred for n in outs}
    assert len(ins) + len(outs) == width + 2  # N_0, N_D, and every width node on one side
    assert entails([r.formula() for r in rules], implicit_rule_formula(rules)) is True


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize(("depth", "width"), [(1, 0), (1, 1), (2, 3), (4, 6), (8, 8)])
def test_eqs_2_to_4_give_the_intended_label(label: str, depth: int, width: int) -> None:
    for seed in range(4):
        rules = basic_rules(depth, width, random.Random(seed))
        pair = facts_and_conclusion(rules, label, random.Random(seed + 1000))
        assert pair.label == label
        assert {c.name for c in (Const(CONSTANT),)} >= signature(pair.conclusion, *pair.facts).constants
        assert entailment([*(r.formula() for r in rules), *pair.facts], pair.conclusion) == Label(label)


def test_unknown_falls_back_to_unknown2_without_two_out_nodes() -> None:
    rules = (Rule((Node(0),), (Node(1),)),)  # depth 1, width 0: one in-node, one out-node
    p0, p1 = Atom("P0", (Const("a"),)), Atom("P1", (Const("a"),))
    shapes = [
        ConclusionShape("forall", "literal"),
        *(ConclusionShape("forall", "implication", stated=s) for s in (False, True)),
    ]
    for seed in range(10):
        for shape in shapes:
            pair = facts_and_conclusion(rules, "Unknown", random.Random(seed), "ground", shape)
            assert pair.construction == "Unknown2"
            assert pair.conclusion in (p0, Implies(p1, p0))  # C_U2 = f_U1, flat or after C_U1 = P1
            assert pair.facts in ((p1,), ()) and (pair.facts == (p1,) or pair.variant == "implication")
        # any other shape still gets the label (a part stays shorter when no idle literal is left)
        pair = facts_and_conclusion(rules, "Unknown", random.Random(seed), "ground")
        assert entailment([r.formula() for r in rules] + list(pair.facts), pair.conclusion) == Label("Unknown")


def test_both_unknown_strategies_occur_and_keep_the_fact_non_empty() -> None:
    seen = set()
    for seed in range(40):
        rules = basic_rules(4, 6, random.Random(seed))
        pair = facts_and_conclusion(rules, "Unknown", random.Random(seed))
        seen.add(pair.construction)
        # f (non-empty here: there are several in- or out-nodes), and f_U when the variant states it
        assert len(pair.facts) == (2 if pair.variant.endswith("+fact") else 1)
    assert seen == {"Unknown1", "Unknown2"}


def test_facts_and_conclusion_rejects_an_unknown_label() -> None:
    with pytest.raises(ValueError, match="label"):
        facts_and_conclusion(basic_rules(2, 2, random.Random(0)), "Maybe", random.Random(0))


def test_algorithm_2_uses_fresh_predicates_and_shares_one_with_the_rules() -> None:
    rules = basic_rules(5, 5, random.Random(3))
    basic = {n.pred for r in rules for n in r.nodes}
    extra = distractor_rules(rules, 40, random.Random(4))
    fresh_seen: set[int] = set()
    kinds = set()
    for d in extra:
        preds = {n.pred for n in d.nodes}
        shared, fresh = preds & basic, preds - basic
        assert shared and fresh, d  # related by a shared predicate, and new
        assert not fresh & fresh_seen  # every distractor's fresh predicates are its own
        fresh_seen |= fresh
        kinds.add("exists" if d.quantifier == "exists" else "minimal" if d.is_minimal() else "forall")
        if len(shared) > 1:  # a distractor for a rule: a basic rule with one node replaced
            assert any(len(set(r.nodes) - set(d.nodes)) == 1 for r in rules), d
    assert kinds == {"exists", "minimal", "forall"}


def test_distractors_are_a_prefix_sequence() -> None:
    rules = basic_rules(5, 5, random.Random(1))
    assert distractor_rules(rules, 20, random.Random(9))[:5] == distractor_rules(rules, 5, random.Random(9))


@pytest.mark.parametrize("form", FORMS)
def test_tasks_share_what_the_paper_shares(form: str) -> None:
    base = make_logic_task(5, 5, 0, "True", 0, form)
    for label in LABELS:
        longest = make_logic_task(5, 5, 0, label, 20, form)
        for n in (0, 5, 20):
            task = make_logic_task(5, 5, 0, label, n, form)
            assert task.rules == base.rules  # one rule set per (seed, depth, width)
            assert task.distractors == longest.distractors[:n]  # a task with more distractors extends one with fewer
            if form == "ground":  # ground distractors are not screened, so every label has the same ones
                assert task.distractors == make_logic_task(5, 5, 0, "False", 20, form).distractors[:n]
            assert sorted(task.order) == list(range(len(task.premises)))
    assert make_logic_task(5, 5, 0, "True", 5) == make_logic_task(5, 5, 0, "True", 5)  # deterministic
    assert make_logic_task(5, 5, 1, "True", 5).rules != base.rules


def test_distractors_change_no_ground_literal_about_the_object() -> None:
    """The paper's distractor property for every literal conclusion about `a`, not only the task's conclusion."""
    task = make_logic_task(4, 4, 2, "Unknown", 12)
    a = Const(CONSTANT)
    for p in sorted(signature(*task.basic_premises).predicate_names):
        for literal in (Atom(p, (a,)), Not(Atom(p, (a,)))):
            assert entailment(task.premises, literal) == entailment(task.basic_premises, literal), literal


def test_predicate_count_bounds_every_task() -> None:
    for depth, width in SHAPES:
        task = make_logic_task(depth, width, 0, "False", 20)
        preds = signature(*task.premises).predicate_names
        assert max(int(p[1:]) for p in preds) < predicate_count(depth, width, 20)


def test_rule_of_inverts_formula() -> None:
    task = make_logic_task(6, 6, 0, "True", 20)
    for rule in (*task.rules, *task.distractors):
        assert rule_of(rule.formula()) == rule
    with pytest.raises(ValueError):
        rule_of(Atom("P0", (Const("a"),)))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize(("depth", "width"), [(1, 1), (3, 4), (6, 6)])
def test_both_forms_give_the_intended_label(form: str, label: str, depth: int, width: int) -> None:
    for seed in range(6):
        rules = basic_rules(depth, width, random.Random(seed))
        pair = facts_and_conclusion(rules, label, random.Random(seed + 7), form)
        assert pair.form == form and pair.variant in VARIANTS
        constants = signature(pair.conclusion, *pair.facts).constants
        if form == "quantified":  # facts over every entity, conclusion ∀ or ∃, no object constant
            assert not constants
            assert all(isinstance(f, Forall) for f in pair.facts)
            assert isinstance(pair.conclusion, Forall | Exists)
        else:
            assert constants <= {CONSTANT}
        assert entailment([*(r.formula() for r in rules), *pair.facts], pair.conclusion) == Label(label)


def test_form_is_validated() -> None:
    rules = basic_rules(2, 2, random.Random(0))
    with pytest.raises(ValueError, match="form='lifted': expected one of quantified, ground"):
        facts_and_conclusion(rules, "True", random.Random(0), "lifted")
    with pytest.raises(ValueError, match="quantified, ground"):
        make_logic_task(2, 2, 0, "True", 0, "lifted")


def test_surface_variants_are_not_tied_to_labels() -> None:
    """Every label takes every shape and both quantifiers (the shortcut the paper's constructions leave open)."""
    seen: dict[str, set[tuple[str, str]]] = {label: set() for label in LABELS}
    for seed in range(80):
        rules = basic_rules(4, 4, random.Random(seed))
        for label in LABELS:
            pair = facts_and_conclusion(rules, label, random.Random(seed))
            shape = "if" if isinstance(pair.conclusion.body, Implies) else "flat"  # type: ignore[attr-defined, union-attr]
            seen[label].add((type(pair.conclusion).__name__, shape))
    for label in LABELS:
        assert seen[label] == {("Forall", "if"), ("Forall", "flat"), ("Exists", "if"), ("Exists", "flat")}, label


def test_quantified_distractors_keep_the_label_and_consistency() -> None:
    for label in LABELS:
        task = make_logic_task(3, 3, 1, label, 10)
        assert task.form == "quantified" and len(task.distractors) == 10
        assert entailment(task.premises, task.conclusion) == Label(label)  # not Contradictory, the same label


def _part(f):  # type: ignore[no-untyped-def]
    """(connective, literals) of one part of a conclusion."""
    from lgmt_tasks.logic.syntax import And, Or

    return ({And: "and", Or: "or"}[type(f)], len(f.args)) if isinstance(f, And | Or) else ("one", 1)


def _shape_of(conclusion):  # type: ignore[no-untyped-def]
    body = conclusion.body
    if isinstance(body, Implies):
        return (type(conclusion).__name__, "implication", _part(body.left), _part(body.right))
    return (type(conclusion).__name__, _part(body))


def test_the_three_labels_of_a_rule_set_share_the_conclusion_shape() -> None:
    """Issue #27: a label must not follow from the conclusion's quantifier, connectives or length (its shape).

    Quantifier, top connective and the connectives of its parts are always shared; the number of literals too,
    except where a small rule set has too few forced literals to top a part up (1 of 192 configurations of the
    paper's grid over 12 seeds: depth 5, width 5, seed 1, a False antecedent one literal short).
    """
    short = 0
    for depth, width in ((5, 5), (10, 20), (20, 10), (15, 15)):
        for seed in range(12):
            shapes = {_shape_of(make_logic_task(depth, width, seed, label, 0).conclusion) for label in LABELS}
            connectives = {
                (q, top, *((p[0] for p in parts) if top == "implication" else ())) for q, top, *parts in shapes
            }
            assert len(connectives) == 1, shapes
            short += len(shapes) > 1
            shape = conclusion_shape(seed, depth, width)
            assert {s[1] for s in shapes} == {"implication" if shape.top == "implication" else _part_name(shape)}
    assert short <= 1


def _part_name(shape: ConclusionShape) -> tuple[str, int]:
    return (shape.consequent, shape.consequent_size) if shape.top != "literal" else ("one", 1)


@pytest.mark.parametrize("label", LABELS)
def test_every_label_takes_every_shape(label: str) -> None:
    rules = basic_rules(6, 8, random.Random(5))
    premises = [r.formula() for r in rules]
    shapes = [ConclusionShape("exists", top, "one", top, 1, n) for top in ("and", "or") for n in (2, 4)]  # type: ignore[arg-type]
    shapes += [
        ConclusionShape("forall", "implication", a, c, 1 if a == "one" else 3, 1 if c == "one" else 2, stated)  # type: ignore[arg-type]
        for a in SIDES
        for c in SIDES
        for stated in (False, True)
    ]
    shapes.append(ConclusionShape("forall", "literal"))
    for i, shape in enumerate(shapes):
        pair = facts_and_conclusion(rules, label, random.Random(i), "quantified", shape)
        want = (
            (
                "Forall",
                "implication",
                (shape.antecedent, shape.antecedent_size),
                (shape.consequent, shape.consequent_size),
            )
            if shape.top == "implication"
            else (type(pair.conclusion).__name__, _part_name(shape))
        )
        assert _shape_of(pair.conclusion) == want, (shape, pair.conclusion)
        assert entailment([*premises, *pair.facts], pair.conclusion) == Label(label), shape
