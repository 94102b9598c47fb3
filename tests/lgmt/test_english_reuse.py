"""Follow-ups reuse the source's own English for unchanged sub-formulas (issue #26), checked structurally.

MR-C1–C3 (q ⇝ q ∧ ⊤, q ∨ ⊥, ¬¬q) and MR-P4 (φ, ψ ⇝ φ ∧ ψ) keep the source sentences inside the template
connectives; `check_mixed` reads the template part with each source clause replaced by a placeholder atom. The
FOLIO test builds the four relations over FOLIO v2 validation (skipped when `/work/shared/data` lacks it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.english import check_mixed, followup_english, splice, splice_clause
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import FALSE, TRUE, And, Not, Or
from lgmt_tasks.sources.case import Case

FOLIO = Path("/work/shared/data/folio/folio_v2_validation.jsonl")

# FOLIO story 203 (validation 578), shortened
SPACE = Case(
    premises_fol=(
        parse("∀x (Vampire(x) → Suck(x))"),
        parse("Vacuum(space)"),
        parse("HouseholdAppliance(duster) ∧ ¬Suck(duster)"),
    ),
    conclusion_fol=parse("Suck(space)"),
    premises=("Vampires suck.", "Space is a vacuum.", "A duster is a household appliance that doesn't suck."),
    conclusion="Space sucks.",
    label="True",
    source_dataset="folio",
    source_id="space",
)


def _followup(case: Case, premises: tuple[Any, ...], conclusion: Any, origin: tuple[int | None, ...]) -> FollowUp:
    return FollowUp(
        premises_fol=premises,
        conclusion_fol=conclusion,
        premise_origin=origin,
        conclusion_changed=conclusion != case.conclusion_fol,
        mr="MR-X",
        category="MR-C",
        direction="forward",
        changed="conclusion",
        site="conclusion",
        obligation=LABEL_OBLIGATION,
    )


def _conclusion(case: Case, conclusion: Any) -> FollowUp:
    return _followup(case, case.premises_fol, conclusion, tuple(range(len(case.premises_fol))))


@pytest.mark.parametrize(
    ("wrap", "expected"),
    [
        (lambda q: And((q, TRUE)), "Both Space sucks and it is logically true."),
        (lambda q: Or((q, FALSE)), "Either Space sucks or it is logically false."),
        (lambda q: Not(Not(q)), "It is not the case that it is not the case that Space sucks."),
    ],
)
def test_mr_c_keeps_the_source_conclusion(wrap: Any, expected: str) -> None:
    english = followup_english(SPACE, _conclusion(SPACE, wrap(SPACE.conclusion_fol)))
    assert english.conclusion == expected
    assert english.conclusion_realised and english.conclusion_spliced
    assert english.premises == SPACE.premises


def test_mr_p4_fuses_the_source_sentences_with_a_comma_after_a_complex_one() -> None:
    fused = And((SPACE.premises_fol[0], SPACE.premises_fol[2]))
    followup = _followup(SPACE, (*SPACE.premises_fol, fused), SPACE.conclusion_fol, (0, 1, 2, None))
    english = followup_english(SPACE, followup)
    assert english.premises[3] == "Both vampires suck, and a duster is a household appliance that doesn't suck."
    assert english.spliced == (3,) and english.realised == (3,)


def test_check_mixed_rejects_a_sentence_that_says_something_else() -> None:
    formula = And((SPACE.premises_fol[0], SPACE.premises_fol[2]))
    followup = _followup(SPACE, (*SPACE.premises_fol, formula), SPACE.conclusion_fol, (0, 1, 2, None))
    mixed = splice(formula, SPACE, followup, conclusion=False)
    assert mixed is not None
    assert check_mixed(mixed.text, formula, mixed.parts, mixed.lexicon)
    assert not check_mixed(
        mixed.text.replace("Both", "Either").replace(", and", ", or"), formula, mixed.parts, mixed.lexicon
    )
    assert not check_mixed(mixed.text.replace("vampires", "werewolves"), formula, mixed.parts, mixed.lexicon)
    assert not check_mixed(mixed.text, And((SPACE.premises_fol[2], SPACE.premises_fol[0])), mixed.parts, mixed.lexicon)


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        ("Plungers suck.", "plungers suck"),
        ("Space sucks.", "Space sucks"),  # `space` is a constant the source names: a proper noun, as the realiser
        ("TV shows are fun.", "TV shows are fun"),  # a capital after the first letter: an acronym
        ("If a show is fun, then Tom likes it.", "if a show is fun, then Tom likes it"),
    ],
)
def test_splice_clause(sentence: str, clause: str) -> None:
    assert splice_clause(sentence, frozenset({"space", "tom"})) == clause


def _row_case_and_followup(row: dict[str, Any]) -> tuple[Case, FollowUp]:
    case = Case(
        premises_fol=tuple(parse(f) for f in row["premises_fol"]),
        conclusion_fol=parse(row["conclusion_fol"]),
        premises=tuple(row["premises"]),
        conclusion=row["conclusion"],
        label=row["label"],
        source_dataset=row["source_dataset"],
        source_id=row["source_id"],
    )
    premises = tuple(parse(f) for f in row["followup_premises_fol"])
    return case, _followup(case, premises, parse(row["followup_conclusion_fol"]), (None,) * len(premises))


def _clause_in(source: str, sentence: str) -> bool:
    clause = source.strip().removesuffix(".").rstrip()
    return clause[1:] in sentence and clause[:1].lower() in sentence.lower()


@pytest.mark.skipif(not FOLIO.exists(), reason="FOLIO v2 validation not in /work/shared/data")
def test_every_folio_mr_c_and_mr_p4_follow_up_keeps_the_source_wording() -> None:
    config = LgmtConfig(source="folio", source_path=str(FOLIO), mrs=("MR-C1", "MR-C2", "MR-C3", "MR-P4"), per_mr="all")
    rows = list(build_lgmt(config).dataset)
    counts = {mr: 0 for mr in config.mrs}
    for row in rows:
        counts[row["mr"]] += 1
        case, followup = _row_case_and_followup(row)
        if row["mr"].startswith("MR-C"):
            assert row["followup_premises"] == row["premises"]
            sentence, formula, conclusion = row["followup_conclusion"], followup.conclusion_fol, True
            # the conclusion's own words, or (MR-C3 on a q whose negation is a premise) that premise's: ¬(¬q)
            negated = [j for j, f in enumerate(case.premises_fol) if f == Not(case.conclusion_fol)]
            assert _clause_in(row["conclusion"], sentence) or any(
                _clause_in(case.premises[j], sentence) for j in negated
            ), (row["id"], sentence)
        else:
            (i,) = row["realised_premises"]  # the fused premise; the others are copies
            sentence, formula, conclusion = row["followup_premises"][i], followup.premises_fol[i], False
            fused = [j for j, f in enumerate(case.premises_fol) if f in formula.args]  # type: ignore[attr-defined]
            assert len(fused) >= 1 and all(_clause_in(case.premises[j], sentence) for j in fused), (row["id"], sentence)
        mixed = splice(formula, case, followup, conclusion)
        assert mixed is not None and mixed.text == sentence, (row["id"], sentence)
        assert check_mixed(sentence, formula, mixed.parts, mixed.lexicon), (row["id"], sentence)
    assert all(n > 100 for n in counts.values()), counts
