"""MR-S renaming on natural English (issue #26): every surface form is renamed, and the result is checked.

Unit tests use the FOLIO sentences quoted in the issue; the FOLIO tests build MR-S1 and MR-S2 over FOLIO v2
validation (skipped when `/work/shared/data` does not have it) and re-check every shipped follow-up sentence
independently of the builder's own check, and that the failing groups are dropped and counted.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english import (
    RENAMING_LEFT,
    followup_english,
    free_matches,
    longer_names,
    substitute_constant,
    surface_pattern,
)
from lgmt_tasks.lgmt.relations.base import Options
from lgmt_tasks.lgmt.relations.symbols import ConstantRenaming
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import signature
from lgmt_tasks.sources.case import Case

FOLIO = Path("/work/shared/data/folio/folio_v2_validation.jsonl")


def _masks(old: str, *names: tuple[str, str]) -> list[re.Pattern[str]]:
    return longer_names(old, names)


@pytest.mark.parametrize(
    ("sentence", "old", "masks", "expected"),
    [
        # inside quotes (MR-S1-73ec0751170b)
        (
            "Harry read the book “Walden” by Henry Thoreau.",
            "walden",
            [],
            "Harry read the book “Con1” by Henry Thoreau.",
        ),
        # a longer name of another constant keeps its words (MR-S1-7652a6654609)
        (
            "Ailton Silva, born in 1995, is commonly known as Ailton.",
            "ailton",
            [("constant", "ailtonSilva")],
            "Ailton Silva, born in 1995, is commonly known as Con1.",
        ),
        # a longer predicate name keeps its words; the plural form is renamed ("All Con1 lovers" before)
        (
            "All animal lovers are nice to animals.",
            "animal",
            [("predicate", "AnimalLover")],
            "All animal lovers are nice to Con1.",
        ),
        ("Many of Beijing's 91 universities rank well.", "beijing", [], "Many of Con1's 91 universities rank well."),
        ("Romance languages are a language family.", "languageFamily", [], "Romance languages are Con1."),
        ("The company hires Tom.", "company", [], "Con1 hires Tom."),
        ("KO is a mature stock.", "kO", [], "Con1 is a mature stock."),  # letters spelled without the split
        ("Ailton plays for Náutico.", "nautico", [], "Ailton plays for Con1."),  # accents
        ("It pilots on BBC Two or BBC Three.", "bBCTwo", [], "It pilots on Con1 or BBC Three."),
        ("Beijing is the capital of the People's Republic of China.", "peoplesRepublicOfChina", [], None),
    ],
)
def test_substitute_constant_renames_every_surface_form(
    sentence: str, old: str, masks: list[tuple[str, str]], expected: str | None
) -> None:
    got = substitute_constant(sentence, old, "Con1", _masks(old, *masks))
    if expected is None:
        assert got == "Beijing is the capital of Con1."
    else:
        assert got == expected


def _walden_case() -> Case:
    """FOLIO story 171: the conclusion names Walden although its formula does not."""
    return Case(
        premises_fol=(
            parse("∀x (Book(x) → Contains(x, knowledge))"),
            parse("ReadBook(harry, walden) ∧ Book(walden)"),
        ),
        conclusion_fol=parse("Gains(harry, knowledge)"),
        premises=("Books contain tons of knowledge.", "Harry read the book “Walden” by Henry Thoreau."),
        conclusion="Walden contains knowledge.",
        label="Unknown",
        source_dataset="folio",
        source_id="walden",
    )


def _rename(case: Case, constant: str):  # noqa: ANN202
    relation = ConstantRenaming()
    site = next(s for s in relation.sites(case) if s.detail == (constant,))
    followup = relation._apply_at(case, site, random.Random(0), Options())  # noqa: SLF001
    assert followup is not None
    return followup


def test_a_conclusion_that_still_names_the_old_constant_is_a_problem() -> None:
    case = _walden_case()
    english = followup_english(case, _rename(case, "walden"))
    assert english.premises[1] == "Harry read the book “Con1” by Henry Thoreau."
    assert english.conclusion == "Walden contains knowledge."
    assert any("conclusion still names constant walden" in p for p in english.problems)


def test_renaming_harry_passes_the_check() -> None:
    case = _walden_case()
    english = followup_english(case, _rename(case, "harry"))
    assert english.premises[1] == "Con1 read the book “Walden” by Henry Thoreau."
    assert english.conclusion_realised  # "Walden contains knowledge." does not name Harry: the formula is said
    assert "Con1" in english.conclusion
    assert english.problems == ()


def test_ailton_is_renamed_but_ailton_silva_is_kept() -> None:
    case = Case(
        premises_fol=(
            parse("BornIn(ailtonSilva, year1995) ∧ CommonlyKnownAs(ailtonSilva, ailton)"),
            parse("FootballPlayer(ailton) ∧ LoanedTo(ailton, braga)"),
        ),
        conclusion_fol=parse("∃x (FootballClub(x) ∧ LoanedTo(ailtonSilva, x))"),
        premises=(
            "Ailton Silva, born in 1995, is commonly known as Ailton.",
            "Ailton is a football player who was loaned out to Braga.",
        ),
        conclusion="Ailton Silva was loaned out to a football club.",
        label="Unknown",
        source_dataset="folio",
        source_id="ailton",
    )
    english = followup_english(case, _rename(case, "ailton"))
    assert english.premises == (
        "Ailton Silva, born in 1995, is commonly known as Con1.",
        "Con1 is a football player who was loaned out to Braga.",
    )
    assert english.conclusion == case.conclusion
    assert english.problems == ()


def _constants(fol: str) -> frozenset[str]:
    return signature(parse(fol)).constants


def _predicates(fol: str) -> frozenset[str]:
    return signature(parse(fol)).predicate_names


def _recheck(row: dict) -> list[str]:
    """An independent check of one MR-S row: old forms gone, new constant's name exactly where its formula has it."""
    kind, old = row["site"].split(" ", 1)
    source_fols = [*row["premises_fol"], row["conclusion_fol"]]
    fols = [*row["followup_premises_fol"], row["followup_conclusion_fol"]]
    sentences = [*row["followup_premises"], row["followup_conclusion"]]
    symbols = [("constant", c) for f in source_fols + fols for c in _constants(f)]
    symbols += [("predicate", p) for f in source_fols + fols for p in _predicates(f)]
    pattern = surface_pattern(old, kind)
    masks = longer_names(old, symbols)
    if kind == "constant":
        new = set().union(*map(_constants, fols)) - set().union(*map(_constants, source_fols))
    else:
        new = set().union(*map(_predicates, fols)) - set().union(*map(_predicates, source_fols))
    assert len(new) == 1, row["id"]
    (name,) = new
    bad: list[str] = []
    sources = [*row["premises"], row["conclusion"]]
    realised = {*row["realised_premises"], *([len(sentences) - 1] if row["realised_conclusion"] else [])}
    for i, (source, sentence) in enumerate(zip(sources, sentences, strict=True)):  # MR-S keeps premise order
        for mask in masks:  # an edited sentence never cuts a longer name ("Ailton Silva" -> "Con1 Silva")
            if i not in realised and len(mask.findall(sentence)) < len(mask.findall(source)):
                bad.append(f"{row['id']}: cuts a longer name: {sentence}")
    for sentence, fol in zip(sentences, fols, strict=True):
        minor = kind == "predicate" and old in ("On", "In", "Of", "At", "To", "For", "By", "With", "From")
        if pattern is not None and not minor and free_matches(sentence, pattern, masks):
            bad.append(f"{row['id']}: still names {old}: {sentence}")
        if kind == "constant":
            said = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", sentence, flags=re.IGNORECASE) is not None
            if said != (name in _constants(fol)):
                bad.append(f"{row['id']}: {name} {'said without' if said else 'missing from'} its formula: {sentence}")
    return bad


@pytest.mark.skipif(not FOLIO.exists(), reason="FOLIO v2 validation not in /work/shared/data")
@pytest.mark.parametrize("names", ["abstract", "natural"])
def test_no_folio_mr_s_follow_up_names_the_old_symbol(names: str) -> None:
    config = LgmtConfig(source="folio", source_path=str(FOLIO), mrs=("MR-S1", "MR-S2"), per_mr="all", names=names)
    build = build_lgmt(config)
    rows = list(build.dataset)
    assert {r["mr"] for r in rows} == {"MR-S1", "MR-S2"}
    bad = [problem for row in rows for problem in _recheck(row)]
    assert bad == []
    # the groups that fail are dropped and counted; before issue #26, 7 of 109 MR-S1 follow-ups failed
    dropped = build.stats.dropped
    s1 = dropped["MR-S1"][RENAMING_LEFT]
    s2 = dropped["MR-S2"][RENAMING_LEFT]
    assert s1 > 0 and s2 > 0
    assert build.stats.counts["MR-S1"]["proven"] + s1 == build.stats.counts["MR-S1"]["tried"]
    assert build.stats.counts["MR-S2"]["proven"] + s2 == build.stats.counts["MR-S2"]["tried"]
    assert build.stats.counts["MR-S1"]["renamed sentences realised"] > 0
