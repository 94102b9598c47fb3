"""FOLIO slip repairs: applied only when the repair is the one reading, counted, and leaving labels to the prover."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import equivalent
from lgmt_tasks.logic.syntax import free_vars
from lgmt_tasks.sources.common import SKIP_FREE_VARIABLE, SKIP_UNPARSABLE, SourceProblem
from lgmt_tasks.sources.load import load_source
from lgmt_tasks.sources.repair import (
    REPAIR_BLANK_LINE,
    REPAIR_BRACKET,
    REPAIR_DUPLICATE_VARIABLE,
    REPAIR_KINDS,
    REPAIR_MISSING_VARIABLE,
    REPAIR_SCOPE,
    REPAIR_STRAY_COMMA,
    REPAIR_SYMBOL,
    REPAIR_TRAILING,
    repair_formula,
    repair_problem,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
TRAIN = DATA / "folio" / "folio_v2_train.jsonl"

# Slips quoted verbatim from FOLIO v2 train, each with its one reading.
REPAIRED = [
    (
        "∀x (Starred(x)) → Hard(x))",
        "∀x (Starred(x) → Hard(x))",
        REPAIR_BRACKET,
    ),
    (
        "Customer(lily) ∧ In(lily, jameSFamily ∧ WatchIn(lily, tV, cinema)",
        "Customer(lily) ∧ In(lily, jameSFamily) ∧ WatchIn(lily, tV, cinema)",
        REPAIR_BRACKET,
    ),
    (
        "∀x (Road(x) → (MadeOf(x, concrete) ⊕ MadeOf(x, asphalt))",
        "∀x (Road(x) → (MadeOf(x, concrete) ⊕ MadeOf(x, asphalt)))",
        REPAIR_BRACKET,
    ),
    (
        "∀x ∀x ∀z (Company(x) ∧ WorkForIn(y, x, z) → HaveOfficeIn(x, z))",
        "∀x ∀y ∀z (Company(x) ∧ WorkForIn(y, x, z) → HaveOfficeIn(x, z))",
        REPAIR_DUPLICATE_VARIABLE,
    ),
    (
        "∃(CarBody(x) ∧ Made(x, carrozzeriaColli))",
        "∃x(CarBody(x) ∧ Made(x, carrozzeriaColli))",
        REPAIR_MISSING_VARIABLE,
    ),
    (
        "∃x ∃y (Whig(x) ∧ SpeakFrench(x)) ∧ (¬(x=y)) ∧ (Whig(y) ∧ SpeakFrench(y))",
        "∃x ∃y ((Whig(x) ∧ SpeakFrench(x)) ∧ (¬(x=y)) ∧ (Whig(y) ∧ SpeakFrench(y)))",
        REPAIR_SCOPE,
    ),
    ("∃x (Song(x) ∧ By(x, boneym,))", "∃x (Song(x) ∧ By(x, boneym))", REPAIR_STRAY_COMMA),
    (
        "(Model(bert) ∧ Giant(bert)) → (Model(gpt-3) ∧ Giant(gpt-3)).",
        "(Model(bert) ∧ Giant(bert)) → (Model(gpt-3) ∧ Giant(gpt-3))",
        REPAIR_TRAILING,
    ),
    (
        "∀x (Athlete(x) → ¬NeverExercises(x)) Never: does not exist a time",
        "∀x (Athlete(x) → ¬NeverExercises(x))",
        REPAIR_TRAILING,
    ),
    ("(A(r) ∧ B(r)) —> (C(r) ∨ B(r))", "(A(r) ∧ B(r)) → (C(r) ∨ B(r))", REPAIR_SYMBOL),
    ("∃x∃y (Car(x) ∧ Car(y) ∧ (x≠y))", "∃x∃y (Car(x) ∧ Car(y) ∧ ¬(x=y))", REPAIR_SYMBOL),
]

# Slips with two inequivalent readings, or none: left as they are (the record stays skipped).
NOT_REPAIRED = [
    "¬Sleepy(jumbo) ∧ ¬BabyElephant(jumbo))",  # ¬S ∧ ¬B, or ¬(S ∧ ¬B)
    "(MulticellularCreature(hulu) ∧ (Autotrophic(hulu) ∨ DigestFoodInternally (hulu))",  # (M ∧ A) ∨ D, or M ∧ (A ∨ D)
    "ProducedBy(x, aOC)",  # x stands for a constant: which one is a guess
    "∀x (ProvidedWith(x, meal) ∧ ProvidedWith(y, meal) → ∃y ∃z (¬(y=x) ∧ Happy(x, y, z)))",  # y free: ∀y or ∃y?
    "∀x ∃y (BittenBy(x, y) ∨ ScratchedBy(x, y)) → AttackedBy(x,y)",  # widening an ∃ over → is no reading of a slip
    "BeneficialTo(cherry, people) ⊕ On(cherry, warningList))) → ¬RedFruit(cherry)",  # two brackets
    "",
]


@pytest.mark.parametrize(("before", "after", "kind"), REPAIRED)
def test_a_slip_with_one_reading_is_repaired_to_it(before: str, after: str, kind: str) -> None:
    result = repair_formula(before)
    assert result is not None, before
    text, kinds = result
    assert text == after and kind in kinds
    formula = parse(text)
    assert not free_vars(formula)


@pytest.mark.parametrize("text", NOT_REPAIRED)
def test_a_slip_with_several_readings_or_none_is_left_alone(text: str) -> None:
    assert repair_formula(text) is None


def test_a_sentence_is_never_touched() -> None:
    assert repair_formula("∀x (Cat(x) → Mammal(x))") is None
    assert repair_formula("∃x (Pet(x) ∧ ¬Mammal(x))") is None


def test_an_argument_bracket_is_never_deleted() -> None:
    # Deleting the '(' of VelvetFinish(x) would read the proposition `VelvetFinishx`: no reading of a slip.
    text = "∀x ((Lipstick(x) ∧ In(x, set)) → (VelvetFinish(x) ⊕ SatinFinish(x))"
    result = repair_formula(text)
    assert result is not None
    assert "VelvetFinishx" not in result[0] and "SatinFinishx" not in result[0]
    intended = parse("∀x ((Lipstick(x) ∧ In(x, set)) → (VelvetFinish(x) ⊕ SatinFinish(x)))")
    assert equivalent(parse(result[0]), intended) is True


def test_trailing_empty_fol_lines_are_dropped_and_other_misalignments_kept() -> None:
    problem = SourceProblem("p", "folio", ("A is a cat.",), ("Cat(a)", ""), "A is a cat.", "Cat(a)", "True")
    repaired = repair_problem(problem)
    assert repaired.premises_fol == ("Cat(a)",) and repaired.aligned
    assert [r["kind"] for r in repaired.meta["repairs"]] == [REPAIR_BLANK_LINE]
    shifted = SourceProblem("q", "folio", ("A is a cat.",), ("", "Cat(a)"), "A is a cat.", "Cat(a)", "True")
    assert repair_problem(shifted).premises_fol == ("", "Cat(a)")  # a blank in the middle would shift the pairing


def test_a_repair_keeps_the_original_text_beside_the_new() -> None:
    problem = SourceProblem("p", "folio", ("x",), ("Dog(rex))",), "Rex is a dog.", "Dog(rex)", "True")
    repaired = repair_problem(problem)
    assert repaired.premises_fol == ("Dog(rex)",)
    assert repaired.meta["repairs"] == [
        {"field": "premises_fol[0]", "kind": REPAIR_BRACKET, "before": "Dog(rex))", "after": "Dog(rex)"}
    ]
    assert repair_problem(repaired) == repaired  # nothing left to repair


@pytest.mark.skipif(not TRAIN.is_file(), reason="needs ../shared/data")
def test_folio_v2_train_loads_with_every_repair_counted() -> None:
    cases, report = load_source("folio", TRAIN)
    assert report.records == 1001
    assert report.records == report.loaded + sum(report.skipped.values())
    # Before the repairs 763 loaded; the remaining skips are slips with no single reading.
    assert report.loaded == len(cases) >= 870
    assert report.skipped[SKIP_UNPARSABLE] + report.skipped[SKIP_FREE_VARIABLE] <= 120
    assert set(report.repaired) <= set(REPAIR_KINDS)
    assert report.repaired[REPAIR_BRACKET] >= 100
    assert sum(report.repaired.values()) == len(report.repairs) and report.repaired_problems <= len(report.repairs)
    # Every repair's text is a sentence that the repaired case holds.
    by_id = {c.source_id: c for c in cases}
    for repair in report.repairs:
        if repair["id"] in by_id and repair["after"]:
            assert not free_vars(parse(repair["after"]))
    summary = report.to_dict()
    assert summary["repaired"] == dict(sorted(report.repaired.items()))
    assert "slip repaired" in report.to_markdown()


@pytest.mark.skipif(not TRAIN.is_file(), reason="needs ../shared/data")
def test_same_file_gives_the_same_repairs() -> None:
    _, first = load_source("folio", TRAIN)
    _, second = load_source("folio", TRAIN)
    assert first.repairs == second.repairs and Counter(first.repaired) == Counter(second.repaired)


@pytest.mark.skipif(not TRAIN.is_file(), reason="needs ../shared/data")
def test_a_build_lists_its_repairs_in_the_statistics_and_the_card(tmp_path: Path) -> None:
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import card_body
    from lgmt_tasks.lgmt.config import LgmtConfig

    # The Jack story (v2 train 1137-1139): premise 4 ends in one ')' too many.
    lines = [line for line in TRAIN.read_text(encoding="utf-8").splitlines() if '"folio_v2_train_113' in line]
    source = tmp_path / "folio_train.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    build = build_lgmt(LgmtConfig(source="folio", source_path=str(source), mrs=("MR-C1",), per_mr=2))
    repairs = build.stats.notes["source_repairs"]
    assert repairs and all({"id", "field", "kind", "before", "after"} <= set(r) for r in repairs)
    assert build.stats.counts["source"]["repaired records"] == len({r["id"] for r in repairs})
    card = card_body(build, "datasets/lgmt")
    assert "### Annotation slips repaired" in card
    assert f"| folio | {REPAIR_BRACKET} |" in card
