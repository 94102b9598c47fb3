"""`-T grader=<model>`: a grader model reads only the replies the rules leave unparsed, logged apart (`grader_read`).

The one answer parser (`answers`) reads a reply as a careful grader does or says `unparsed`; it never guesses. Some
unparsed replies do hold an answer a person would read (a paraphrase the rules do not know, a language they do not
cover). Issue #38 asks for the fallback the earlier reader issue welcomed: a grader model, in the way of Inspect's
model-graded scorers (`model_graded_qa` asks a model about a reply and reads a fixed answer format back), reads
*only* those replies. Its reading is a second scorer, `grader_read`, beside the suite's own: the suite's headline,
its accuracy and its unparsed rate stay exactly what the rules read, and the grader's work is reported apart:

- `unparsed_replies`: how many replies of the run the rules left unparsed (a count over samples and members);
- `grader_read`: how many of those the grader model read as one of the suite's labels.

Both are counts, never rates, so that a run without an unparsed reply shows 0 and 0, not an undefined ratio. Each
sample's score metadata lists, per reply, the grader's label (`grader_labels`: null where the rules read the reply
or the grader read none) and the grader's own words (`grader_replies`), for `inspect view` and for a user who wants
a grader-merged figure of their own.

The grader is asked what the reply commits to, never to solve the question, and must answer with one label or
`NONE`. Its answer is read with the same rules as any reply (a bare label is what it is asked for); an answer the
rules cannot read counts as not read. A grader call that fails raises, so the sample errors, as Inspect's own
model-graded scorers do; the suite's scorer is unaffected by a grader that was not asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, get_args

from inspect_ai.model import GenerateConfig, Model, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, metric, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.answers import CHOICE_FORMAT, TRUTH_FORMAT, YES_NO_FORMAT, AnswerFormat, parse_answer
from lgmt_tasks.vocabulary import RESPONSES_KEY

Answers = Literal["truth", "yes_no", "choice"]
"""The answer sets of the suites: True/False/Unknown (LGMT, lexical, QMFOL), yes/no (LogicAsker), A–D (DivLogicEval)."""
ANSWER_SETS: tuple[str, ...] = get_args(Answers)

FORMATS: dict[str, AnswerFormat] = {"truth": TRUTH_FORMAT, "yes_no": YES_NO_FORMAT, "choice": CHOICE_FORMAT}

NONE = "NONE"
"""What the grader says for a reply that commits to no label."""

GRADER_TEMPLATE = """You are marking an exam. A student was asked a logic question and told to answer with exactly \
one of: {labels}. Below is the student's reply.

Read the reply as a careful human grader would and report which one of {labels} it commits to as its final answer. \
Do not solve the question yourself and do not judge whether the answer is right: report only what the reply says. \
If the reply commits to none of them (it hedges between several, refuses, stops before answering, or only discusses \
the question), the answer is {none}.

<reply>
{reply}
</reply>

Respond with one word and nothing else: {choices}."""
"""The grader's prompt (its labels are the suite's; a reply in any language may be read)."""


def grader_prompt(reply: str, answers: str) -> str:
    """The prompt that asks the grader model what `reply` commits to, in the answer set `answers`."""
    labels = FORMATS[answers].labels
    return GRADER_TEMPLATE.format(
        labels=", ".join(labels), none=NONE, reply=reply, choices=" or ".join((*labels, NONE))
    )


def read_grader_reply(text: str, answers: str) -> str | None:
    """The label the grader's own reply names: one of the answer set's labels, or None (`NONE`, or unreadable)."""
    fmt = FORMATS[answers]
    words = text.strip().strip("*_`'\".").split()
    if len(words) == 1 and words[0].strip("*_`'\".").upper() == NONE:
        return None
    return parse_answer(text, fmt).label


def check_answers(answers: str) -> None:
    """Refuse an unknown answer set, naming the allowed ones."""
    if answers not in ANSWER_SETS:
        raise ValueError(f"grader answers={answers!r}: expected one of {', '.join(ANSWER_SETS)}")


def replies_of(state: TaskState) -> list[str]:
    """The sample's replies: a group's members from the store (in member order), else the single output."""
    stored = state.store.get(RESPONSES_KEY)
    if isinstance(stored, list) and stored:
        return [str(reply) for reply in stored]
    return [state.output.completion]


def _count(key: str) -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        return float(sum(float(s.score.value[key]) for s in scores if isinstance(s.score.value, dict)))

    return compute


@metric
def unparsed_replies() -> Metric:
    """How many replies of the run the rules left unparsed (what the grader model was asked to read)."""
    return _count("unparsed_replies")


@metric
def grader_read() -> Metric:
    """How many of the replies the rules left unparsed the grader model read as one of the suite's labels."""
    return _count("grader_read")


RulesRead = Callable[[TaskState, Sequence[str]], list[bool]]
"""Whether the suite's own rules read each of a sample's replies (a suite whose reading needs more than the parser,
DivLogicEval's option texts, passes its own: `scorers.divlogiceval.rules_read`)."""


def parser_read(answers: str) -> RulesRead:
    """The rules of the one answer parser for an answer set: a reply is read when the parser reads a label."""
    fmt = FORMATS[answers]

    def read(state: TaskState, replies: Sequence[str]) -> list[bool]:
        return [parse_answer(reply, fmt).label is not None for reply in replies]

    return read


@scorer(metrics=[unparsed_replies(), grader_read()], name="grader_read")
def grader_read_scorer(grader: str | Model, answers: Answers, rules_read: RulesRead | None = None) -> Scorer:
    """Ask `grader` to read the replies of a sample that the rules leave unparsed; count them apart.

    Args:
        grader: The grader model (a model name, as `-T grader=` gives it, or a `Model`).
        answers: The suite's answer set: `truth`, `yes_no` or `choice`.
        rules_read: Whether the suite's rules read each reply, when they are more than the parser's (default: the
            parser's, for `answers`).

    Returns:
        A scorer whose value is `{"unparsed_replies": n, "grader_read": k}` and whose metadata holds the grader's
        label (`grader_labels`) and words (`grader_replies`) per reply.

    Raises:
        ValueError: At construction, on an unknown answer set.
    """
    check_answers(answers)
    read_by_rules = rules_read or parser_read(answers)

    async def score(state: TaskState, target: object) -> Score:
        model = grader if isinstance(grader, Model) else get_model(grader)
        labels: list[str | None] = []
        words: list[str | None] = []
        replies = replies_of(state)
        for reply, was_read in zip(replies, read_by_rules(state, replies), strict=True):
            if was_read:
                labels.append(None)
                words.append(None)
                continue
            output = await model.generate(grader_prompt(reply, answers), config=GenerateConfig(temperature=0.0))
            words.append(output.completion)
            labels.append(read_grader_reply(output.completion, answers))
        asked = [w for w in words if w is not None]
        read = [label for label, w in zip(labels, words, strict=True) if w is not None and label is not None]
        return Score(
            value={"unparsed_replies": len(asked), "grader_read": len(read)},
            explanation=(
                f"the rules left {len(asked)} of {len(words)} replies unparsed; the grader read {len(read)}"
                + (f" ({', '.join(read)})" if read else "")
            ),
            metadata={"grader_labels": labels, "grader_replies": words},
        )

    return score


def with_grader(
    main: Scorer, grader: str | Model | None, answers: Answers, rules_read: RulesRead | None = None
) -> Scorer | list[Scorer]:
    """A task's scorers: the suite's own, and with `-T grader=<model>` the `grader_read` scorer after it."""
    return main if grader is None else [main, grader_read_scorer(grader, answers, rules_read)]


GRADER_DOC = (
    "A grader model (any Inspect model name) that reads only the replies the rules leave unparsed; reported apart, "
    "as the `grader_read` scorer's counts `unparsed_replies` and `grader_read`, never merged into the headline "
    "(default: none)."
)
"""The `grader` argument's line in every task's docstring."""
