"""Proof obligations: a follow-up is shipped only if Z3 proves it preserves the entailment label.

`verify(case, followup)` discharges the follow-up's own obligation:

* ("equivalence", φ, φ'): Z3 proves φ ≡ φ' (and a structural check confirms that φ' replaced φ and nothing else
  changed, so the equivalence really implies an unchanged label);
* ("label",): Z3 computes both three-valued labels (True iff Γ ⊨ q, False iff Γ ⊨ ¬q, Unknown otherwise) and
  they are equal; a contradictory follow-up of a consistent source is a refutation.

`recheck(case, followup)` is the independent check used by the tests: it ignores the obligation and always
compares the two labels.

Three outcomes are kept apart (STYLE: never collapse distinct failures): `Verified`, `Refuted` (the prover, or
the structural check, shows the follow-up is wrong: a bug in a relation) and `Inconclusive` (a time limit,
an incomplete theory, or a source that has no label). Each carries a short, stable `reason` that builders
use as a drop bucket.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Undecided, entailment, equivalent
from lgmt_tasks.logic.syntax import free_vars
from lgmt_tasks.sources.case import Case


@dataclass(frozen=True)
class Verified:
    """The obligation is proven."""

    reason: str = "proven"

    @property
    def proven(self) -> bool:
        """Always True."""
        return True

    @property
    def status(self) -> Literal["proven"]:
        """`"proven"`."""
        return "proven"


@dataclass(frozen=True)
class Refuted:
    """The follow-up does not preserve the label (or is malformed): never ship it."""

    reason: str

    @property
    def proven(self) -> bool:
        """Always False."""
        return False

    @property
    def status(self) -> Literal["refuted"]:
        """`"refuted"`."""
        return "refuted"


@dataclass(frozen=True)
class Inconclusive:
    """Neither proven nor refuted (time limit, incompleteness, or no source label)."""

    reason: str

    @property
    def proven(self) -> bool:
        """Always False."""
        return False

    @property
    def status(self) -> Literal["undecided"]:
        """`"undecided"`."""
        return "undecided"


Verdict = Verified | Refuted | Inconclusive


def structural_problem(case: Case, followup: FollowUp) -> str | None:
    """Check a follow-up's claims cheaply, without the prover; return the problem found, or None.

    Checks that every follow-up formula is a sentence, that each premise claimed to be a verbatim copy is one,
    that `conclusion_changed` is truthful, and, for an equivalence obligation, that the follow-up is the source
    with exactly the one formula replaced.
    """
    for k, f in enumerate((*followup.premises_fol, followup.conclusion_fol)):
        if free_vars(f):
            return f"malformed: free variables {sorted(free_vars(f))} in follow-up formula {k + 1}"
    n = len(case.premises_fol)
    for k, o in enumerate(followup.premise_origin):
        if o is not None and (not 0 <= o < n or followup.premises_fol[k] != case.premises_fol[o]):
            return f"malformed: follow-up premise {k + 1} is not a copy of source premise {o}"
    if followup.conclusion_changed != (followup.conclusion_fol != case.conclusion_fol):
        return "malformed: conclusion_changed does not match the conclusions"
    if followup.obligation[0] == "equivalence":
        _, original, rewritten = followup.obligation
        if followup.conclusion_fol != case.conclusion_fol:
            frame_ok = (
                case.conclusion_fol == original
                and followup.conclusion_fol == rewritten
                and followup.premises_fol == case.premises_fol
            )
        elif len(followup.premises_fol) != n:
            frame_ok = False
        else:
            diffs = [i for i, (a, b) in enumerate(zip(case.premises_fol, followup.premises_fol, strict=True)) if a != b]
            frame_ok = (
                len(diffs) == 1
                and case.premises_fol[diffs[0]] == original
                and followup.premises_fol[diffs[0]] == rewritten
            )
        if not frame_ok:
            return "malformed: the equivalence obligation does not describe the only change"
    return None


def _label_text(label: object) -> str:
    return str(getattr(label, "value", label))


def _labels_agree(case: Case, followup: FollowUp, timeout_ms: int, source_label: str | None) -> Verdict:
    if source_label is None:
        src = entailment(case.premises_fol, case.conclusion_fol, timeout_ms=timeout_ms)
        if isinstance(src, Contradictory):
            return Inconclusive("source premises contradictory")
        if isinstance(src, Undecided):
            return Inconclusive(f"undecided: {src.reason} (source label)")
        source_label = _label_text(src)
    got = entailment(followup.premises_fol, followup.conclusion_fol, timeout_ms=timeout_ms)
    if isinstance(got, Contradictory):
        return Refuted("follow-up premises contradictory")
    if isinstance(got, Undecided):
        return Inconclusive(f"undecided: {got.reason} (follow-up label)")
    if _label_text(got) != source_label:
        return Refuted(f"label changed: {source_label} -> {_label_text(got)}")
    return Verified(f"label unchanged: {source_label}")


def verify(
    case: Case,
    followup: FollowUp,
    *,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    source_label: str | None = None,
    steps: bool = False,
) -> Verdict:
    """Discharge the follow-up's proof obligation with Z3.

    Args:
        case: The source case.
        followup: A follow-up of `case` (from a relation, a chain, or anywhere else).
        timeout_ms: Z3 limit per query.
        source_label: The source's proven label, if already known (saves one entailment query for "label"
            obligations). Pass only a label the prover produced.
        steps: For a composed follow-up, also discharge every step's own obligation.

    Returns:
        `Verified`, `Refuted` or `Inconclusive`, with a reason.
    """
    problem = structural_problem(case, followup)
    if problem is not None:
        return Refuted(problem)
    if followup.obligation[0] == "equivalence":
        _, original, rewritten = followup.obligation
        result = equivalent(original, rewritten, timeout_ms=timeout_ms)
        if isinstance(result, Undecided):
            verdict: Verdict = Inconclusive(f"undecided: {result.reason} (equivalence)")
        elif result is True:
            verdict = Verified("equivalent")
        else:
            verdict = Refuted("not equivalent")
    else:
        verdict = _labels_agree(case, followup, timeout_ms, source_label)
    if steps and followup.steps and verdict.proven:
        current = case
        for step in followup.steps:
            step_verdict = verify(current, step, timeout_ms=timeout_ms)
            if not step_verdict.proven:
                return type(step_verdict)(f"step {step.mr}: {step_verdict.reason}")
            current = step.as_case(current)
    return verdict


def recheck(
    case: Case, followup: FollowUp, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, source_label: str | None = None
) -> Verdict:
    """Independent re-check: compare the two entailment labels, whatever the obligation says."""
    problem = structural_problem(case, followup)
    if problem is not None:
        return Refuted(problem)
    return _labels_agree(case, followup, timeout_ms, source_label)
