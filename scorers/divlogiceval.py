"""The DivLogicEval circular scorer and its Inspect metrics: ACC, Circular, PartialCircular (DivLogicEval §2.2).

Each rotation's completion is read with the one answer parser (`parse_choice`: `Answer: C`, `(C)`, `C)`, a lone
`C`), then, if that finds no letter, by matching the option text (`read_choice`; a completion that is exactly an
option's text is read as that option even after `Answer:`, whose "A man ..." the letter parser would take for the
letter A), else it is unparsed. The letter is mapped back to the original option, and the four predictions go to the
pure functions of `divlogiceval_arithmetic`.

What appears in the log's results (`log.results.scores[0].metrics`):

- `acc`, `circular`, `partial_circular` (PC_α with the task's `alpha`; the paper's PartialCircular at α = 1),
  `rotation_acc` (c/4 averaged, i.e. PC_0) and `unparsed_rate` (unread answers / all answers): means over instances,
  an unread answer counting as wrong;
- `<metric>_stderr`: their standard errors over instances;
- `acc_parsed`, `acc_parsed_stderr`: ACC over the instances whose original-order answer parsed (named apart from
  `acc`; read it with `unparsed_rate`);
- `<metric>_<question type>` (e.g. `circular_3e1c`, `partial_circular_missing`): each metric per question type
  (the paper's Table 9).

Epochs: with Inspect's default `mean` reducer every metric is the mean over instances of the per-instance mean over
epochs, i.e. the mean over all instance-epochs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.rotation import ROTATIONS, rotation_order, to_original
from lgmt_tasks.scorers.answers import parse_choice
from lgmt_tasks.scorers.divlogiceval_arithmetic import (
    METRIC_NAMES,
    NO_ANSWER_INDEX,
    OUTCOME_KEYS,
    check_alpha,
    instance_mean,
    instance_outcome,
)
from lgmt_tasks.scorers.divlogiceval_arithmetic import acc_parsed as acc_parsed_of
from lgmt_tasks.scorers.outcomes import checked_gold, how_each_read, score_outcomes, stored_responses
from lgmt_tasks.scorers.pairwise import Rate
from lgmt_tasks.scorers.rate_metrics import Estimate, breakdown, rate_metric_pair
from lgmt_tasks.scorers.unparsed import unparsed_rate, unparsed_rate_stderr  # shared by every suite
from lgmt_tasks.vocabulary import OPTION_LETTERS, UNPARSED

# ---------------------------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Choice:
    """What was read from one rotation's completion.

    Attributes:
        position: The chosen position (0–3) in the rotation shown, or None when unparsed.
        how: `strict` / `lenient` (the letter parser), `option_text` (the text of one option), or `unparsed`.
        detail: What was matched, or why nothing was (shown in `inspect view`).
    """

    position: int | None
    how: str
    detail: str


_ANSWER_LEAD = re.compile(r"^(?:(?:the\s+)?(?:final\s+|correct\s+)?answer\s*(?:is\s*)?:?\s*)", re.IGNORECASE)
_MARKER = re.compile(r"^\(?(?P<letter>[A-D])[.):]\s+")


def _normalise(text: str) -> str:
    """Case-folded text with markdown emphasis, quotes and final punctuation removed and white space collapsed."""
    text = re.sub(r"[*_`\"“”‘’]", "", text)
    text = " ".join(text.split()).strip().rstrip(".!;:,").strip()
    return text.casefold()


def _match_line(line: str, targets: Mapping[str, int]) -> Choice | None:
    """The option a line *is* (after an `Answer:` lead, a letter marker and decoration), or None.

    A letter marker that names another option than the text is a contradiction: unparsed.
    """
    body = _ANSWER_LEAD.sub("", line.strip().strip("*_` "))
    marker = _MARKER.match(body)
    if marker:
        body = body[marker.end() :]
    position = targets.get(_normalise(body))
    if position is None:
        return None
    if marker and OPTION_LETTERS.index(marker.group("letter")) != position:
        detail = f"letter {marker.group('letter')} but the text of option {OPTION_LETTERS[position]}"
        return Choice(None, "unparsed", detail)
    return Choice(position, "option_text", f"text of option {OPTION_LETTERS[position]}")


def _is_option_line(line: str, targets: Mapping[str, int]) -> bool:
    return bool(_MARKER.match(line.strip().strip("*_` "))) or _match_line(line, targets) is not None


def read_choice(text: str, options: Sequence[str]) -> Choice:
    """Read the chosen option of one completion: the letter parser, the option's text, else unparsed.

    The letter is read by the one answer parser (`parse_choice`). The text reading accepts a final line (or a whole
    completion) that *is* one option's text, after an optional `Answer:` lead, an optional letter marker (`C.`,
    `(C)`) and decoration are removed; a marker that names another option than the text is a contradiction, and
    unparsed. Text merely containing an option is not an answer (STYLE: no substring matching in free text), and a
    completion that ends with two option lines (`C. ...`, or an option's text) is the model listing the options, not
    answering: unparsed, even though the letter parser would read the letter the reply opens with.

    A final line that is exactly an option's text wins over the letter parser: many options start with the article
    "A" ("A man plays the saxophone ..."), which the letter parser reads as the letter A after a cue
    (`Answer: A man plays ...`). Otherwise the letter comes first, and the text is the fallback.

    Args:
        text: The completion.
        options: The four option texts in the order they were shown.

    Returns:
        The choice, as a position in the shown order.
    """
    targets = {_normalise(option): i for i, option in enumerate(options)}
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and _is_option_line(lines[-1], targets) and _is_option_line(lines[-2], targets):
        return Choice(None, "unparsed", "the completion ends by listing options, without an answer")
    final = _match_line(lines[-1], targets) if lines else None
    if final is not None:
        return final
    parsed = parse_choice(text)
    if parsed.label is not None:
        return Choice(OPTION_LETTERS.index(parsed.label), parsed.how, parsed.detail)
    whole = _match_line(" ".join(lines), targets) if len(lines) > 1 else None
    if whole is not None:
        return whole
    return Choice(None, "unparsed", f"{parsed.detail}; no option text either")


def predictions_of(responses: Sequence[str], options: Sequence[str]) -> tuple[list[int], list[Choice]]:
    """Read the four rotations' completions and map each to the original option index.

    Args:
        responses: The completions, rotation order (rotation 0 = original order first).
        options: The four options in their original order.

    Returns:
        The predicted original indices (`NO_ANSWER_INDEX` for unread answers) and what was read from each completion.
    """
    predictions: list[int] = []
    choices: list[Choice] = []
    for rotation, response in enumerate(responses):
        shown = [options[i] for i in rotation_order(rotation)]
        choice = read_choice(str(response), shown)
        choices.append(choice)
        predictions.append(NO_ANSWER_INDEX if choice.position is None else to_original(choice.position, rotation))
    return predictions, choices


def rules_read(state: TaskState, responses: Sequence[str]) -> list[bool]:
    """Whether this suite's rules read each rotation's completion: its letter, or an option's text.

    A grader model (`-T grader`, `scorers.grader`) is asked only about the completions these rules do not read.
    """
    options = (state.metadata or {}).get("options")
    if not isinstance(options, list) or len(options) != len(responses):
        raise ValueError(f"Sample {state.sample_id}: metadata['options'] must hold one option per rotation")
    _, choices = predictions_of(responses, [str(option) for option in options])
    return [choice.position is not None for choice in choices]


# ---------------------------------------------------------------------------------------------------- metrics


def outcomes_of(scores: Sequence[SampleScore]) -> list[Mapping[str, float]]:
    """The per-instance outcome dicts of DivLogicEval scores, checked.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with the keys `OUTCOME_KEYS`.
    """
    return score_outcomes(scores, OUTCOME_KEYS, "DivLogicEval")


def _mean(name: str) -> Estimate:
    """The mean over instances of one metric of `METRIC_NAMES`, with its standard error, over DivLogicEval scores."""

    def estimate(scores: Sequence[SampleScore]) -> Rate:
        return instance_mean(outcomes_of(scores), name)

    return estimate


acc, acc_stderr = rate_metric_pair(
    "acc", _mean("acc"), "Accuracy: the share of instances whose original order was answered right (ACC, §2.2)"
)
circular, circular_stderr = rate_metric_pair(
    "circular",
    _mean("circular"),
    "Circular: the share of instances with all four rotations answered right (CIR, §2.2)",
)
partial_circular, partial_circular_stderr = rate_metric_pair(
    "partial_circular",
    _mean("partial_circular"),
    "PartialCircular: the mean of c/4 · [(1 − α) + α(1 − H)] over instances (Eq. 2, Appendix F)",
)
rotation_acc, rotation_acc_stderr = rate_metric_pair(
    "rotation_acc",
    _mean("rotation_acc"),
    "the accuracy over all rotations: the mean of c/4 (PartialCircular at α = 0)",
)


def _acc_parsed(scores: Sequence[SampleScore]) -> Rate:
    return acc_parsed_of(outcomes_of(scores))


acc_parsed, acc_parsed_stderr = rate_metric_pair(
    "acc_parsed",
    _acc_parsed,
    "Accuracy over the instances whose original-order answer parsed: Σ acc / Σ original_parsed",
)

METRICS: dict[str, Callable[[], Metric]] = {
    "acc": acc,
    "circular": circular,
    "partial_circular": partial_circular,
    "rotation_acc": rotation_acc,
    "unparsed_rate": unparsed_rate,
}
"""The metric factories by name (`METRIC_NAMES`)."""

STDERR_METRICS: dict[str, Callable[[], Metric]] = {
    "acc": acc_stderr,
    "circular": circular_stderr,
    "partial_circular": partial_circular_stderr,
    "rotation_acc": rotation_acc_stderr,
    "unparsed_rate": unparsed_rate_stderr,
}
"""The standard-error metric factories by the name of their metric."""


def by_question_type(name: str) -> Metric:
    """One metric per question type, named `<name>_<type>` in the log (e.g. `circular_3e1c`)."""
    if name not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRIC_NAMES)}; got {name!r}")
    return breakdown(METRICS[name], "question_type", name)


def divlogiceval_metrics() -> list[Metric]:
    """Every metric, its standard error, and every metric per question type."""
    return [
        *(METRICS[name]() for name in METRIC_NAMES),
        *(STDERR_METRICS[name]() for name in METRIC_NAMES),
        acc_parsed(),
        acc_parsed_stderr(),
        *(by_question_type(name) for name in METRIC_NAMES),
    ]


# ----------------------------------------------------------------------------------------------------- scorer


def explain(
    options: Sequence[str],
    gold: int,
    predictions: Sequence[int],
    choices: Sequence[Choice],
    outcome: Mapping[str, float],
) -> str:
    """A reader's account of one instance: every rotation's answer, mapped back, and the instance's scores."""
    lines = [f"Gold: option {OPTION_LETTERS[gold]} (original order): {options[gold]}", ""]
    for rotation, (prediction, choice) in enumerate(zip(predictions, choices, strict=True)):
        order = "".join(OPTION_LETTERS[i] for i in rotation_order(rotation))
        if prediction == NO_ANSWER_INDEX:
            lines.append(f"- Rotation {rotation} ({order}): unparsed ({choice.detail})")
            continue
        shown = OPTION_LETTERS[choice.position] if choice.position is not None else "?"
        mark = "right" if prediction == gold else "wrong"
        lines.append(
            f"- Rotation {rotation} ({order}): answered {shown} = original {OPTION_LETTERS[prediction]}, "
            f"{mark} ({choice.how}: {choice.detail})"
        )
    lines += [
        "",
        "ACC {acc:g}, Circular {circular:g}, PartialCircular {partial_circular:.4g} "
        "(c/4 = {rotation_acc:g}), unparsed {unparsed:g}".format(**outcome),
    ]
    return "\n".join(lines)


@scorer(metrics=divlogiceval_metrics())
def circular_choice(alpha: float = 1.0) -> Scorer:
    """Score an instance from the answers to its four rotations (ACC, Circular, PartialCircular).

    Reads the completions that `rotations_generate` stored in `state.store[RESPONSES_KEY]`, the original options
    from `state.metadata["options"]`, and the gold letter (original order) from the target.

    Args:
        alpha: PC_α's weight of the entropy penalty, in [0, 1] (1: the paper's PartialCircular).

    Returns:
        A scorer whose value is the flat dict of `instance_outcome`, whose answer is the original-order answer's
        letter (or `unparsed`), and whose metadata holds the predictions of all four rotations.

    Raises:
        ValueError: At construction if alpha is outside [0, 1].
    """
    check_alpha(alpha)

    async def score(state: TaskState, target: Target) -> Score:
        responses = stored_responses(
            state,
            count=ROTATIONS,
            what=f"{ROTATIONS} responses (one per rotation)",
            scorer="circular_choice",
            solver="rotations_generate",
        )
        options = (state.metadata or {}).get("options")
        if not isinstance(options, list) or len(options) != ROTATIONS:
            raise ValueError(f"Sample {state.sample_id}: metadata['options'] must hold the {ROTATIONS} options")
        gold = OPTION_LETTERS.index(checked_gold(state, target, tuple(OPTION_LETTERS)))
        predictions, choices = predictions_of(responses, [str(o) for o in options])
        outcome = instance_outcome(predictions, gold, alpha)
        first = predictions[0]
        return Score(
            value=dict(outcome),
            answer=UNPARSED if first == NO_ANSWER_INDEX else OPTION_LETTERS[first],
            explanation=explain(options, gold, predictions, choices, outcome),
            metadata={"predictions": predictions, **how_each_read(choices)},
        )

    return score
