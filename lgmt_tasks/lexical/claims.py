"""What a lexical row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

lexical: the source label only; its follow-ups are English rewrites with no FOL, so they carry no logical claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgmt_tasks.verify.claims import LABELS, Claim, choice, guard, text, texts


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The source label of a lexical row (its follow-up is English only: no FOL, no logical claim)."""

    def make() -> list[Claim]:
        formulas = (*texts(row, "premises_fol"), text(row, "conclusion_fol"))
        return [Claim(row_id, "source label", "source label", "label", formulas, choice(row, "label", LABELS))]

    return guard(row_id, "source label", "source label", "label", make)
