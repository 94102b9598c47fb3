"""The LogicAsker shortcut battery: whether a test's yes/no answer can be read off its surface, without reasoning.

Each heuristic looks only at the English a model sees (the premises and the conclusion), never at a prover or at
the `answer`/`problem_type`/`rule` columns. Each is a surface feature turned into two rules, "feature → yes,
otherwise no" and "feature → no, otherwise yes", so a feature is caught whichever way it leans: every content word
of the conclusion occurs in the premises; the conclusion brings a word the premises lack (the mark of the paper's
`unrelated` false kind); the conclusion is negated; its word overlap with the premises is high; it is long; there
are several premises; the conclusion repeats a premise verbatim; it is quantified universally or existentially.
Scores are also taken per category (`group`: inference, equivalence, fallacy), since a feature may only lean in
one part of the build.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from lgmt_tasks.verify.shortcuts import Battery, Heuristic

Row = Mapping[str, Any]

ANSWERS: tuple[str, str] = ("yes", "no")

FUNCTION_WORDS = frozenset(
    """a an the and or not no if then is are was were be will it that this there for all x y at least one which
    of case to does do doesn't isn't won't cannot can some every each only whether so such true false than either
    both neither nor claim logically""".split()
)
"""Words that carry logic or grammar, not content: a conclusion's *content* words are the others."""

_WORD = re.compile(r"[a-z']+")
_NEGATION = re.compile(r"\b(?:not|no|never|cannot|isn't|doesn't|won't)\b|n't\b", re.IGNORECASE)


def words(text: str) -> list[str]:
    """The lower-case words of a text."""
    return _WORD.findall(text.lower())


def stem(word: str) -> str:
    """A crude stem, so that `drives`, `drive` and `driving` count as one word (the templates inflect verbs)."""
    for suffix in ("ing", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """The stems of the words of a text that are not function words (names, predicates, verbs)."""
    return {stem(w) for w in words(text) if w not in FUNCTION_WORDS}


def _premise_words(row: Row) -> set[str]:
    return content_words(" ".join(row["premises"]))


def overlap(row: Row) -> float:
    """The share of the conclusion's content words that occur in the premises (1.0 when it has none)."""
    conclusion = content_words(row["conclusion"])
    return len(conclusion & _premise_words(row)) / len(conclusion) if conclusion else 1.0


def _all_present(row: Row) -> bool:
    return overlap(row) == 1.0


def _new_word(row: Row) -> bool:
    return overlap(row) < 1.0


def _high_overlap(row: Row) -> bool:
    return overlap(row) > 0.5


def _negated(row: Row) -> bool:
    return bool(_NEGATION.search(row["conclusion"]))


def _long(row: Row) -> bool:
    """A conclusion longer than the row's average premise (in words)."""
    premises = row["premises"]
    mean = sum(len(words(p)) for p in premises) / len(premises) if premises else 0.0
    return len(words(row["conclusion"])) > mean


def _many_premises(row: Row) -> bool:
    return len(row["premises"]) >= 2


def _verbatim(row: Row) -> bool:
    return row["conclusion"].strip() in {p.strip() for p in row["premises"]}


def _universal(row: Row) -> bool:
    return row["conclusion"].startswith("For all")


def _existential(row: Row) -> bool:
    return row["conclusion"].startswith("There is")


def _both_ways(name: str, description: str, feature: Callable[[Row], bool]) -> tuple[Heuristic, Heuristic]:
    """The two rules of a feature: when it holds answer yes (else no), and when it holds answer no (else yes)."""

    def yes_when(row: Row, feature: Callable[[Row], bool] = feature) -> Collection[str]:
        return ("yes",) if feature(row) else ("no",)

    def no_when(row: Row, feature: Callable[[Row], bool] = feature) -> Collection[str]:
        return ("no",) if feature(row) else ("yes",)

    return (
        Heuristic(f"{name}->yes", f"yes when {description}, else no", yes_when),
        Heuristic(f"{name}->no", f"no when {description}, else yes", no_when),
    )


FEATURES: tuple[tuple[str, str, Callable[[Row], bool]], ...] = (
    ("words-present", "every content word of the conclusion occurs in the premises", _all_present),
    ("new-word", "the conclusion has a content word the premises lack (unrelated)", _new_word),
    ("high-overlap", "over half the conclusion's content words occur in the premises", _high_overlap),
    ("negated", "the conclusion has a negation word", _negated),
    ("long-conclusion", "the conclusion is longer than the average premise", _long),
    ("many-premises", "there are two premises or more", _many_premises),
    ("verbatim", "the conclusion repeats a premise verbatim", _verbatim),
    ("universal", "the conclusion starts with 'For all'", _universal),
    ("existential", "the conclusion starts with 'There is'", _existential),
)
"""Every surface feature of the battery: (name, what it checks, the check)."""


BATTERY = Battery(
    answers=lambda row: ANSWERS,
    gold=lambda row: row["answer"],
    heuristics=tuple(h for name, description, feature in FEATURES for h in _both_ways(name, description, feature)),
    group=lambda row: str(row["category"]),
)
"""The LogicAsker battery, scored on every row and on each category's rows (inference, equivalence, fallacy)."""
