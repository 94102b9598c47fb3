"""What every suite's scorer does the same way: read the solver's answers, check the gold, read dict scores back.

A scorer of this package reads its sample's completions (from `state.store[RESPONSES_KEY]` for a group, or from
`state.output` for a single reply), checks the gold target against the suite's labels, parses each completion with
the one answer parser (`answers`), and returns a flat dict of numbers, the sample's *outcome*. Its metrics get the
outcomes back from the scores (`score_outcomes`, after Inspect's epoch reduction: per-key means) and hand them to the
pure functions of the suite's `*_arithmetic` module (a `*_metrics` module holds Inspect metrics). The checks and the
record of how each answer was read are written once, here, so that every suite names a malformed sample in the same
words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from inspect_ai.scorer import SampleScore, Target
from inspect_ai.solver import TaskState

from lgmt_tasks.vocabulary import RESPONSES_KEY


class Reading(Protocol):
    """How one completion was read: a `ParsedAnswer`, or DivLogicEval's `Choice`."""

    @property
    def how(self) -> str:
        """How it was read (`strict`, `lenient`, `option_text`, `unparsed`)."""
        ...

    @property
    def detail(self) -> str:
        """What was matched, or why nothing was."""
        ...


def stored_responses(state: TaskState, *, count: int | None, what: str, scorer: str, solver: str) -> list[str]:
    """The completions a group solver stored for this sample, in member order, checked.

    Args:
        state: The sample's state.
        count: How many completions the scorer needs; None for at least two (a source and its follow-ups).
        what: How the error message describes them (e.g. `two responses (source, follow-up)`).
        scorer: The scorer's name, for the error message.
        solver: The solver whose output the scorer reads, for the error message.

    Returns:
        The completions, as strings.

    Raises:
        ValueError: Naming the sample, the store key, the scorer and its solver, if the store holds no list of the
            right length (the sample was not run by that solver).
    """
    responses = state.store.get(RESPONSES_KEY)
    if not isinstance(responses, list) or (len(responses) != count if count is not None else len(responses) < 2):
        raise ValueError(
            f"Sample {state.sample_id}: expected {what} in the store (key {RESPONSES_KEY!r}); {scorer} scores the "
            f"output of the {solver} solver"
        )
    return [str(response) for response in responses]


def checked_gold(state: TaskState, target: Target, labels: Sequence[str], shown: str | None = None) -> str:
    """The sample's gold label (the target text), checked against the suite's labels.

    Args:
        state: The sample's state (for its id).
        target: The sample's target.
        labels: The labels a gold may be.
        shown: How the error message lists them; by default `one of <label>, <label>, ...`.

    Raises:
        ValueError: Naming the sample, if the target is not one of `labels`.
    """
    gold = target.text
    if gold not in labels:
        expected = shown or f"one of {', '.join(labels)}"
        raise ValueError(f"Sample {state.sample_id}: target must be {expected}; got {gold!r}")
    return gold


def how_read(reading: Reading) -> dict[str, str]:
    """The score metadata of a single reply: how it was parsed (`parsed_how`) and what was matched (`parse_detail`)."""
    return {"parsed_how": reading.how, "parse_detail": reading.detail}


def how_each_read(readings: Sequence[Reading]) -> dict[str, list[str]]:
    """The score metadata of a group's replies, in member order: `parsed_how` and `parse_details`."""
    return {"parsed_how": [r.how for r in readings], "parse_details": [r.detail for r in readings]}


def score_outcomes(scores: Sequence[SampleScore], keys: Sequence[str], suite: str) -> list[Mapping[str, float]]:
    """The outcome dicts of scores, checked: for each score, the value of every key in `keys`, as a float.

    Args:
        scores: The scores a metric receives (possibly epoch-reduced: then each key holds a mean).
        keys: The keys the metrics read.
        suite: Whose metrics these are, for the error message (e.g. `LGMT`).

    Raises:
        ValueError: Naming the sample, if a score is not a dict with a number under every key (another scorer's
            score, or a score of an older version).
    """
    outcomes: list[Mapping[str, float]] = []
    for sample_score in scores:
        value = sample_score.score.value
        outcome: dict[str, float] = {}
        for key in keys:
            number = value.get(key) if isinstance(value, Mapping) else None
            if not isinstance(number, int | float):
                raise ValueError(
                    f"Sample {sample_score.sample_id}: {suite} metrics need a dict score with numeric "
                    f"{', '.join(keys)}; got {value!r:.200}"
                )
            outcome[key] = float(number)
        outcomes.append(outcome)
    return outcomes
