"""MR-S, MR-P and MR-C on hand-built cases."""

from __future__ import annotations

import pytest

from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.relations.symbols import fresh_name_lists
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import And, signature
from tests.lgmt.relations.helpers import apply, case, outcomes

ZOO = case(
    "∀x (Dog(x) → Mammal(x))",
    "Dog(rex) ∧ Likes(rex, tom)",
    "Cat(tom)",
    conclusion="Mammal(rex)",
    english=True,
)

# --------------------------------------------------------------------------- MR-S


def test_s1_renames_one_constant_everywhere_to_an_abstract_fresh_name():
    fu = apply("MR-S1", ZOO, 0)
    (kind, old, new) = fu.renaming[0]
    assert kind == "constant" and old in {"rex", "tom"} and new == "Con1"
    assert old not in signature(*fu.premises_fol, fu.conclusion_fol).constants
    for p, q, o in zip(ZOO.premises_fol, fu.premises_fol, fu.premise_origin, strict=True):
        assert (o is None) == (old in signature(p).constants)
        assert o is None or p == q
    assert fu.obligation == ("label",) and fu.category == "MR-S"


def test_s1_reaches_every_constant_and_records_what_changed():
    seen = {fu.renaming[0][1]: fu for fu in outcomes("MR-S1", ZOO)}
    assert set(seen) == {"rex", "tom"}
    assert seen["rex"].changed == "all" and seen["rex"].conclusion_changed
    assert seen["rex"].premises_fol[1] == parse("Dog(Con1) ∧ Likes(Con1, tom)")
    assert seen["tom"].changed == "premises" and not seen["tom"].conclusion_changed
    assert seen["tom"].premise_origin == (0, None, None)


def test_s2_renames_a_predicate_of_any_arity():
    seen = {fu.renaming[0][1]: fu for fu in outcomes("MR-S2", ZOO, 80)}
    assert set(seen) == {"Dog", "Mammal", "Likes", "Cat"}
    assert seen["Likes"].premises_fol[1] == parse("Dog(rex) ∧ Pre1(rex, tom)")
    assert seen["Likes"].changed == "premise 2"
    assert seen["Mammal"].conclusion_fol == parse("Pre1(rex)")


def test_abstract_names_are_fresh_even_when_taken():
    c = case("Con1(Pre1) ∧ P(Con2)", conclusion="Pre2(Pre1)")
    fu = apply("MR-S1", c)
    assert fu.renaming[0][2] == "Con3"
    fu = apply("MR-S2", c)
    assert fu.renaming[0][2] == "Pre3"


def test_natural_names_are_fresh_words_in_the_case_style():
    fus = outcomes("MR-S1", ZOO, 30, names="natural")
    words = {w.lower() for w in fresh_name_lists()["constants"]}
    assert len({fu.renaming[0][2] for fu in fus}) > 5
    for fu in fus:
        new = fu.renaming[0][2]
        assert new.lower() in words and new[0].islower()  # ZOO's constants are lower case
    for fu in outcomes("MR-S2", ZOO, 30, names="natural"):
        old, new = fu.renaming[0][1:]
        pool = "relational_predicates" if old == "Likes" else "unary_predicates"
        assert new in fresh_name_lists()[pool]


def test_s_needs_a_symbol():
    assert not RELATIONS["MR-S1"].applies(case("∀x P(x)", conclusion="∃x P(x)"))
    assert RELATIONS["MR-S2"].applies(case("∀x P(x)", conclusion="∃x P(x)"))
    assert not RELATIONS["MR-S2"].applies(case("a = b", conclusion="b = a"))


def test_fresh_name_lists_are_large_and_distinct():
    lists = fresh_name_lists()
    assert len(lists["constants"]) >= 150 and len(lists["unary_predicates"]) >= 150
    for words in lists.values():
        assert len({w.lower() for w in words}) == len(words)


# --------------------------------------------------------------------------- MR-P


def test_p1_permutes_premises_and_their_origins():
    fus = outcomes("MR-P1", ZOO)
    assert len(fus) >= 3
    for fu in fus:
        assert sorted(fu.premise_origin) == [0, 1, 2] and fu.premise_origin != (0, 1, 2)
        assert fu.premises_fol == tuple(ZOO.premises_fol[o] for o in fu.premise_origin)
        assert fu.changed == "premises" and fu.obligation == ("label",)


def test_p1_needs_two_different_premises():
    assert not RELATIONS["MR-P1"].applies(case("P(a)"))
    assert not RELATIONS["MR-P1"].applies(case("P(a)", "P(a)"))
    assert RELATIONS["MR-P1"].applies(case("P(a)", "Q(a)"))


def test_p2_inserts_a_copy_somewhere():
    fus = outcomes("MR-P2", ZOO, 60)
    positions = set()
    for fu in fus:
        assert len(fu.premises_fol) == 4
        k = int(fu.changed.split()[1]) - 1
        positions.add(k)
        copied = fu.premise_origin[k]
        assert fu.premise_origin.count(copied) == 2
        assert fu.premises_fol[k] == ZOO.premises_fol[copied]
    assert positions == {0, 1, 2, 3}


def test_p3_adds_a_premise_over_fresh_symbols():
    shapes = set()
    for fu in outcomes("MR-P3", ZOO, 80):
        k = fu.premise_origin.index(None)
        new = fu.premises_fol[k]
        shapes.add(fu.law)
        src = signature(*ZOO.premises_fol, ZOO.conclusion_fol)
        sig = signature(new)
        assert not (sig.predicate_names & src.predicate_names) and not (sig.constants & src.constants)
        assert [p for p, o in zip(fu.premises_fol, fu.premise_origin, strict=True) if o is not None] == list(
            ZOO.premises_fol
        )
    assert len(shapes) == 6


def test_p3_natural_names():
    fu = apply("MR-P3", ZOO, 5, names="natural")
    new = fu.premises_fol[fu.premise_origin.index(None)]
    lists = fresh_name_lists()
    for name in signature(new).predicate_names:
        assert name in lists["unary_predicates"] or name in lists["relational_predicates"]


def test_p4_fuses_two_premises_replacing_them_by_default():
    fus = outcomes("MR-P4", ZOO, 60)
    assert len(fus) == 3  # the three pairs
    for fu in fus:
        assert len(fu.premises_fol) == 2
        k = fu.premise_origin.index(None)
        fused = fu.premises_fol[k]
        assert isinstance(fused, And) and len(fused.args) == 2
        kept = [o for o in fu.premise_origin if o is not None]
        assert sorted([*kept, *(ZOO.premises_fol.index(a) for a in fused.args)]) == [0, 1, 2]


def test_p4_add_keeps_the_originals():
    fu = apply("MR-P4", ZOO, 2, fuse="add")
    assert len(fu.premises_fol) == 4
    assert [o for o in fu.premise_origin if o is not None] == [0, 1, 2]


def test_p5_splits_a_conjunctive_premise_into_all_conjuncts():
    fu = apply("MR-P5", ZOO)
    assert fu.premises_fol == (ZOO.premises_fol[0], parse("Dog(rex)"), parse("Likes(rex, tom)"), ZOO.premises_fol[2])
    assert fu.premise_origin == (0, None, None, 2) and fu.changed == "premises 2-3"
    fu = apply("MR-P5", case("P(a) ∧ Q(a) ∧ R(a)"))
    assert len(fu.premises_fol) == 3
    assert not RELATIONS["MR-P5"].applies(case("∀x (P(x) ∧ Q(x))"))
    assert apply("MR-P5", ZOO) == apply("MR-P5", ZOO, split="replace")  # the relation's own default
    assert fu.law == "premise decomposition (replace)"


@pytest.mark.parametrize("seed", range(6))
def test_p5_add_keeps_the_conjunction_and_adds_its_conjuncts(seed):
    """§3.3.3: φ and ψ "are added to the premise set"; the tasks' default `p5=add`."""
    fu = apply("MR-P5", ZOO, seed, split="add")
    source = ZOO.premises_fol
    assert len(fu.premises_fol) == len(source) + 2
    assert [o for o in fu.premise_origin if o is not None] == list(range(len(source)))  # all kept, in order
    kept = [p for p, o in zip(fu.premises_fol, fu.premise_origin, strict=True) if o is not None]
    assert tuple(kept) == source  # the conjunction φ ∧ ψ stays
    added = [p for p, o in zip(fu.premises_fol, fu.premise_origin, strict=True) if o is None]
    assert added == [parse("Dog(rex)"), parse("Likes(rex, tom)")]
    first = fu.premise_origin.index(None)
    assert fu.premise_origin[first : first + 2] == (None, None)  # together, in the conjunction's order
    assert fu.law == "premise decomposition (add)" and fu.variant == "paper"
    assert verify(ZOO, fu).status == "proven"


def test_p5_bad_split_is_refused_naming_the_values():
    with pytest.raises(ValueError, match="split='merge': expected one of 'replace', 'add'"):
        apply("MR-P5", ZOO, split="merge")


# --------------------------------------------------------------------------- MR-C


@pytest.mark.parametrize(
    ("mr", "expected"),
    [("MR-C1", "Mammal(rex) ∧ ⊤"), ("MR-C2", "Mammal(rex) ∨ ⊥"), ("MR-C3", "¬¬Mammal(rex)")],
)
def test_conclusion_relations(mr, expected):
    fu = apply(mr, ZOO)
    assert fu.conclusion_fol == parse(expected)
    assert fu.premises_fol == ZOO.premises_fol and fu.premise_origin == (0, 1, 2)
    assert fu.conclusion_changed and fu.changed == "conclusion" and fu.category == "MR-C"
    assert fu.obligation == ("equivalence", ZOO.conclusion_fol, fu.conclusion_fol)


def test_conclusion_wraps_the_whole_conclusion():
    assert apply("MR-C1", case("P(a)", conclusion="P(a) ∧ Q(a)")).conclusion_fol == parse("(P(a) ∧ Q(a)) ∧ ⊤")


# --------------------------------------------------------------------------- all of them


@pytest.mark.parametrize("mr", [m for m in RELATIONS if not m.startswith("MR-E")])
def test_deterministic_under_a_seed(mr):
    for seed in range(5):
        assert apply(mr, ZOO, seed, names="natural") == apply(mr, ZOO, seed, names="natural")


def test_english_is_carried_by_as_case():
    fu = apply("MR-P1", ZOO, 1)
    as_case = fu.as_case(ZOO)
    assert as_case.premises == tuple(ZOO.premises[o] for o in fu.premise_origin)
    assert as_case.conclusion == ZOO.conclusion and as_case.label == ZOO.label
    fu = apply("MR-C3", ZOO)
    assert fu.as_case(ZOO).conclusion == ""
