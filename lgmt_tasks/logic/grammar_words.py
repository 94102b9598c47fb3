"""The words of template English's connective grammar, and the rules they set for atoms.

`realize.py` writes these words and `read.py` parses them back; the lexicon's checks (`ambiguity.py`, and the
phrase rules of `lexicon.py`) keep every atom clear of them, so that a reader always knows where an atom ends.
"""

from __future__ import annotations

NOT = ("it", "is", "not", "the", "case", "that")
HOLDS = ("it", "holds", "that")
LOGICALLY_TRUE = ("it", "is", "logically", "true")
LOGICALLY_FALSE = ("it", "is", "logically", "false")
BOTH = ("both",)
EITHER = ("either",)
ALL_OF = ("all", "of")
AT_LEAST_ONE_OF = ("at", "least", "one", "of")
EXACTLY_ONE_OF = ("exactly", "one", "of")
IF = ("if",)
THEN = (",", "then")
IFF = ("if", "and", "only", "if")
BUT_NOT_BOTH = (",", "but", "not", "both")
FOR_ALL = ("for", "all")
THERE_EXISTS = ("there", "exists", "at", "least", "one")
SUCH_THAT = ("such", "that")
AND_WORD = "and"
OR_WORD = "or"
COMMA = ","

OPENERS: tuple[tuple[str, ...], ...] = (
    NOT,
    HOLDS,
    LOGICALLY_TRUE,
    LOGICALLY_FALSE,
    BOTH,
    EITHER,
    ALL_OF,
    AT_LEAST_ONE_OF,
    EXACTLY_ONE_OF,
    IF,
    FOR_ALL,
    THERE_EXISTS,
)
# Words that may directly follow a complete sub-formula: every separator and closer starts with one of them.
FOLLOWERS = frozenset({AND_WORD, OR_WORD, "if", COMMA})
# No atom may start with these: they open a connective, or follow a comma inside one.
FORBIDDEN_FIRST = frozenset({o[0] for o in OPENERS} | {AND_WORD, OR_WORD, "then", "but"})
GRAMMAR_WORDS = frozenset(
    w for seq in (*OPENERS, THEN, IFF, BUT_NOT_BOTH, SUCH_THAT, (AND_WORD, OR_WORD)) for w in seq if w != COMMA
)
