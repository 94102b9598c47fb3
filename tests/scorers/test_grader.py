"""`-T grader=<model>`: the grader model reads only what the rules leave unparsed, and is reported apart (#38).

The grader here is a registered scripted model API (`tests/scripted_api.py`) that records every prompt it gets, so
the tests can check *which* replies it was asked about, not only the counts; the model under test is `mockllm/model`
with scripted replies. Each run is compared with the same run without a grader: the suite's own scores must not move.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model

from lgmt_tasks.divlogiceval.task import divlogiceval
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.lgmt.task import mr_s
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.scorers.grader import NONE, grader_prompt, read_grader_reply
from lgmt_tasks.task_params import TaskParameterError
from tests.scripted_api import register_scripted_api

REPO = Path(__file__).resolve().parents[2]
GRADER_CALLS: list[str] = []


def _grader_answer(prompt: str) -> str:
    """The scripted grader: `no` for a reply that says "seems off", else NONE (read from the quoted reply)."""
    reply = prompt.split("<reply>", 1)[1].split("</reply>", 1)[0]
    return "no" if "seems off" in reply else NONE


register_scripted_api("gradertest", _grader_answer, GRADER_CALLS)


def cycling(*replies: str) -> Model:
    """`mockllm/model` answering `replies` in turn, forever, with usage set (no tokenizer download)."""
    cycle: Iterator[str] = itertools.cycle(replies)

    def outputs(*args: object, **kwargs: object) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", next(cycle))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model("mockllm/model", custom_outputs=outputs)


def metrics(log: EvalLog, scorer: str) -> dict[str, float]:
    assert log.status == "success", log.error
    assert log.results is not None
    return next({k: m.value for k, m in s.metrics.items()} for s in log.results.scores if s.name == scorer)


@pytest.mark.parametrize(
    ("text", "answers", "label"),
    [
        ("NONE", "truth", None),
        ("none.", "truth", None),
        ("False", "truth", "False"),
        ("**Unknown**", "truth", "Unknown"),
        ("True or False", "truth", None),
        ("yes", "yes_no", "yes"),
        ("C", "choice", "C"),
        ("I cannot tell.", "choice", None),
    ],
)
def test_the_grader_reply_is_read_by_the_same_rules(text: str, answers: str, label: str | None) -> None:
    assert read_grader_reply(text, answers) == label


def test_the_grader_prompt_quotes_the_reply_and_names_every_label() -> None:
    prompt = grader_prompt("Well, it does not follow.", "truth")
    assert "<reply>\nWell, it does not follow.\n</reply>" in prompt
    assert re.search(r"True or False or Unknown or NONE\.$", prompt)


def test_logicasker_grader_reads_only_unparsed_replies_and_the_headline_does_not_move() -> None:
    task_args = {"logic": "propositional", "rule": "modus ponens,modus tollens", "per_skill": 4}
    replies = ("The second premise seems off to me.", "No.", "Hard to say, really.", "Yes")
    plain = eval(logicasker(**task_args), model=cycling(*replies), display="none")[0]
    GRADER_CALLS.clear()
    graded = eval(logicasker(**task_args, grader="gradertest/x"), model=cycling(*replies), display="none")[0]

    assert metrics(graded, "yes_no_answer") == metrics(plain, "yes_no_answer")
    assert graded.samples is not None
    unparsed = [s for s in graded.samples if s.scores and s.scores["yes_no_answer"].answer == "unparsed"]
    assert len(GRADER_CALLS) == len(unparsed) > 0  # asked about every unparsed reply, and about nothing else
    assert all("No." not in call.split("<reply>")[1] for call in GRADER_CALLS)
    counted = metrics(graded, "grader_read")
    assert counted["unparsed_replies"] == len(unparsed)
    read = [s for s in unparsed if "seems off" in s.output.completion]
    assert counted["grader_read"] == len(read) > 0
    assert all(
        s.scores and s.scores["grader_read"].metadata == {"grader_labels": ["no"], "grader_replies": ["no"]}
        for s in read
    )


def test_divlogiceval_option_text_replies_are_the_rules_and_not_sent_to_the_grader() -> None:
    GRADER_CALLS.clear()
    log = eval(
        divlogiceval(dataset=str(REPO / "datasets" / "divlogiceval"), grader="gradertest/x"),
        model=cycling("Answer: B", "I would rather not pick one.", "(D)", "Answer: A"),
        limit=3,
        display="none",
    )[0]
    assert metrics(log, "grader_read") == {"unparsed_replies": 3.0, "grader_read": 0.0}  # one rotation per instance
    assert len(GRADER_CALLS) == 3


def test_lgmt_group_members_are_each_read() -> None:
    GRADER_CALLS.clear()
    log = eval(mr_s(per_mr=2, grader="gradertest/x"), model=cycling('{"label": "True"}', "maybe"), display="none")[0]
    assert metrics(log, "grader_read") == {"unparsed_replies": 4.0, "grader_read": 0.0}  # the follow-up of 4 groups
    assert len(GRADER_CALLS) == 4


@pytest.mark.parametrize(
    ("make", "refused"),
    [
        (lambda: mr_s(per_mr=2, grader="gradertest/x", control="repeat"), "grader='gradertest/x' with control"),
        (lambda: lexical(per_mr=2, output="text", grader="gradertest/x"), "grader='gradertest/x' with output='text'"),
    ],
)
def test_combinations_the_grader_cannot_serve_are_refused_in_one_line(make: object, refused: str) -> None:
    with pytest.raises(TaskParameterError) as error:
        make()  # type: ignore[operator]
    assert refused in str(error.value).splitlines()[0]
