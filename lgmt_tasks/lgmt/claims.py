"""What a lgmt row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

LGMT: the source label; every follow-up's label (all 20 relations keep the label); and, for the
formula-level relations (MR-E, MR-C) that rewrite one formula, that formula's equivalence with the one it replaced
(`lgmt_tasks.lgmt.relations.check` proves the same at build time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lgmt_tasks.verify.claims import EQUIVALENT, LABELS, Claim, RowError, choice, guard, text, texts

EQUIVALENCE_CATEGORIES = ("MR-E", "MR-C")
"""Categories whose single relations rewrite one formula into an equivalent one (their proof obligation)."""


def _only_change(source: Sequence[str], followup: Sequence[str]) -> list[tuple[str, str, str]]:
    """The (where, original, rewritten) formulas that differ between source and follow-up (premises, then conclusion).

    Both sequences are the premises followed by the conclusion. Premise lists of different lengths are reported as
    one whole-premises change.
    """
    if len(source) != len(followup):
        return [("premises", "", "")]
    return [
        ("conclusion" if i == len(source) - 1 else f"premise {i + 1}", a, b)
        for i, (a, b) in enumerate(zip(source, followup, strict=True))
        if a != b
    ]


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """Source label, follow-up labels and follow-up equivalences of an LGMT row."""
    out = guard(
        row_id,
        "source label",
        "source label",
        "label",
        lambda: [
            Claim(
                row_id,
                "source label",
                "source label",
                "label",
                (*texts(row, "premises_fol"), text(row, "conclusion_fol")),
                choice(row, "label", LABELS),
            )
        ],
    )
    extra = row.get("extra_followups") or []
    followups: list[tuple[str, Mapping[str, Any], str]] = [("follow-up", row, "followup_")]
    if isinstance(extra, list):
        followups += [(f"follow-up {k + 2}", e, "") for k, e in enumerate(extra) if isinstance(e, Mapping)]
    for name, columns, prefix in followups:
        mr = str(columns.get("mr", "?"))

        def label_claim(
            columns: Mapping[str, Any] = columns, prefix: str = prefix, name: str = name, mr: str = mr
        ) -> list[Claim]:
            formulas = (*texts(columns, f"{prefix}premises_fol"), text(columns, f"{prefix}conclusion_fol"))
            return [
                Claim(
                    row_id, "follow-up label", f"{name} label ({mr})", "label", formulas, choice(row, "label", LABELS)
                )
            ]

        def equivalence_claim(
            columns: Mapping[str, Any] = columns, prefix: str = prefix, name: str = name, mr: str = mr
        ) -> list[Claim]:
            if columns.get("category") not in EQUIVALENCE_CATEGORIES or "+" in mr:
                return []  # a label obligation (MR-S, MR-P, composed chains): covered by the follow-up label
            source = (*texts(row, "premises_fol"), text(row, "conclusion_fol"))
            followup = (*texts(columns, f"{prefix}premises_fol"), text(columns, f"{prefix}conclusion_fol"))
            changes = _only_change(source, followup)
            if len(changes) != 1 or changes[0][0] == "premises":
                raise RowError(f"{name} of {mr} should rewrite exactly one formula, found {len(changes)} changes")
            where, original, rewritten = changes[0]
            return [
                Claim(
                    row_id,
                    "follow-up equivalence",
                    f"{name} equivalence ({mr}, {where})",
                    "equivalent",
                    (original, rewritten),
                    EQUIVALENT,
                )
            ]

        out += guard(row_id, "follow-up label", f"{name} label ({mr})", "label", label_claim)
        out += guard(row_id, "follow-up equivalence", f"{name} equivalence ({mr})", "equivalent", equivalence_claim)
    return out
