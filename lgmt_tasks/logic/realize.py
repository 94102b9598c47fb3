"""FOL -> English by deterministic templates: the rules of the LGMT translation prompt (Appendix C.2), made exact.

The paper asks an LLM to translate transformed formulas "strictly as a parser", with fixed phrasings for each
connective, no pronouns and no simplification. We implement those rules as a template grammar instead, and
`read.py` parses that grammar back: `read(realize(f, lx), lx) == f` for every formula over the lexicon's
symbols, which is the mechanical proof that template English adds no semantic drift (DESIGN.md decision 4).

Phrasings (following Appendix C.2)
----------------------------------
* ¬A: "it is not the case that A", always, also for ¬¬A (no simplification).
* A ∧ B: "both A and B"; "both A, and B" when A is complex (not an atom). A ∧ B ∧ C: "all of A, B, and C".
* A ∨ B: "either A or B" ("either A, or B" when A is complex). A ∨ B ∨ C: "at least one of A, B, or C".
* A ⊕ B: "either A or B, but not both". When B ends with an "either … or …" of its own, the closing
  ", but not both" would attach to that inner one (for a reader and for our parser), so this case reads
  "exactly one of A and B" instead.
* A → B: "if A, then B".
* A ↔ B: "A if and only if B" when it is the whole sentence (or the body of the sentence's leading
  quantifiers) and A is an atom; elsewhere "it holds that A if and only if B", where the opening "it holds that"
  marks where A begins. A comma goes before "if and only if" when A is complex and after it when B is complex
  (the paper's example: "... if and only if, either ...").
* ∀x A: "for all x, A"; ∃x A: "there exists at least one x such that A". Variables are repeated, never
  replaced by pronouns. ⊤ / ⊥: "it is logically true" / "it is logically false". Atoms: see `lexicon.py`.
* A sentence (`realize`) starts with a capital letter and ends with a period; `realize_clause` gives the
  bare clause.

Grammar (what `read.py` accepts; `[x]` optional, `{x}` repeated, quoted words literal)
-------------------------------------------------------------------------------------
    sentence ::= clause "."                       (first letter compared case-insensitively)
    clause   ::= "for all" VAR "," clause
               | "there exists at least one" VAR "such that" clause
               | SIMPLE "if and only if" [","] formula
               | formula
    formula  ::= "it is not the case that" formula
               | "both" formula [","] "and" formula
               | "all of" formula "," formula {"," formula} "," "and" formula
               | "either" formula [","] "or" formula [", but not both"]
               | "at least one of" formula "," formula {"," formula} "," "or" formula
               | "exactly one of" formula [","] "and" formula
               | "if" formula ", then" formula
               | "it holds that" formula [","] "if and only if" [","] formula
               | "for all" VAR "," formula
               | "there exists at least one" VAR "such that" formula
               | "it is logically true" | "it is logically false"
               | ATOM
    SIMPLE   ::= ATOM | "it is logically true" | "it is logically false"
    ATOM     ::= a predicate template or "TERM is identical to TERM", slots filled with TERMs
    TERM     ::= a constant phrase | VAR

Every construct but the sentence-level biconditional starts with its own keyword and has a fixed number of
operands, so the structure is determined left to right (Polish notation in words). ", but not both" attaches to
the innermost open "either"; the realiser never produces a ⊕ whose closer could be taken by an inner ∨ (see
above). The lexicon guarantees that atoms are unambiguous and never run into the connective words.
"""

from __future__ import annotations

from lgmt_tasks.logic.grammar_words import (
    ALL_OF,
    AND_WORD,
    AT_LEAST_ONE_OF,
    BOTH,
    BUT_NOT_BOTH,
    COMMA,
    EITHER,
    EXACTLY_ONE_OF,
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
from lgmt_tasks.logic.lexicon import Lexicon, LexiconError
from lgmt_tasks.logic.phrasing import EQ_TEMPLATE, Template, capitalize, join_words
from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
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
    Top,
    Xor,
)

__all__ = ["RealizationError", "realize", "realize_clause", "is_simple", "xor_needs_exactly_one"]


class RealizationError(ValueError):
    """A formula the lexicon cannot speak unambiguously (unknown symbol, or a variable name that is a word)."""


def realize(f: Formula, lexicon: Lexicon) -> str:
    """Say `f` as an English sentence: capitalised, with a final period (inverse: `read`).

    Args:
        f: Any formula over the lexicon's predicates and constants (free variables are allowed).
        lexicon: How predicates and constants are spoken; build it with `lexicon_for`.

    Returns:
        e.g. "For all x, if x is bitter, then it is not the case that x is dull."

    Raises:
        RealizationError: When `f` uses a symbol the lexicon lacks, or a variable whose name would not
            read back as a variable (e.g. it is also a word of a phrase).
    """
    return capitalize(realize_clause(f, lexicon)) + "."


def realize_clause(f: Formula, lexicon: Lexicon) -> str:
    """Say `f` as an English clause, without sentence casing or period (inverse: `read_clause`)."""
    return join_words(_Realiser(lexicon).clause(f))


def is_simple(f: Formula) -> bool:
    """Tell whether `f` is an atom, an equality or ⊤/⊥: no comma after it; it may open a bare "if and only if"."""
    return isinstance(f, (Atom, Eq, Top, Bottom))


def _ends_with_open_either(f: Formula) -> bool:
    """Whether the last words of `f`'s English are an "either A or B" without a closer.

    Such a tail would take the ", but not both" of an enclosing ⊕, so that ⊕ must use "exactly one of".
    """
    while True:
        if isinstance(f, Or):
            if len(f.args) == 2:
                return True
            f = f.args[-1]
        elif isinstance(f, And):
            f = f.args[-1]
        elif isinstance(f, (Implies, Iff, Xor)):
            # a ⊕ ends open exactly when its right operand does (then it reads "exactly one of ...")
            f = f.right
        elif isinstance(f, (Not, Forall, Exists)):
            f = f.body
        else:
            return False


def xor_needs_exactly_one(f: Xor) -> bool:
    """Tell whether ⊕ reads "exactly one of A and B" rather than "either A or B, but not both"."""
    return _ends_with_open_either(f.right)


class _Realiser:
    """Turns formulas into word lists (commas are separate words; `join_words` attaches them)."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lx = lexicon

    def clause(self, f: Formula) -> list[str]:
        """Sentence level: a leading quantifier keeps the sentence level; a bare biconditional is allowed."""
        if isinstance(f, Forall):
            return [*FOR_ALL, self.variable(f.var), COMMA, *self.clause(f.body)]
        if isinstance(f, Exists):
            return [*THERE_EXISTS, self.variable(f.var), *SUCH_THAT, *self.clause(f.body)]
        if isinstance(f, Iff) and is_simple(f.left):
            return [*self.formula(f.left), *IFF, *self._comma_if(f.right), *self.formula(f.right)]
        return self.formula(f)

    def formula(self, f: Formula) -> list[str]:
        """Embedded level: every construct opens with its keyword."""
        if isinstance(f, (Atom, Eq)):
            return self.atom(f)
        if isinstance(f, Top):
            return list(LOGICALLY_TRUE)
        if isinstance(f, Bottom):
            return list(LOGICALLY_FALSE)
        if isinstance(f, Not):
            return [*NOT, *self.formula(f.body)]
        if isinstance(f, (And, Or)):
            return self.junction(f)
        if isinstance(f, Xor):
            if xor_needs_exactly_one(f):
                return [*EXACTLY_ONE_OF, *self.pair(f.left, AND_WORD, f.right)]
            return [*EITHER, *self.pair(f.left, OR_WORD, f.right), *BUT_NOT_BOTH]
        if isinstance(f, Implies):
            return [*IF, *self.formula(f.left), *THEN, *self.formula(f.right)]
        if isinstance(f, Iff):
            left = [*self.formula(f.left), *self._comma_if(f.left)]
            return [*HOLDS, *left, *IFF, *self._comma_if(f.right), *self.formula(f.right)]
        if isinstance(f, Forall):
            return [*FOR_ALL, self.variable(f.var), COMMA, *self.formula(f.body)]
        if isinstance(f, Exists):
            return [*THERE_EXISTS, self.variable(f.var), *SUCH_THAT, *self.formula(f.body)]
        raise RealizationError(f"not a formula: {f!r}")

    def junction(self, f: And | Or) -> list[str]:
        word = AND_WORD if isinstance(f, And) else OR_WORD
        if len(f.args) == 2:
            return [*(BOTH if isinstance(f, And) else EITHER), *self.pair(f.args[0], word, f.args[1])]
        out: list[str] = list(ALL_OF if isinstance(f, And) else AT_LEAST_ONE_OF)
        for arg in f.args[:-1]:
            out += [*self.formula(arg), COMMA]
        return [*out, word, *self.formula(f.args[-1])]

    def pair(self, left: Formula, word: str, right: Formula) -> list[str]:
        """`left [,] word right`: the paper's comma after a complex left operand."""
        return [*self.formula(left), *self._comma_if(left), word, *self.formula(right)]

    @staticmethod
    def _comma_if(f: Formula) -> list[str]:
        return [] if is_simple(f) else [COMMA]

    def atom(self, f: Atom | Eq) -> list[str]:
        if isinstance(f, Eq):
            template: Template = EQ_TEMPLATE
            args: tuple[Term, ...] = (f.left, f.right)
        else:
            try:
                template = self.lx.template(f.pred, len(f.args))
            except LexiconError as e:
                raise RealizationError(str(e)) from None
            args = f.args
        out: list[str] = []
        for item in template:
            out += [item] if isinstance(item, str) else self.term(args[item])
        return out

    def term(self, t: Term) -> list[str]:
        if isinstance(t, Const):
            try:
                return list(self.lx.constant_words(t.name))
            except LexiconError as e:
                raise RealizationError(str(e)) from None
        return [self.variable(t.name)]

    def variable(self, name: str) -> str:
        if not self.lx.is_variable_word(name):
            raise RealizationError(
                f"variable {name!r} would not read back as a variable: it must start with a lower-case letter, "
                "use only letters, digits and underscores, and not be a word of the lexicon or the grammar"
            )
        return name
