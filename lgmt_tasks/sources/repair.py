"""Repairs of FOLIO's annotation slips that are provably safe: the repaired formula is the only reading there is.

FOLIO's FOL has known slips (`../shared/data/README.md` §2): unbalanced parentheses, free variables in ground
sentences, a quantifier written without its variable, a variable quantified twice, `—>` for `→`, `≠`, a final
period, a stray comma, a note after the formula. A slip makes a whole record unusable, and FOLIO v2 train loses 238
of its 1,001 records that way, where the LGMT paper (§4.1) lost six. Guessing what an annotator meant would invent
premises, so a slip is repaired only when the repair cannot be a guess:

* **The only reading.** Every repair rule enumerates *all* candidate texts its kind of edit can make (every single
  bracket inserted or deleted anywhere, every variable a quantifier could be missing, ...). A candidate counts only
  if it parses and is a sentence (no free variable). The repair is applied when at least one candidate counts and
  Z3 proves every counting candidate equivalent to the first (`prover.equivalent`): however the slip is read, the
  formula says the same thing. Two inequivalent readings, or one that Z3 cannot decide within its limits, leave the
  formula unrepaired and the record skipped for its original reason, as before.
* **Then the label is proven as for every case.** A repaired record goes through the same gold-label check
  (`pipeline.prove_sources`): its Z3 label must equal FOLIO's gold label, or it is dropped and counted.

What is never repaired: a free variable that stands for a constant (`ProducedBy(x, aOC)` for "A-2017 is produced
by AOC": which constant is a guess), two brackets missing at once (the readings multiply), and a record whose
English and FOL lists differ in length other than by trailing empty FOL lines.

Each repair is kept on its problem (`SourceProblem.meta["repairs"]`, as `Repair.to_dict`), so the load report, the
build statistics and the card count them by kind, and `lgmt audit-source` lists them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from lgmt_tasks.logic.parse import FREE_VARIABLE_LETTERS, FormulaSyntaxError, parse
from lgmt_tasks.logic.prover import equivalent
from lgmt_tasks.logic.syntax import Formula, free_vars
from lgmt_tasks.sources.common import SourceProblem

REPAIR_BRACKET = "one bracket missing or extra"
REPAIR_SCOPE = "quantifier scope widened to bind its variables"
REPAIR_DUPLICATE_VARIABLE = "variable quantified twice"
REPAIR_MISSING_VARIABLE = "quantifier without its variable"
REPAIR_SYMBOL = "non-standard symbol"
REPAIR_TRAILING = "text after the formula"
REPAIR_STRAY_COMMA = "stray comma before ')'"
REPAIR_BLANK_LINE = "trailing empty FOL line"

REPAIR_KINDS: tuple[str, ...] = (
    REPAIR_SYMBOL,
    REPAIR_TRAILING,
    REPAIR_STRAY_COMMA,
    REPAIR_BRACKET,
    REPAIR_SCOPE,
    REPAIR_DUPLICATE_VARIABLE,
    REPAIR_MISSING_VARIABLE,
    REPAIR_BLANK_LINE,
)
"""Every kind of repair, in the order the rules are tried (the keys of a load report's `repaired` counts)."""

_SYMBOLS = (("—>", "→"), ("–>", "→"))
"""Arrow spellings FOLIO uses besides `→` (an em or en dash and '>'); no other reading of them exists."""
_NOT_EQUAL = re.compile(r"\(\s*([^\s()≠,]+)\s*≠\s*([^\s()≠,]+)\s*\)")
_FINAL_PERIOD = re.compile(r"\)\s*\.\s*$")
_STRAY_COMMA = re.compile(r",\s*\)")
_TRAILING_NOTE = re.compile(r"^(.*\))\s+([A-Za-z][A-Za-z ,;:'\"-]*)$")
"""A formula ending in ')' followed by words only (no bracket, connective or quantifier): an annotator's note."""
_PREFIX = re.compile(r"((?:[∀∃]\s*[a-z]\w*\s*)+)\(")
_MISSING_VARIABLE = re.compile(r"[∀∃]\s*\(")
_QUANTIFIER = re.compile(r"([∀∃])\s*([a-z]\w*)")


@dataclass(frozen=True)
class Repair:
    """One repaired formula: where it sits, the kind of slip, and the text before and after."""

    field: str
    kind: str
    before: str
    after: str

    def to_dict(self) -> dict[str, str]:
        """Plain data, for a problem's meta, the load report and the build statistics."""
        return {"field": self.field, "kind": self.kind, "before": self.before, "after": self.after}


def _sentence(text: str) -> Formula | None:
    """The text's formula if it parses and has no free variable, else None."""
    try:
        formula = parse(text)
    except FormulaSyntaxError:
        return None
    return None if free_vars(formula) else formula


def _one_reading(candidates: Sequence[str]) -> str | None:
    """The first candidate that reads as a sentence, if every candidate that does is provably equivalent to it.

    None when no candidate reads, when two readings differ, or when Z3 cannot decide an equivalence.
    """
    readings: dict[Formula, str] = {}
    for text in candidates:
        formula = _sentence(text)
        if formula is not None and formula not in readings:
            readings[formula] = text
    if not readings:
        return None
    first, *others = readings
    if any(equivalent(first, other) is not True for other in others):
        return None
    return readings[first]


def _symbols(text: str) -> str:
    """`—>` as `→` and `(a≠b)` as `¬(a=b)`: spellings with exactly one meaning."""
    for old, new in _SYMBOLS:
        text = text.replace(old, new)
    return _NOT_EQUAL.sub(r"¬(\1=\2)", text)


def _bracket_edits(text: str) -> Iterator[str]:
    """Every text one bracket away from `text`: each bracket deleted, and '(' or ')' inserted at each position."""
    opened, closed = text.count("("), text.count(")")
    if opened != closed + 1 and closed != opened + 1:
        return
    extra, missing = ("(", ")") if opened > closed else (")", "(")
    arguments = _argument_brackets(text)
    deletions = (text[:i] + text[i + 1 :] for i, ch in enumerate(text) if ch == extra and i not in arguments)
    # A ')' is tried from the end backwards and a '(' from the start: the reading a repair shows is the first that
    # counts, so it is the natural one (a ')' left off at the end, one ')' too many).
    where = range(len(text), -1, -1) if missing == ")" else range(len(text) + 1)
    # Positions beside a space are skipped: the neighbouring position gives the same reading without a stray space.
    insertions = (
        text[:i] + missing + text[i:]
        for i in where
        if (missing == ")" and not text[i - 1 : i].isspace())
        or (missing == "(" and not (i and _in_name(text[i - 1])) and not text[i : i + 1].isspace())
    )
    yield from (insertions if missing == ")" else deletions)
    yield from (deletions if missing == ")" else insertions)


def _in_name(ch: str) -> bool:
    """Whether `ch` can end a predicate's name (so a '(' after it opens an argument list)."""
    return ch.isalnum() or ch in "_'’"


def _argument_brackets(text: str) -> set[int]:
    """Positions of the brackets of argument lists (`P(` and its matching `)`): an edit never removes them.

    Deleting one would fuse a predicate with its argument (`Velvet(x)` into the proposition `Velvetx`), which is
    no reading of a slip.
    """
    positions: set[int] = set()
    for i, ch in enumerate(text):
        before = text[:i].rstrip()
        name = len(before)
        while name and _in_name(before[name - 1]):
            name -= 1
        if ch == "(" and name < len(before) and before[:name].rstrip()[-1:] not in ("∀", "∃"):
            positions.add(i)
            close = _closing(text, i)
            if close < len(text):
                positions.add(close)
    return positions


def _closing(text: str, start: int) -> int:
    """The index of the ')' matching the '(' at `start` (len(text) if it is never closed)."""
    return _enclosing_end(text, start + 1)


def _enclosing_end(text: str, start: int) -> int:
    """Where the bracket level of position `start` ends: the index of its closing ')', or len(text)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            if depth == 0:
                return i
            depth -= 1
    return len(text)


def _scope_edits(text: str) -> Iterator[str]:
    """Each quantifier prefix's scope widened from its parenthesised group to the end of the enclosing level.

    The parser reads `∃x ∃y (A(x)) ∧ B(x, y)` as `(∃x ∃y (A(x))) ∧ B(x, y)` (the unit reading, `parse.py`); the
    other reading it documents, the widest scope, is `∃x ∃y ((A(x)) ∧ B(x, y))`.
    """
    for match in _PREFIX.finditer(text):
        group = match.end() - 1
        close = _closing(text, group)
        end = _enclosing_end(text, close + 1)
        rest = text[close + 1 : end]
        if close < len(text) and _starts_level(text, match.start()) and _conjuncts_only(rest):
            yield text[:group] + "(" + text[group:end] + ")" + text[end:]


def _starts_level(text: str, at: int) -> bool:
    """Whether nothing but spaces stands between position `at` and the start of its bracket level."""
    before = text[:at].rstrip()
    return not before or before.endswith("(")


def _conjuncts_only(rest: str) -> bool:
    """Whether `rest` is `∧ …` with no other connective at its own bracket level.

    Widening `∃x ∃y (A(x)) ∧ ¬(x=y) ∧ A(y)` over the conjunction is the one sensible reading; widening an `∃y` over
    `→` would turn "if some y … then …" into the nearly vacuous `∃y (… → …)`, so no other connective qualifies.
    """
    depth, connectives = 0, []
    for ch in rest:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "∧^&∨|⊕→↔⟷":
            connectives.append(ch)
    return rest.lstrip()[:1] in ("∧", "^", "&") and set(connectives) <= {"∧", "^", "&"} and "-" not in rest


def _duplicate_variable_edits(text: str) -> Iterator[str]:
    """Each repeated variable of a quantifier prefix replaced by each free-variable letter of the text."""
    letters = sorted({m.group(0) for m in re.finditer(r"\b[u-z]\b", text)} & FREE_VARIABLE_LETTERS)
    for prefix in re.finditer(r"(?:[∀∃]\s*[a-z]\w*\s*){2,}", text):
        seen: set[str] = set()
        for quantifier in _QUANTIFIER.finditer(prefix.group(0)):
            name = quantifier.group(2)
            if name in seen:
                at = prefix.start() + quantifier.start(2)
                for letter in letters:
                    if letter not in seen:
                        yield text[:at] + letter + text[at + len(name) :]
            seen.add(name)


def _missing_variable_edits(text: str) -> Iterator[str]:
    """Each quantifier written without a variable (`∃(…)`) given each variable letter of the text."""
    letters = sorted({m.group(0) for m in re.finditer(r"\b[u-z]\b", text)} & FREE_VARIABLE_LETTERS)
    for match in _MISSING_VARIABLE.finditer(text):
        at = match.start() + 1
        for letter in letters:
            yield text[:at] + letter + text[at:]


_RULES: tuple[tuple[str, Callable[[str], Iterator[str]]], ...] = (
    (REPAIR_BRACKET, _bracket_edits),
    (REPAIR_SCOPE, _scope_edits),
    (REPAIR_DUPLICATE_VARIABLE, _duplicate_variable_edits),
    (REPAIR_MISSING_VARIABLE, _missing_variable_edits),
)


@lru_cache(maxsize=4096)
def repair_formula(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The repaired text of a formula that is not a sentence as written, and the kinds of slip repaired.

    Returns None when `text` is a sentence already (nothing to repair), is empty, or has no repair that is the only
    reading (see the module docstring). The spelling fixes (`REPAIR_SYMBOL`, `REPAIR_TRAILING`,
    `REPAIR_STRAY_COMMA`) have one reading by construction and are applied first; then at most one structural rule
    (brackets, scope, a duplicated or missing variable) is tried, in that order, on the result.
    """
    if not text.strip() or _sentence(text) is not None:
        return None
    kinds: list[str] = []
    fixed = _symbols(text)
    if fixed != text:
        kinds.append(REPAIR_SYMBOL)
    for kind, pattern, replacement in (
        (REPAIR_TRAILING, _FINAL_PERIOD, ")"),
        (REPAIR_TRAILING, _TRAILING_NOTE, r"\1"),
        (REPAIR_STRAY_COMMA, _STRAY_COMMA, ")"),
    ):
        changed = pattern.sub(replacement, fixed)
        if changed != fixed and _closes_more(changed, fixed):
            fixed = changed
            if kind not in kinds:
                kinds.append(kind)
    if kinds and _sentence(fixed) is not None:
        return fixed, tuple(kinds)
    for kind, edits in _RULES:
        repaired = _one_reading(list(dict.fromkeys(edits(fixed))))
        if repaired is not None:
            return repaired, (*kinds, kind)
    return None


def _closes_more(changed: str, before: str) -> bool:
    """Whether a spelling fix helps: the changed text parses further than before (or wholly)."""
    return _parsed_up_to(changed) > _parsed_up_to(before) or _sentence(changed) is not None


def _parsed_up_to(text: str) -> int:
    """How far the parser reads `text` before its first error (len(text) if it parses)."""
    try:
        parse(text)
    except FormulaSyntaxError as exc:
        return exc.column
    return len(text)


def repair_problem(problem: SourceProblem) -> SourceProblem:
    """`problem` with every safely repairable formula repaired; its repairs listed in `meta["repairs"]`.

    Trailing empty FOL premises beyond the English premises are dropped first (FOLIO v2 train has 11 records whose
    FOL list ends in an empty line): an empty line says nothing, and premise i still pairs with formula i.
    """
    repairs: list[Repair] = []
    premises_fol = list(problem.premises_fol)
    while len(premises_fol) > len(problem.premises) and _blank(premises_fol[-1]):
        field = f"premises_fol[{len(premises_fol) - 1}]"
        repairs.append(Repair(field, REPAIR_BLANK_LINE, premises_fol.pop(), ""))
    for i, text in enumerate(premises_fol):
        premises_fol[i] = _repaired(f"premises_fol[{i}]", text, repairs)
    conclusion_fol = problem.conclusion_fol
    if conclusion_fol is not None:
        conclusion_fol = _repaired("conclusion_fol", conclusion_fol, repairs)
    if not repairs:
        return problem
    meta: dict[str, Any] = {**problem.meta, "repairs": [r.to_dict() for r in repairs]}
    return replace(problem, premises_fol=tuple(premises_fol), conclusion_fol=conclusion_fol, meta=meta)


def _blank(text: object) -> bool:
    """Whether a FOL line is empty (a non-string is not: its wrong type is the loader's to report)."""
    return isinstance(text, str) and not text.strip()


def _repaired(field: str, text: str, repairs: list[Repair]) -> str:
    """`text` repaired if it can be (the repair appended to `repairs`, one per kind), else unchanged."""
    result = repair_formula(text) if isinstance(text, str) else None  # a wrong type is the loader's to report
    if result is None:
        return text
    after, kinds = result
    repairs.extend(Repair(field, kind, text, after) for kind in kinds)
    return after


def repairs_of(problem: SourceProblem) -> list[dict[str, str]]:
    """The repairs `repair_problem` made to `problem` (empty if none)."""
    return list(problem.meta.get("repairs", ()))


__all__ = [
    "REPAIR_BLANK_LINE",
    "REPAIR_BRACKET",
    "REPAIR_DUPLICATE_VARIABLE",
    "REPAIR_KINDS",
    "REPAIR_MISSING_VARIABLE",
    "REPAIR_SCOPE",
    "REPAIR_STRAY_COMMA",
    "REPAIR_SYMBOL",
    "REPAIR_TRAILING",
    "Repair",
    "repair_formula",
    "repair_problem",
    "repairs_of",
]
