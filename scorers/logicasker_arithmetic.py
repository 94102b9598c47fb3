"""Metric arithmetic of LogicAsker, in pure Python (DESIGN decision 6): accuracy, response accuracy, instruction rate.

LogicAsker §3.3 separates two things a reply must do: follow the instruction (answer yes or no) and reason
correctly. Its *response accuracy* is N_correct / N_satisfy, the share of correct answers among the answers that
follow the instruction; the *instruction-following rate* is N_satisfy / N. Our headline *accuracy* is
N_correct / N, an answer that does not follow the instruction counting as wrong (as every headline accuracy of this
package does), so that a model cannot look accurate by refusing; response accuracy, the paper's figure over the
answers that followed the instruction, and the instruction-following rate are reported beside it. An answer follows
the instruction when the one yes/no parser (`answers.parse_yes_no`) reads a yes or a no from it, strictly: "cannot"
is not "no", "Yes and no" is no answer (the authors' substring matching counted both).

One test's outcome is `{"correct": 0/1, "answered": 0/1}` (`correct` is 0 when unanswered). The rates are ratios
of sums with the delta-method standard error of `pairwise.ratio_of_sums`, so that they stay exact when Inspect
reduces epochs to per-test means first. Per-skill figures are small samples (a few tests per skill), so the
weakness report gives Wilson score intervals on the counts instead of normal-approximation errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lgmt_tasks.scorers.pairwise import Rate, outcome_column, ratio_of_sums
from lgmt_tasks.vocabulary import YES_NO_LABELS

OUTCOME_KEYS: tuple[str, ...] = ("correct", "answered")
"""The keys of one test's outcome (the keys of the LogicAsker score dict)."""

Outcome = Mapping[str, float]
"""One test's indicators: 0/1, or their means over epochs."""


def yes_no_outcome(gold: str, answer: str | None) -> dict[str, int]:
    """Score one test.

    Args:
        gold: The proven answer, `yes` or `no`.
        answer: The parsed answer, or None when the reply did not follow the instruction.

    Returns:
        `{"correct": 1 if answer == gold else 0, "answered": 1 if answer is not None else 0}`.

    Raises:
        ValueError: If `gold` is not `yes` or `no`.
    """
    if gold not in YES_NO_LABELS:
        raise ValueError(f"gold answer must be 'yes' or 'no', got {gold!r}")
    return {"correct": int(answer == gold), "answered": int(answer is not None)}


def _column(outcomes: Sequence[Outcome], key: str) -> list[float]:
    return outcome_column(outcomes, key, f"expected the keys {', '.join(OUTCOME_KEYS)}")


def accuracy(outcomes: Sequence[Outcome]) -> Rate:
    """Compute accuracy: Σ correct / number of tests (an unanswered test is wrong); NaN for no tests."""
    correct = _column(outcomes, "correct")
    return ratio_of_sums(correct, [1.0] * len(correct))


def response_accuracy(outcomes: Sequence[Outcome]) -> Rate:
    """Compute response accuracy (§3.3): Σ correct / Σ answered; NaN when nothing was answered."""
    return ratio_of_sums(_column(outcomes, "correct"), _column(outcomes, "answered"))


def instruction_following_rate(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the instruction-following rate (§3.3): Σ answered / number of tests; NaN for no tests."""
    answered = _column(outcomes, "answered")
    return ratio_of_sums(answered, [1.0] * len(answered))


def summarize(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """The three rates and their standard errors, flat (`accuracy`, `response_accuracy`, `..._stderr`, ...)."""
    overall = accuracy(outcomes)
    acc = response_accuracy(outcomes)
    ifr = instruction_following_rate(outcomes)
    return {
        "accuracy": overall.value,
        "accuracy_stderr": overall.stderr,
        "response_accuracy": acc.value,
        "response_accuracy_stderr": acc.stderr,
        "instruction_following_rate": ifr.value,
        "instruction_following_rate_stderr": ifr.stderr,
    }
