"""Issue #36: predicate and constant phrases learned from the source's own sentences, and the stratified review sample.

The realiser speaks a changed sentence in the paper's C.2 style, but its atoms in the words the source uses for them
("Michael can block Windy", "the United States", "KiKi"), and every learned phrase still reads back exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from lgmt_tasks.lgmt.english import (
    case_lexicon,
    constant_spellings,
    learned_templates,
)
from lgmt_tasks.lgmt.english_review import (
    CATEGORIES,
    PER_CATEGORY,
    category_of,
    changed_occurrences,
    sample_records,
    stratified_sample,
)
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.sources.case import Case

BLOCK = Case(
    premises_fol=(
        parse("∀x ∀y (Man(x) ∧ Man(y) ∧ Taller(x, y) → CanBlock(x, y))"),
        parse("Man(michael)"),
        parse("¬CanBlock(michael, windy)"),
        parse("∃x ∃y (ObjectOfWorship(x) ∧ ObjectOfWorship(y) ∧ FirTree(x) ∧ FirTree(y) ∧ ¬(x=y))"),
    ),
    conclusion_fol=parse("Taller(michael, windy)"),
    premises=(
        "If a man is taller than another man, the taller one can block the other's shooting.",
        "Michael is a man.",
        "Michael cannot block Windy's shooting.",
        "Some objects of worship are fir trees.",
    ),
    conclusion="Michael is taller than Windy.",
)

TAYLOR = Case(
    premises_fol=(
        parse("¬(GrowUpIn(taylor, health-consciousChildhoodHome) ⊕ Disregard(taylor, physicalWellbeing))"),
        parse("AttendedSchoolIn(hughVanstone, unitedStates)"),
        parse("MostMedals(unitedStates, tokyo)"),
    ),
    conclusion_fol=parse("GrowUpIn(taylor, health-consciousChildhoodHome)"),
    premises=(
        "Taylor either grew up in a health-conscious childhood home and disregard her physical well-being, or she "
        "did neither.",
        "Hugh Vanstone attended a school in the United States.",
        "The United States won the most medals in Tokyo.",
    ),
    conclusion="Taylor grew up in a health-conscious childhood home.",
)

KIKI = Case(
    premises_fol=(parse("Animal(kiki)"), parse("Terricolous(kiki)"), parse("¬Jump(kiki) → Terricolous(kiki)")),
    conclusion_fol=parse("Animal(kiki) ∧ Terricolous(kiki)"),
    premises=("KiKi is an animal.", "KiKi is terricolous.", "If KiKi does not jump, then KiKi is terricolous."),
    conclusion="KiKi is an animal and terricolous.",
)


def test_can_block_is_learned_from_can_block() -> None:
    assert learned_templates(BLOCK)[("CanBlock", 2)] == (0, "can", "block", 1)
    lx = case_lexicon(BLOCK)
    assert lx.predicate_pattern("CanBlock", 2) == "{0} can block {1}"
    assert realize(parse("CanBlock(michael, windy)"), lx) == "Michael can block Windy."


def test_a_plural_noun_phrase_is_learned_in_the_singular_with_its_article() -> None:
    lx = case_lexicon(BLOCK)
    assert lx.predicate_pattern("ObjectOfWorship", 1) == "{0} is an object of worship"


def test_a_binary_comparative_keeps_its_natural_template() -> None:
    # "is taller than": the word before y is not in the name, so nothing is learned and the fallback is used
    assert ("Taller", 2) not in learned_templates(BLOCK)
    assert case_lexicon(BLOCK).predicate_pattern("Taller", 2) == "{0} is taller than {1}"


def test_verbs_in_the_third_person_and_constants_with_the_sources_article() -> None:
    assert learned_templates(TAYLOR)[("GrowUpIn", 2)] == (0, "grows", "up", "in", 1)
    spellings = constant_spellings(TAYLOR)
    assert spellings["unitedStates"] == ("the", "United", "States")  # also from "The United States won ..."
    assert spellings["health-consciousChildhoodHome"] == ("a", "health-conscious", "childhood", "home")
    lx = case_lexicon(TAYLOR)
    f = parse("GrowUpIn(taylor, health-consciousChildhoodHome)")
    assert realize(f, lx) == "Taylor grows up in a health-conscious childhood home."
    g = parse("¬AttendedSchoolIn(taylor, unitedStates)")
    assert "in the United States" in realize(g, lx)


def test_a_name_written_only_at_the_start_of_sentences_keeps_its_inner_capitals() -> None:
    assert constant_spellings(KIKI)["kiki"] == ("KiKi",)
    lx = case_lexicon(KIKI)
    text = realize(parse("∀x (Animal(x) → Terricolous(kiki))"), lx)
    assert "KiKi" in text and "Kiki" not in text


def test_letters_of_a_glued_name_are_spoken_as_the_source_writes_them() -> None:
    case = Case(
        premises_fol=(parse("Painter(leonardodaVinci)"),),
        conclusion_fol=parse("Scientist(leonardodaVinci)"),
        premises=("Leonardo da Vinci is a painter.",),
        conclusion="Leonardo da Vinci is a scientist.",
    )
    assert constant_spellings(case)["leonardodaVinci"] == ("Leonardo", "da", "Vinci")


@pytest.mark.parametrize("case", [BLOCK, TAYLOR, KIKI])
def test_learned_phrases_read_back(case: Case) -> None:
    lx = case_lexicon(case)
    for f in (*case.premises_fol, case.conclusion_fol):
        assert read(realize(f, lx), lx) == f
    for key, template in learned_templates(case).items():
        assert lx.template(*key) == template  # learned and used (no collision here)


def test_learning_is_deterministic() -> None:
    a = learned_templates(Case(BLOCK.premises_fol, BLOCK.conclusion_fol, BLOCK.premises, BLOCK.conclusion))
    learned_templates.cache_clear()
    b = learned_templates(BLOCK)
    assert a == b
    assert case_lexicon(BLOCK) == case_lexicon(BLOCK)


def test_no_english_no_learned_phrases() -> None:
    case = Case(premises_fol=(parse("CanBlock(michael, windy)"),), conclusion_fol=parse("Man(michael)"))
    assert learned_templates(case) == {}
    assert constant_spellings(case) == {}


# ------------------------------------------------------------------------------------------- the stratified sample


def _rows(n: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for mr in ("MR-E1.1", "MR-E2.4", "MR-S1", "MR-P4", "MR-C3"):
        for i in range(n):
            rows.append(
                {
                    "id": f"{mr}-{i}",
                    "mr": mr,
                    "premises": ["Tom is a cat."],
                    "conclusion": "Tom purrs.",
                    "followup_premises": ["Tom is a cat.", f"Sentence {i % 7} of {mr}."],
                    "followup_conclusion": "Tom purrs.",
                }
            )
    return rows


def test_category_of() -> None:
    assert [category_of(m) for m in ("MR-E1.4", "MR-S2", "MR-P5", "MR-C1")] == ["MR-E", "MR-S", "MR-P", "MR-C"]


def test_the_sample_is_stratified_per_occurrence_and_seeded() -> None:
    rows = _rows(40)
    sample = stratified_sample(rows)
    counts = {c: sum(s.category == c for s in sample) for c in CATEGORIES}
    assert counts == dict.fromkeys(CATEGORIES, PER_CATEGORY) and len(sample) == 100
    # occurrences, not distinct sentences: only 7 distinct sentences per relation, yet 25 are drawn per category
    assert len({s.sentence for s in sample if s.category == "MR-S"}) <= 7
    assert stratified_sample(rows) == sample
    assert stratified_sample(list(reversed(rows))) == sample  # independent of row order
    assert stratified_sample(rows, seed=37) != sample
    records = sample_records(sample)
    assert set(records[0]) == {"id", "mr", "category", "sentence", "verdict", "items", "note"}
    assert all(r["verdict"] == "" and r["items"] == [] for r in records)


def test_a_small_category_gives_all_its_occurrences() -> None:
    rows = [r for r in _rows(40) if not r["mr"].startswith("MR-C")] + [
        r for r in _rows(3) if r["mr"].startswith("MR-C")
    ]
    sample = stratified_sample(rows)
    assert sum(s.category == "MR-C" for s in sample) == 3
    assert len(changed_occurrences(rows)) == 40 * 4 + 3
