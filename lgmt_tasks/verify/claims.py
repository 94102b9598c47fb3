"""What each suite's rows claim, read back from the row's own columns (never from the builder's objects).

A `Claim` is one logical statement a shipped row rests on, with its formulas as the strings the row stores:

* `label`: the three-valued label of Γ ⊢? q (`True`, `False`, `Unknown`);
* `entails`: whether Γ ⊨ q (`entailed` / `not entailed`);
* `equivalent`: a ≡ b (`equivalent`).

Per suite (the builders prove exactly these with Z3; here they are re-stated so a second prover can check them):

* LGMT: the source label; every follow-up's label (all 20 relations keep the label); and, for the formula-level
  relations (MR-E, MR-C) that rewrite one formula, that formula's equivalence with the one it replaced
  (`lgmt_tasks.lgmt.relations.check`).
* LogicAsker: the yes/no answer (yes iff the premises entail the conclusion).
* DivLogicEval: the answer key (which options the content entails, or which restore a missing premise) and the
  construction claims of §2.1 (no single proposition entails an entailed option; a missing-premise question's
  distractors are not entailed by the full content), as in `builders.divlogiceval.answer_key_claims`.
* QMFOL: the label with the distractors, and the same label without them (the distractor property).
* lexical: the source label; the follow-up label where the row says it is proven (MR-19, MR-84, MR-152).

A row whose column is missing or of the wrong type, or whose label is not one of the allowed values, gives a claim
marked `malformed` (counted as unparsable with the row id), never an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lgmt_tasks import suites as registry
from lgmt_tasks.builders.repo_folder import check_columns as check_columns  # shared with the task loaders
from lgmt_tasks.builders.repo_folder import detect_suite as detect_suite
from lgmt_tasks.vocabulary import TRUTH_LABELS

ClaimKind = Literal["label", "entails", "equivalent"]
LABELS = TRUTH_LABELS
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


def texts(row: Mapping[str, Any], column: str) -> tuple[str, ...]:
    """A list-of-strings column; a `RowError` naming the column otherwise."""
    value = row.get(column)
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise RowError(f"column {column!r} is {type(value).__name__}, expected a list of strings")
    return tuple(value)


def text(row: Mapping[str, Any], column: str) -> str:
    """A string column; a `RowError` naming the column otherwise."""
    value = row.get(column)
    if not isinstance(value, str):
        raise RowError(f"column {column!r} is {type(value).__name__}, expected a string")
    return value


def choice(row: Mapping[str, Any], column: str, allowed: Sequence[str]) -> str:
    """A column whose value must be one of `allowed`; a `RowError` naming the column otherwise."""
    value = row.get(column)
    if value not in allowed:
        raise RowError(f"column {column!r} is {value!r}, expected one of {', '.join(allowed)}")
    assert isinstance(value, str)
    return value


def guard(row_id: str, group: str, what: str, kind: ClaimKind, make: Callable[[], list[Claim]]) -> list[Claim]:
    """The claims `make` builds, or one malformed claim when the row cannot give them."""
    try:
        return make()
    except RowError as exc:
        return [Claim(row_id, group, what, kind, (), "", malformed=str(exc))]


# --------------------------------------------------------------------------------------------------- suites


def row_claims(suite: str, row: Mapping[str, Any], row_id: str) -> list[Claim]:
    """The claims of one row of `suite` (each suite's `claims.row_claims`, found through the suite registry)."""
    extract: Extractor = registry.suite(suite).attr("claims", "row_claims")
    return extract(row, row_id)
