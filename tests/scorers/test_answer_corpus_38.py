"""The answer reader against the #38 corpus: replies of the classes the reader used to miss, graded before the change.

`answer_corpus_38.jsonl` (rules: `answer_corpus_38.md`) was written and graded by someone who had not read the reader,
before it was extended, and was not edited after the reader was first run on it. The targets are issue #38's: at most
1% of the replies read with a label the grader does not read (a wrong label or an over-read), at most 8% of the
replies the grader labels left unparsed. A wrong label (both read one, and they differ) is the costliest error, since
it becomes a wrong answer or a false violation: there may be none.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.scorers.answers import CHOICE_FORMAT, TRUTH_FORMAT, YES_NO_FORMAT, AnswerFormat, parse_answer
from lgmt_tasks.vocabulary import PROMPTINGS, UNPARSED

CORPUS_PATH = Path(__file__).with_name("answer_corpus_38.jsonl")
CORPUS: list[dict[str, Any]] = [
    json.loads(line) for line in CORPUS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()
]
FORMATS: dict[str, AnswerFormat] = {"truth": TRUTH_FORMAT, "yes_no": YES_NO_FORMAT, "choice": CHOICE_FORMAT}
CLASSES = {"paraphrase", "negated", "format-echo", "hypothetical", "revised", "other-language", "bold-vs-key"}
MAX_LABEL_NOT_GRADED = 0.01
MAX_MISSED = 0.08


def outcome(entry: dict[str, Any]) -> str:
    """`agreed`, `wrong` (two different labels), `over` (a label the grader does not read) or `missed`."""
    read = parse_answer(entry["reply"], FORMATS[entry["format"]]).label or UNPARSED
    if read == entry["label"]:
        return "agreed"
    if entry["label"] == UNPARSED:
        return "over"
    return "missed" if read == UNPARSED else "wrong"


def test_the_corpus_is_well_formed_and_covers_every_class_in_every_format() -> None:
    ids = [entry["id"] for entry in CORPUS]
    assert ids == [f"n{i:03d}" for i in range(1, len(ids) + 1)]
    for entry in CORPUS:
        assert entry["format"] in FORMATS and entry["prompting"] in PROMPTINGS, entry["id"]
        assert entry["label"] in (*FORMATS[entry["format"]].labels, UNPARSED), entry["id"]
        assert entry["tags"][0] in CLASSES, entry["id"]
    assert len(CORPUS) >= 150
    cells = Counter((entry["tags"][0], entry["format"]) for entry in CORPUS)
    assert all(cells[(cls, fmt)] >= 2 for cls in CLASSES for fmt in FORMATS), cells


@pytest.mark.parametrize("entry", CORPUS, ids=[entry["id"] for entry in CORPUS])
def test_no_reply_is_read_as_a_label_other_than_the_graders(entry: dict[str, Any]) -> None:
    parsed = parse_answer(entry["reply"], FORMATS[entry["format"]])
    assert outcome(entry) != "wrong", f"grader: {entry['label']} ({entry['why']}); reader: {parsed.detail}"


def test_the_reader_meets_the_targets_of_issue_38() -> None:
    counts = Counter(outcome(entry) for entry in CORPUS)
    labelled = sum(1 for entry in CORPUS if entry["label"] != UNPARSED)
    assert (counts["wrong"] + counts["over"]) / len(CORPUS) <= MAX_LABEL_NOT_GRADED, counts
    assert counts["missed"] / labelled <= MAX_MISSED, counts
