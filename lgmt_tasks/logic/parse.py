"""Parse the first-order logic notations of our sources into the AST of `syntax.py`.

One parser reads every notation we meet, because the metamorphic relations must be able to take a formula
from any benchmark (or from our own printer) and get the same tree back:

* FOLIO (v0.0 and v2): Unicode `∀ ∃ ¬ ∧ ∨ → ↔ ⊕`, the stray variants `⟷` (for `↔`) and `^` (for `∧`),
  a quantifier written with or without a space before its variable and before `(`, nested prefixes
  `∀x ∀y (…)`, unparenthesised quantifier scopes, equality `x=y`, identifiers with digits first, dots,
  hyphens, `+`, `’`, underscores and non-ASCII letters, and a space before an atom's parenthesis
  (`Eel (seaEel)`).
* ProverQA (snake_case predicates, capitalised constants) and the LogicNLI derivation (fully parenthesised).
* An ASCII form: `forall x.` / `exists x.` (the dot is optional), `-` or `~` for negation, `&`, `|`, `->`,
  `<->`, `<~>` for exclusive or (TPTP's symbol; `^` cannot be used because FOLIO writes `^` for `∧`), and
  `$true` / `$false` (TPTP) besides `⊤` / `⊥`. Words such as `not`, `and`, `or` are not operators.

Grammar and the decisions that the data forced
----------------------------------------------
Binding strength, tightest first: `¬` > `∧` > `∨` > `⊕` > `→` > `↔`.

* `∧` and `∨` are n-ary: `A ∧ B ∧ C` is one `And` of three, while `A ∧ (B ∧ C)` keeps its nesting (the
  printer relies on this to round-trip exactly).
* `→` and `↔` group to the right (`A → B → C` is `A → (B → C)`, the usual convention); `⊕` groups to the
  left (`A ⊕ B ⊕ C` is `(A ⊕ B) ⊕ C`; FOLIO v2 story 234 has a 14-way chain; chained ⊕ means "an odd
  number are true", not "exactly one").
* Mixed connectives at one bracket level occur in 332 distinct FOLIO formulas (data README §2), e.g.
  `Cute(rock) ∧ Still(rock) → Turtle(rock) ∧ Skittish(rock)` and `A ⊕ B → C ⊕ D`; the order above is the
  reading FOLIO's annotators use. No `→` or `↔` chain occurs in the data. Swapping `∨` and `⊕`, or letting `⊕`
  bind tighter than `∧`, changes no prover label on FOLIO v0/v2 validation (checked with Z3 while writing
  this parser), so those choices follow the usual convention rather than the data.

Quantifier scope (the one genuinely ambiguous point):

* A quantifier whose body starts with `(` scopes over exactly that parenthesised group, and a prefix of
  quantifiers ending in such a group (`∀x ∃y (…)`) is one unit that binds like an atom:
  `∀x (P(x)) → Q(a)` is `(∀x (P(x))) → Q(a)` and `¬∃z (…) ∧ B` is `(¬∃z (…)) ∧ B`.
* A quantifier whose body starts with anything else takes the widest scope, to the end of the enclosing
  bracket: `∀x Weddings(x) → GettingMarried(x)` (14 formulas in FOLIO v0 train) is
  `∀x (Weddings(x) → GettingMarried(x))`, and `(∃y Conductor(y) ∧ Lead(y, x))` binds `y` in both atoms.

Why the first rule, measured against a variant of this parser that gives every quantifier the widest scope:
10 distinct FOLIO formulas (28 occurrences) parse differently under the two rules. In 3 the readings are
equivalent (`∀x (A(x)) ∧ (∀x (B(x)))`). In 6 only the unit reading says what the English says, e.g.
`∀x (∃y ∃z (Passenger(y) ∧ … ∧ ¬(y=z)) → ¬OneSeater(x))` ("anything that can transport two passengers is not
a one-seater") and `¬∃x (PartTimeJob(x) ∧ …) ∧ ¬WorkIn(james, lab)`; the widest scope turns the first into the
nearly vacuous `∃y ∃z (… → ¬OneSeater(x))`. The last one, `∀x ∃y (BittenBy(x, y) ∨ ScratchedBy(x, y)) →
AttackedBy(x,y)` (v0 train), is wrong under both readings: the unit reading leaves `x` and `y` free (so the
error is reported, see `tests/fixtures/malformed_formulas.json`) where the widest scope would hide it in a
near-tautology. With a plain Z3 entailment check on FOLIO v2 validation the unit rule agrees with the gold
label on 123 of 161 decided problems and the widest-scope rule on 121 of 164; the unit rule gains problems
1325 and 1326 and loses none (the 3 extra problems the widest rule decides, 1244/1245/1247, are decided
wrongly by it, and contain a premise with a free variable).

Names (CONTRACTS.md): an identifier in term position is a `Var` when an enclosing quantifier binds it or when
it is an unbound single letter u–z (a free variable, which the source loaders reject in premises); otherwise
it is a `Const`. An identifier in formula position that is not followed by `(` or `=` is a propositional atom.
`forall` and `exists` are keywords only when a variable follows them, so they remain usable as names.

Errors: everything wrong with the text is a `FormulaSyntaxError` (never an `IndexError` or a
`RecursionError`): nesting deeper than `MAX_DEPTH` is refused, so deep input cannot exhaust the stack of
the parser, or of the recursive functions in `syntax.py` that later walk the tree.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Var,
    Xor,
)

__all__ = [
    "FREE_VARIABLE_LETTERS",
    "MAX_DEPTH",
    "FormulaSyntaxError",
    "is_identifier",
    "is_variable_identifier",
    "parse",
]

MAX_DEPTH = 100
"""Largest tree height (`syntax.depth`) and deepest bracket/quantifier nesting that `parse` accepts.

The tallest formula in our sources has height 17 (a 14-way ⊕ chain in FOLIO v2); 100 leaves room for
generated formulas while keeping the parser (and the recursive traversals in `syntax.py`) far from Python's
recursion limit.
"""

FREE_VARIABLE_LETTERS = frozenset("uvwxyz")
"""Unbound single letters that are read as free variables rather than constants."""


class FormulaSyntaxError(ValueError):
    """The text is not a formula; says where (0-based column) and what was expected there.

    Attributes:
        text: the whole text given to `parse`.
        column: 0-based index into `text` of the offending character (`len(text)` for "end of input").
        expected: what the parser would have accepted at `column`, e.g. `"')'"` or `"a term"`.
        found: what is at `column` (`"end of input"` at the end).
    """

    def __init__(self, text: str, column: int, expected: str, found: str = "") -> None:
        # Passing every field to ValueError keeps the exception picklable (multiprocessing, pytest-xdist).
        super().__init__(text, column, expected, found)
        self.text = text
        self.column = column
        self.expected = expected
        self.found = found

    def __str__(self) -> str:
        # Control characters would break the caret's alignment; each becomes one space, keeping columns.
        shown = "".join(" " if ch.isspace() else ch for ch in self.text)
        found = f", found {self.found}" if self.found else ""
        return f"expected {self.expected} at column {self.column}{found}\n  {shown}\n  {' ' * self.column}^"


# --------------------------------------------------------------------------- tokens

_IDENT = "identifier"
_VAR = "variable"
_LPAREN = "'('"
_RPAREN = "')'"
_COMMA = "','"
_DOT = "'.'"
_NOT = "'¬'"
_AND = "'∧'"
_OR = "'∨'"
_XOR = "'⊕'"
_IMPLIES = "'→'"
_IFF = "'↔'"
_FORALL = "'∀'"
_EXISTS = "'∃'"
_EQ = "'='"
_TOP = "'⊤'"
_BOTTOM = "'⊥'"
_EOF = "end of input"
_ERROR = "unexpected character"

_SINGLE: dict[str, str] = {
    "(": _LPAREN,
    ")": _RPAREN,
    ",": _COMMA,
    "¬": _NOT,
    "~": _NOT,
    "∧": _AND,
    "^": _AND,
    "&": _AND,
    "∨": _OR,
    "|": _OR,
    "⊕": _XOR,
    "→": _IMPLIES,
    "↔": _IFF,
    "⟷": _IFF,
    "∀": _FORALL,
    "∃": _EXISTS,
    "=": _EQ,
    "⊤": _TOP,
    "⊥": _BOTTOM,
}
_MULTI: dict[str, tuple[tuple[str, str], ...]] = {
    "-": (("->", _IMPLIES), ("-", _NOT)),
    "<": (("<->", _IFF), ("<~>", _XOR)),
    "$": (("$true", _TOP), ("$false", _BOTTOM)),
}
_KEYWORDS = {"forall": _FORALL, "exists": _EXISTS}

# Loosest first; `_combine` splits a bracket level at the loosest connective present.
_LEVELS = (_IFF, _IMPLIES, _XOR, _OR, _AND)
_BINARY = frozenset(_LEVELS)

_ASCII_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ASCII_SUFFIX = frozenset("'+")
_APOSTROPHE = "’"
_JOINERS = frozenset(".-")


class _Token(NamedTuple):
    kind: str
    text: str
    start: int


def _is_word_char(ch: str) -> bool:
    """Letters, digits, underscore and combining marks: what any identifier is mostly made of."""
    if ch in _ASCII_WORD:
        return True
    if ch.isascii():
        return False
    return ch.isalnum() or unicodedata.category(ch).startswith("M")


def _is_ident_start(ch: str) -> bool:
    return ch in _ASCII_WORD or (not ch.isascii() and ch.isalnum())


def _scan_identifier(text: str, i: int, *, variable: bool = False) -> int:
    """End of the identifier starting at `text[i]` (which must be an identifier start).

    Identifiers are words that may also contain `’` and `'`, and `+` after the first character (FOLIO's
    `c++`, `a+`). A `.` or `-` continues the identifier only when a letter, digit or underscore follows it,
    so `mr.smith`, `l-2021` and `Anti-abortion` are single names while `A->B` and `forall x. P(x)` still split
    at the connective and at the quantifier's dot. Variables bound by a quantifier (`variable=True`) take
    neither joiners nor `+`, so `∀x.P(x)` reads as it looks.
    """
    n = len(text)
    i += 1
    while i < n:
        ch = text[i]
        if _is_word_char(ch) or ch == _APOSTROPHE or ch == "'":
            i += 1
        elif variable:
            break
        elif ch == "+":
            i += 1
        elif ch in _JOINERS and i + 1 < n and _is_word_char(text[i + 1]):
            i += 2
        else:
            break
    return i


def is_identifier(name: str) -> bool:
    """Tell whether `name` reads back as exactly one identifier (a predicate, constant or free-variable name).

    The printer uses this to refuse names that would not survive a round trip through `parse`.
    """
    return bool(name) and _is_ident_start(name[0]) and _scan_identifier(name, 0) == len(name)


def is_variable_identifier(name: str) -> bool:
    """Tell whether `name` can be written after a quantifier (an identifier without `.`, `-` or `+`)."""
    return bool(name) and _is_ident_start(name[0]) and _scan_identifier(name, 0, variable=True) == len(name)


def _skip_space(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


def _tokenize(text: str) -> list[_Token]:
    """Split `text` into tokens; an unknown character becomes an `_ERROR` token for the parser to report.

    Reporting lexical errors from the parser (rather than here) lets the message say what the grammar
    expected at that point.
    """
    tokens: list[_Token] = []
    n = len(text)
    i = _skip_space(text, 0)
    after_quantifier = False
    while i < n:
        ch = text[i]
        if after_quantifier and _is_ident_start(ch):
            j = _scan_identifier(text, i, variable=True)
            tokens.append(_Token(_VAR, text[i:j], i))
            i = _skip_space(text, j)
            if i < n and text[i] == ".":
                tokens.append(_Token(_DOT, ".", i))
                i += 1
            after_quantifier = False
        elif _is_ident_start(ch):
            j = _scan_identifier(text, i)
            word = text[i:j]
            keyword = _KEYWORDS.get(word)
            if keyword is not None:
                k = _skip_space(text, j)
                if k < n and _is_ident_start(text[k]):
                    tokens.append(_Token(keyword, word, i))
                    after_quantifier = True
                    i = k
                    continue
            tokens.append(_Token(_IDENT, word, i))
            i = j
        else:
            after_quantifier = False
            kind = _SINGLE.get(ch)
            length = 1
            if kind is None:
                for spelling, multi_kind in _MULTI.get(ch, ()):
                    if text.startswith(spelling, i):
                        kind, length = multi_kind, len(spelling)
                        break
            if kind is None:
                tokens.append(_Token(_ERROR, ch, i))
            else:
                tokens.append(_Token(kind, text[i : i + length], i))
                after_quantifier = kind in (_FORALL, _EXISTS)
            i += length
        i = _skip_space(text, i)
    tokens.append(_Token(_EOF, "", n))
    return tokens


# --------------------------------------------------------------------------- parser

_Parsed = tuple[Formula, int]
"""A parsed formula with its height (an atom has height 1), tracked to enforce `MAX_DEPTH`."""


class _Parser:
    """Recursive descent over one bracket level at a time; each level is then split by precedence.

    Python recursion happens only for brackets and quantifiers, never per binary connective or per negation,
    and `nesting` bounds it (at `MAX_DEPTH` levels the parser uses about 410 stack frames).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.pos = 0
        self.bound: list[str] = []
        self.nesting = 0

    def _error(self, token: _Token, expected: str) -> FormulaSyntaxError:
        if token.kind == _EOF:
            found = "end of input"
        elif token.kind == _ERROR:
            found = f"unexpected character {token.text!r}"
        else:
            found = repr(token.text)
        return FormulaSyntaxError(self.text, token.start, expected, found)

    def _too_deep(self, token: _Token) -> FormulaSyntaxError:
        return self._error(token, f"a formula nested at most {MAX_DEPTH} deep")

    def _enter(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise self._too_deep(self.tokens[self.pos])

    def parse(self) -> Formula:
        formula, _ = self._formula()
        token = self.tokens[self.pos]
        if token.kind != _EOF:
            raise self._error(token, "a binary connective or end of input")
        return formula

    def _formula(self) -> _Parsed:
        """One bracket level: unary operands separated by binary connectives, combined by precedence."""
        self._enter()
        operands = [self._unary()]
        operators: list[_Token] = []
        tokens = self.tokens
        while tokens[self.pos].kind in _BINARY:
            operators.append(tokens[self.pos])
            self.pos += 1
            operands.append(self._unary())
        self.nesting -= 1
        return self._combine(operands, operators, 0)

    def _combine(self, operands: list[_Parsed], operators: list[_Token], level: int) -> _Parsed:
        """Build the tree of one bracket level: split at the loosest connective present, recurse on the parts."""
        if not operators:
            return operands[0]
        kinds = {op.kind for op in operators}
        while _LEVELS[level] not in kinds:
            level += 1
        kind = _LEVELS[level]
        parts: list[_Parsed] = []
        first = 0
        for i, op in enumerate(operators):
            if op.kind == kind:
                parts.append(self._combine(operands[first : i + 1], operators[first:i], level + 1))
                first = i + 1
        parts.append(self._combine(operands[first:], operators[first:], level + 1))
        where = next(op for op in operators if op.kind == kind)
        if kind in (_AND, _OR):
            args = tuple(f for f, _ in parts)
            formula: Formula = And(args) if kind == _AND else Or(args)
            height = 1 + max(h for _, h in parts)
        elif kind == _XOR:
            formula, height = parts[0]
            for right, right_height in parts[1:]:
                formula, height = Xor(formula, right), 1 + max(height, right_height)
        else:
            node = Implies if kind == _IMPLIES else Iff
            formula, height = parts[-1]
            for left, left_height in reversed(parts[:-1]):
                formula, height = node(left, formula), 1 + max(height, left_height)
        if height > MAX_DEPTH:
            raise self._too_deep(where)
        return formula, height

    def _unary(self) -> _Parsed:
        tokens = self.tokens
        negations = 0
        while tokens[self.pos].kind == _NOT:
            negations += 1
            self.pos += 1
        token = tokens[self.pos]
        if token.kind in (_FORALL, _EXISTS):
            formula, height = self._quantified()
        elif token.kind == _LPAREN:
            formula, height = self._group()
        else:
            formula, height = self._atom()
        if negations:
            height += negations
            if height > MAX_DEPTH:
                raise self._too_deep(token)
            for _ in range(negations):
                formula = Not(formula)
        return formula, height

    def _group(self) -> _Parsed:
        self.pos += 1  # the caller saw "("
        inner = self._formula()
        token = self.tokens[self.pos]
        if token.kind != _RPAREN:
            raise self._error(token, "')'" if token.kind == _EOF else "a binary connective or ')'")
        self.pos += 1
        return inner

    def _quantified(self) -> _Parsed:
        """Read a quantifier, its variable, an optional dot and its body (the module docstring explains the scope)."""
        quantifier = self.tokens[self.pos]
        self.pos += 1
        var = self.tokens[self.pos]
        if var.kind != _VAR:
            raise self._error(var, "a variable")
        self.pos += 1
        if self.tokens[self.pos].kind == _DOT:
            self.pos += 1
        self.bound.append(var.text)
        start = self.tokens[self.pos]
        if start.kind == _LPAREN:
            body, height = self._group()  # counted once, as a bracket, so `show`'s `∀x (…)` costs one level
        elif start.kind in (_FORALL, _EXISTS):
            self._enter()
            body, height = self._quantified()
            self.nesting -= 1
        else:
            body, height = self._formula()
        self.bound.pop()
        height += 1
        if height > MAX_DEPTH:
            raise self._too_deep(quantifier)
        return (Forall(var.text, body) if quantifier.kind == _FORALL else Exists(var.text, body)), height

    def _atom(self) -> _Parsed:
        token = self.tokens[self.pos]
        if token.kind == _TOP:
            self.pos += 1
            return TRUE, 1
        if token.kind == _BOTTOM:
            self.pos += 1
            return FALSE, 1
        if token.kind != _IDENT:
            raise self._error(token, "a formula")
        self.pos += 1
        following = self.tokens[self.pos].kind
        if following == _LPAREN:
            self.pos += 1
            args = [self._term()]
            while self.tokens[self.pos].kind == _COMMA:
                self.pos += 1
                args.append(self._term())
            closing = self.tokens[self.pos]
            if closing.kind != _RPAREN:
                raise self._error(closing, "',' or ')'")
            self.pos += 1
            return Atom(token.text, tuple(args)), 1
        if following == _EQ:
            self.pos += 1
            return Eq(self._resolve(token.text), self._term()), 1
        return Atom(token.text, ()), 1

    def _term(self) -> Term:
        token = self.tokens[self.pos]
        if token.kind != _IDENT:
            raise self._error(token, "a term")
        self.pos += 1
        return self._resolve(token.text)

    def _resolve(self, name: str) -> Term:
        if name in self.bound or (len(name) == 1 and name in FREE_VARIABLE_LETTERS):
            return Var(name)
        return Const(name)


def parse(text: str) -> Formula:
    """Parse one formula in any notation listed in the module docstring.

    Args:
        text: the formula; leading and trailing whitespace is ignored.

    Returns:
        The formula's tree (`syntax.Formula`).

    Raises:
        FormulaSyntaxError: for any text that is not exactly one well-formed formula (including empty text).
        TypeError: if `text` is not a `str`.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() expects a str, got {type(text).__name__}")
    return _Parser(text).parse()
