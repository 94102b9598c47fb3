"""What a divlogiceval row claims, read back from its own columns, for `lgmt verify` to re-prove with a second prover.

DivLogicEval: the answer key (which options the content entails, or which restore a missing premise) and
the construction claims of §2.1 (no single proposition entails an entailed option; a missing-premise question's
distractors are not entailed by the full content), and that no entailed implication ``l₁ → l₂`` holds vacuously
(the content entails neither ``l₂`` nor ``¬l₁``), as the builder proves them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lgmt_tasks.divlogiceval.config import QUESTION_TYPES
from lgmt_tasks.divlogiceval.logic import vacuity_witnesses
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.printer import show
from lgmt_tasks.verify.claims import ENTAILED, NOT_ENTAILED, Claim, RowError, choice, guard, text, texts
from lgmt_tasks.vocabulary import OPTION_LETTERS

_LETTERS = OPTION_LETTERS


def _entails(row_id: str, group: str, what: str, premises: Sequence[str], conclusion: str, expected: bool) -> Claim:
    return Claim(row_id, group, what, "entails", (*premises, conclusion), ENTAILED if expected else NOT_ENTAILED)


def _vacuity_witnesses(formula: str) -> list[str]:
    """What the content must not entail for an implication between literals to hold non-vacuously (`¬l₁`, `l₂`).

    Raises:
        RowError: If the formula string does not parse.
    """
    try:
        parsed = parse(formula)
    except ValueError as exc:
        raise RowError(f"cannot parse {formula!r}: {exc}") from exc
    return [show(w) for w in vacuity_witnesses(parsed)]


def row_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The answer key and the construction claims of a DivLogicEval row (see the module docstring)."""

    def make() -> list[Claim]:
        kind = choice(row, "question_type", QUESTION_TYPES)
        content = texts(row, "content_logic")
        options = texts(row, "options_logic")
        answer = row.get("answer")
        if len(options) != 4 or not isinstance(answer, int) or not 0 <= answer < 4:
            raise RowError(f"expected 4 options and an answer index 0-3, got {len(options)} options, answer {answer!r}")
        others = [k for k in range(4) if k != answer]
        key, build = "answer key", "construction"
        out: list[Claim] = []
        if kind == "3c1e":
            out.append(
                _entails(row_id, key, f"content entails the answer {_LETTERS[answer]}", content, options[answer], True)
            )
            out += [
                _entails(row_id, key, f"content does not entail option {_LETTERS[k]}", content, options[k], False)
                for k in others
            ]
            needed, full = [answer], content
        elif kind == "3e1c":
            out += [
                _entails(row_id, key, f"content entails option {_LETTERS[k]}", content, options[k], True)
                for k in others
            ]
            out.append(
                _entails(
                    row_id,
                    key,
                    f"content does not entail the answer {_LETTERS[answer]}",
                    content,
                    options[answer],
                    False,
                )
            )
            needed, full = others, content
        else:
            conclusion = text(row, "conclusion_logic")
            out.append(
                _entails(row_id, key, "shown content does not entail the conclusion", content, conclusion, False)
            )
            out.append(
                _entails(
                    row_id,
                    key,
                    f"content and the answer {_LETTERS[answer]} entail the conclusion",
                    (*content, options[answer]),
                    conclusion,
                    True,
                )
            )
            out += [
                _entails(
                    row_id,
                    key,
                    f"content and option {_LETTERS[k]} do not entail the conclusion",
                    (*content, options[k]),
                    conclusion,
                    False,
                )
                for k in others
            ]
            full = (*content, options[answer])  # the removed proposition is the answer
            out += [
                _entails(row_id, build, f"full content does not entail option {_LETTERS[k]}", full, options[k], False)
                for k in others
            ]
            needed = []
        targets = [(f"option {_LETTERS[k]}", options[k]) for k in needed]
        if kind == "missing":
            targets = [("the conclusion", text(row, "conclusion_logic"))]
        out += [
            _entails(row_id, build, f"proposition {i + 1} alone does not entail {name}", [p], formula, False)
            for name, formula in targets
            for i, p in enumerate(full)
        ]
        out += [
            _entails(row_id, build, f"{name} is not vacuous: content does not entail {w}", full, w, False)
            for name, formula in targets
            for w in _vacuity_witnesses(formula)
        ]
        return out

    return guard(row_id, "answer key", "answer key", "entails", make)
