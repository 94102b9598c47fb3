"""The LogicAsker scorer and its Inspect metrics: accuracy, response accuracy, instruction following, breakdowns.

The reply is read with the one yes/no parser (`answers.parse_yes_no`: strict JSON, then explicit statements, else
unparsed); the score is the flat dict of `logicasker_arithmetic.yes_no_outcome`. What appears in the log's results
(`log.results.scores[0].metrics`, keyed by these names):

- `accuracy`: Σ correct / tests, an unanswered test counting as wrong (the headline), with `accuracy_stderr`;
- `response_accuracy`: Σ correct / Σ answered (§3.3: correct answers among those that follow the instruction; the
  paper's figure, over answered tests only), with `response_accuracy_stderr`;
- `instruction_following_rate`: Σ answered / tests;
- `response_accuracy_logic_<logic>`, `response_accuracy_category_<category>`,
  `response_accuracy_problem_type_<type>`, `response_accuracy_length_<n>`: grouped by the attributes of the rule
  tree (the paper's Figures 4-5 and Table 3);
- `response_accuracy_rule_<rule id>` (e.g. `response_accuracy_rule_universal_modus_ponens`): per skill.

A group in which nothing was answered has a NaN response accuracy. Epochs: use Inspect's default `mean` reducer;
the rates are ratios of sums, exact under it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.accuracy import accuracy, accuracy_stderr  # shared with QMFOL
from lgmt_tasks.scorers.answers import ParsedAnswer, parse_yes_no
from lgmt_tasks.scorers.logicasker_arithmetic import (
    OUTCOME_KEYS,
    Outcome,
    instruction_following_rate,
    response_accuracy,
    yes_no_outcome,
)
from lgmt_tasks.scorers.outcomes import checked_gold, how_read, score_outcomes
from lgmt_tasks.scorers.pairwise import Rate
from lgmt_tasks.scorers.rate_metrics import breakdown, rate_metric, rate_metric_pair
from lgmt_tasks.vocabulary import UNPARSED, YES_NO_LABELS

BREAKDOWNS: dict[str, str] = {
    "logic": "response_accuracy_logic",
    "category": "response_accuracy_category",
    "problem_type": "response_accuracy_problem_type",
    "length": "response_accuracy_length",
    "skill": "response_accuracy_rule",
}
"""Sample metadata key → name of its response-accuracy breakdown (`<name>_<value>` in the log)."""


def outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the LogicAsker outcome dicts of scores, checked.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with numeric `correct` and `answered`.
    """
    return score_outcomes(scores, OUTCOME_KEYS, "LogicAsker")


def _response_accuracy(scores: Sequence[SampleScore]) -> Rate:
    return response_accuracy(outcomes_of(scores))


def _instruction_following_rate(scores: Sequence[SampleScore]) -> Rate:
    return instruction_following_rate(outcomes_of(scores))


response_accuracy_metric, response_accuracy_stderr = rate_metric_pair(
    "response_accuracy",
    _response_accuracy,
    "response accuracy: correct answers / answers that follow the instruction (LogicAsker §3.3)",
)
instruction_following_rate_metric = rate_metric(
    "instruction_following_rate",
    _instruction_following_rate,
    "Compute the instruction-following rate: answers read as yes or no / tests (LogicAsker §3.3).",
)


def logicasker_metrics(breakdowns: Sequence[str] = tuple(BREAKDOWNS)) -> list[Metric]:
    """List the LogicAsker metrics: the two rates, the standard error, and response accuracy per attribute.

    Args:
        breakdowns: Metadata keys to break response accuracy down by (keys of `BREAKDOWNS`).

    Returns:
        The list to pass as `@scorer(metrics=...)`.
    """
    unknown = [b for b in breakdowns if b not in BREAKDOWNS]
    if unknown:
        raise ValueError(f"unknown breakdown(s) {unknown}; expected some of {', '.join(BREAKDOWNS)}")
    return [
        accuracy(),
        accuracy_stderr(),
        response_accuracy_metric(),
        response_accuracy_stderr(),
        instruction_following_rate_metric(),
        *(breakdown(response_accuracy_metric, key, BREAKDOWNS[key]) for key in breakdowns),
    ]


def explain(metadata: Mapping[str, object], gold: str, parsed: ParsedAnswer) -> str:
    """A reader's account of one test: the skill, the gold answer, what was read and how."""
    skill = (
        f"{metadata.get('rule', '?')} ({metadata.get('logic', '?')} {metadata.get('category', '?')}; "
        f"{metadata.get('problem_type', '?')}, length {metadata.get('length', '?')})"
    )
    if parsed.label is None:
        verdict = "Did not follow the instruction (no yes/no read): wrong for accuracy; left out of response_accuracy."
    elif parsed.label == gold:
        verdict = "Correct."
    else:
        verdict = "Wrong."
    return f"Skill: {skill}. Gold: {gold}. Read: {parsed.label or UNPARSED} ({parsed.how}: {parsed.detail}). {verdict}"


@scorer(metrics=logicasker_metrics())
def yes_no_answer() -> Scorer:
    """Score a LogicAsker reply: parse yes/no strictly and compare with the proven answer.

    Returns:
        A scorer whose value is `{"correct": 0/1, "answered": 0/1}`, whose answer is the parsed label (or
        `unparsed`), and whose metadata says how it was parsed.
    """

    async def score(state: TaskState, target: Target) -> Score:
        gold = checked_gold(state, target, YES_NO_LABELS, shown="'yes' or 'no'")
        parsed = parse_yes_no(state.output.completion)
        return Score(
            value=dict(yes_no_outcome(gold, parsed.label)),
            answer=parsed.label or UNPARSED,
            explanation=explain(state.metadata or {}, gold, parsed),
            metadata=how_read(parsed),
        )

    return score
