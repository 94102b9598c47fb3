"""People in the generated source's English are proper names: capitalised in every sentence, in the generated cases
and in the committed default LGMT and lexical datasets built on them, and each sentence still reads back to its FOL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.hub.repo import data_file, read_data_file
from lgmt_tasks.logic.lexicon import lexicon_for
from lgmt_tasks.logic.read import read
from lgmt_tasks.logic.syntax import signature
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.generated import generate_cases, load_vocabulary

PEOPLE = load_vocabulary().people
LOWER_CASE_PERSON = re.compile(rf"\b(?:{'|'.join(map(re.escape, PEOPLE))})\b")
"""A vocabulary person written in lower case as a whole word (the FOL spelling, which the English must not use)."""

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return generate_cases(12, 7)[0]


def test_generated_english_reads_back_to_its_formulas(cases: list[Case]) -> None:
    """The lexicon the source realised with (one per problem) reads every sentence back to its formula."""
    assert cases
    for case in cases:
        lx = lexicon_for([*case.premises_fol, case.conclusion_fol], style="natural")
        for text, formula in zip((*case.premises, case.conclusion), (*case.premises_fol, case.conclusion_fol)):
            assert read(text, lx) == formula, text


def test_generated_people_are_capitalised_everywhere(cases: list[Case]) -> None:
    mid_sentence = 0
    for case in cases:
        sentences = (*case.premises, case.conclusion)
        for text in sentences:
            assert LOWER_CASE_PERSON.search(text) is None, text
        people = set().union(*(signature(f).constants for f in (*case.premises_fol, case.conclusion_fol)))
        for person in people:
            name = person.capitalize()
            assert any(re.search(rf"\b{name}\b", text) for text in sentences), (person, sentences)
            mid_sentence += sum(len(re.findall(rf"(?<!^)\b{name}\b", text)) for text in sentences)
    assert mid_sentence > 0  # the check above is not only about sentence-initial names


# --------------------------------------------------------------------------- the committed default datasets


def _rows(suite: str) -> list[dict[str, Any]]:
    path = DATASETS / suite / data_file("default", "test")
    return [json.loads(line) for line in read_data_file(path).decode("utf-8").splitlines()]


def _prompt_texts(row: dict[str, Any]) -> Iterator[str]:
    """The template English a model is shown: premises and conclusion of the source and of every follow-up.

    A lexical follow-up sentence that its relation rewrote is left out: LLMorph's character noise (replaced,
    deleted or spaced letters) may turn "Bella" into "B ella" or "dave" on purpose; only the sentences it kept are
    template English.
    """
    yield from row["premises"]
    yield row["conclusion"]
    changed = set(row.get("changed_premises") or ())
    yield from (text for i, text in enumerate(row["followup_premises"]) if i not in changed)
    if not row.get("changed_conclusion"):
        yield row["followup_conclusion"]
    for extra in row.get("extra_followups") or ():
        yield from extra.get("premises") or ()
        if extra.get("conclusion"):
            yield extra["conclusion"]


@pytest.mark.parametrize("suite", ["lgmt", "lexical"])
def test_default_dataset_prompts_never_write_a_person_in_lower_case(suite: str) -> None:
    rows = _rows(suite)
    assert rows
    texts = [text for row in rows for text in _prompt_texts(row)]
    offending = [text for text in texts if LOWER_CASE_PERSON.search(text)]
    assert offending == [], f"{len(offending)} sentences, e.g. {offending[:3]}"
    capitalised = re.compile(rf"\b(?:{'|'.join(p.capitalize() for p in PEOPLE)})\b")
    assert sum(1 for text in texts if capitalised.search(text)) > len(rows)  # the names are there, capitalised
