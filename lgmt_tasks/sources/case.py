"""A source case: one three-valued entailment problem ⟨Γ, q, y⟩ in FOL and English.

Every source (FOLIO, ProverQA, LogicNLI, our generated problems) yields `Case`s; LGMT's relations turn them into
follow-ups and the lexical suite perturbs their English. It lives with the sources, not with either suite, because
both suites consume it.
"""

from __future__ import annotations

from dataclasses import dataclass

from lgmt_tasks.logic.syntax import Formula
from lgmt_tasks.vocabulary import TRUTH_LABELS as LABELS


@dataclass(frozen=True)
class Case:
    """A test case ⟨Γ, q, y⟩ in FOL and English (paper §3.2).

    Attributes:
        premises_fol: The premises Γ as sentences.
        conclusion_fol: The conclusion q.
        premises: English premises, one per formula (or empty when the case has no English, e.g. in tests).
        conclusion: English conclusion ("" when there is no English).
        label: Gold label "True" | "False" | "Unknown", or None when unknown.
        source_dataset: Where the case comes from (e.g. "folio", "generated").
        source_id: The case's id in its source dataset.
    """

    premises_fol: tuple[Formula, ...]
    conclusion_fol: Formula
    premises: tuple[str, ...] = ()
    conclusion: str = ""
    label: str | None = None
    source_dataset: str = ""
    source_id: str = ""

    def __post_init__(self) -> None:
        # Accept lists from loaders, but store tuples so that a Case is hashable and immutable.
        object.__setattr__(self, "premises_fol", tuple(self.premises_fol))
        object.__setattr__(self, "premises", tuple(self.premises))
        if self.premises and len(self.premises) != len(self.premises_fol):
            raise ValueError(
                f"case {self.source_id!r}: {len(self.premises)} English premises for {len(self.premises_fol)} formulas"
            )
        if self.label is not None and self.label not in LABELS:
            raise ValueError(f"case {self.source_id!r}: label={self.label!r}, expected one of {LABELS} or None")

    def premise_text(self, index: int) -> str:
        """Return the English of premise `index`, or "" when the case has no English."""
        return self.premises[index] if self.premises else ""
