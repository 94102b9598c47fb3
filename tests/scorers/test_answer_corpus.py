"""The answer parser against a careful human grader (issue #26), and against the prompts' own text.

`answer_corpus.jsonl` holds realistic replies graded by hand (the rules: `answer_corpus.md`). The parser must read
every one as graded: 0 wrong labels, 0 over-reads, and at most 5% of the replies with an answer left unparsed. The
prompts' example answers and format lines are written in `scorers/answers.py` (scorers may not import solvers), so
the second half checks them against the prompts themselves: no line of any prompt reads as an answer or overrides
one, and a reply that repeats a whole prompt has answered only with what follows it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.logicasker.catalogue import catalogue
from lgmt_tasks.logicasker.demonstrations import demonstrations_for, random_leaves
from lgmt_tasks.logicasker.english import question
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
from lgmt_tasks.solvers import divlogiceval as divlogiceval_prompts
from lgmt_tasks.solvers import qmfol as qmfol_prompts
from lgmt_tasks.solvers.logicasker import with_demonstrations
from lgmt_tasks.solvers.prompts import SYSTEM_PROMPTS, render_user_prompt
from lgmt_tasks.vocabulary import OPTION_LETTERS, PROMPTINGS, TRUTH_LABELS, UNPARSED, YES_NO_LABELS

CORPUS_PATH = Path(__file__).with_name("answer_corpus.jsonl")
CORPUS: list[dict[str, Any]] = [
    json.loads(line) for line in CORPUS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()
]
FORMATS: dict[str, AnswerFormat] = {"truth": TRUTH_FORMAT, "yes_no": YES_NO_FORMAT, "choice": CHOICE_FORMAT}
SUITES = {"truth": {"lgmt", "qmfol"}, "yes_no": {"logicasker"}, "choice": {"divlogiceval"}}
TAGS = {
    "short",
    "cot",
    "json",
    "markdown",
    "self-correcting",
    "echo",
    "refusal",
    "hedge",
    "multilingual",
    "truncated",
    "json-for-reference",
    "hypothetical",
    "bold-in-reasoning",
    "continuation",
    "held-out",
}
MAX_UNDER_READ = 0.05


def read(entry: dict[str, Any]) -> str:
    return parse_answer(entry["reply"], FORMATS[entry["format"]]).label or UNPARSED


# ---------------------------------------------------------------------------------------------------------- corpus


def test_the_corpus_is_well_formed_and_covers_every_format_and_prompting() -> None:
    ids = [entry["id"] for entry in CORPUS]
    assert len(ids) == len(set(ids))
    for entry in CORPUS:
        assert set(entry) == {"id", "format", "suite", "prompting", "reply", "label", "why", "tags"}, entry["id"]
        assert entry["id"][0] == entry["format"][0], entry["id"]
        assert entry["suite"] in SUITES[entry["format"]], entry["id"]
        assert entry["prompting"] in PROMPTINGS, entry["id"]
        assert entry["label"] in (*FORMATS[entry["format"]].labels, UNPARSED), entry["id"]
        assert entry["why"].strip() and entry["reply"].strip(), entry["id"]
        assert set(entry["tags"]) <= TAGS, entry["id"]
    assert len(CORPUS) >= 250
    cells = Counter((entry["format"], entry["prompting"]) for entry in CORPUS)
    assert all(cells[(fmt, prompting)] >= 8 for fmt in FORMATS for prompting in PROMPTINGS), cells
    assert Counter(tag for entry in CORPUS for tag in entry["tags"]).keys() == TAGS  # every style is there


@pytest.mark.parametrize("entry", CORPUS, ids=[entry["id"] for entry in CORPUS])
def test_the_parser_reads_what_the_grader_reads(entry: dict[str, Any]) -> None:
    parsed = parse_answer(entry["reply"], FORMATS[entry["format"]])
    assert (parsed.label or UNPARSED) == entry["label"], f"grader: {entry['why']}; parser: {parsed.detail}"
    assert parsed.detail


def test_the_parser_agrees_with_the_grader_on_the_whole_corpus() -> None:
    """The targets of issue #26: no wrong label, no label where the grader finds none, ≤ 5% left unparsed."""
    outcomes = Counter()
    for entry in CORPUS:
        parsed = read(entry)
        if entry["label"] == UNPARSED:
            outcomes["over_read" if parsed != UNPARSED else "correct"] += 1
        elif parsed == UNPARSED:
            outcomes["under_read"] += 1
        else:
            outcomes["correct" if parsed == entry["label"] else "wrong_label"] += 1
    answered = sum(entry["label"] != UNPARSED for entry in CORPUS)
    assert outcomes["wrong_label"] == 0
    assert outcomes["over_read"] == 0
    assert outcomes["under_read"] <= MAX_UNDER_READ * answered


@pytest.mark.parametrize("entry", CORPUS[::7], ids=[entry["id"] for entry in CORPUS[::7]])
def test_the_wrappers_read_as_parse_answer_does(entry: dict[str, Any]) -> None:
    wrapper = {"truth": parse_label, "yes_no": parse_yes_no, "choice": parse_choice}[entry["format"]]
    assert (wrapper(entry["reply"]).label or UNPARSED) == read(entry)


# ------------------------------------------------------------------------------------------ the prompts' own text

USER_PROMPT = render_user_prompt(["All cats are animals.", "Tom is a cat."], "Tom is an animal.")
QMFOL_PROMPT = qmfol_prompts.render_prompt(["All cats are animals.", "Tom is a cat."], "Tom is an animal.")
LOGICASKER_QUESTION = question(["For all x, if x is a cat, then x is an animal.", "Tom is a cat."], "Tom is an animal.")
LOGICASKER_DEMONSTRATIONS = demonstrations_for(random_leaves(catalogue(), seed=1), seed=1)
SHOT = {"content": "Every cat sleeps. Tom is a cat.", "question": "Which must be true?", "answer": 2}
SHOTS = [
    {**SHOT, "options": ["Tom is awake.", "No cat sleeps.", f"Tom sleeps ({k}).", "Tom is a dog."]} for k in range(3)
]
DIVLOGICEVAL_PROMPTS = {
    "zero_shot": divlogiceval_prompts.render_prompt("A passage.", "Which must be true?", ["w", "x", "y", "z"]),
    "few_shot": divlogiceval_prompts.render_prompt("A passage.", "Which must be true?", ["w", "x", "y", "z"], SHOTS),
    "no_reasoning": divlogiceval_prompts.render_prompt(
        "A passage.", "Which must be true?", ["w", "x", "y", "z"], instruction="no_reasoning"
    ),
}


def looks_like_an_answer(line: str, fmt: AnswerFormat) -> bool:
    """A demonstration's answer (`{"label": "True"}`, `Answer: no. This is ...`) or an option line (`C. Tom sleeps.`):
    what a real answer looks like too, so it is not required to read as none."""
    try:
        value = json.loads(line)
    except ValueError:
        head = line.split(".", 1)[0]
        return head.removeprefix("Answer: ") in fmt.labels
    return isinstance(value, dict) and set(value) == {"label"} and value["label"] in fmt.labels


def prompt_lines() -> list[tuple[str, AnswerFormat, str]]:
    """Every line of every prompt (with its format), except the demonstrations' bare answers."""
    prompts = [(f"lgmt:{p}", TRUTH_FORMAT, f"{SYSTEM_PROMPTS[p]}\n\n{USER_PROMPT}") for p in PROMPTINGS]
    prompts.append(("qmfol", TRUTH_FORMAT, QMFOL_PROMPT))
    prompts.append(("logicasker", YES_NO_FORMAT, with_demonstrations(LOGICASKER_DEMONSTRATIONS, LOGICASKER_QUESTION)))
    prompts += [(f"divlogiceval:{name}", CHOICE_FORMAT, text) for name, text in DIVLOGICEVAL_PROMPTS.items()]
    lines = {
        (name, line.strip()): fmt
        for name, fmt, text in prompts
        for line in text.splitlines()
        if line.strip() and not looks_like_an_answer(line.strip(), fmt)
    }
    return [(name, fmt, line) for (name, line), fmt in lines.items()]


PROMPT_LINES = prompt_lines()


@pytest.mark.parametrize(
    ("prompt", "fmt", "line"), PROMPT_LINES, ids=[f"{name}:{line[:40]}" for name, _, line in PROMPT_LINES]
)
def test_no_line_of_a_prompt_reads_as_an_answer_or_overrides_one(prompt: str, fmt: AnswerFormat, line: str) -> None:
    """The example JSON, the format rules, the demonstrations' headers and questions, QMFOL's definitions, the
    instruction lines: repeated alone they are no answer; before or after the reply's answer they do not change it.
    (Whole prompts followed by a JSON answer: the tests below.)"""
    assert parse_answer(line, fmt).label is None, parse_answer(line, fmt).detail
    for label in fmt.labels:
        assert parse_answer(f"Answer: {label}\n\n{line}", fmt).label == label
        assert parse_answer(f"{line}\n\nAnswer: {label}", fmt).label == label


@pytest.mark.parametrize("prompting", PROMPTINGS)
def test_a_reply_repeating_an_lgmt_prompt_has_answered_only_after_it(prompting: str) -> None:
    echo = f"{SYSTEM_PROMPTS[prompting]}\n\n{USER_PROMPT}"
    assert parse_label(echo).label is None, parse_label(echo).detail
    for label in TRUTH_LABELS:
        assert parse_label(f'{echo}\n{{"reasoning": "...", "label": "{label}"}}').label == label
        assert parse_label(f"{echo}\n\nThe answer is {label}.").label == label


def test_a_reply_repeating_the_qmfol_prompt_has_answered_only_after_it() -> None:
    assert parse_label(QMFOL_PROMPT).label is None
    for label in TRUTH_LABELS:
        assert parse_label(f'{QMFOL_PROMPT}\n\nPremise 2 settles it.\n{{"label": "{label}"}}').label == label


def test_a_reply_repeating_the_logicasker_prompt_has_answered_only_after_it() -> None:
    """The demonstrations carry their own answers ("Answer: no. This is ..."); they are not the reply's."""
    for prompt in (LOGICASKER_QUESTION, with_demonstrations(LOGICASKER_DEMONSTRATIONS, LOGICASKER_QUESTION)):
        assert parse_yes_no(prompt).label is None
        for label in YES_NO_LABELS:
            assert parse_yes_no(f"{prompt}\n{label.capitalize()}.").label == label
            assert parse_yes_no(f"{prompt}\nAnswer: {label}. This is modus ponens.").label == label


@pytest.mark.parametrize("name", DIVLOGICEVAL_PROMPTS)
def test_a_reply_repeating_a_divlogiceval_prompt_has_answered_only_after_it(name: str) -> None:
    """Three-shot prompts carry solved examples (`Answer: C`); they are not the reply's answer."""
    prompt = DIVLOGICEVAL_PROMPTS[name]
    assert parse_choice(prompt).label is None, parse_choice(prompt).detail
    for letter in OPTION_LETTERS:
        assert parse_choice(f"{prompt}\nAnswer: {letter}").label == letter


def test_the_prompts_closing_lines_and_question_openings_are_the_formats() -> None:
    """What the parser knows of the prompts' layout is what the prompts say."""
    few_shot = SYSTEM_PROMPTS["few_shot"].splitlines()
    assert few_shot[-1] in TRUTH_FORMAT.closing_lines
    assert any(line.startswith(TRUTH_FORMAT.question_openings[1]) for line in few_shot)
    assert USER_PROMPT.startswith(TRUTH_FORMAT.question_openings[0])
    assert any(line.startswith("Premises:") for line in QMFOL_PROMPT.splitlines())
    logicasker = with_demonstrations(LOGICASKER_DEMONSTRATIONS, LOGICASKER_QUESTION)
    assert any(line in YES_NO_FORMAT.closing_lines for line in logicasker.splitlines())
    assert LOGICASKER_QUESTION.startswith(YES_NO_FORMAT.question_openings[0])
    assert divlogiceval_prompts.INSTRUCTION in CHOICE_FORMAT.echoes


def test_an_unclosed_quote_is_not_a_quoted_key() -> None:
    """`'Answer: <A/B/C/D>` once counted as the quoted JSON key `'Answer'` and outranked the real answer."""
    assert parse_choice("Say 'Answer: B\nAnswer: C").label == "C"
    assert parse_label('The "label: True\n\nAnswer: False').label == "False"
    assert parse_label("{'label': 'True'}\nThe answer is False.").label == "True"  # a closed quote is a JSON key
