"""Follow-up cases: what a metamorphic relation produces from a source `Case` (`lgmt_tasks.sources.case`).

A `FollowUp` is the
transformed case (Γ', q') in FOL only, plus the provenance the builder needs to write its English (which
premises are verbatim copies of source premises, whether the conclusion changed, which symbols were renamed)
and the proof obligation that makes the follow-up trustworthy (DESIGN decision 3).

Vocabulary of `FollowUp.direction` (one value per follow-up; a composed chain joins its steps' values with `+`):

* ``"forward"``: the law exactly as written in §3.3, read left to right (every MR-S, MR-P and MR-C
  follow-up, and the paper's own direction of every MR-E law).
* ``"introduction"``: an MR-E law read right to left, so that it introduces the structure the paper's
  direction removes: MR-E2 (φ ⇝ φ ∨ φ, φ ⇝ φ ∧ True, factoring, …; the paper found MR-E2 rarely applicable as
  written, with no instance of MR-E2.3) and MR-E1.1–E1.3 (φ ∨ ψ ⇝ ¬φ → ψ, φ ⇝ ¬¬φ, quantifier lowering). These
  apply to (almost) every formula.
* ``"extended"``: a valid equivalence of the same family that the paper's side condition does not cover:
  exclusive-or elimination (MR-E1.1), pushing a negation into →, ↔ or ⊕ (MR-E1.2), quantifier lifting out of an
  implication (MR-E1.3), a seeded reordering of operands already in canonical order (MR-E1.4), α-renaming of a
  bound variable that is not an operand-level conflict (MR-E1.5), a seeded reordering of a quantifier block
  already in canonical order (MR-E1.6), one distribution step on φ ⊕ ψ read as (φ ∧ ¬ψ) ∨ (¬φ ∧ ψ) (MR-E2.4).

`direction` says what the rewrite is relative to the law's text; `FollowUp.variant` says whether it is in the
paper's reading of the law (issues #25 and #36, `lgmt_tasks/lgmt/issue25_paper_reading.md`), which is not quite the
same thing: MR-E1.5's clashing variable is "extended" yet what Appendix A.3 says the law is for. Vocabulary of
`variant` (one value per follow-up; a chain joins its steps' values with `+`, like `direction`):

* ``"paper"``: the site is in the paper's reading (`Relation.paper_site`): every MR-S, MR-P and MR-C follow-up,
  every forward MR-E follow-up, and MR-E1.5's clashing variable.
* ``"introduction"`` / ``"extended"``: the site's `direction`, for a site outside the paper's reading (ours: what
  `direction="any"`, `"introduction"` or `"counts"` adds, e.g. issue #25's MR-E1.2 negated →/↔/⊕, MR-E1.6
  permuted canonical block and MR-E2.4 ⊕ step, which issue #36 moved out of the paper's reading).

A report can thus split any build into the paper's law and our variants with one column.

`FollowUp.law` names the specific rule used (e.g. ``"De Morgan (∧)"``, ``"absorption (∨) introduction"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from lgmt_tasks.logic.syntax import Formula
from lgmt_tasks.sources.case import Case

DIRECTIONS: tuple[str, ...] = ("forward", "introduction", "extended")

EquivalenceObligation: TypeAlias = tuple[Literal["equivalence"], Formula, Formula]
LabelObligation: TypeAlias = tuple[Literal["label"]]
Obligation: TypeAlias = EquivalenceObligation | LabelObligation
"""What must be proven for a follow-up to be shipped.

`("equivalence", original, rewritten)`: the one rewritten formula (a premise, or the conclusion) is logically
equivalent to the formula it replaces, and everything else is unchanged, so the entailment label is unchanged.
`("label",)`: the three-valued entailment label of the follow-up equals the source's.
"""

LABEL_OBLIGATION: LabelObligation = ("label",)

PAPER_VARIANT = "paper"
"""`FollowUp.variant` of a follow-up whose site is in the paper's reading of its law."""


def default_variant(direction: str) -> str:
    """The variant of a follow-up whose relation keeps the default reading (the paper's law = its forward sites).

    A chain's ``"forward+introduction"`` gives ``"paper+introduction"``.
    """
    return "+".join(PAPER_VARIANT if d == "forward" else d for d in direction.split("+"))


@dataclass(frozen=True)
class FollowUp:
    """A follow-up case (Γ', q') with its provenance and proof obligation.

    Attributes:
        premises_fol: The follow-up premises Γ'.
        conclusion_fol: The follow-up conclusion q'.
        premise_origin: Per follow-up premise, the index of the source premise it copies verbatim, else None
            (rewritten, renamed, fused, split or new: the builder writes its English).
        conclusion_changed: Whether q' differs from q.
        mr: Relation id ("MR-E1.1"); a composed chain joins its steps' ids with "+" ("MR-E1.1+MR-C3").
        category: "MR-E" | "MR-S" | "MR-P" | "MR-C"; a chain joins its steps' distinct categories with "+".
        direction: "forward" | "introduction" | "extended" (see the module docstring); chains join with "+".
        changed: Human-readable: "premise 2" (1-based), "premises 2-3", "premises", "conclusion" or "all".
        site: Where the relation acted, e.g. "premise 2 [0, 1]" (the path of the rewritten sub-formula).
        obligation: The proof obligation (see `Obligation`).
        renaming: For MR-S, the net renaming as (kind, old, new) with kind "constant" | "predicate".
        law: The specific rule applied (e.g. "implication elimination"); chains join with "+".
        variant: "paper" | "introduction" | "extended" (see the module docstring); chains join with "+". Left
            empty, it is derived from `direction` ("forward" is "paper", any other value is kept), which is right
            for every relation without a `paper_site` override; the MR-E relations always set it.
        steps: For a composed chain, the follow-up of each step, each relative to the previous step's case.
    """

    premises_fol: tuple[Formula, ...]
    conclusion_fol: Formula
    premise_origin: tuple[int | None, ...]
    conclusion_changed: bool
    mr: str
    category: str
    direction: str
    changed: str
    site: str
    obligation: Obligation
    renaming: tuple[tuple[str, str, str], ...] = ()
    law: str = ""
    variant: str = ""
    steps: tuple[FollowUp, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if not self.variant:  # never empty: the builder writes it as the `variant` column
            object.__setattr__(self, "variant", default_variant(self.direction))
        object.__setattr__(self, "premises_fol", tuple(self.premises_fol))
        object.__setattr__(self, "premise_origin", tuple(self.premise_origin))
        if len(self.premise_origin) != len(self.premises_fol):
            raise ValueError(
                f"{self.mr}: {len(self.premise_origin)} origins for {len(self.premises_fol)} follow-up premises"
            )
        kind = self.obligation[0] if self.obligation else None
        if kind == "equivalence":
            if len(self.obligation) != 3:
                raise ValueError(f'{self.mr}: an equivalence obligation is ("equivalence", original, rewritten)')
        elif self.obligation != LABEL_OBLIGATION:
            raise ValueError(f"{self.mr}: obligation must be ('equivalence', a, b) or ('label',), got {kind!r}")
        for k, _, _ in self.renaming:
            if k not in ("constant", "predicate"):
                raise ValueError(f"{self.mr}: renaming kind {k!r} (expected 'constant' or 'predicate')")

    @property
    def is_composed(self) -> bool:
        """True for a chain of two or more relations."""
        return bool(self.steps)

    def as_case(self, source: Case) -> Case:
        """Return the follow-up as a `Case`, for applying a further relation (composition).

        English is carried over where it is known: a premise that copies a source premise keeps its sentence,
        the conclusion keeps its sentence when unchanged; everything else is "" (the builder realises English
        for the final follow-up from the provenance, which `compose` tracks back to the original source). The
        label is the source's: every relation preserves it (and `check.verify` proves so).
        """
        premises: tuple[str, ...] = ()
        if source.premises:
            premises = tuple(source.premises[o] if o is not None else "" for o in self.premise_origin)
        return Case(
            premises_fol=self.premises_fol,
            conclusion_fol=self.conclusion_fol,
            premises=premises,
            conclusion="" if self.conclusion_changed else source.conclusion,
            label=source.label,
            source_dataset=source.source_dataset,
            source_id=source.source_id,
        )
