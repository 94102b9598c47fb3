"""Print formulas in one canonical form that `parse` reads back to the very same tree.

Every FOL column we write goes through `show`, so two equal trees always print the same string and a printed
formula can be parsed back without loss (`parse(show(f)) == f`). The form is chosen for a human reader
first and for the parser second:

* Connectives `¬ ∧ ∨ ⊕ → ↔` with one space around each binary connective; `⊤` and `⊥`; `a = b`;
  `P(a, b)`; a nullary atom is its bare name.
* `∀x (body)` and `∃x (body)`: the body is always parenthesised, which is also what makes the quantifier's
  scope unambiguous to `parse` (a parenthesised body scopes over exactly that group).
* An operand of a binary or n-ary connective is parenthesised when it is itself binary or n-ary, even where
  precedence would allow leaving the brackets out (`(A ∧ B) → C`, `A ∧ (B ∧ C)`): readers, and language
  models, do not share one precedence convention. This is also how n-ary nesting survives the round trip.
* An operand that is a quantified formula, possibly negated, is parenthesised too (`(∀x (P(x))) ∧ Q(a)`),
  so that nobody reads the quantifier as scoping over the rest of the line.
* Negation parenthesises a binary or n-ary body and an equality (`¬(A ∧ B)`, `¬(a = b)`) and nothing else
  (`¬P(a)`, `¬¬P(a)`, `¬∀x (P(x))`).

`show_ascii` prints the same structure with ASCII connectives (`forall x. (…)`, `exists x. (…)`, `-`, `&`,
`|`, `<~>` for ⊕, `->`, `<->`, `$true`, `$false`) for tools and prompts that want plain ASCII logic; names
are printed unchanged.

A tree that cannot be printed faithfully raises `ValueError`: a constant whose name would read back as a
variable (a single letter u–z, or the name of an enclosing quantifier's variable), a free variable whose
name would read back as a constant, or a name that does not read back as one identifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from lgmt_tasks.logic.parse import FREE_VARIABLE_LETTERS, is_identifier, is_variable_identifier
from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Top,
    Var,
    Xor,
)

__all__ = ["show", "show_ascii"]


@dataclass(frozen=True, slots=True)
class _Notation:
    """The spelling of each logical symbol; the layout rules are the same for every notation."""

    neg: str
    conj: str
    disj: str
    xor: str
    implies: str
    iff: str
    forall: str
    exists: str
    top: str
    bottom: str


_UNICODE = _Notation(
    neg="¬",
    conj=" ∧ ",
    disj=" ∨ ",
    xor=" ⊕ ",
    implies=" → ",
    iff=" ↔ ",
    forall="∀{var} ({body})",
    exists="∃{var} ({body})",
    top="⊤",
    bottom="⊥",
)
_ASCII = _Notation(
    neg="-",
    conj=" & ",
    disj=" | ",
    xor=" <~> ",
    implies=" -> ",
    iff=" <-> ",
    forall="forall {var}. ({body})",
    exists="exists {var}. ({body})",
    top="$true",
    bottom="$false",
)

_COMPOUND = (And, Or, Implies, Iff, Xor)


def show(f: Formula) -> str:
    """Print `f` in the canonical Unicode form described in the module docstring; `parse(show(f)) == f`.

    Raises:
        ValueError: if a name in `f` would not read back as the same symbol.
    """
    return _render(f, (), _UNICODE)


def show_ascii(f: Formula) -> str:
    """Print `f` in the layout of `show` with ASCII connectives; `parse(show_ascii(f)) == f`.

    Raises:
        ValueError: if a name in `f` would not read back as the same symbol.
    """
    return _render(f, (), _ASCII)


def _term(t: Term, bound: tuple[str, ...]) -> str:
    if isinstance(t, Var):
        if t.name not in bound and not (len(t.name) == 1 and t.name in FREE_VARIABLE_LETTERS):
            raise ValueError(f"free variable {t.name!r} would read back as a constant (free variables are u-z)")
        return t.name
    if len(t.name) == 1 and t.name in FREE_VARIABLE_LETTERS:
        raise ValueError(f"constant {t.name!r} would read back as a variable (single letters u-z are variables)")
    if t.name in bound:
        raise ValueError(f"constant {t.name!r} would read back as the variable bound by an enclosing quantifier")
    if not is_identifier(t.name):
        raise ValueError(f"constant name {t.name!r} is not an identifier")
    return t.name


def _operand(f: Formula, bound: tuple[str, ...], notation: _Notation) -> str:
    """Print an operand of a binary or n-ary connective, bracketed when compound or (negated) quantified."""
    text = _render(f, bound, notation)
    core = f
    while isinstance(core, Not):
        core = core.body
    if isinstance(f, _COMPOUND) or isinstance(core, (Forall, Exists)):
        return f"({text})"
    return text


def _render(f: Formula, bound: tuple[str, ...], notation: _Notation) -> str:
    if isinstance(f, Atom):
        if not is_identifier(f.pred):
            raise ValueError(f"predicate name {f.pred!r} is not an identifier")
        if not f.args:
            return f.pred
        return f"{f.pred}({', '.join(_term(a, bound) for a in f.args)})"
    if isinstance(f, Eq):
        return f"{_term(f.left, bound)} = {_term(f.right, bound)}"
    if isinstance(f, Top):
        return notation.top
    if isinstance(f, Bottom):
        return notation.bottom
    if isinstance(f, Not):
        body = _render(f.body, bound, notation)
        if isinstance(f.body, (*_COMPOUND, Eq)):
            return f"{notation.neg}({body})"
        return notation.neg + body
    if isinstance(f, (And, Or)):
        sep = notation.conj if isinstance(f, And) else notation.disj
        return sep.join(_operand(a, bound, notation) for a in f.args)
    if isinstance(f, (Implies, Iff, Xor)):
        if isinstance(f, Implies):
            sep = notation.implies
        elif isinstance(f, Iff):
            sep = notation.iff
        else:
            sep = notation.xor
        return _operand(f.left, bound, notation) + sep + _operand(f.right, bound, notation)
    if isinstance(f, (Forall, Exists)):
        if not is_variable_identifier(f.var):
            raise ValueError(f"quantified variable name {f.var!r} is not an identifier without '.', '-' or '+'")
        body = _render(f.body, (*bound, f.var), notation)
        template = notation.forall if isinstance(f, Forall) else notation.exists
        return template.format(var=f.var, body=body)
    raise TypeError(f"not a formula: {f!r}")
