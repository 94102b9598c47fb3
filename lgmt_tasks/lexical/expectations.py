"""What a lexical follow-up's answer should be, and how sure we are: proven with Z3, assumed, or unproven.

LLMorph states an output relation per relation (the same answer, a different answer, not the opposite answer) and
filters sources by the model's source answer. We know each source's proven label and its FOL, so we can do better
than assume, wherever a transformation has a logical reading:

- MR-19 (reorder the premises) and MR-84 (add a premise sharing no word with the case, read as a fresh proposition):
  the follow-up's label is proven equal to the source's;
- MR-152 (negation): negating premise i reads as replacing pᵢ by ¬pᵢ, negating the conclusion q as ¬q. The builder
  proves the follow-up's label and keeps the group only if it differs from the source's (the relation expects a
  different answer): negating an Unknown conclusion leaves it Unknown, so such a group would charge a correct model,
  and is dropped with the reason. For the premises, it tries the premises in a seeded order and negates the first
  one whose negation provably changes the label.

Elsewhere the text is the transformer's or a typo function's, with no FOL, and the expectation is LLMorph's claim:
`assumed` for relations meant to keep the meaning (typos, paraphrase, voice: the follow-up's gold is taken to be the
source's), `unproven` for the difference relations with no logical reading (MR-10, MR-25, MR-34: the answer should
change, but to what is unknown, and whether it really must is not proven). Each row records its basis, and the
scorer reports `mvr` per basis, so a reader can set the proven and assumed groups apart from the unproven ones.

Nothing undecided is shipped: a proof that Z3 cannot settle in its limit drops the group, counted by reason.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS, SOURCE_LABELS
from lgmt_tasks.logic.prover import Contradictory, Undecided, entailment
from lgmt_tasks.logic.syntax import Atom, Formula, Not, signature
from lgmt_tasks.sources.case import Case

Basis = Literal["proven", "assumed", "unproven"]
"""How the expected follow-up answer is known."""

BASES: tuple[str, ...] = ("proven", "assumed", "unproven")
"""Every basis, in order of certainty."""

IRRELEVANT_PREDICATE = "IrrelevantSentence"
"""The proposition MR-84's appended premise is read as (made fresh for each case)."""

LABEL_KEPT = "negation provably keeps the label"
"""Drop reason of an MR-152 group whose negation would not change a correct answer."""

NO_CHANGING_PREMISE = "no premise whose negation provably changes the label"
"""Drop reason of an MR-152 premise group none of whose premises can be negated to change the label."""


@dataclass(frozen=True)
class Expectation:
    """The expected answer to a follow-up.

    Attributes:
        followup_label: The follow-up's gold label where it is known (proven, or assumed equal to the source's);
            empty where only a relation to the source answer is claimed (difference, not the opposite).
        basis: `proven`, `assumed` or `unproven`.
        premises_fol: The follow-up's premises in FOL where proven (empty otherwise).
        conclusion_fol: The follow-up's conclusion in FOL where proven (None otherwise).
    """

    followup_label: str
    basis: Basis
    premises_fol: tuple[Formula, ...] = ()
    conclusion_fol: Formula | None = None


@dataclass(frozen=True)
class Dropped:
    """Why a group is not tested (counted in the build statistics)."""

    reason: str


@dataclass(frozen=True)
class NegationPlan:
    """Which sentences MR-152 negates, and the proven expectation of the result."""

    premises: tuple[int, ...]
    conclusion: bool
    expectation: Expectation


def source_allowed(mr: str, label: str) -> bool:
    """Whether a relation is tested on a source with this gold label (`LexicalRelation.sources`)."""
    return label in SOURCE_LABELS[LEXICAL_RELATIONS[mr].sources]


def source_filter_reason(mr: str) -> str:
    """The drop reason of a source a relation is not tested on."""
    kept = sorted(SOURCE_LABELS[LEXICAL_RELATIONS[mr].sources])
    return f"source label not in {'/'.join(kept)} (the relation's expected change needs it)"


def claimed(mr: str, label: str) -> Expectation:
    """The expectation of a follow-up with no logical reading: LLMorph's claim, assumed or unproven.

    Equivalence relations keep the source's label (assumed); MR-77 and MR-78 (tested on True sources, adding a
    premise or a conjunct the transformer derived) keep True (assumed); MR-79 and MR-80 claim only "not the
    opposite" (assumed); the difference relations with no logical reading claim a change they cannot prove.
    """
    expected = LEXICAL_RELATIONS[mr].expected
    if expected == "equivalence":
        return Expectation(label, "assumed")
    if expected == "not_inverse":
        return Expectation("", "assumed")
    return Expectation("", "unproven")


def _prove(premises: Sequence[Formula], conclusion: Formula, timeout_ms: int) -> str | Dropped:
    result = entailment(premises, conclusion, timeout_ms=timeout_ms)
    if isinstance(result, Contradictory):
        return Dropped("follow-up premises are contradictory")
    if isinstance(result, Undecided):
        return Dropped(f"undecided: {result.reason}")
    return result.value


def _same_label(case: Case, premises: tuple[Formula, ...], timeout_ms: int) -> Expectation | Dropped:
    label = _prove(premises, case.conclusion_fol, timeout_ms)
    if isinstance(label, Dropped):
        return label
    if label != case.label:  # cannot happen for these readings; a guard against a prover or encoding fault
        return Dropped("follow-up label differs from the source's")
    return Expectation(label, "proven", premises, case.conclusion_fol)


def prove_permutation(case: Case, order: Sequence[int], timeout_ms: int) -> Expectation | Dropped:
    """MR-19: the premises in `order` (indices into the source's) have the source's label, proven."""
    return _same_label(case, tuple(case.premises_fol[i] for i in order), timeout_ms)


def fresh_proposition(case: Case) -> Atom:
    """A propositional atom no formula of the case uses: the reading of a sentence that shares nothing with it."""
    used = signature(*case.premises_fol, case.conclusion_fol).predicate_names
    name, n = IRRELEVANT_PREDICATE, 1
    while name in used:
        n += 1
        name = f"{IRRELEVANT_PREDICATE}{n}"
    return Atom(name)


def prove_added_premise(case: Case, timeout_ms: int) -> Expectation | Dropped:
    """MR-84: the premises plus a fresh proposition have the source's label, proven."""
    return _same_label(case, (*case.premises_fol, fresh_proposition(case)), timeout_ms)


def prove_negation(case: Case, premise: int | None, conclusion: bool, timeout_ms: int) -> Expectation | Dropped:
    """MR-152: the label after negating premise `premise` (None: none) and, if `conclusion`, the conclusion.

    Returns:
        The proven expectation if the label changes; otherwise why the group is dropped (`LABEL_KEPT`, contradictory
        premises, undecided).
    """
    premises = tuple(Not(p) if i == premise else p for i, p in enumerate(case.premises_fol))
    goal = Not(case.conclusion_fol) if conclusion else case.conclusion_fol
    label = _prove(premises, goal, timeout_ms)
    if isinstance(label, Dropped):
        return label
    if label == case.label:
        return Dropped(LABEL_KEPT)
    return Expectation(label, "proven", premises, goal)


def plan_negation(case: Case, part: str, rng: random.Random, timeout_ms: int) -> NegationPlan | Dropped:
    """Choose what MR-152 negates in a part, so that the expected change of answer is real (proven).

    `conclusion`: the conclusion. `premises` / `both`: the first premise, in a seeded order, whose negation (with the
    conclusion's, for `both`) provably changes the label.
    """
    if part == "conclusion":
        result = prove_negation(case, None, True, timeout_ms)
        return result if isinstance(result, Dropped) else NegationPlan((), True, result)
    negate_conclusion = part == "both"
    order = list(range(len(case.premises_fol)))
    rng.shuffle(order)
    reasons: list[str] = []
    for index in order:
        result = prove_negation(case, index, negate_conclusion, timeout_ms)
        if isinstance(result, Expectation):
            return NegationPlan((index,), negate_conclusion, result)
        reasons.append(result.reason)
    undecided = [r for r in reasons if r.startswith("undecided")]
    return Dropped(undecided[0] if undecided else NO_CHANGING_PREMISE)
