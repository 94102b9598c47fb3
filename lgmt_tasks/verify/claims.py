"""What each suite's rows claim, read back from the row's own columns (never from the builder's objects).

A `Claim` is one logical statement a shipped row rests on, with its formulas as the strings the row stores:

* `label`: the three-valued label of Γ ⊢? q (`True`, `False`, `Unknown`);
* `entails`: whether Γ ⊨ q (`entailed` / `not entailed`);
* `equivalent`: a ≡ b (`equivalent`).

Per suite (the builders prove exactly these with Z3; here they are re-stated so a second prover can check them):

* LGMT: the source label; every follow-up's label (all 20 relations keep the label); and, for the formula-level
  relations (MR-E, MR-C) that rewrite one formula, that formula's equivalence with the one it replaced
  (`lgmt_tasks.relations.check`).
* LogicAsker: the yes/no answer (yes iff the premises entail the conclusion).
* DivLogicEval: the answer key (which options the content entails, or which restore a missing premise) and the
  construction claims of §2.1 (no single proposition entails an entailed option; a missing-premise question's
  distractors are not entailed by the full content), as in `builders.divlogiceval.answer_key_claims`.
* QMFOL: the label with the distractors, and the same label without them (the distractor property).
* lexical: the source label only; its follow-ups are English rewrites with no FOL, so they carry no logical claim.

A row whose column is missing or of the wrong type, or whose label is not one of the allowed values, gives a claim
marked `malformed` (counted as unparsable with the row id), never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

ClaimKind = Literal["label", "entails", "equivalent"]
LABELS: tuple[str, ...] = ("True", "False", "Unknown")
ENTAILED, NOT_ENTAILED, EQUIVALENT, NOT_EQUIVALENT = "entailed", "not entailed", "equivalent", "not equivalent"
CONTRADICTORY = "contradictory"
"""What a prover's three-valued answer is called when the premises are unsatisfiable (never a label)."""


@dataclass(frozen=True)
class Claim:
    """One logical claim of one row.

    Attributes:
        row_id: The row's `id`.
        group: The claim family (a line of the summary table), e.g. `follow-up equivalence`.
        what: The claim in words, e.g. `follow-up equivalence (MR-E1.1, premise 2)`.
        kind: `label`, `entails` or `equivalent`.
        formulas: For `label`/`entails`: the premises then the conclusion; for `equivalent`: the two formulas.
        expected: What the row says: a label, `entailed`/`not entailed`, or `equivalent`.
        malformed: Why the claim could not be read from the row (empty when it could).
    """

    row_id: str
    group: str
    what: str
    kind: ClaimKind
    formulas: tuple[str, ...]
    expected: str
    malformed: str = ""


class RowError(ValueError):
    """A row column is missing or has the wrong type (becomes a `malformed` claim)."""


Extractor = Callable[[Mapping[str, Any], str], list[Claim]]


def _texts(row: Mapping[str, Any], column: str) -> tuple[str, ...]:
    value = row.get(column)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RowError(f"column {column!r} is {type(value).__name__}, expected a list of strings")
    return tuple(value)


def _text(row: Mapping[str, Any], column: str) -> str:
    value = row.get(column)
    if not isinstance(value, str):
        raise RowError(f"column {column!r} is {type(value).__name__}, expected a string")
    return value


def _choice(row: Mapping[str, Any], column: str, allowed: Sequence[str]) -> str:
    value = row.get(column)
    if value not in allowed:
        raise RowError(f"column {column!r} is {value!r}, expected one of {', '.join(allowed)}")
    assert isinstance(value, str)
    return value


def _guard(row_id: str, group: str, what: str, kind: ClaimKind, make: Callable[[], list[Claim]]) -> list[Claim]:
    """The claims `make` builds, or one malformed claim when the row cannot give them."""
    try:
        return make()
    except RowError as exc:
        return [Claim(row_id, group, what, kind, (), "", malformed=str(exc))]


# --------------------------------------------------------------------------------------------------- LGMT

EQUIVALENCE_CATEGORIES = ("MR-E", "MR-C")
"""Categories whose single relations rewrite one formula into an equivalent one (their proof obligation)."""


def _only_change(source: Sequence[str], followup: Sequence[str]) -> list[tuple[str, str, str]]:
    """The (where, original, rewritten) formulas that differ between source and follow-up (premises, then conclusion).

    Both sequences are the premises followed by the conclusion. Premise lists of different lengths are reported as
    one whole-premises change.
    """
    if len(source) != len(followup):
        return [("premises", "", "")]
    return [
        ("conclusion" if i == len(source) - 1 else f"premise {i + 1}", a, b)
        for i, (a, b) in enumerate(zip(source, followup, strict=True))
        if a != b
    ]


def lgmt_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """Source label, follow-up labels and follow-up equivalences of an LGMT row."""
    out = _guard(
        row_id,
        "source label",
        "source label",
        "label",
        lambda: [
            Claim(
                row_id,
                "source label",
                "source label",
                "label",
                (*_texts(row, "premises_fol"), _text(row, "conclusion_fol")),
                _choice(row, "label", LABELS),
            )
        ],
    )
    extra = row.get("extra_followups") or []
    followups: list[tuple[str, Mapping[str, Any], str]] = [("follow-up", row, "followup_")]
    if isinstance(extra, list):
        followups += [(f"follow-up {k + 2}", e, "") for k, e in enumerate(extra) if isinstance(e, Mapping)]
    for name, columns, prefix in followups:
        mr = str(columns.get("mr", "?"))

        def label_claim(columns: Mapping[str, Any] = columns, prefix: str = prefix, name: str = name,
                        mr: str = mr) -> list[Claim]:
            formulas = (*_texts(columns, f"{prefix}premises_fol"), _text(columns, f"{prefix}conclusion_fol"))
            return [Claim(row_id, "follow-up label", f"{name} label ({mr})", "label", formulas,
                          _choice(row, "label", LABELS))]

        def equivalence_claim(columns: Mapping[str, Any] = columns, prefix: str = prefix, name: str = name,
                              mr: str = mr) -> list[Claim]:
            if columns.get("category") not in EQUIVALENCE_CATEGORIES or "+" in mr:
                return []  # a label obligation (MR-S, MR-P, composed chains): covered by the follow-up label
            source = (*_texts(row, "premises_fol"), _text(row, "conclusion_fol"))
            followup = (*_texts(columns, f"{prefix}premises_fol"), _text(columns, f"{prefix}conclusion_fol"))
            changes = _only_change(source, followup)
            if len(changes) != 1 or changes[0][0] == "premises":
                raise RowError(f"{name} of {mr} should rewrite exactly one formula, found {len(changes)} changes")
            where, original, rewritten = changes[0]
            return [Claim(row_id, "follow-up equivalence", f"{name} equivalence ({mr}, {where})", "equivalent",
                          (original, rewritten), EQUIVALENT)]

        out += _guard(row_id, "follow-up label", f"{name} label ({mr})", "label", label_claim)
        out += _guard(row_id, "follow-up equivalence", f"{name} equivalence ({mr})", "equivalent", equivalence_claim)
    return out


# ---------------------------------------------------------------------------------------------- LogicAsker


def logicasker_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The yes/no answer of a LogicAsker row: yes iff the premises entail the conclusion."""

    def make() -> list[Claim]:
        answer = _choice(row, "answer", ("yes", "no"))
        formulas = (*_texts(row, "premises_fol"), _text(row, "conclusion_fol"))
        what = f"answer {answer}: premises {'entail' if answer == 'yes' else 'do not entail'} the conclusion"
        return [Claim(row_id, "answer", what, "entails", formulas, ENTAILED if answer == "yes" else NOT_ENTAILED)]

    return _guard(row_id, "answer", "answer", "entails", make)


# -------------------------------------------------------------------------------------------- DivLogicEval

_LETTERS = "ABCD"


def _entails(row_id: str, group: str, what: str, premises: Sequence[str], conclusion: str, expected: bool) -> Claim:
    return Claim(row_id, group, what, "entails", (*premises, conclusion), ENTAILED if expected else NOT_ENTAILED)


def divlogiceval_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The answer key and the construction claims of a DivLogicEval row (see the module docstring)."""

    def make() -> list[Claim]:
        kind = _choice(row, "question_type", ("3c1e", "3e1c", "missing"))
        content = _texts(row, "content_logic")
        options = _texts(row, "options_logic")
        answer = row.get("answer")
        if len(options) != 4 or not isinstance(answer, int) or not 0 <= answer < 4:
            raise RowError(f"expected 4 options and an answer index 0-3, got {len(options)} options, answer {answer!r}")
        others = [k for k in range(4) if k != answer]
        key, build = "answer key", "construction"
        out: list[Claim] = []
        if kind == "3c1e":
            out.append(_entails(row_id, key, f"content entails the answer {_LETTERS[answer]}", content,
                                options[answer], True))
            out += [_entails(row_id, key, f"content does not entail option {_LETTERS[k]}", content, options[k], False)
                    for k in others]
            needed, full = [answer], content
        elif kind == "3e1c":
            out += [_entails(row_id, key, f"content entails option {_LETTERS[k]}", content, options[k], True)
                    for k in others]
            out.append(_entails(row_id, key, f"content does not entail the answer {_LETTERS[answer]}", content,
                                options[answer], False))
            needed, full = others, content
        else:
            conclusion = _text(row, "conclusion_logic")
            out.append(_entails(row_id, key, "shown content does not entail the conclusion", content, conclusion,
                                False))
            out.append(_entails(row_id, key, f"content and the answer {_LETTERS[answer]} entail the conclusion",
                                (*content, options[answer]), conclusion, True))
            out += [_entails(row_id, key, f"content and option {_LETTERS[k]} do not entail the conclusion",
                             (*content, options[k]), conclusion, False) for k in others]
            full = (*content, options[answer])  # the removed proposition is the answer
            out += [_entails(row_id, build, f"full content does not entail option {_LETTERS[k]}", full, options[k],
                             False) for k in others]
            needed = []
        targets = [(f"option {_LETTERS[k]}", options[k]) for k in needed]
        if kind == "missing":
            targets = [("the conclusion", _text(row, "conclusion_logic"))]
        out += [
            _entails(row_id, build, f"proposition {i + 1} alone does not entail {name}", [p], formula, False)
            for name, formula in targets
            for i, p in enumerate(full)
        ]
        return out

    return _guard(row_id, "answer key", "answer key", "entails", make)


# --------------------------------------------------------------------------------------------------- QMFOL


def qmfol_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The label of a QMFOL task, with its distractors and without them."""

    def with_distractors() -> list[Claim]:
        formulas = (*_texts(row, "premises_fol"), _text(row, "conclusion_fol"))
        return [Claim(row_id, "label", "label", "label", formulas, _choice(row, "label", LABELS))]

    def basic() -> list[Claim]:
        formulas = (*_texts(row, "rules_fol"), *_texts(row, "facts_fol"), _text(row, "conclusion_fol"))
        return [Claim(row_id, "label without distractors", "label without distractors", "label", formulas,
                      _choice(row, "label", LABELS))]

    return [*_guard(row_id, "label", "label", "label", with_distractors),
            *_guard(row_id, "label without distractors", "label without distractors", "label", basic)]


# ------------------------------------------------------------------------------------------------- lexical


def lexical_claims(row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The source label of a lexical row (its follow-up is English only: no FOL, no logical claim)."""

    def make() -> list[Claim]:
        formulas = (*_texts(row, "premises_fol"), _text(row, "conclusion_fol"))
        return [Claim(row_id, "source label", "source label", "label", formulas, _choice(row, "label", LABELS))]

    return _guard(row_id, "source label", "source label", "label", make)


# --------------------------------------------------------------------------------------------------- suites


@dataclass(frozen=True)
class SuiteClaims:
    """How a suite's rows are recognised and what they claim.

    Attributes:
        name: The suite (as in `lgmt build <suite>`).
        columns: Columns every row of the suite has (used to recognise a folder's suite).
        extract: `extract(row, row_id) -> claims`.
        note: What is (and is not) checked, printed with the summary.
    """

    name: str
    columns: frozenset[str]
    extract: Extractor
    note: str


SUITES: dict[str, SuiteClaims] = {
    s.name: s
    for s in (
        SuiteClaims("lgmt", frozenset({"premises_fol", "conclusion_fol", "label", "followup_premises_fol",
                                       "followup_conclusion_fol", "category"}), lgmt_claims,
                    "source label, follow-up labels, and the rewritten formula's equivalence for MR-E/MR-C"),
        SuiteClaims("logicasker", frozenset({"premises_fol", "conclusion_fol", "answer", "problem_type"}),
                    logicasker_claims, "the yes/no answer (yes iff the premises entail the conclusion)"),
        SuiteClaims("divlogiceval", frozenset({"content_logic", "options_logic", "answer", "question_type"}),
                    divlogiceval_claims, "the answer key and the construction claims of every option"),
        SuiteClaims("qmfol", frozenset({"premises_fol", "conclusion_fol", "label", "rules_fol", "facts_fol"}),
                    qmfol_claims, "the label with and without the distractors"),
        SuiteClaims("lexical", frozenset({"premises_fol", "conclusion_fol", "label", "kind", "pending"}),
                    lexical_claims,
                    "the source label only: follow-ups are English rewrites with no FOL, so they make 0 claims"),
    )
}
SUITE_NAMES: tuple[str, ...] = tuple(SUITES)


def detect_suite(columns: Sequence[str]) -> str:
    """The suite whose columns a dataset has.

    Raises:
        ValueError: No suite, or more than one, matches the columns.
    """
    have = set(columns)
    matches = [name for name, suite in SUITES.items() if suite.columns <= have]
    if len(matches) != 1:
        found = "no suite" if not matches else f"several suites ({', '.join(matches)})"
        raise ValueError(
            f"columns {sorted(have)} match {found}; pass --suite, one of {', '.join(SUITE_NAMES)}"
        )
    return matches[0]


def check_columns(suite: str, columns: Sequence[str]) -> None:
    """Raise a `ValueError` naming the missing columns when a dataset cannot be a `suite` dataset."""
    if suite not in SUITES:
        raise ValueError(f"suite={suite!r}: expected one of {', '.join(SUITE_NAMES)}")
    missing = sorted(SUITES[suite].columns - set(columns))
    if missing:
        raise ValueError(f"suite {suite!r} needs the column(s) {', '.join(missing)}, which this dataset lacks")
