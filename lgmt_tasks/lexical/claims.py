"""What a lexical row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

lexical: the source label; and, where the follow-up's label is proven (`expectation == "proven"`: MR-19's reordered
premises, MR-84's added unrelated premise, MR-152's negated premise or conclusion), the follow-up's label on the
follow-up's FOL as the row stores it. Other follow-ups are English rewrites with no FOL: they carry no logical claim.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgmt_tasks.verify.claims import LABELS, Claim, choice, guard, text, texts


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The source label of a lexical row, and its follow-up label where the row says it is proven."""

    def source() -> list[Claim]:
        formulas = (*texts(row, "premises_fol"), text(row, "conclusion_fol"))
        return [Claim(row_id, "source label", "source label", "label", formulas, choice(row, "label", LABELS))]

    claims = guard(row_id, "source label", "source label", "label", source)
    if row.get("expectation") != "proven":
        return claims
    what = f"follow-up label ({row.get('mr', '?')}, {row.get('part', '?')})"

    def followup() -> list[Claim]:
        formulas = (*texts(row, "followup_premises_fol"), text(row, "followup_conclusion_fol"))
        return [Claim(row_id, "follow-up label", what, "label", formulas, choice(row, "followup_label", LABELS))]

    return claims + guard(row_id, "follow-up label", what, "label", followup)
