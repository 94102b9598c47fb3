"""Export formulas and entailment problems to TPTP ``fof`` syntax, for checking our labels with E prover.

The second prover (`lgmt_tasks.logic.eprover`) reads what this module writes, so the export must mean exactly
what our Z3 encoding (`lgmt_tasks.logic.prover`) means. TPTP is stricter about names than our AST, hence a
symbol mapping that is injective and deterministic, and prefixed by symbol class the way the Z3 encoder is:

* a predicate ``P`` of arity *n* becomes ``p<n>_P`` (``Likes``/2 → ``p2_Likes``, the propositional atom
  ``Rain`` → ``p0_Rain``): TPTP functors must start with a lower-case letter, and E rejects one name used with
  two arities, while our prover keys predicates by ``(name, arity)``;
* a constant ``c`` becomes ``c_c`` and a bound variable ``x`` becomes ``V_x`` (TPTP variables are upper-case);
* inside a name, ASCII letters and digits are kept (TPTP names are case-sensitive, so ``Likes`` and ``likes``
  stay apart), ``_`` is doubled and any other character becomes ``_<hex code point>_`` (``-`` → ``_2d_``).
  A doubled underscore can never start an escape, so the mapping can be read back unambiguously.

No name can collide with a TPTP keyword (``fof``, ``axiom``, ``$true`` …) or with the symbols E invents while
clausifying (``esk1_0``, ``epred1_0``), because every name we write starts with ``p<digits>_``, ``c_`` or ``V_``.
Nor is any name a TPTP number or ``"distinct object"``, which E would take to denote pairwise distinct elements:
like Z3, E then makes no unique-name assumption, so ``alice = bob`` stays possible.

Connectives: ``~ & | => <=> <~>``, ``![X]: (…)``, ``?[X]: (…)``, ``=``, ``$true``, ``$false``. The layout follows
`lgmt_tasks.logic.printer`: a quantifier body is always parenthesised, and so is every operand of a binary or
n-ary connective that is itself binary, n-ary, or (negated) quantified, so nobody, human or parser, has to know
TPTP's precedence rules. For example ``∀x (Dog(x) → ¬(x = rex) ∨ Happy(x))`` is exported as
``![V_x]: (p1_Dog(V_x) => (~ (V_x = c_rex) | p1_Happy(V_x)))``.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    free_vars,
)

__all__ = [
    "CONJECTURE_NAME",
    "constant_symbol",
    "predicate_symbol",
    "to_tptp",
    "to_tptp_open",
    "tptp_problem",
    "variable_symbol",
]

CONJECTURE_NAME = "goal"
"""The TPTP name of the conjecture in `tptp_problem`; premises are named ``p1``, ``p2``, …"""

_KEPT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_COMPOUND = (And, Or, Implies, Iff, Xor)
_BINARY = {Implies: " => ", Iff: " <=> ", Xor: " <~> "}


def _escape(name: str) -> str:
    """Spell `name` with TPTP word characters only, injectively (see the module docstring)."""
    out = []
    for ch in name:
        if ch in _KEPT:
            out.append(ch)
        elif ch == "_":
            out.append("__")
        else:
            out.append(f"_{ord(ch):x}_")
    return "".join(out)


def predicate_symbol(name: str, arity: int) -> str:
    """The TPTP predicate symbol of our predicate `name`/`arity` (``Likes``, 2 → ``p2_Likes``)."""
    if arity < 0:
        raise ValueError(f"arity must be non-negative, got {arity}")
    return f"p{arity}_{_escape(name)}"


def constant_symbol(name: str) -> str:
    """The TPTP constant (a 0-ary functor) of our constant `name` (``alice`` → ``c_alice``)."""
    return f"c_{_escape(name)}"


def variable_symbol(name: str) -> str:
    """The TPTP variable of our bound variable `name` (``x`` → ``V_x``)."""
    return f"V_{_escape(name)}"


def _free_constant_symbol(name: str) -> str:
    """A constant standing for free variable `name`; its ``v_`` prefix keeps it apart from every `Const`."""
    return f"v_{_escape(name)}"


def to_tptp(f: Formula) -> str:
    """The TPTP ``fof`` formula (without the ``fof(name, role, …).`` wrapper) for the sentence `f`.

    Raises:
        ValueError: `f` has free variables (TPTP ``fof`` formulas must be closed; close them or replace them by
            constants first).
    """
    fv = free_vars(f)
    if fv:
        raise ValueError(f"TPTP fof formulas must be closed; free variable(s) {', '.join(sorted(fv))} in {f!r}")
    return _render(f, frozenset())


def to_tptp_open(f: Formula) -> str:
    """Like `to_tptp`, but each free variable is printed as a fresh constant (``x`` → ``v_x``).

    A formula with free variables is valid iff it is valid with fresh constants in their place, which is how
    `lgmt_tasks.logic.eprover` checks equivalence of open formulas (the same test as `prover.equivalent`).
    """
    return _render(f, frozenset(), free_as_constants=True)


def tptp_problem(premises: Sequence[Formula], conclusion: Formula | None = None) -> str:
    """A TPTP problem: ``fof(p<i>, axiom, …).`` per premise (from 1), then ``fof(goal, conjecture, …).``.

    Args:
        premises: Sentences, in order.
        conclusion: The conjecture, or ``None`` for a plain satisfiability problem.

    Returns:
        The problem text, one formula per line, ending with a newline (empty input gives ``""``).

    Raises:
        ValueError: A premise or the conclusion has free variables (the message says which).
    """
    lines = []
    for i, premise in enumerate(premises, start=1):
        try:
            lines.append(f"fof(p{i}, axiom, {to_tptp(premise)}).")
        except ValueError as exc:
            raise ValueError(f"premise {i}: {exc}") from None
    if conclusion is not None:
        try:
            lines.append(f"fof({CONJECTURE_NAME}, conjecture, {to_tptp(conclusion)}).")
        except ValueError as exc:
            raise ValueError(f"the conclusion: {exc}") from None
    return "".join(line + "\n" for line in lines)


def _term(t: Term, bound: frozenset[str], free_as_constants: bool) -> str:
    if isinstance(t, Var):
        if t.name in bound:
            return variable_symbol(t.name)
        if free_as_constants:
            return _free_constant_symbol(t.name)
        # `to_tptp` checks for free variables first, so this is a programming error.
        raise ValueError(f"unexpected free variable {t.name!r}")
    return constant_symbol(t.name)


def _operand(f: Formula, bound: frozenset[str], free_as_constants: bool) -> str:
    """An operand of a binary or n-ary connective, bracketed when compound or (negated) quantified."""
    text = _render(f, bound, free_as_constants)
    core = f
    while isinstance(core, Not):
        core = core.body
    if isinstance(f, _COMPOUND) or isinstance(core, (Forall, Exists)):
        return f"({text})"
    return text


def _render(f: Formula, bound: frozenset[str], free_as_constants: bool = False) -> str:
    if isinstance(f, Atom):
        symbol = predicate_symbol(f.pred, len(f.args))
        if not f.args:
            return symbol
        return f"{symbol}({', '.join(_term(a, bound, free_as_constants) for a in f.args)})"
    if isinstance(f, Eq):
        return f"{_term(f.left, bound, free_as_constants)} = {_term(f.right, bound, free_as_constants)}"
    if isinstance(f, Top):
        return "$true"
    if isinstance(f, Bottom):
        return "$false"
    if isinstance(f, Not):
        body = _render(f.body, bound, free_as_constants)
        if isinstance(f.body, (*_COMPOUND, Eq)):
            return f"~ ({body})"
        return f"~ {body}"
    if isinstance(f, (And, Or)):
        sep = " & " if isinstance(f, And) else " | "
        return sep.join(_operand(a, bound, free_as_constants) for a in f.args)
    if isinstance(f, (Implies, Iff, Xor)):
        left = _operand(f.left, bound, free_as_constants)
        right = _operand(f.right, bound, free_as_constants)
        return f"{left}{_BINARY[type(f)]}{right}"
    if isinstance(f, (Forall, Exists)):
        body = _render(f.body, bound | {f.var}, free_as_constants)
        quantifier = "!" if isinstance(f, Forall) else "?"
        return f"{quantifier}[{variable_symbol(f.var)}]: ({body})"
    raise TypeError(f"not a formula: {f!r}")
