"""The one answer parser: a corpus of real-looking completions with their expected outcomes, and fuzzing."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lgmt_tasks.scorers.answers import (
    CHOICE_FORMAT,
    TRUTH_FORMAT,
    YES_NO_FORMAT,
    AnswerFormat,
    parse_answer,
    parse_choice,
    parse_label,
    parse_yes_no,
)

COT_JSON = (
    '{"reasoning": "Step 1: Premise 1 says if the server is online the database syncs. Step 2: If the conclusion '
    'were True we would need the server online; it could also be False. Nothing forces either.", "label": "Unknown"}'
)

# (completion, expected label, expected how)
LABEL_CORPUS: list[tuple[str, str | None, str]] = [
    # strict: JSON, raw or fenced or embedded; the reasoning's labels are never looked at
    ('{"label": "True"}', "True", "strict"),
    ('{ "label": "Unknown" }', "Unknown", "strict"),
    ('{"label": "false"}', "False", "strict"),
    ('{"label": "Uncertain"}', "Unknown", "strict"),
    ('{"Label": "TRUE"}', "True", "strict"),
    ('{"label": true}', "True", "strict"),
    ('```json\n{"label": "False"}\n```', "False", "strict"),
    ('```\n{"reasoning": "It is True that A; B is False.", "label": "Unknown"}\n```', "Unknown", "strict"),
    (COT_JSON, "Unknown", "strict"),
    ('Let me think. The premises imply the answer is True.\n\n{"label": "False"}', "False", "strict"),
    ('{"label": "True"}\n{"label": "False"}', "False", "strict"),
    (
        'Here is my answer:\n```json\n{\n  "reasoning": "Modus ponens.",\n  "label": "True"\n}\n```\nHope this helps!',
        "True",
        "strict",
    ),
    ('{"answer": "False"}', "False", "strict"),
    # a JSON answer is final, even when it is not a label
    ('{"label": "Maybe"}', None, "unparsed"),
    ('{"label": "True or False"}', None, "unparsed"),
    ('{"label": null}\nThe answer is True.', None, "unparsed"),
    ('{"label": "True."}', "True", "lenient"),
    # lenient: broken JSON and explicit statements
    ('{"reasoning": "so the answer is False", "label": "True",}', "True", "lenient"),
    ('{"label": "True", "reasoning": "... hence the answer is False', "True", "lenient"),
    ("{'label': 'Unknown'}", "Unknown", "lenient"),
    ("label: True", "True", "lenient"),
    ("Answer: Unknown", "Unknown", "lenient"),
    ("**Answer:** False", "False", "lenient"),
    ("Final Answer: true", "True", "lenient"),
    ("The answer is False.", "False", "lenient"),
    (
        "Based on the premises, the correct answer is **Unknown** because nothing links Alice to managers.",
        "Unknown",
        "lenient",
    ),
    ("Premise 1 gives A. Premise 2 gives B.\nTherefore the conclusion follows.\n\nTrue", "True", "lenient"),
    ("**True**", "True", "lenient"),
    ("False.", "False", "lenient"),
    ("Unknown\n\nThe premises never mention Alice's role.", "Unknown", "lenient"),
    (
        "Step 1: it is not true that all birds fly.\nStep 2: the answer is True only if A.\nSo the answer is False.",
        "False",
        "lenient",
    ),
    ("Answer: True\n\nExplanation: the answer is based on premise 2.", "True", "lenient"),
    ("I considered True first.\n\\boxed{False}", "False", "lenient"),
    # unparsed: nothing explicit, labels only inside prose, or a hedge as the final statement
    ("", None, "unparsed"),
    ("I cannot determine this.", None, "unparsed"),
    ("It is not true that every manager has an office, so the conclusion is not false either.", None, "unparsed"),
    ("Unknowns remain about the premises.", None, "unparsed"),
    ("The answer is not True.", None, "unparsed"),
    ("The answer is True or False.", None, "unparsed"),
    ("Answer: True\nOn reflection, the answer is either True or Unknown.", None, "unparsed"),
    ("True/False", None, "unparsed"),
    ("**True** or **False**", None, "unparsed"),
    ("The conclusion is True if we read premise 2 loosely, and False otherwise.", None, "unparsed"),
]

YES_NO_CORPUS: list[tuple[str, str | None, str]] = [
    ("cannot", None, "unparsed"),
    ("The inference cannot be drawn.", None, "unparsed"),
    ("I don't know", None, "unparsed"),
    ("==no==. yes-men", "no", "lenient"),
    ("Yes and no", None, "unparsed"),
    ("No.", "no", "lenient"),
    ("The answer is: yes", "yes", "lenient"),
    ("YES", "yes", "lenient"),
    ('{"answer": "No"}', "no", "strict"),
    ("Nobody knows.", None, "unparsed"),
]

CHOICE_CORPUS: list[tuple[str, str | None, str]] = [
    ("Answer: C", "C", "lenient"),
    ("C)", "C", "lenient"),
    ("B", "B", "lenient"),
    ("(D) None of the above", "D", "lenient"),
    ("The correct answer is (A).", "A", "lenient"),
    ("Option A is wrong because it reverses the implication.\nAnswer: B", "B", "lenient"),
    ("A) all\nB) some\nC) none\nD) both", None, "unparsed"),
    ("The answer is a contradiction.", None, "unparsed"),
    ("Answer: B or C", None, "unparsed"),
    ('{"answer": "c"}', "C", "strict"),
]


@pytest.mark.parametrize(("text", "label", "how"), LABEL_CORPUS)
def test_label_corpus(text: str, label: str | None, how: str) -> None:
    parsed = parse_label(text)
    assert (parsed.label, parsed.how) == (label, how), parsed.detail
    assert parsed.detail


@pytest.mark.parametrize(("text", "label", "how"), YES_NO_CORPUS)
def test_yes_no_corpus(text: str, label: str | None, how: str) -> None:
    parsed = parse_yes_no(text)
    assert (parsed.label, parsed.how) == (label, how), parsed.detail


@pytest.mark.parametrize(("text", "label", "how"), CHOICE_CORPUS)
def test_choice_corpus(text: str, label: str | None, how: str) -> None:
    parsed = parse_choice(text)
    assert (parsed.label, parsed.how) == (label, how), parsed.detail


def test_yes_no_canonical_spelling_follows_labels() -> None:
    assert parse_yes_no("no.", labels=("Yes", "No")).label == "No"


def test_custom_letters() -> None:
    assert parse_choice("Answer: E", letters="ABCDE").label == "E"
    assert parse_choice("Answer: E").label is None


def test_custom_labels_without_aliases() -> None:
    assert parse_label('{"label": "Uncertain"}', aliases={}).how == "unparsed"
    assert parse_label("Answer: entailed", labels=("entailed", "refuted"), aliases={}).label == "entailed"


@pytest.mark.parametrize(
    ("labels", "aliases"),
    [((), {}), (("A", "A"), {}), (("True", "False"), {"Maybe": "Unknown"}), (("two words",), {}), (("Yes", "yes"), {})],
)
def test_invalid_formats_are_rejected(labels: tuple[str, ...], aliases: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        AnswerFormat(labels=labels, aliases=aliases)


@pytest.mark.parametrize(
    "text",
    [
        '{"' * 20_000,
        "Answer: " * 20_000,
        "the answer is " * 20_000,
        " " * 100_000,
        "**" * 20_000,
        "\\boxed{" * 20_000,
        '{"k": [1, ' * 2_000,
    ],
    ids=["braces", "key-cues", "copula-cues", "spaces", "emphasis", "boxed", "nested"],
)
def test_adversarial_text_is_parsed_in_linear_time(text: str) -> None:
    """A run of cues once took minutes (each cue re-read the rest of the line); now each stays well under a second."""
    start = time.perf_counter()
    assert parse_label(text).how == "unparsed"
    assert time.perf_counter() - start < 5


def test_deeply_nested_json_does_not_raise() -> None:
    assert parse_label('{"a": ' + "[" * 100_000).how == "unparsed"


@settings(max_examples=400, deadline=None)
@given(text=st.text(), fmt=st.sampled_from([TRUTH_FORMAT, YES_NO_FORMAT, CHOICE_FORMAT]))
def test_arbitrary_text_gives_a_defined_outcome(text: str, fmt: AnswerFormat) -> None:
    parsed = parse_answer(text, fmt)
    assert parsed.how in ("strict", "lenient", "unparsed")
    assert (parsed.label is None) == (parsed.how == "unparsed")
    assert parsed.label is None or parsed.label in fmt.labels
    assert isinstance(parsed.detail, str) and parsed.detail


_ANSWERISH = st.lists(
    st.sampled_from(
        [
            "True",
            "false",
            "Unknown",
            "Uncertain",
            "answer",
            "Answer:",
            "label",
            '"label":',
            "is",
            "the",
            "not",
            "or",
            "**",
            "==",
            "{",
            "}",
            '"',
            "\n",
            " ",
            ".",
            "```json",
            "either",
            "yes",
            "no",
            "C)",
            "A",
            "\\boxed{",
            "Unknowns",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_ANSWERISH, fmt=st.sampled_from([TRUTH_FORMAT, YES_NO_FORMAT, CHOICE_FORMAT]))
def test_answer_like_text_gives_a_defined_outcome(text: str, fmt: AnswerFormat) -> None:
    parsed = parse_answer(text, fmt)
    assert (parsed.label is None) == (parsed.how == "unparsed")
    assert parsed.label is None or parsed.label in fmt.labels


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("No, we cannot infer the following from them.", "no"),
        ("Yes, we can infer it.", "yes"),
        ("No. Actually, Answer: yes", "yes"),  # a later explicit statement still wins
        ("Yes and no, it depends.", None),  # a hedge is not an answer
        ("Nothing follows; cannot say.", None),
        ("Noted, the premises are long.", None),
    ],
)
def test_a_reply_that_opens_with_a_label(text, expected):
    assert parse_yes_no(text).label == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Answer: A man plays the saxophone.", None),  # the article opening an option's text, not the letter
        ("Answer: A", "A"),
        ("The answer is B because it follows.", "B"),
        ("Answer: C) Paris", "C"),
    ],
)
def test_the_article_a_is_not_the_letter_a(text, expected):
    assert parse_choice(text).label == expected
