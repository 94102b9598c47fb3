"""English -> FOL for our own template language: the inverse of `realize`.

This is a deterministic recursive-descent parser of the grammar documented in `realize.py`, with the
lexicon's phrases as terminals. It exists to prove, mechanically and for every formula, that the template
English says exactly what the formula says: `read(realize(f, lx), lx) == f` (structural equality, including
n-ary nesting and operand order). It is not a general English parser; text outside the language raises
`EnglishSyntaxError` with the position of the first word it could not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lgmt_tasks.logic.grammar_words import (
    ALL_OF,
    AND_WORD,
    AT_LEAST_ONE_OF,
    BOTH,
    BUT_NOT_BOTH,
    COMMA,
    EITHER,
    EXACTLY_ONE_OF,
    FOLLOWERS,
    FOR_ALL,
    HOLDS,
    IF,
    IFF,
    LOGICALLY_FALSE,
    LOGICALLY_TRUE,
    NOT,
    OR_WORD,
    SUCH_THAT,
    THEN,
    THERE_EXISTS,
)
from lgmt_tasks.logic.lexicon import Lexicon
from lgmt_tasks.logic.phrasing import fold
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
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
    Top,
    Xor,
)

__all__ = ["EnglishSyntaxError", "read", "read_clause"]

_WORD = re.compile(r"[^\s,]+|,")


class EnglishSyntaxError(ValueError):
    """Text that is not in the template language.

    Attributes:
        text: The text that was read.
        column: 0-based character offset of the first word that could not be read (`len(text)` at the end).
        expected: What the reader expected there.
    """

    def __init__(self, text: str, column: int, expected: str) -> None:
        self.text = text
        self.column = column
        self.expected = expected
        super().__init__(f"expected {expected} at column {column}\n  {text}\n  {' ' * column}^")


def read(text: str, lexicon: Lexicon) -> Formula:
    """Return the formula a sentence of `realize` says: `read(realize(f, lx), lx) == f`.

    Args:
        text: One sentence: a clause, optionally capitalised, ending with a period.
        lexicon: The lexicon the sentence was realised with.

    Raises:
        EnglishSyntaxError: When the text is not a sentence of the template language.
    """
    stripped = text.rstrip()
    if not stripped.endswith("."):
        raise EnglishSyntaxError(text, len(stripped), "'.' at the end of the sentence")
    return _parse(text, len(stripped) - 1, lexicon)


def read_clause(text: str, lexicon: Lexicon) -> Formula:
    """Return the formula a clause of `realize_clause` says (no sentence casing or period required)."""
    return _parse(text, len(text), lexicon)


def _parse(text: str, end: int, lexicon: Lexicon) -> Formula:
    matches = list(_WORD.finditer(text, 0, end))
    parser = _Parser(text, [m.group() for m in matches], [m.start() for m in matches], end, lexicon)
    try:
        f, pos = parser.clause(0)
    except RecursionError:
        raise EnglishSyntaxError(text, 0, "a less deeply nested sentence") from None
    if pos != len(parser.tokens):
        raise parser.error(pos, "the end of the sentence")
    return f


class _Parser:
    """Recursive descent over words; every method takes a word index and returns (formula, next index)."""

    def __init__(self, text: str, tokens: list[str], offsets: list[int], end: int, lexicon: Lexicon) -> None:
        self.text = text
        self.tokens = tokens
        self.offsets = offsets
        self.end = end
        self.lx = lexicon

    def error(self, pos: int, expected: str) -> EnglishSyntaxError:
        column = self.offsets[pos] if pos < len(self.tokens) else self.end
        return EnglishSyntaxError(self.text, column, expected)

    def at(self, pos: int, words: Sequence[str]) -> bool:
        """Whether `words` come next (the sentence's first word compares case-insensitively in its first letter)."""
        if pos + len(words) > len(self.tokens):
            return False
        for i, w in enumerate(words, pos):
            tok = self.tokens[i]
            if tok != w and not (i == 0 and fold(tok) == fold(w)):
                return False
        return True

    def expect(self, pos: int, words: Sequence[str]) -> int:
        if not self.at(pos, words):
            raise self.error(pos, repr(" ".join(words).replace(" ,", ",")))
        return pos + len(words)

    def optional_comma(self, pos: int) -> int:
        return pos + 1 if self.at(pos, (COMMA,)) else pos

    def variable(self, pos: int) -> tuple[str, int]:
        if pos < len(self.tokens):
            word = fold(self.tokens[0]) if pos == 0 else self.tokens[pos]
            if self.lx.is_variable_word(word):
                return word, pos + 1
        raise self.error(pos, "a variable")

    # ---------------------------------------------------------------- clause level

    def clause(self, pos: int) -> tuple[Formula, int]:
        if self.at(pos, FOR_ALL):
            var, pos = self.variable(pos + len(FOR_ALL))
            body, pos = self.clause(self.expect(pos, (COMMA,)))
            return Forall(var, body), pos
        if self.at(pos, THERE_EXISTS):
            var, pos = self.variable(pos + len(THERE_EXISTS))
            body, pos = self.clause(self.expect(pos, SUCH_THAT))
            return Exists(var, body), pos
        left, pos = self.formula(pos)
        if isinstance(left, (Atom, Eq, Top, Bottom)) and self.at(pos, IFF):
            right, pos = self.formula(self.optional_comma(pos + len(IFF)))
            return Iff(left, right), pos
        return left, pos

    # ---------------------------------------------------------------- embedded level

    def formula(self, pos: int) -> tuple[Formula, int]:
        if self.at(pos, NOT):
            body, pos = self.formula(pos + len(NOT))
            return Not(body), pos
        if self.at(pos, LOGICALLY_TRUE):
            return TRUE, pos + len(LOGICALLY_TRUE)
        if self.at(pos, LOGICALLY_FALSE):
            return FALSE, pos + len(LOGICALLY_FALSE)
        if self.at(pos, HOLDS):
            left, pos = self.formula(pos + len(HOLDS))
            pos = self.optional_comma(self.expect(self.optional_comma(pos), IFF))
            right, pos = self.formula(pos)
            return Iff(left, right), pos
        if self.at(pos, BOTH):
            a, b, pos = self.pair(pos + len(BOTH), AND_WORD)
            return And((a, b)), pos
        if self.at(pos, ALL_OF):
            args, pos = self.series(pos + len(ALL_OF), AND_WORD)
            return And(args), pos
        if self.at(pos, EITHER):
            a, b, pos = self.pair(pos + len(EITHER), OR_WORD)
            if self.at(pos, BUT_NOT_BOTH):
                return Xor(a, b), pos + len(BUT_NOT_BOTH)
            return Or((a, b)), pos
        if self.at(pos, AT_LEAST_ONE_OF):
            args, pos = self.series(pos + len(AT_LEAST_ONE_OF), OR_WORD)
            return Or(args), pos
        if self.at(pos, EXACTLY_ONE_OF):
            a, b, pos = self.pair(pos + len(EXACTLY_ONE_OF), AND_WORD)
            return Xor(a, b), pos
        if self.at(pos, IF):
            left, pos = self.formula(pos + len(IF))
            right, pos = self.formula(self.expect(pos, THEN))
            return Implies(left, right), pos
        if self.at(pos, FOR_ALL):
            var, pos = self.variable(pos + len(FOR_ALL))
            body, pos = self.formula(self.expect(pos, (COMMA,)))
            return Forall(var, body), pos
        if self.at(pos, THERE_EXISTS):
            var, pos = self.variable(pos + len(THERE_EXISTS))
            body, pos = self.formula(self.expect(pos, SUCH_THAT))
            return Exists(var, body), pos
        return self.atom(pos)

    def pair(self, pos: int, word: str) -> tuple[Formula, Formula, int]:
        """Parse `A [,] word B`."""
        a, pos = self.formula(pos)
        b, pos = self.formula(self.expect(self.optional_comma(pos), (word,)))
        return a, b, pos

    def series(self, pos: int, word: str) -> tuple[tuple[Formula, ...], int]:
        """Parse `A, B {, C}, word Z`: at least three operands."""
        args: list[Formula] = []
        while True:
            f, pos = self.formula(pos)
            args.append(f)
            pos = self.expect(pos, (COMMA,))
            if len(args) >= 2 and self.at(pos, (word,)):
                f, pos = self.formula(pos + 1)
                return (*args, f), pos

    def atom(self, pos: int) -> tuple[Formula, int]:
        found = [
            (f, end)
            for f, end in self.lx.match_atoms(self.tokens, pos)
            if end == len(self.tokens) or self.tokens[end] in FOLLOWERS
        ]
        if not found:
            raise self.error(pos, "a statement (a connective such as 'both' or 'either', or an atom of the lexicon)")
        if len(found) > 1:  # excluded by the lexicon's checks; kept as a guard, never a silent choice
            raise self.error(pos, f"one reading, not {len(found)} ({', '.join(repr(f) for f, _ in found)})")
        return found[0]
