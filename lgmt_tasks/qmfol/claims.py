"""What a qmfol row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

QMFOL: the label with the distractors, and the same label without them (the distractor property). Both forms are
covered as they are stored: quantified rows (facts ∀x f, conclusion ∀x C or ∃x C) and ground rows (about `a`) are
re-proven from `premises_fol`, `rules_fol`, `facts_fol` and `conclusion_fol` alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgmt_tasks.verify.claims import LABELS, Claim, choice, guard, text, texts


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The label of a QMFOL task, with its distractors and without them."""

    def with_distractors() -> list[Claim]:
        formulas = (*texts(row, "premises_fol"), text(row, "conclusion_fol"))
        return [Claim(row_id, "label", "label", "label", formulas, choice(row, "label", LABELS))]

    def basic() -> list[Claim]:
        formulas = (*texts(row, "rules_fol"), *texts(row, "facts_fol"), text(row, "conclusion_fol"))
        return [
            Claim(
                row_id,
                "label without distractors",
                "label without distractors",
                "label",
                formulas,
                choice(row, "label", LABELS),
            )
        ]

    return [
        *guard(row_id, "label", "label", "label", with_distractors),
        *guard(row_id, "label without distractors", "label without distractors", "label", basic),
    ]
