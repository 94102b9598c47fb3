"""Every answer parser a scorer uses, on arbitrary model output: it never raises and returns only defined outcomes.

`tests/scorers/test_answers.py` fuzzes `parse_answer` with plain text; this adds the public entry points the
scorers and lm-eval utils call (`parse_label`, `parse_yes_no`, `parse_choice`, DivLogicEval's `read_choice` and
`predictions_of`), and inputs shaped like real model output: Unicode of every category, JSON fragments and whole
JSON documents, and huge strings.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgmt_tasks.scorers.answers import ParsedAnswer, parse_choice, parse_label, parse_yes_no
from lgmt_tasks.scorers.divlogiceval import predictions_of, read_choice
from lgmt_tasks.scorers.divlogiceval_arithmetic import NO_ANSWER_INDEX
from lgmt_tasks.vocabulary import OPTION_LETTERS, TRUTH_LABELS, YES_NO_LABELS

OPTIONS = ["The cat sleeps.", "It rains.", "Maria sings.", "A bus is late."]
OUTCOMES = {"strict", "lenient", "unparsed"}

_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["True", "False", "Unknown", "Uncertain", "yes", "no", "A", "C", "label", "answer"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["label", "answer", "reasoning", "Answer", "x"]), children, max_size=4)
    ),
    max_leaves=12,
)
_json_text = _json_values.map(lambda v: json.dumps(v, ensure_ascii=False))
# A JSON document cut anywhere, with prose around it: what a model that stops early or chats produces.
_json_fragment = st.tuples(st.text(max_size=30), _json_text, st.integers(0, 200), st.text(max_size=30)).map(
    lambda t: t[0] + t[1][: t[2]] + t[3]
)
_unicode = st.text(st.characters(codec="utf-8"), max_size=200)
MODEL_OUTPUT = st.one_of(_unicode, _json_text, _json_fragment, st.text(max_size=200))

HUGE = [
    "x" * 1_000_000,
    "Answer: " + "True " * 100_000,
    '{"label": "' + "\u00e9" * 300_000 + '"}',
    "\n".join(["A) B) C) D)"] * 50_000),
    "\U0001f600" * 200_000 + " The answer is C.",
]


def assert_defined(parsed: ParsedAnswer, labels: tuple[str, ...] | str) -> None:
    assert parsed.how in OUTCOMES
    assert (parsed.label is None) == (parsed.how == "unparsed")
    assert parsed.label is None or parsed.label in labels
    assert isinstance(parsed.detail, str)


@settings(max_examples=300, deadline=None)
@given(MODEL_OUTPUT)
def test_label_parsers_on_arbitrary_output(text: str) -> None:
    assert_defined(parse_label(text), TRUTH_LABELS)
    assert_defined(parse_yes_no(text), YES_NO_LABELS)
    assert_defined(parse_choice(text), OPTION_LETTERS)
    assert_defined(parse_yes_no(text, ("Yes", "No")), ("Yes", "No"))


@settings(max_examples=200, deadline=None)
@given(MODEL_OUTPUT, st.lists(st.text(min_size=1, max_size=40), min_size=4, max_size=4, unique=True))
def test_divlogiceval_reader_on_arbitrary_output(text: str, options: list[str]) -> None:
    for opts in (OPTIONS, options):
        choice = read_choice(text, opts)
        assert choice.how in OUTCOMES | {"option_text"}
        assert (choice.position is None) == (choice.how == "unparsed")
        assert choice.position is None or 0 <= choice.position < 4


@settings(max_examples=100, deadline=None)
@given(st.lists(MODEL_OUTPUT, min_size=4, max_size=4))
def test_divlogiceval_predictions_on_arbitrary_output(responses: list[str]) -> None:
    predictions, choices = predictions_of(responses, OPTIONS)
    assert len(predictions) == len(choices) == 4
    assert all(p == NO_ANSWER_INDEX or 0 <= p < 4 for p in predictions)


@pytest.mark.parametrize("text", HUGE, ids=["letters", "repeated-cue", "huge-json", "option-lines", "emoji"])
def test_huge_output_gives_a_defined_outcome(text: str) -> None:
    assert_defined(parse_label(text), TRUTH_LABELS)
    assert_defined(parse_yes_no(text), YES_NO_LABELS)
    assert_defined(parse_choice(text), OPTION_LETTERS)
    assert read_choice(text, OPTIONS).how in OUTCOMES | {"option_text"}


@pytest.mark.parametrize("text", ["", " ", "\x00", "\ufffd"])
def test_degenerate_output_is_unparsed(text: str) -> None:
    assert parse_label(text).how == "unparsed"
    assert parse_choice(text).how == "unparsed"
    assert read_choice(text, OPTIONS).position is None
