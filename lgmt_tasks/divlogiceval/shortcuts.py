"""DivLogicEval's shortcut battery: whether an option can be picked from its form alone.

Every heuristic reads only a row's surface: the option texts and their formula strings (`options_logic`), the
content's formula strings (`content_logic`), the conclusion, and the recorded template ids. None consults a prover.
A heuristic that scores well above chance (0.25) would mean the builder lets the answer stand out by its form; the
builder's answer to that is to draw every distractor with the answer's surface signature
(`divlogiceval_logic.surface_signature`). Rows are grouped by question type, so each type is scored on its own too.

Most heuristics come in pairs over one option feature (pick the options with the largest value, or the smallest),
plus an "odd one out" reading (pick the single option whose value differs from the three others, which all agree),
the pattern that exposed the old 3e1c and 3c1e builds.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from lgmt_tasks.verify.shortcuts import Battery, Heuristic, Row

_VARIABLE = re.compile(r"[A-H]")
_LAST_LITERAL = re.compile(r"¬?[A-H]\)?$")
_NEGATION_WORDS = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z']+")

Feature = Callable[[Row, int], float]
"""A number computed from option `k` of a row (booleans count as 0/1)."""


def _variables(formula: str) -> set[str]:
    """The variables a formula string mentions."""
    return set(_VARIABLE.findall(formula))


def _content_variables(row: Row) -> set[str]:
    """Every variable the shown content mentions."""
    return {v for formula in row["content_logic"] for v in _variables(formula)}


def _last_literal(formula: str) -> str:
    """The consequent literal of an implication string (the literal itself for a literal), e.g. `¬B`."""
    match = _LAST_LITERAL.search(formula.strip())
    return match.group(0).rstrip(")") if match else ""


def _facts(row: Row) -> set[str]:
    """The variables the content states as literal facts (`A`, `¬A`)."""
    return {f.strip().lstrip("¬") for f in row["content_logic"] if "→" not in f}


def words(row: Row, k: int) -> float:
    """Length of option k in words."""
    return len(str(row["options"][k]).split())


def characters(row: Row, k: int) -> float:
    """Length of option k in characters."""
    return len(str(row["options"][k]))


def formula_negations(row: Row, k: int) -> float:
    """Negation signs in option k's formula."""
    return str(row["options_logic"][k]).count("¬")


def text_negations(row: Row, k: int) -> float:
    """Negation words in option k's text."""
    return len(_NEGATION_WORDS.findall(str(row["options"][k])))


def is_literal(row: Row, k: int) -> float:
    """Whether option k is a literal fact rather than an implication."""
    return float("→" not in str(row["options_logic"][k]))


def new_variables(row: Row, k: int) -> float:
    """Variables of option k that the shown content does not mention."""
    return len(_variables(row["options_logic"][k]) - _content_variables(row))


def shared_variables(row: Row, k: int) -> float:
    """Variables of option k that the shown content mentions."""
    return len(_variables(row["options_logic"][k]) & _content_variables(row))


def co_occurring(row: Row, k: int) -> float:
    """Whether all of option k's variables occur together in one content formula."""
    mentioned = _variables(row["options_logic"][k])
    return float(len(mentioned) > 1 and any(mentioned <= _variables(f) for f in row["content_logic"]))


def fact_variables(row: Row, k: int) -> float:
    """Variables of option k that the content states as literal facts."""
    return len(_variables(row["options_logic"][k]) & _facts(row))


def conclusion_consequent(row: Row, k: int) -> float:
    """Whether option k's consequent literal is the conclusion's (missing-premise rows; 0 elsewhere)."""
    conclusion = str(row.get("conclusion_logic") or "")
    return float(bool(conclusion) and _last_literal(row["options_logic"][k]) == _last_literal(conclusion))


def conclusion_variables(row: Row, k: int) -> float:
    """Variables option k shares with the conclusion (missing-premise rows; 0 elsewhere)."""
    return len(_variables(row["options_logic"][k]) & _variables(str(row.get("conclusion_logic") or "")))


def content_word_overlap(row: Row, k: int) -> float:
    """Distinct words option k's text shares with the content text (lexical overlap)."""
    content = {w.lower() for w in _WORD.findall(str(row["content"]))}
    return len({w.lower() for w in _WORD.findall(str(row["options"][k]))} & content)


def _extreme(feature: Feature, largest: bool) -> Callable[[Row], list[int]]:
    """Pick the options with the largest (or smallest) value of a feature, ties kept."""

    def pick(row: Row) -> list[int]:
        values = [feature(row, k) for k in range(len(row["options"]))]
        best = max(values) if largest else min(values)
        return [k for k, v in enumerate(values) if v == best]

    return pick


def _odd_one_out(value: Callable[[Row, int], object]) -> Callable[[Row], list[int]]:
    """Pick the one option whose value differs from the others when the others all agree (else no preference)."""

    def pick(row: Row) -> list[int]:
        values = [value(row, k) for k in range(len(row["options"]))]
        counts = Counter(values)
        if len(counts) == 2 and sorted(counts.values()) == [1, len(values) - 1]:
            return [k for k, v in enumerate(values) if counts[v] == 1]
        return []

    return pick


def _template(row: Row, k: int) -> object:
    """The connective template of option k."""
    return row["option_templates"][k]


def _shape(row: Row, k: int) -> object:
    """Option k's formula with the variables blanked (its kind and polarity pattern)."""
    return _VARIABLE.sub("X", str(row["options_logic"][k]))


_FEATURES: tuple[tuple[str, Feature], ...] = (
    ("words", words),
    ("characters", characters),
    ("formula-negations", formula_negations),
    ("text-negations", text_negations),
    ("literal", is_literal),
    ("new-variables", new_variables),
    ("shared-variables", shared_variables),
    ("co-occurring", co_occurring),
    ("fact-variables", fact_variables),
    ("conclusion-consequent", conclusion_consequent),
    ("conclusion-variables", conclusion_variables),
    ("content-word-overlap", content_word_overlap),
)


def _heuristics() -> tuple[Heuristic, ...]:
    """Largest, smallest and odd-one-out over every feature, and odd-one-out by template and by shape."""
    out: list[Heuristic] = []
    for name, feature in _FEATURES:
        what = (feature.__doc__ or name).strip().rstrip(".")
        first = what[0].lower() + what[1:]
        out += [
            Heuristic(f"most-{name}", f"pick the options with the largest value of: {first}", _extreme(feature, True)),
            Heuristic(
                f"least-{name}", f"pick the options with the smallest value of: {first}", _extreme(feature, False)
            ),
            Heuristic(
                f"odd-{name}", f"pick the single option that differs from the rest in: {first}", _odd_one_out(feature)
            ),
        ]
    out += [
        Heuristic("odd-template", "pick the single option whose connective template differs", _odd_one_out(_template)),
        Heuristic("odd-shape", "pick the single option whose formula shape differs", _odd_one_out(_shape)),
    ]
    return tuple(out)


def _answers(row: Row) -> Sequence[int]:
    return tuple(range(len(row["options"])))


BATTERY = Battery(
    answers=_answers,
    gold=lambda row: row["answer"],
    heuristics=_heuristics(),
    group=lambda row: str(row["question_type"]),
)
"""DivLogicEval's battery: option indices 0–3, gold `answer`, grouped by question type."""
