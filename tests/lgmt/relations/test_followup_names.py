"""LGMT follow-up English names constants as the source does: a proper name capitalised, a common noun not."""

from __future__ import annotations

import re

from lgmt_tasks.lgmt.english import case_lexicon, common_noun_constants, followup_english
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.syntax import TRUE, And, Formula, signature
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.generated import generate_cases

# FOLIO-style: `lawtonPark` and `tom` are names, `company` is written "the company" inside its sentences.
CASE = Case(
    premises_fol=(parse("ResidentOf(tom, lawtonPark)"), parse("Hires(company, tom)")),
    conclusion_fol=parse("Hires(company, tom) ∧ ResidentOf(tom, lawtonPark)"),
    premises=("Tom is a resident of Lawton Park.", "The company hires Tom."),
    conclusion="The company hires Tom, who lives in Lawton Park.",
    label="True",
    source_dataset="folio",
    source_id="t1",
)


def _conclusion_and_true(case: Case, conclusion: Formula | None = None) -> FollowUp:
    """MR-C1's shape: the conclusion (or another formula) conjoined with ⊤, so the conclusion is realised."""
    return FollowUp(
        premises_fol=case.premises_fol,
        conclusion_fol=And((case.conclusion_fol if conclusion is None else conclusion, TRUE)),
        premise_origin=tuple(range(len(case.premises_fol))),
        conclusion_changed=True,
        mr="MR-C1",
        category="MR-C",
        direction="forward",
        changed="conclusion",
        site="conclusion",
        obligation=LABEL_OBLIGATION,
    )


def test_only_constants_the_source_writes_in_lower_case_are_common_nouns() -> None:
    assert common_noun_constants(CASE) == frozenset({"company"})


def test_realised_conclusion_capitalises_names_keeps_common_nouns_and_reads_back() -> None:
    # a formula that is no source sentence's, so the template says all of it (issue #26 splices the others)
    followup = _conclusion_and_true(CASE, parse("Hires(tom, company) ∧ ResidentOf(company, lawtonPark)"))
    english = followup_english(CASE, followup)
    assert english.conclusion_realised and not english.conclusion_spliced
    # "the company": the source writes it so inside its sentences (`english.constant_spellings`); "a resident": the
    # source uses ResidentOf as a noun ("Tom is a resident of ...", `english.usage_hints`)
    assert english.conclusion == (
        "Both both Tom hires the company and the company is a resident of Lawton Park, and it is logically true."
    )
    assert english.premises == CASE.premises  # unchanged premises keep the source's sentences
    assert read(english.conclusion, case_lexicon(CASE, followup)) == followup.conclusion_fol


def test_a_conclusion_that_is_the_source_conclusion_reuses_its_sentence() -> None:
    english = followup_english(CASE, _conclusion_and_true(CASE))
    assert english.conclusion_realised and english.conclusion_spliced
    assert english.conclusion == "Both the company hires Tom, who lives in Lawton Park, and it is logically true."


def test_a_generated_case_has_no_common_nouns_and_its_realised_names_are_capitalised() -> None:
    case = generate_cases(1, 3)[0][0]
    assert common_noun_constants(case) == frozenset()
    followup = _conclusion_and_true(case)
    english = followup_english(case, followup)
    people = signature(case.conclusion_fol).constants
    assert people
    for person in people:
        assert re.search(rf"\b{person.capitalize()}\b", english.conclusion), english.conclusion
        assert not re.search(rf"\b{person}\b", english.conclusion), english.conclusion
    assert read(english.conclusion, case_lexicon(case, followup)) == followup.conclusion_fol
