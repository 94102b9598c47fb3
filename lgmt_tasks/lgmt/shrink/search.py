"""The greedy search for a minimal violating group (delta debugging / Hypothesis-style shrinking).

For one violating group:

1. Re-ask the original group (two model calls). If it no longer violates (a sampling model), the group is
   reported as not reproduced and not shrunk: a search needs a test that fails to begin with.
2. Take every one-step simplification of the current source (`candidates`), smallest first. For each: re-prove
   it and re-derive its follow-up by the same relation (`derive`); a refuted candidate is rejected and an
   undecided one is counted and discarded, neither costs a model call. A proven candidate is asked (two calls);
   the first one that still violates becomes the current group, and step 2 starts again from it.
3. Stop when no candidate of the current group violates (it is 1-minimal: no single step keeps the violation) or
   when the next question would exceed `max_calls` model calls for this group (then the group is the smallest
   found so far, `exhausted` is set; if no step was accepted the group is `not shrunk (budget)` and is not
   written as a minimal group, `Outcome.kept`).

A candidate whose prompts were already asked is not asked again; its earlier answers are reused.
Every candidate, its prover verdict and the model's answers are recorded as `Step`s for `trace.json`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lgmt_tasks.lgmt.dataset import member_prompts
from lgmt_tasks.lgmt.shrink.asker import Answers, Asker
from lgmt_tasks.lgmt.shrink.candidates import Candidate, Shape, candidates
from lgmt_tasks.lgmt.shrink.derive import Derived, Original, Rejected, derive


@dataclass
class Step:
    """One candidate considered: what it was, what the prover said, what the model answered, and the decision.

    `decision` is `accepted` (proven and still violating: the new current group), `rejected` (proven, asked, no
    violation), `refuted` or `undecided` (not proven: never asked, never used), or `unasked` (proven, but the
    call budget was spent); the first step, the original group asked again, is `reproduced` or `not reproduced`
    (or `unasked` when the budget does not allow even that).
    """

    group: str
    round: int
    step: str
    size: tuple[int, int, int]
    premises_fol: list[str]
    conclusion_fol: str
    prover: str
    reason: str
    decision: str
    gold: str | None = None
    followup_premises_fol: list[str] | None = None
    followup_conclusion_fol: str | None = None
    answers: list[str | None] | None = None
    responses: list[str] | None = None
    calls_so_far: int = 0

    def to_json(self) -> dict[str, Any]:
        """The step as plain data."""
        return dict(self.__dict__)


@dataclass
class Outcome:
    """The result of shrinking one group."""

    original: Original
    reproduced: bool
    minimal: Derived | None
    calls: int
    exhausted: bool
    steps: list[Step] = field(default_factory=list)

    def count(self, decision: str) -> int:
        """How many steps ended with `decision`."""
        return sum(1 for s in self.steps if s.decision == decision)

    @property
    def kept(self) -> bool:
        """Whether the group has a minimal version to write: reproduced, and shrunk or searched to the end.

        A group whose call budget ran out before any smaller group was accepted is not shrunk: its "minimal" group
        would be the original itself, named as if it were minimal (`not shrunk (budget)`).
        """
        return self.minimal is not None and not (self.exhausted and self.count("accepted") == 0)

    @property
    def ended(self) -> str:
        """How the search ended, in words.

        `1-minimal`, `shrunk (budget)` (smaller, but the budget ran out before the end), `not shrunk (budget)`,
        `not reproduced`, or `no call budget` (not even the original group could be asked again).
        """
        if not self.reproduced:
            return "no call budget" if self.exhausted else "not reproduced"
        if not self.exhausted:
            return "1-minimal"
        return "shrunk (budget)" if self.count("accepted") else "not shrunk (budget)"


def _step(original: Original, round_: int, candidate: Candidate, result: Derived | Rejected, calls: int) -> Step:
    shape = candidate.shape
    premises, conclusion = shape.key()
    step = Step(
        group=str(original.row["id"]),
        round=round_,
        step=candidate.step,
        size=shape.size(),
        premises_fol=list(premises),
        conclusion_fol=conclusion,
        prover=result.status,
        reason=result.verdict if isinstance(result, Derived) else result.reason,
        decision=result.status if isinstance(result, Rejected) else "unasked",
        calls_so_far=calls,
    )
    if isinstance(result, Derived):
        step.gold = result.case.label
        step.followup_premises_fol = list(result.row["followup_premises_fol"])
        step.followup_conclusion_fol = str(result.row["followup_conclusion_fol"])
    return step


def _record(step: Step, answers: Answers, calls: int) -> None:
    step.answers = list(answers.labels)
    step.responses = list(answers.responses)
    step.calls_so_far = calls
    step.decision = "accepted" if answers.violation else "rejected"


async def shrink_group(
    original: Original, asker: Asker, *, max_calls: int, seed: int = 0, timeout_ms: int, rlimit: int | None
) -> Outcome:
    """Shrink one violating group; see the module docstring.

    Args:
        original: The violating group.
        asker: The model, asked as in the log.
        max_calls: Model calls allowed for this group, the confirming re-ask included.
        seed: Seed of the relation's own further choices.
        timeout_ms: Z3 wall-clock limit per query.
        rlimit: Z3 resource limit of the source-label proof (None: none).
    """
    per = asker.calls_per_group()
    # The original group is asked as it was built (its follow-up and English are the row's own).
    start = Derived(original.case, None, dict(original.row), "proven when built")
    first = Candidate(original.shape, "original group")
    outcome = Outcome(original, reproduced=False, minimal=None, calls=0, exhausted=False)
    step = _step(original, 0, first, start, 0)
    outcome.steps.append(step)
    if per > max_calls:
        step.decision = "unasked"
        outcome.exhausted = True
        return outcome
    answers = await asker.ask(start.row, str(start.case.label))
    outcome.calls = per
    _record(step, answers, outcome.calls)
    step.decision = "reproduced" if answers.violation else "not reproduced"
    if not answers.violation:
        return outcome
    outcome.reproduced = True
    outcome.minimal = start
    current: Shape = original.shape
    asked: dict[tuple[str, ...], Answers] = {tuple(member_prompts(start.row)): answers}
    round_ = 0
    while True:
        round_ += 1
        accepted = False
        for candidate in candidates(current):
            result = derive(original, candidate.shape, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit)
            step = _step(original, round_, candidate, result, outcome.calls)
            outcome.steps.append(step)
            if not isinstance(result, Derived):
                continue
            prompts = tuple(member_prompts(result.row))
            known = asked.get(prompts)
            if known is None:
                if outcome.calls + per > max_calls:
                    outcome.exhausted = True
                    return outcome
                known = await asker.ask(result.row, str(result.case.label))
                outcome.calls += per
                asked[prompts] = known
            _record(step, known, outcome.calls)
            if known.violation:
                current, outcome.minimal, accepted = candidate.shape, result, True
                break
        if not accepted:
            return outcome
