"""Smaller source cases: every one-step simplification of a case, and the size that orders them.

A shrink step changes the *source* case only; the follow-up is then re-derived by the group's own relation
(`derive`). One step is one of:

* **drop a premise** (a case keeps at least one premise, so the prompt still has a premise list; chains of
  premises — A → B, B → C, C → D — are shortened one link at a time this way);
* **replace a sub-formula by a simpler one**, in a premise or in the conclusion: a conjunction or disjunction by
  one of its operands, or by itself without one operand (three or more operands); an implication, biconditional
  or exclusive or by one of its sides; a negation by its body; a quantified formula by an instance of its body
  (the bound variable replaced by a constant of the case, or simply dropped when it does not occur);
* **rename a symbol to a shorter one**: a constant to `b`, `c`, `d`, ... and a predicate to `P`, `Q`, `R`, ...
  (only when the new name is shorter and unused). The constants are consonants only: the realiser speaks a
  constant as its name, and `a`, `i` or `o` would read as English words ("Either a has property P").

Only well-formed results are kept: every premise and the conclusion must stay sentences (a replacement under a
quantifier may not free a variable). Whether a step keeps the label or the relation's claim is not decided here;
`derive` re-proves every candidate.

Size (documented in the README): the tuple (number of premises, formula nodes over premises and conclusion,
characters of the printed formulas). Candidates are tried smallest first, and every step makes the case strictly
smaller in this order (a drop removes a premise; a replacement removes nodes; a renaming shortens the print), so the
greedy search always terminates.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.syntax import (
    And,
    Const,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Path,
    Xor,
    free_vars,
    rename_constant,
    rename_predicate,
    replace_at,
    signature,
    size,
    subformulas,
    substitute,
)

Size = tuple[int, int, int]

SHORT_CONSTANTS: tuple[str, ...] = tuple("bcdfghjklmnpqrst")
"""Shorter constant names, in the order they are tried: consonants, none an English word when spoken as the
sentence's subject (no `a` or `i`, the article and the pronoun; no vowel at all), and no u–z (the parser reads those
letters as variables)."""
SHORT_PREDICATES: tuple[str, ...] = tuple("PQRSTUVWBCDEFGHJKLMN")
"""Shorter predicate names, in the order they are tried (no `A` or `I`: a proposition named so reads as a word)."""


@dataclass(frozen=True)
class Shape:
    """A source case in FOL, with where each premise came from.

    Attributes:
        premises: The premises.
        conclusion: The conclusion.
        origin: Per premise, the index of the original group's source premise it was shrunk from (kept through
            replacements and renamings, so the relation's original site can be found again and unchanged premises
            keep their English).
    """

    premises: tuple[Formula, ...]
    conclusion: Formula
    origin: tuple[int, ...]

    def key(self) -> tuple[tuple[str, ...], str]:
        """The printed formulas: two shapes with the same key are the same case (and the same prompts)."""
        return tuple(show(p) for p in self.premises), show(self.conclusion)

    def size(self) -> Size:
        """(premises, formula nodes, printed characters); see the module docstring."""
        formulas = (*self.premises, self.conclusion)
        return len(self.premises), sum(size(f) for f in formulas), sum(len(show(f)) for f in formulas)


@dataclass(frozen=True)
class Candidate:
    """One shrink step: the smaller shape and what was done (for the trace)."""

    shape: Shape
    step: str


def _where(index: int | None) -> str:
    return "conclusion" if index is None else f"premise {index + 1}"


def simpler(f: Formula, constants: tuple[str, ...]) -> Iterator[tuple[str, Formula]]:
    """Every simpler formula that may replace `f` in place, with a short description.

    Args:
        f: The sub-formula to replace.
        constants: The case's constants, for instantiating a quantifier.
    """
    if isinstance(f, (And, Or)):
        kind = "conjunct" if isinstance(f, And) else "disjunct"
        for i, arg in enumerate(f.args):
            yield f"{kind} {i + 1} only", arg
        if len(f.args) > 2:
            for i in range(len(f.args)):
                rest = f.args[:i] + f.args[i + 1 :]
                yield f"without {kind} {i + 1}", type(f)(rest)
    elif isinstance(f, (Implies, Iff, Xor)):
        yield "left side only", f.left
        yield "right side only", f.right
    elif isinstance(f, Not):
        yield "negation removed", f.body
    elif isinstance(f, (Forall, Exists)):
        if f.var not in free_vars(f.body):
            yield f"vacuous quantifier over {f.var} removed", f.body
        else:
            for name in constants:
                yield f"instance {f.var} := {name}", substitute(f.body, f.var, Const(name))


def _replacements(formula: Formula, constants: tuple[str, ...]) -> Iterator[tuple[Path, str, Formula]]:
    for path, sub in subformulas(formula):
        for what, new in simpler(sub, constants):
            result = replace_at(formula, path, new)
            if not free_vars(result):
                yield path, what, result


def _renamings(shape: Shape) -> Iterator[tuple[str, Shape]]:
    formulas = (*shape.premises, shape.conclusion)
    sig = signature(*formulas)
    names = set(sig.constants) | set(sig.predicate_names)
    for old in sorted(sig.constants):
        new = next((n for n in SHORT_CONSTANTS if n not in names), None)
        if new is not None and len(new) < len(old):
            done = [rename_constant(f, old, new) for f in formulas]
            yield f"rename constant {old} → {new}", Shape(tuple(done[:-1]), done[-1], shape.origin)
    for old in sorted(sig.predicate_names):
        new = next((n for n in SHORT_PREDICATES if n not in names), None)
        if new is not None and len(new) < len(old):
            done = [rename_predicate(f, old, new) for f in formulas]
            yield f"rename predicate {old} → {new}", Shape(tuple(done[:-1]), done[-1], shape.origin)


def candidates(shape: Shape) -> list[Candidate]:
    """Every one-step simplification of `shape`, smallest first (ties keep generation order), duplicates removed.

    Every candidate is strictly smaller than `shape` (see the module docstring).
    """
    found: list[Candidate] = []
    n = len(shape.premises)
    if n > 1:
        for i in range(n):
            found.append(
                Candidate(
                    Shape(
                        shape.premises[:i] + shape.premises[i + 1 :],
                        shape.conclusion,
                        shape.origin[:i] + shape.origin[i + 1 :],
                    ),
                    f"drop {_where(i)}",
                )
            )
    constants = tuple(sorted(signature(*shape.premises, shape.conclusion).constants))
    for index, formula in [*enumerate(shape.premises), (None, shape.conclusion)]:
        for path, what, new in _replacements(formula, constants):
            if index is None:
                smaller = Shape(shape.premises, new, shape.origin)
            else:
                premises = shape.premises[:index] + (new,) + shape.premises[index + 1 :]
                smaller = Shape(premises, shape.conclusion, shape.origin)
            found.append(Candidate(smaller, f"{_where(index)} {list(path)}: {what}"))
    found.extend(Candidate(smaller, step) for step, smaller in _renamings(shape))
    current = shape.size()
    seen: set[tuple[tuple[str, ...], str]] = {shape.key()}
    unique: list[Candidate] = []
    for candidate in found:
        key = candidate.shape.key()
        if key in seen or not candidate.shape.size() < current:
            continue
        seen.add(key)
        unique.append(candidate)
    return sorted(unique, key=lambda c: c.shape.size())
