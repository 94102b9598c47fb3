"""The QMFOL scorer and its Inspect metrics (paper §4): accuracy, label-wise F1, macro-F1, answer distribution.

The scorer parses the completion with the one label parser (`parse_label`; the gold of Unknown1 and Unknown2 tasks
is `Unknown`) and returns the flat indicator dict of `qmfol_arithmetic.sample_outcome`. The metrics are thin wrappers
around the pure functions of `qmfol_arithmetic`, which state the definitions and denominators.

What appears in the log's results (`log.results.scores[0].metrics`):

- `accuracy`, `accuracy_stderr`: correct answers / all tasks (an unparsed answer is wrong, as in the paper), and its
  delta-method standard error; `accuracy_parsed`, `accuracy_parsed_stderr`: the same over parsed answers only;
- `f1_True`, `f1_False`, `f1_Unknown`, `macro_f1`: label-wise F1 and their mean (Table 2), an unparsed answer
  counted as a miss; `f1_<L>_parsed`, `macro_f1_parsed`: over parsed answers only;
- `dist_<gold>_<answer>` (nine) and `dist_<gold>_unparsed` (three): the answer distribution per gold label over
  all tasks (Table 3, each gold row summing to 1);
- `unparsed_rate`: answers the parser could not read / tasks;
- breakdowns of accuracy: `accuracy_d<D>_w<W>` (depth × width, Figure 4), `accuracy_D<n>` (distractors, Table 5),
  `accuracy_<Topic>` (Table 6), `accuracy_<Label>` (per gold label); and `unparsed_rate_<Label>`.

Time and tokens per sample (Figure 4's overheads) are not metrics: Inspect records them per sample, and
`lgmt_tasks.qmfol.report` reads them from the log.

Epochs: every number is a ratio of sums of per-sample indicators, so Inspect's default `mean` reducer keeps them
exact (pooled over all sample-epochs).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.accuracy import accuracy, accuracy_stderr  # shared with LogicAsker
from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.scorers.outcomes import checked_gold, how_read, score_outcomes
from lgmt_tasks.scorers.pairwise import Rate
from lgmt_tasks.scorers.qmfol_arithmetic import (
    OUTCOME_KEYS,
    Outcome,
    accuracy_parsed,
    answer_distribution,
    f1_scores,
    sample_outcome,
)
from lgmt_tasks.scorers.rate_metrics import breakdown, rate_metric_pair
from lgmt_tasks.scorers.unparsed import unparsed_rate  # shared by every suite
from lgmt_tasks.vocabulary import TRUTH_LABELS, UNPARSED

BREAKDOWNS: dict[str, str] = {
    "depth_width": "accuracy by depth × width (`d5_w10`), Figure 4",
    "distractor_level": "accuracy by number of distractors (`D0` … `D20`), Table 5",
    "topic": "accuracy by topic, Table 6",
    "label": "accuracy by gold label (the recall of each label)",
}
"""Sample metadata keys that accuracy is broken down by, and what each breakdown is."""


def outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the indicator dicts of QMFOL scores, checked.

    Args:
        scores: Scores produced by `qmfol_scorer` (possibly epoch-reduced).

    Returns:
        One outcome per score with every key of `OUTCOME_KEYS` as a float.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with those keys.
    """
    return score_outcomes(scores, OUTCOME_KEYS, "QMFOL")


def _accuracy_parsed(scores: Sequence[SampleScore]) -> Rate:
    return accuracy_parsed(outcomes_of(scores))


qmfol_accuracy_parsed, qmfol_accuracy_parsed_stderr = rate_metric_pair(
    "accuracy_parsed", _accuracy_parsed, "accuracy over parsed answers only: correct answers / parsed answers"
)


@metric(name="f1")
def qmfol_f1() -> Metric:
    """Compute `f1_True`, `f1_False`, `f1_Unknown`, `macro_f1` (unparsed = a miss) and their `_parsed` twins."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return f1_scores(outcomes_of(scores))

    return compute


@metric(name="answer_distribution")
def qmfol_answer_distribution() -> Metric:
    """Compute `dist_<gold>_<answer>` and `dist_<gold>_unparsed`: shares among all tasks of each gold label."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return answer_distribution(outcomes_of(scores))

    return compute


def qmfol_metrics(breakdowns: Sequence[str] = tuple(BREAKDOWNS)) -> list[Metric]:
    """List the QMFOL metrics: headline numbers, F1s, the distribution, and the breakdowns of accuracy.

    Args:
        breakdowns: Metadata keys (of `BREAKDOWNS`) to break accuracy down by.

    Returns:
        The list to pass as `@scorer(metrics=...)` or `Task(metrics=...)`.
    """
    unknown = sorted(set(breakdowns) - set(BREAKDOWNS))
    if unknown:
        raise ValueError(f"breakdowns: unknown key(s) {unknown}; expected among {', '.join(BREAKDOWNS)}")
    return [
        accuracy(),
        accuracy_stderr(),
        qmfol_accuracy_parsed(),
        qmfol_accuracy_parsed_stderr(),
        qmfol_f1(),
        qmfol_answer_distribution(),
        unparsed_rate(),
        *(breakdown(accuracy, key, "accuracy") for key in breakdowns),
        breakdown(unparsed_rate, "label", "unparsed_rate"),
    ]


@scorer(metrics=qmfol_metrics())
def qmfol_scorer() -> Scorer:
    """Score a QMFOL answer: parse the label from the completion and compare it with the gold label.

    Returns:
        A scorer whose value is the flat dict of `sample_outcome` (keys `OUTCOME_KEYS`, each 0/1), whose answer is
        the parsed label (or `unparsed`), and whose explanation says what was read and how.
    """

    async def score(state: TaskState, target: Target) -> Score:
        gold = checked_gold(state, target, TRUTH_LABELS)
        parsed = parse_label(state.output.completion)
        outcome = sample_outcome(gold, parsed.label)
        construction = (state.metadata or {}).get("construction", gold)
        verdict = "wrong: unparsed" if parsed.label is None else ("correct" if outcome["correct"] else "wrong")
        explanation = (
            f"Gold: {gold} ({construction}). Answer: {parsed.label or UNPARSED} "
            f"({parsed.how}: {parsed.detail}). {verdict}."
        )
        return Score(
            value=dict(outcome),
            answer=parsed.label or UNPARSED,
            explanation=explanation,
            metadata=how_read(parsed),
        )

    return score
