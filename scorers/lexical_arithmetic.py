"""Metric arithmetic of the lexical (LLMorph) groups, in pure Python (DESIGN decision 6).

A lexical group is a source case and one follow-up made by a text-level relation whose expected output relation is
`equivalence` (the same answer), `difference` (MR-10, MR-25, MR-34, MR-152) or `not_inverse` (MR-79, MR-80: not the
opposite answer). Its score is LGMT's outcome dict
(`pairwise.OUTCOME_KEYS`) plus the four cells of LLMorph's confusion matrix and `transformed`, so that LGMT's rate
functions and `@metric`s apply to it unchanged.

The metamorphic oracle (does the relation hold?):

- label outputs (`output=label`): the parsed labels are compared: equivalence holds iff they are equal, difference
  iff they differ, not_inverse iff they are not {True, False}. For equivalence this is exactly LGMT's
  `group_outcome`, and the tests check that it is.
- text outputs (`output=text`): the completions are compared by sentence-embedding cosine similarity, as LLMorph's
  code does (with its containment rule) or as its paper words it: `lexical_text_relation.text_violation`.

Never a satisfied relation from nothing: a group is compared (`parsed` = 1) only if every answer's label parsed and,
for text outputs, both completions are non-empty. LLMorph's public code counts one kind of unreadable output as a
satisfied relation; here it is `parsed = 0` and shows up in `unparsed_rate`.

The ground-truth oracle (is the source answer right?) is the source label against the gold label, in both modes.

Definitions per compared group (v = the metamorphic oracle fails, c = the source answer is correct):

- `violation` = v; `source_correct` = c;
- `followup_correct`: the follow-up label equals the follow-up's gold label where the row states one
  (`followup_label`: proven by Z3 for MR-19, MR-84 and MR-152, assumed equal to the source's for the other
  equivalence relations, True for MR-77 and MR-78). Where it states none (MR-10, MR-25, MR-34: difference with no
  logical reading; MR-79, MR-80: not the opposite), it is relation-relative: the follow-up label stands in the
  relation's output relation to the source's gold label;
- `consistent_correct` = c ∧ `followup_correct`; `hidden_defect` = c ∧ v; `false_unreported` = ¬c ∧ ¬v (LGMT's
  definitions, unchanged). For label outputs of equivalence relations consistent_correct = c ∧ ¬v, so LGMT's
  identities acc_static − acc_cons = hdr and mvr + acc_cons + fur = 1 hold. For MR-152 with a proven follow-up
  label, a correct source and a different but wrong follow-up answer (True → Unknown where False is proven) is no
  violation yet not consistently correct, so there acc_cons can be below acc_static − hdr. For text outputs the
  embedding oracle and the labels can disagree (similar texts, different labels), and the identities need not hold.
- LLMorph's confusion matrix (Table VIII): `cm_pass_correct` (①, both oracles pass: ¬v ∧ c), `cm_pass_wrong` (②,
  the MT oracle passes but the source answer is wrong: ¬v ∧ ¬c), `cm_fail_correct` (③, the MT oracle fails but the
  source answer is right: v ∧ c), `cm_fail_wrong` (④, both fail: v ∧ ¬c). The four cells partition the compared
  groups. ② is LGMT's FUR and ③ is LGMT's HDR, by definition: the two papers name the same two quantities, and we
  log the cells under LLMorph's names too so that a reader can put the table next to LLMorph's Tables V–VIII.

`transformed` is 0 for a group whose LLM follow-up could not be made at eval time (empty output, unchanged text):
such a group is no test at all (LLMorph discards it), every other key is 0 (`tested` too, so the accuracies leave it
out), and `discarded_rate` counts it.
Note that LGMT's `unparsed_rate` (Σ (1 − parsed) / groups) therefore includes discarded groups;
`unparsed_rate − discarded_rate` is the share of groups with an unreadable answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, Outcome, Rate, outcome_column, ratio_of_sums

Expected = Literal["equivalence", "difference", "not_inverse"]

EXPECTED: tuple[str, ...] = ("equivalence", "difference", "not_inverse")
"""The output relations: the same answer, a different answer, not the opposite answer ({True, False})."""

OPPOSITES = frozenset({"True", "False"})
"""The pair of labels LLMorph's `ORNotInverse` (entailment vs contradiction) forbids between source and follow-up."""

CM_KEYS: tuple[str, ...] = ("cm_pass_correct", "cm_pass_wrong", "cm_fail_correct", "cm_fail_wrong")
"""The confusion-matrix cells ①–④ of LLMorph's Table VIII, in that order."""

LEXICAL_KEYS: tuple[str, ...] = (*OUTCOME_KEYS, *CM_KEYS, "transformed")
"""Every key of a lexical score."""


def label_violation(expected: str, source: str, followup: str) -> bool:
    """Whether two parsed labels violate the expected output relation.

    Equivalence: they differ. Difference: they are equal. Not the opposite (MR-79, MR-80): one is True and the other
    False (LLMorph's `ORNotInverse("entailment", "contradiction")`).
    """
    _check_expected(expected)
    if expected == "equivalence":
        return source != followup
    if expected == "difference":
        return source == followup
    return {source, followup} == OPPOSITES


def followup_is_correct(expected: str, gold: str, followup: str, followup_gold: str = "") -> bool:
    """Whether a follow-up answer is right: its gold label where known, else the relation's claim against the gold.

    `followup_gold` is the row's `followup_label` (proven, or assumed equal to the source's); where it is empty the
    relation states only a relation to the source's gold: a different label (difference), not the opposite one
    (not_inverse), the same one (equivalence).
    """
    if followup_gold:
        return followup == followup_gold
    return not label_violation(expected, gold, followup)


def lexical_outcome(
    expected: str,
    gold: str,
    source: str | None,
    followup: str | None,
    violation: bool | None,
    followup_gold: str = "",
) -> dict[str, int]:
    """Score one compared (or not comparable) lexical group.

    Args:
        expected: The relation's expected output relation.
        gold: The gold label of the source case.
        source: The parsed source label (None: unparsed).
        followup: The parsed follow-up label (None: unparsed).
        violation: The metamorphic oracle's verdict (`label_violation`, or `lexical_text_relation.text_violation`),
            or None if it could not be evaluated (an empty completion in text mode).
        followup_gold: The follow-up's gold label where the row states it (`followup_label`), else empty.

    Returns:
        A dict with the keys `LEXICAL_KEYS`, each 0 or 1; every key but `transformed` is 0 unless everything parsed.
    """
    _check_expected(expected)
    if source is None or followup is None or violation is None:
        answered = int(source == gold)
        return {**dict.fromkeys(LEXICAL_KEYS, 0), "transformed": 1, "tested": 1, "source_answered_correctly": answered}
    correct = source == gold
    followup_correct = followup_is_correct(expected, gold, followup, followup_gold)
    values = {
        "violation": violation,
        "source_correct": correct,
        "followup_correct": followup_correct,
        "consistent_correct": correct and followup_correct,
        "hidden_defect": correct and violation,
        "false_unreported": not correct and not violation,
        "parsed": True,
        "source_answered_correctly": correct,
        "tested": True,
        "cm_pass_correct": not violation and correct,
        "cm_pass_wrong": not violation and not correct,
        "cm_fail_correct": violation and correct,
        "cm_fail_wrong": violation and not correct,
        "transformed": True,
    }
    return {key: int(values[key]) for key in LEXICAL_KEYS}


def discarded_outcome() -> dict[str, int]:
    """The score of a group whose follow-up could not be made: every key 0 (it is no test)."""
    return dict.fromkeys(LEXICAL_KEYS, 0)


def _column(outcomes: Sequence[Outcome], key: str) -> list[float]:
    return outcome_column(outcomes, key, f"a lexical score has the keys {', '.join(LEXICAL_KEYS)}")


def confusion_cell(outcomes: Sequence[Outcome], cell: str) -> Rate:
    """One confusion-matrix cell as a share of the compared groups: Σ cell / Σ parsed (NaN if none was compared)."""
    if cell not in CM_KEYS:
        raise ValueError(f"cell must be one of {', '.join(CM_KEYS)}; got {cell!r}")
    return ratio_of_sums(_column(outcomes, cell), _column(outcomes, "parsed"))


def confusion_matrix(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Every confusion-matrix cell as a share of the compared groups (they sum to 1 when anything was compared)."""
    return {cell: confusion_cell(outcomes, cell).value for cell in CM_KEYS}


def discarded_rate(outcomes: Sequence[Outcome]) -> Rate:
    """The share of groups whose follow-up could not be made at eval time: Σ (1 − transformed) / groups."""
    transformed = _column(outcomes, "transformed")
    return ratio_of_sums([1.0 - t for t in transformed], [1.0] * len(transformed))


def flakiness_counts(
    violated_epochs: Mapping[str, Sequence[int | None]],
) -> dict[str, tuple[int, int]]:
    """Count, per group, the epochs in which it violated and the epochs in which it was compared.

    Args:
        violated_epochs: For each group id, its per-epoch `violation` (1/0), or None for an epoch in which it was not
            compared (unparsed or discarded).

    Returns:
        `{group: (violations, compared epochs)}`.
    """
    return {
        group: (sum(1 for v in epochs if v), sum(1 for v in epochs if v is not None))
        for group, epochs in violated_epochs.items()
    }


def flakiness_histogram(counts: Mapping[str, tuple[int, int]], epochs: int) -> dict[int, float]:
    """LLMorph's Table XI: among groups that violated at least once, the share that violated in k of `epochs` runs.

    Only groups compared in every epoch enter (a group with an unreadable answer in some epoch has fewer chances to
    violate, and would blur the shape).

    Args:
        counts: From `flakiness_counts`.
        epochs: The number of epochs of the run.

    Returns:
        `{k: share}` for k = 1..epochs (NaN shares when no group violated).
    """
    if epochs < 1:
        raise ValueError(f"epochs={epochs}: must be at least 1")
    failing = [v for v, n in counts.values() if n == epochs and v > 0]
    if not failing:
        return dict.fromkeys(range(1, epochs + 1), math.nan)
    return {k: sum(1 for v in failing if v == k) / len(failing) for k in range(1, epochs + 1)}


def _check_expected(expected: str) -> None:
    if expected not in EXPECTED:
        raise ValueError(f"expected output relation must be one of {', '.join(EXPECTED)}; got {expected!r}")
