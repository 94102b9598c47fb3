"""How predicates and constants are spoken in template English, and the guarantee that this is unambiguous.

The realiser (`realize.py`) and the reader (`read.py`) share one immutable `Lexicon`: for every predicate
(with its arity) a *template*, a sequence of words and argument slots such as `[0, "is", "resident", "of", 1]`
("Tom is resident of Lawton Park"), and for every constant a *phrase* (`lawtonPark` -> "Lawton Park").

Why the lexicon carries a proof obligation
------------------------------------------
`read(realize(f, lx), lx) == f` must hold for every formula over the lexicon's symbols. The connective grammar
(see `realize.py`) is unambiguous by construction, so everything rests on the atoms: the text of an atom must
determine the atom. A `Lexicon` therefore checks, when it is built, that the set of all atom texts (every template
filled with every constant or a variable) is

1. **injective**: two different atoms never have the same text, even when the first letter is capitalised
   (a sentence starts with a capital, so "Alice" and "alice" count as the same word there);
2. **prefix-safe**: an atom's text followed by a connective word (`and`, `or`, `if`, or a comma) is never the
   beginning of another atom's text, so the reader always knows where an atom ends;
3. **keyword-safe**: no atom starts with a word that opens a connective ("it", "both", "either", "if", "for",
   "there", "all", "at", "exactly") or that may follow a comma in the grammar ("and", "or", "then", "but").

(1) and (2) are decided exactly, without enumerating atoms, by exploring the pairs of positions in the templates
and the constant trie that can read the same words (the classical test for an ambiguous automaton; a property
test checks it against brute-force enumeration). Two slots that start together are stepped over in one move,
so the cost grows with the number of templates that share their words, not with templates x constants: one
lexicon for all of FOLIO and ProverQA (12,000 predicates, 2,500 constants) is built in seconds. A lexicon that
fails raises `LexiconError`; `lexicon_for` never fails on that account: when two symbols collide it falls back
deterministically (a natural template becomes the paper's abstract phrasing "x has property Pre1", a natural
constant phrase becomes the raw name, then the raw name with a numeric suffix) until the checks pass.

Variables are spoken as their names. A word is read as a variable when it looks like one (lower-case first
letter, letters, digits and underscores) and is not a word of the lexicon or of the grammar; `realize` refuses a
variable whose name would not read back that way.

Natural templates (style="natural")
-----------------------------------
Names are split into lower-case words at CamelCase, lowerCamelCase, snake_case, digit and acronym boundaries;
a dot stays on the word before it (`mr.smith` -> "mr. smith") and hyphenated parts stay one word (`l-2021`).

* Names that look abstract (`P`, `Q2`, `Pre1`, `Con1`, `c1`: one letter, or up to three letters and digits)
  always use the abstract phrasing, as the LGMT translation prompt asks.
* Arity 0: "<words> is true" (`Rain` -> "rain is true"; the paper's "A is true").
* Arity 1 and 2, *verb-led* names (first word an auxiliary such as is/has/can, a verb in the small table
  `BASE_VERBS`, conjugated in the third person, or a word that already ends in -s such as "likes"):
  "x <words>" / "x <words> y" (`CanFly(x)` -> "x can fly", `UseZipCode(x, y)` -> "x uses zip code y").
* Arity 1, otherwise: "x is <words>" (`Happy(x)` -> "x is happy", `BornIn1965(x)` -> "x is born in 1965").
* Arity 2, otherwise, when the last word is a preposition: "x is <words> y" (`ResidentOf` -> "x is resident of y").
* Everything else, and style="abstract": "x has property P", "x bears relation R to y",
  "x, y and z stand in relation R" (the paper's formal phrasing), "P is true"; constants keep their raw names.
* Constants name individuals, so a natural constant phrase is a proper name: its words are capitalised, all but
  articles and prepositions after the first (`alice` -> "Alice", `lawtonPark` -> "Lawton Park",
  `nationalLibraryOfMedicine` -> "National Library of Medicine"), and read back exactly as written. Without this a
  name inside a sentence would read as a common noun ("either ursula writes poetry or ..."). Abstract-looking
  names (`c1`, `Con1`) and raw-name fallbacks keep their spelling, and so do the constants a caller names as
  common nouns (`lexicon_for(..., common_nouns=...)`: FOLIO writes its constant `company` as "the company").
* Natural phrases never contain the words "and", "or", "if" (a human could take them for connectives), the
  letters u-z as words, or a variable name of the formulas (compared in lower case); such names fall back to the
  abstract phrasing.

Equality is "a is identical to b" for every lexicon.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Literal, TypeAlias, get_args

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
    Var,
    Xor,
    all_vars,
    signature,
)

Style: TypeAlias = Literal["natural", "abstract"]
STYLES: tuple[str, ...] = get_args(Style)

# A template item is a literal word (str) or the index of an argument slot (int).
Template: TypeAlias = tuple[str | int, ...]
PredicateKey: TypeAlias = tuple[str, int]

# --------------------------------------------------------------------------- the grammar's vocabulary
# Kept here, beside the lexicon checks that depend on it; `realize.py` and `read.py` import these.

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

EQ_TEMPLATE: Template = (0, "is", "identical", "to", 1)
EQ_KEY: PredicateKey = ("=", 2)

VARIABLE_RE = re.compile(r"[a-z][A-Za-z0-9_]*")
_TOKEN_RE = re.compile(r"[^\s,]+")
# Free-variable letters of the FOL parser (u-z): never used as a word of a phrase, so that a formula whose
# variables were not seen by `lexicon_for` can still usually be realised.
_VARIABLE_LETTERS = frozenset("uvwxyz")
_ABSTRACT_NAME = re.compile(r"[A-Za-z]\d*|[A-Za-z]{1,3}\d+")
_MAX_SUFFIX = 20
_VAR_LABEL = "\x00var"  # the analysis' stand-in for "any variable word"

AUXILIARIES: Mapping[str, str] = MappingProxyType(
    {
        "is": "is",
        "are": "is",
        "be": "is",
        "was": "was",
        "were": "was",
        "has": "has",
        "have": "has",
        "had": "had",
        "does": "does",
        "do": "does",
        "did": "did",
        "can": "can",
        "could": "could",
        "will": "will",
        "would": "would",
        "shall": "shall",
        "should": "should",
        "may": "may",
        "might": "might",
        "must": "must",
    }
)
BASE_VERBS = frozenset(
    """admire attend belong build buy cause compose contain direct drink eat enjoy feature fly get give go grow
    hate help host include know lead live lose love make manage need own participate perform play prefer produce
    provide publish read receive release require respect run see sell serve sing speak study support swim take
    teach trust use visit want watch win work write""".split()
)
PREPOSITIONS = frozenset(
    """about above across after against along among around as at before behind below beneath beside between
    beyond by during for from in inside into like near of off on onto out outside over per since than through
    to toward towards under until upon via with within without""".split()
)


class LexiconError(ValueError):
    """A lexicon that would make template English ambiguous, or a request that cannot be honoured."""


# --------------------------------------------------------------------------- words


def fold(token: str) -> str:
    """`token` with its first letter in lower case: how a word compares at the start of a sentence."""
    if not token:
        return token
    low = token[0].lower()
    return (low if len(low) == 1 else token[0]) + token[1:]


def capitalize(text: str) -> str:
    """Upper-case the first letter when that can be undone by `fold` (sentence casing)."""
    if not text:
        return text
    up = text[0].upper()
    if len(up) == 1 and fold(up) == fold(text[0]):
        return up + text[1:]
    return text


def join_words(tokens: Iterable[str]) -> str:
    """Words separated by single spaces, with commas attached to the word before them."""
    out: list[str] = []
    for tok in tokens:
        if tok == COMMA and out:
            out[-1] += COMMA
        else:
            out.append(tok)
    return " ".join(out)


def _char_kind(c: str) -> str:
    if c.isdigit():
        return "digit"
    if c.isupper():
        return "upper"
    if c.isalpha():
        return "lower"
    return "other"


def _camel_words(part: str) -> list[str]:
    """Split one chunk at case and digit boundaries; punctuation stays on the word it touches."""
    words: list[str] = []
    cur = ""
    for i, c in enumerate(part):
        kind = _char_kind(c)
        if cur and kind != "other":
            prev = _char_kind(cur[-1])
            nxt = _char_kind(part[i + 1]) if i + 1 < len(part) else ""
            boundary = (
                (kind == "digit") != (prev == "digit")
                and prev != "other"
                or (prev == "lower" and kind == "upper")
                or (prev == "upper" and kind == "upper" and nxt == "lower")
            )
            if boundary:
                words.append(cur)
                cur = ""
        cur += c
    if cur:
        words.append(cur)
    return words


def split_name(name: str) -> tuple[str, ...]:
    """Lower-case words of a FOL name: `ResidentOf` -> (resident, of), `2008SummerOlympics` -> (2008, summer, ...).

    Underscores and whitespace separate words; a dot ends the word before it (`mr.smith` -> ("mr.", "smith"));
    hyphenated parts stay one word (`l-2021`, `well-knownAuthor` -> ("well-known", "author")).
    """
    words: list[str] = []
    for chunk in re.split(r"[\s_,]+", name):
        for piece in re.split(r"(?<=\.)", chunk):
            if not piece:
                continue
            merged: list[str] = []
            for k, part in enumerate(piece.split("-")):
                sub = _camel_words(part) or [""]
                if k and merged:
                    merged[-1] = merged[-1] + "-" + sub[0]
                    merged.extend(sub[1:])
                else:
                    merged.extend(sub)
            words.extend(w for w in merged if w)
    return tuple(w.lower() for w in words)


NAME_MINOR_WORDS = frozenset({"a", "an", "the"} | PREPOSITIONS)
"""Words a proper name keeps in lower case after its first word ("National Library of Medicine")."""


def proper_name(words: Sequence[str]) -> tuple[str, ...]:
    """The words of a constant written as a proper name: `("lawton", "park")` -> `("Lawton", "Park")`.

    The first word and every word but an article or preposition get a capital first letter (when `fold` can undo
    it, see `capitalize`), so "the beatles" reads "The Beatles" and "mr. smith" reads "Mr. Smith".
    """
    return tuple(w if i and w in NAME_MINOR_WORDS else capitalize(w) for i, w in enumerate(words))


def looks_abstract(name: str) -> bool:
    """Tell whether `name` is a placeholder (`P`, `Q2`, `Pre1`, `Con1`, `c1`), which the paper speaks formally."""
    return _ABSTRACT_NAME.fullmatch(name) is not None


def _third_person(verb: str) -> str:
    if verb in AUXILIARIES:
        return AUXILIARIES[verb]
    if verb == "go":
        return "goes"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _verb_led(first: str) -> bool:
    if first in AUXILIARIES or first in BASE_VERBS:
        return True
    return len(first) > 3 and first.endswith("s") and not first.endswith(("ss", "us", "is", "ics"))


def natural_template(name: str, arity: int) -> Template | None:
    """Return the natural-English template of a predicate, or None when there is no good one (see module doc)."""
    words = split_name(name)
    if not words or looks_abstract(name):
        return None
    if arity == 0:
        return (*words, "is", "true")
    if arity > 2:
        return None
    first, rest = words[0], words[1:]
    if _verb_led(first):
        verb = _third_person(first) if first in AUXILIARIES or first in BASE_VERBS else first
        return (0, verb, *rest, 1) if arity == 2 else (0, verb, *rest)
    if arity == 1:
        return (0, "is", *words)
    if words[-1] in PREPOSITIONS:
        return (0, "is", *words, 1)
    return None


def abstract_template(name: str, arity: int) -> Template:
    """Return the paper's formal phrasing: "P is true", "x has property P", "x bears relation R to y", ...."""
    if arity == 0:
        return (name, "is", "true")
    if arity == 1:
        return (0, "has", "property", name)
    if arity == 2:
        return (0, "bears", "relation", name, "to", 1)
    items: list[str | int] = []
    for i in range(arity - 1):
        items += [i, COMMA] if i < arity - 2 else [i]
    return (*items, "and", arity - 1, "stand", "in", "relation", name)


def template_pattern(template: Template) -> str:
    """Show a template as a format string: `(0, "likes", 1)` -> "{0} likes {1}"."""
    return join_words(f"{{{item}}}" if isinstance(item, int) else item for item in template)


def parse_pattern(pattern: str, arity: int) -> Template:
    """Read a format string such as "{0} lives in {1}" into a template (for user overrides)."""
    items: list[str | int] = []
    for tok in re.findall(r"[^\s,]+|,", pattern):
        m = re.fullmatch(r"\{(\d+)\}", tok)
        items.append(int(m.group(1)) if m else tok)
    slots = sorted(i for i in items if isinstance(i, int))
    if slots != list(range(arity)):
        raise LexiconError(f"pattern {pattern!r} must use each of the slots {{0}}..{{{arity - 1}}} exactly once")
    return tuple(items)


# --------------------------------------------------------------------------- the lexicon


@dataclass(frozen=True)
class Lexicon:
    """Immutable map from predicates (with arity) and constants to English, checked to be unambiguous.

    Build one with `lexicon_for`; constructing one directly runs the same checks and raises `LexiconError`
    when atoms could be misread.

    Attributes:
        predicates: `((name, arity), template)` pairs, sorted.
        constants: `(name, words)` pairs, sorted.
        style: The style it was built with (informational).
    """

    predicates: tuple[tuple[PredicateKey, Template], ...]
    constants: tuple[tuple[str, tuple[str, ...]], ...]
    style: Style = "natural"

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise LexiconError(f"unknown style {self.style!r}; valid styles: {', '.join(STYLES)}")
        problem = _local_problem(self.predicates, self.constants)
        if problem is None:
            conflicts = _find_conflicts(self._atom_templates, self._trie, first_only=True)
            problem = conflicts[0].describe() if conflicts else None
        if problem is not None:
            raise LexiconError(problem)

    # ---------------------------------------------------------------- lookups

    @cached_property
    def _predicate_map(self) -> dict[PredicateKey, Template]:
        return dict(self.predicates)

    @cached_property
    def _constant_map(self) -> dict[str, tuple[str, ...]]:
        return dict(self.constants)

    def template(self, name: str, arity: int) -> Template:
        """Return the template of predicate `name`/`arity` (`LexiconError` for an unknown predicate)."""
        try:
            return self._predicate_map[(name, arity)]
        except KeyError:
            raise LexiconError(f"predicate {name}/{arity} is not in the lexicon") from None

    def predicate_pattern(self, name: str, arity: int) -> str:
        """How predicate `name`/`arity` is spoken, as a format string ("{0} is resident of {1}")."""
        return template_pattern(self.template(name, arity))

    def constant_words(self, name: str) -> tuple[str, ...]:
        """Return the words of constant `name` (`LexiconError` for an unknown constant)."""
        try:
            return self._constant_map[name]
        except KeyError:
            raise LexiconError(f"constant {name!r} is not in the lexicon") from None

    def constant_phrase(self, name: str) -> str:
        """How constant `name` is spoken ("Lawton Park"), e.g. to find or replace it in source English."""
        return " ".join(self.constant_words(name))

    @cached_property
    def words(self) -> frozenset[str]:
        """Every word a phrase or the grammar uses (and its sentence-initial form); never a variable."""
        out: set[str] = set(GRAMMAR_WORDS)
        for _, template in (*self.predicates, (EQ_KEY, EQ_TEMPLATE)):
            out.update(item for item in template if isinstance(item, str))
        for _, phrase in self.constants:
            out.update(phrase)
        return frozenset(out | {fold(w) for w in out})

    def is_variable_word(self, word: str) -> bool:
        """Tell whether `word` reads as a variable: variable-shaped and not a word of the lexicon or grammar."""
        return VARIABLE_RE.fullmatch(word) is not None and word not in self.words

    # ---------------------------------------------------------------- matching atoms (the reader's primitive)

    @cached_property
    def _atom_templates(self) -> tuple[tuple[PredicateKey, Template], ...]:
        return (*self.predicates, (EQ_KEY, EQ_TEMPLATE))

    @cached_property
    def _trie(self) -> _Trie:
        return _Trie.build(self.constants)

    @cached_property
    def _index(self) -> tuple[dict[str, list[int]], dict[tuple[str, ...], list[int]], int]:
        """Templates by their first word (folded); slot-first templates by the run of words after the slot.

        Indexing the whole run (not only its first word) keeps reading fast with a large lexicon, where
        thousands of templates start "x is ...".
        """
        by_first: dict[str, list[int]] = defaultdict(list)
        by_run: dict[tuple[str, ...], list[int]] = defaultdict(list)
        longest = 0
        for t, (_, template) in enumerate(self._atom_templates):
            head = template[0]
            if isinstance(head, str):
                by_first[fold(head)].append(t)
                continue
            k = 1
            while k < len(template) and isinstance(template[k], str):
                k += 1
            by_run[tuple(str(w) for w in template[1:k])].append(t)
            longest = max(longest, k - 1)
        return dict(by_first), dict(by_run), longest

    def match_atoms(self, tokens: Sequence[str], pos: int) -> list[tuple[Atom | Eq, int]]:
        """Every atom (or equality) whose words start at `tokens[pos]`, with the index just after it.

        The first token of the sentence (`pos == 0`) is compared case-insensitively in its first letter. The
        reader keeps the matches followed by a connective word or the end; the lexicon's checks guarantee
        that at most one such match exists.
        """
        out: list[tuple[Atom | Eq, int]] = []
        if pos >= len(tokens):
            return out
        by_first, by_run, longest = self._index
        for t in by_first.get(fold(tokens[pos]), ()):
            key, template = self._atom_templates[t]
            for end, args in self._match_items(template, 0, tokens, pos, {}):
                out.append((_build(key, args), end))
        for term, after in self._match_terms(tokens, pos):
            for length in range(1, min(longest, len(tokens) - after) + 1):
                for t in by_run.get(tuple(tokens[after : after + length]), ()):
                    key, template = self._atom_templates[t]
                    for end, args in self._match_items(template, 1 + length, tokens, after + length, {0: term}):
                        out.append((_build(key, args), end))
        return out

    def _match_items(
        self, template: Template, k: int, tokens: Sequence[str], pos: int, args: dict[int, Term]
    ) -> Iterator[tuple[int, dict[int, Term]]]:
        if k == len(template):
            yield pos, args
            return
        item = template[k]
        if isinstance(item, str):
            if _token_is(tokens, pos, item):
                yield from self._match_items(template, k + 1, tokens, pos + 1, args)
            return
        for term, after in self._match_terms(tokens, pos):
            yield from self._match_items(template, k + 1, tokens, after, {**args, item: term})

    def _match_terms(self, tokens: Sequence[str], pos: int) -> list[tuple[Term, int]]:
        """Constants (through the trie) and variables that start at `pos`."""
        out: list[tuple[Term, int]] = []
        if pos >= len(tokens):
            return out
        word = fold(tokens[0]) if pos == 0 else tokens[pos]
        if self.is_variable_word(word):
            out.append((Var(word), pos + 1))
        trie = self._trie
        stack = [(child, pos + 1) for child in trie.step(0, tokens[pos], first=pos == 0)]
        while stack:
            node, i = stack.pop()
            if trie.ends[node] is not None:
                out.append((Const(trie.ends[node] or ""), i))
            if i < len(tokens):
                stack.extend((child, i + 1) for child in trie.step(node, tokens[i], first=False))
        return out


def _token_is(tokens: Sequence[str], pos: int, word: str) -> bool:
    if pos >= len(tokens):
        return False
    return tokens[pos] == word or (pos == 0 and fold(tokens[0]) == fold(word))


def _build(key: PredicateKey, args: dict[int, Term]) -> Atom | Eq:
    if key == EQ_KEY:
        return Eq(args[0], args[1])
    name, arity = key
    return Atom(name, tuple(args[i] for i in range(arity)))


# --------------------------------------------------------------------------- the constant trie


@dataclass(frozen=True)
class _Trie:
    """Constant phrases as a word trie (node 0 is the root); `ends[n]` names the constant ending at `n`."""

    children: tuple[dict[str, int], ...]
    ends: tuple[str | None, ...]
    folded_root: dict[str, tuple[int, ...]]

    @staticmethod
    def build(constants: Iterable[tuple[str, tuple[str, ...]]]) -> _Trie:
        children: list[dict[str, int]] = [{}]
        ends: list[str | None] = [None]
        for name, words in constants:
            node = 0
            for w in words:
                nxt = children[node].get(w)
                if nxt is None:
                    nxt = len(children)
                    children[node][w] = nxt
                    children.append({})
                    ends.append(None)
                node = nxt
            ends[node] = name
        folded: dict[str, list[int]] = defaultdict(list)
        for w, child in children[0].items():
            folded[fold(w)].append(child)
        return _Trie(tuple(children), tuple(ends), {k: tuple(v) for k, v in folded.items()})

    def step(self, node: int, word: str, *, first: bool) -> tuple[int, ...]:
        """Children of `node` reached by `word` (sentence-initial words compare folded)."""
        if first and node == 0:
            return self.folded_root.get(fold(word), ())
        child = self.children[node].get(word)
        return () if child is None else (child,)


# --------------------------------------------------------------------------- the checks


def _local_problem(
    predicates: Sequence[tuple[PredicateKey, Template]], constants: Sequence[tuple[str, tuple[str, ...]]]
) -> str | None:
    """Word-level rules that the automaton analysis relies on; a message, or None when all hold."""
    seen_keys = set()
    for (name, arity), template in predicates:
        if (name, arity) in seen_keys or (name, arity) == EQ_KEY:
            return f"predicate {name}/{arity} is listed twice or reserved"
        seen_keys.add((name, arity))
        problem = _template_problem(template, arity)
        if problem:
            return f"predicate {name}/{arity} ({template_pattern(template)!r}): {problem}"
    names: set[str] = set()
    phrases: dict[tuple[str, ...], str] = {}
    for name, words in constants:
        if name in names:
            return f"constant {name!r} is listed twice"
        if tuple(words) in phrases:
            return f"constants {phrases[tuple(words)]!r} and {name!r} have the same phrase"
        names.add(name)
        phrases[tuple(words)] = name
        problem = _phrase_problem(words)
        if problem:
            return f"constant {name!r} ({' '.join(words)!r}): {problem}"
    return None


def _phrase_problem(words: Sequence[str]) -> str | None:
    if not words:
        return "empty phrase"
    for w in words:
        if not _TOKEN_RE.fullmatch(w):
            return f"word {w!r} contains a space or a comma"
    if fold(words[0]) in FORBIDDEN_FIRST:
        return f"starts with the connective word {words[0]!r}"
    return None


def _template_problem(template: Template, arity: int) -> str | None:
    slots = [item for item in template if isinstance(item, int)]
    if sorted(slots) != list(range(arity)):
        return "must use every argument slot exactly once"
    for a, b in zip(template, template[1:], strict=False):
        if isinstance(a, int) and isinstance(b, int):
            return "two argument slots must be separated by a word"
    if not template or (isinstance(template[0], int) and len(template) < 2):
        return "needs at least one word"
    words = [item for item in template if isinstance(item, str)]
    for w in words:
        if w != COMMA and not _TOKEN_RE.fullmatch(w):
            return f"word {w!r} contains a space or a comma"
    if isinstance(template[0], str) and fold(template[0]) in FORBIDDEN_FIRST:
        return f"starts with the connective word {template[0]!r}"
    return None


Cursor: TypeAlias = tuple[int, int, int]  # (template index, item index, trie node or -1 outside a constant)
Pair: TypeAlias = tuple[Cursor, Cursor]


@dataclass(frozen=True)
class _Conflict:
    """Two templates whose atoms can be confused (the same template twice: its constants are to blame)."""

    first: PredicateKey
    second: PredicateKey
    kind: Literal["ambiguous", "prefix"]

    def describe(self) -> str:
        what = "can read the same words" if self.kind == "ambiguous" else "can end where the other goes on"
        return f"atoms of {_show_key(self.first)} and {_show_key(self.second)} {what} (with these constants)"


def _show_key(key: PredicateKey) -> str:
    return "equality" if key == EQ_KEY else f"{key[0]}/{key[1]}"


def _find_conflicts(
    templates: Sequence[tuple[PredicateKey, Template]], trie: _Trie, *, first_only: bool = False
) -> list[_Conflict]:
    """Decide injectivity and prefix-safety of all atom texts (see the module docstring).

    Returns the conflicts, one per pair of templates, in a deterministic order (only the first one when
    `first_only`); an empty list means the atoms are unambiguous.

    Each template is a small automaton over words: a literal word is read as it is; a slot reads one
    variable word (`_VAR_LABEL`, distinct from every lexicon word because variables may not be lexicon words)
    or a constant phrase through the trie. A *run* is a position in a template (a `Cursor`). Two different
    atoms with the same text exist iff two different runs read the same words: we explore the pairs of runs
    reachable on the same words (the sentence-initial word folded) and report a pair of different runs from
    which both can still finish on the same words. Prefix-safety: a pair where one run has finished while the
    other can read a connective word next.

    Cost: two runs that start a slot together mostly read the same term; that case is taken in one step
    (`_Runs.together`), so the number of pairs grows with the square of the number of templates, not times the
    number of constants.

    The work is split in steps with one job each: `_Runs` (what one run reads), `_parting_moments` (where two
    runs through the trie part), `_PairGraph.seed_*` (the pairs after the first word), `_PairGraph.explore`
    (breadth-first over pairs; prefix conflicts), `_PairGraph.ambiguous` (the pairs that can still finish
    together; injectivity conflicts). Prefix conflicts come first, then ambiguous ones, each in exploration order.
    """
    graph = _PairGraph(_Runs(templates, trie))
    graph.seed_word_first()
    graph.seed_slot_first()
    graph.seed_parted_slots()
    conflicts: dict[tuple[PredicateKey, PredicateKey], _Conflict] = {}
    # `chain` is lazy: `ambiguous` runs only once `explore` has visited every pair (it needs the whole graph).
    for conflict in itertools.chain(graph.explore(), graph.ambiguous()):
        if first_only:
            return [conflict]
        conflicts.setdefault((conflict.first, conflict.second), conflict)
    return list(conflicts.values())


_State: TypeAlias = tuple[Cursor, Cursor, bool]
"""A pair of runs: two cursors and whether the runs already differ (which matters only when the cursors are equal:
different cursors always mean different runs). The cursors are ordered unless equal, so a pair is seen once."""

_Parting: TypeAlias = tuple[int, int]
"""Where two runs through the trie part: each side -1 (closed) or the trie node where that run goes on;
(-2, -2) = both closed, on different constants."""


def _parting_moments(trie: _Trie, first: bool) -> list[_Parting]:
    """The ways two slots that start together on the same words can part (sorted, so the exploration is stable).

    Two slots that start together mostly read the same term, and then both close at once. They part only when one
    constant is a prefix of another (one run closes while the other goes on) or, on the sentence's first word,
    when two constants read alike but for case ("Alice" vs "alice"). Computing these once, over the trie alone,
    is what lets `_Runs.together` step over a whole term instead of pairing every constant with every other.
    """
    kids, ends = trie.children, trie.ends
    found: set[_Parting] = set()
    frontier = {(x, y) for w in kids[0] for x in trie.step(0, w, first=first) for y in trie.step(0, w, first=first)}
    visited: set[tuple[int, int]] = set()
    while frontier:
        x, y = frontier.pop()
        visited.add((x, y))
        if x != y and ends[x] is not None and ends[y] is not None:
            found.add((-2, -2))
        if ends[x] is not None and kids[y]:
            found.add((-1, y))
        if ends[y] is not None and kids[x]:
            found.add((x, -1))
        for w in kids[x].keys() & kids[y].keys():
            nxt = (kids[x][w], kids[y][w])
            if nxt not in visited:
                frontier.add(nxt)
    return sorted(found)


class _Runs:
    """The templates as automata over words: what one run reads next, and the runs after it reads a word.

    Kept apart from the pair search so that the word-level rules (literal words, folded sentence-initial words,
    variables, constants through the trie) are stated once and the search only combines them.
    """

    def __init__(self, templates: Sequence[tuple[PredicateKey, Template]], trie: _Trie) -> None:
        self.templates = templates
        self.trie = trie
        self.kids = trie.children
        self.ends = trie.ends
        self.parting = {first: _parting_moments(trie, first) for first in (True, False)}

    def key(self, c: Cursor) -> PredicateKey:
        """The predicate whose template the run is in (what a conflict names)."""
        return self.templates[c[0]][0]

    def item(self, c: Cursor) -> str | int | None:
        """The word or slot at the cursor; None once the template is finished."""
        template = self.templates[c[0]][1]
        return template[c[1]] if c[1] < len(template) else None

    def advance(self, c: Cursor, word: str, first: bool) -> list[Cursor]:
        """Runs after `c` reads `word`."""
        t, i, node = c
        it = self.item(c)
        if isinstance(it, str):
            ok = word == it or (first and word != _VAR_LABEL and fold(word) == fold(it))
            return [(t, i + 1, -1)] if ok else []
        if it is None:
            return []
        if word == _VAR_LABEL:
            return [(t, i + 1, -1)] if node == -1 else []
        out: list[Cursor] = []
        for child in self.trie.step(max(node, 0), word, first=first):
            if self.kids[child]:
                out.append((t, i, child))
            if self.ends[child] is not None:
                out.append((t, i + 1, -1))
        return out

    def words_after(self, c: Cursor) -> Iterable[str]:
        """Words `c` can read next (for a slot start: the variable label and every first word)."""
        it = self.item(c)
        if isinstance(it, str):
            return (it,)
        if it is None:
            return ()
        return self.kids[c[2]].keys() if c[2] >= 0 else (_VAR_LABEL, *self.kids[0].keys())

    def together(self, p: Cursor, q: Cursor, first: bool) -> list[tuple[Pair, bool]]:
        """Pairs after two slots that start together read one term: both closed, or parted (`_parting_moments`)."""
        closed = ((p[0], p[1] + 1, -1), (q[0], q[1] + 1, -1))
        out = [(closed, False)]  # the same variable or constant fills both slots
        for a, b in self.parting[first]:
            if a == -2:
                out.append((closed, True))
                continue
            np_ = (p[0], p[1] + 1, -1) if a == -1 else (p[0], p[1], a)
            nq = (q[0], q[1] + 1, -1) if b == -1 else (q[0], q[1], b)
            out.append(((np_, nq), False))
        return out

    def successors(self, p: Cursor, q: Cursor, first: bool) -> list[tuple[Pair, bool]]:
        """Pairs of runs after both read one more word (or one more term, when two slots start together).

        The flag is True when the two runs differ although the resulting cursors may coincide.
        """
        ip, iq = self.item(p), self.item(q)
        if isinstance(ip, int) and isinstance(iq, int) and p[2] == -1 and q[2] == -1:
            return self.together(p, q, first)
        if isinstance(ip, str):
            words: Iterable[str] = (ip,)
        elif isinstance(iq, str):
            words = (iq,)
        elif p[2] >= 0 and q[2] >= 0:
            words = self.kids[p[2]].keys() & self.kids[q[2]].keys()
        else:
            words = self.kids[p[2]].keys() if p[2] >= 0 else self.kids[q[2]].keys()
        return [
            ((np_, nq), False) for w in words for np_ in self.advance(p, w, first) for nq in self.advance(q, w, first)
        ]

    def dead(self, p: Cursor, q: Cursor) -> bool:
        """A pair that cannot read one more common word (so it matters for nothing): cheap pruning."""
        ip, iq = self.item(p), self.item(q)
        if isinstance(ip, str):
            if isinstance(iq, str):
                return ip != iq
            return q[2] >= 0 and ip not in self.kids[q[2]]
        return isinstance(iq, str) and p[2] >= 0 and iq not in self.kids[p[2]]

    def prefix_conflict(self, p: Cursor, q: Cursor) -> _Conflict | None:
        """When exactly one run has finished: a conflict if the other can go on with a connective word."""
        ended, going = (p, q) if self.item(p) is None else (q, p)
        if any(w in FOLLOWERS and self.advance(going, w, False) for w in self.words_after(going)):
            return _Conflict(self.key(ended), self.key(going), "prefix")
        return None


class _PairGraph:
    """The pairs of runs reachable on the same words, each with the pairs it was reached from.

    The parents are kept because injectivity needs a backward pass: a pair of different runs is a conflict only
    if both can still finish on the same words, which is known once the finished pairs are.
    """

    def __init__(self, runs: _Runs) -> None:
        self.runs = runs
        self.seen: set[_State] = set()
        self.queue: deque[_State] = deque()
        self.parents: dict[_State, list[_State]] = defaultdict(list)
        self.order: list[_State] = []  # every pair, in the order it was explored
        self.finals: list[_State] = []  # pairs where both runs have finished
        templates = runs.templates
        self.word_first = [(t, 0, -1) for t, (_, template) in enumerate(templates) if isinstance(template[0], str)]
        self.slot_first = [t for t, (_, template) in enumerate(templates) if isinstance(template[0], int)]

    def push(self, pair: Pair, parent: _State | None, differ: bool) -> None:
        """Record a pair reached from `parent` (None for a first-word pair), queueing it the first time."""
        p, q = pair
        if self.runs.dead(p, q):
            return
        if p != q:
            child: _State = (p, q, False) if p <= q else (q, p, False)
        else:
            child = (p, q, differ or (parent is not None and parent[2]))
        if parent is not None:
            self.parents[child].append(parent)
        if child not in self.seen:
            self.seen.add(child)
            self.queue.append(child)

    # The first word. Templates that start with a word are paired with everything, one by one. Templates that
    # start with a slot all read the first term together and then their first run of words; two of them only
    # matter once one run stops (at a slot or the end) while the other stops too or goes on, so we pair them
    # there directly, through a table of runs, instead of pairing every template with every other.

    def seed_word_first(self) -> None:
        """Pair every word-first template with every template, after the first word."""
        for a, p in enumerate(self.word_first):
            for q in (*self.word_first[a:], *((t, 0, -1) for t in self.slot_first)):
                for child, differ in self.runs.successors(p, q, True):
                    self.push(child, None, differ)

    def seed_slot_first(self) -> None:
        """Pair slot-first templates where their first runs of words stop (a slot or the end) or one goes on.

        Both read the same first term, so they are paired just after their common run of words, through a
        table of runs, instead of every template with every other.
        """
        stops, passes = self._first_runs()
        fold_twins = (-2, -2) in self.runs.parting[True]
        for run, stopped in stops.items():
            k = 1 + len(run)
            for a, tp in enumerate(stopped):
                for tq in stopped[a:]:
                    self.push(((tp, k, -1), (tq, k, -1)), None, False)
                    if fold_twins:
                        self.push(((tp, k, -1), (tq, k, -1)), None, True)
                for tq in passes.get(run, ()):
                    self.push(((tp, k, -1), (tq, k, -1)), None, False)

    def _first_runs(self) -> tuple[dict[tuple[str | int, ...], list[int]], dict[tuple[str | int, ...], list[int]]]:
        """Slot-first templates by the run of words after their first slot: whose run it is, whose run goes on.

        Returns:
            `(stops, passes)`: run -> templates whose whole run it is; run -> templates whose run goes on past it.
        """
        stops: dict[tuple[str | int, ...], list[int]] = defaultdict(list)
        passes: dict[tuple[str | int, ...], list[int]] = defaultdict(list)
        for t in self.slot_first:
            template = self.runs.templates[t][1]
            k = 1
            while k < len(template) and isinstance(template[k], str):
                passes[tuple(template[1:k])].append(t)
                k += 1
            stops[tuple(template[1:k])].append(t)
        return stops, passes

    def seed_parted_slots(self) -> None:
        """Pair slot-first templates whose first terms part on the first word: one closed, one still in the trie.

        (node, -1) is the mirror image of (-1, node), covered because every slot-first template is paired with
        every other here.
        """
        by_next: dict[str | int, list[int]] = defaultdict(list)
        for t in self.slot_first:
            template = self.runs.templates[t][1]
            if len(template) > 1:
                by_next[template[1]].append(t)
        for x, y in self.runs.parting[True]:
            if x != -1:
                continue
            for w in self.runs.kids[y]:
                for tp in by_next.get(w, ()):
                    for tq in self.slot_first:
                        self.push(((tp, 1, -1), (tq, 0, y)), None, False)

    def explore(self) -> Iterator[_Conflict]:
        """Visit every reachable pair breadth-first, recording the order and the finished pairs.

        Yields the prefix conflicts as they are met (a pair with one run finished is not explored further).
        """
        runs = self.runs
        while self.queue:
            state = self.queue.popleft()
            self.order.append(state)
            p, q, _ = state
            pf, qf = runs.item(p) is None, runs.item(q) is None
            if pf and qf:
                self.finals.append(state)
                continue
            if pf or qf:
                conflict = runs.prefix_conflict(p, q)
                if conflict is not None:
                    yield conflict
                continue
            for child, differ in runs.successors(p, q, False):
                self.push(child, state, differ)

    def alive(self) -> set[_State]:
        """The pairs from which both runs can still finish on the same words (backwards from the finished ones)."""
        alive = set(self.finals)
        stack = list(self.finals)
        while stack:
            for parent in self.parents.get(stack.pop(), ()):
                if parent not in alive:
                    alive.add(parent)
                    stack.append(parent)
        return alive

    def ambiguous(self) -> Iterator[_Conflict]:
        """The injectivity conflicts, in exploration order: live pairs of different runs (after `explore`)."""
        alive = self.alive()
        for state in self.order:
            p, q, differ = state
            if (p != q or differ) and state in alive:
                yield _Conflict(self.runs.key(p), self.runs.key(q), "ambiguous")


# --------------------------------------------------------------------------- building a lexicon


@lru_cache(maxsize=1 << 15)
def _predicate_candidates(
    name: str, arity: int, style: Style, avoid: frozenset[str]
) -> tuple[tuple[Template, bool], ...]:
    """Templates to try for a predicate, best first, each flagged natural or not.

    Cached: a pure function of its arguments, and the costliest step of `lexicon_for`, which an LGMT build calls
    once per group, i.e. about twenty times for each source case's same predicates (the paper-scale pool spent a
    third of its relation stage here). The result is a tuple, so no caller can change a cached chain.
    """
    out: list[tuple[Template, bool]] = []
    if style == "natural":
        nat = natural_template(name, arity)
        if nat is not None and _words_ok([w for w in nat if isinstance(w, str)], avoid):
            out.append((nat, True))
    for k in range(1, _MAX_SUFFIX + 1):
        raw = name if k == 1 else f"{name}_{k}"
        if _words_ok([raw], avoid):
            out.append((abstract_template(raw, arity), False))
    return tuple((t, nat) for t, nat in out if _template_problem(t, arity) is None)


@lru_cache(maxsize=1 << 15)
def _constant_candidates(
    name: str, style: Style, avoid: frozenset[str], proper: bool = True
) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Phrases to try for a constant, best first, each flagged natural or not (`proper`: capitalise its words).

    Cached and a tuple, as `_predicate_candidates`.
    """
    out: list[tuple[tuple[str, ...], bool]] = []
    if style == "natural" and not looks_abstract(name):
        words = split_name(name)
        if words and _words_ok(words, avoid):  # checked in lower case: "And" is still a connective to a reader
            out.append((proper_name(words) if proper else words, True))
    for k in range(1, _MAX_SUFFIX + 1):
        raw = name if k == 1 else f"{name}_{k}"
        if _words_ok([raw], avoid):
            out.append(((raw,), False))
    return tuple((p, nat) for p, nat in out if _phrase_problem(p) is None)


def _words_ok(words: Sequence[str], avoid: frozenset[str]) -> bool:
    """No connective word a reader could trip over, and no word that is (or capitalises) a variable."""
    return not any(w in FOLLOWERS or w in avoid or fold(w) in avoid for w in words)


@dataclass
class _Search:
    """The mutable state of `lexicon_for`'s fallback search (local to one call)."""

    predicate_chains: dict[PredicateKey, Sequence[tuple[Template, bool]]]
    constant_chains: dict[str, Sequence[tuple[tuple[str, ...], bool]]]

    def __post_init__(self) -> None:
        for key, pchain in self.predicate_chains.items():
            if not pchain:
                raise LexiconError(f"no usable English for predicate {key[0]}/{key[1]}")
        for name, cchain in self.constant_chains.items():
            if not cchain:
                raise LexiconError(f"no usable English for constant {name!r}")
        self.predicate_at = dict.fromkeys(self.predicate_chains, 0)
        self.constant_at = dict.fromkeys(self.constant_chains, 0)

    def predicates(self) -> tuple[tuple[PredicateKey, Template], ...]:
        return tuple((k, chain[self.predicate_at[k]][0]) for k, chain in sorted(self.predicate_chains.items()))

    def constants(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple((c, chain[self.constant_at[c]][0]) for c, chain in sorted(self.constant_chains.items()))

    def bump_predicate(self, key: PredicateKey) -> bool:
        if key not in self.predicate_chains or self.predicate_at[key] + 1 >= len(self.predicate_chains[key]):
            return False
        self.predicate_at[key] += 1
        return True

    def bump_constant(self, name: str) -> bool:
        if self.constant_at[name] + 1 >= len(self.constant_chains[name]):
            return False
        self.constant_at[name] += 1
        return True

    def constant_clash(self) -> tuple[str, str] | None:
        """Two constants that read the same (also at the start of a sentence): (earlier, later)."""
        taken: dict[tuple[str, ...], str] = {}
        for name, words in self.constants():
            folded = (fold(words[0]), *words[1:])
            if folded in taken:
                return taken[folded], name
            taken[folded] = name
        return None

    def resolve(self, conflict: _Conflict) -> Literal["predicate", "constant"] | None:
        """Fall back one symbol involved in `conflict`: which kind, or None when none can fall back further.

        Natural predicate templates give way first (the later one in sorted order); when both templates are
        already formal, the constants are to blame: the first one (sorted) whose phrase has several words or
        shares a word with a template falls back.
        """
        keys = sorted({conflict.first, conflict.second} - {EQ_KEY}, reverse=True)
        for key in keys:
            if self.predicate_chains[key][self.predicate_at[key]][1] and self.bump_predicate(key):
                return "predicate"
        literal_words = {w for _, t in self.predicates() for w in t if isinstance(w, str)}
        literal_words |= {w for w in EQ_TEMPLATE if isinstance(w, str)}
        for name, words in self.constants():
            suspicious = len(words) > 1 or any(w in literal_words for w in words)
            if suspicious and self.bump_constant(name):
                return "constant"
        return "predicate" if any(self.bump_predicate(key) for key in keys) else None


def lexicon_for(
    formulas: Formula | Iterable[Formula],
    *,
    style: Style = "natural",
    overrides: Mapping[str | PredicateKey, str] | None = None,
    common_nouns: Iterable[str] = (),
) -> Lexicon:
    """Build a lexicon for the symbols of `formulas`, natural where possible and always unambiguous.

    Build one lexicon per problem (source and follow-up together) so that a symbol reads the same in every
    sentence of it; a lexicon for a whole benchmark's vocabulary also works (seconds for all of FOLIO), but
    then more symbols fall back to the formal phrasing because more names collide.

    Args:
        formulas: The formulas whose predicates and constants must be spoken (a single formula is accepted).
            Their variable names are kept out of every phrase, so that variables always read back.
        style: "natural" (split names into words, see the module docstring) or "abstract" (the paper's formal
            phrasing for every predicate, raw constant names).
        overrides: English for chosen symbols: a constant name maps to its phrase ("Lawton Park"), a
            `(name, arity)` key maps to a pattern with slots ("{0} lives in {1}"). Overrides are kept as given;
            one that makes atoms ambiguous raises `LexiconError`.
        common_nouns: Constants that are not proper names and keep the lower case in the natural style, e.g.
            FOLIO's `company`, which its English writes "the company" (a name not among the symbols is ignored).

    Returns:
        The lexicon. When natural phrases collide (two symbols, or an atom and a longer atom, could be read
        the same way) one of them falls back deterministically: natural -> formal/raw -> raw with a suffix.

    Raises:
        LexiconError: On an unknown style, an invalid override, or (only with pathological names) when no
            fallback removes an ambiguity.
    """
    if style not in STYLES:
        raise LexiconError(f"unknown style {style!r}; valid styles: {', '.join(STYLES)}")
    if isinstance(formulas, (Atom, Eq, Top, Bottom, Not, And, Or, Implies, Iff, Xor, Forall, Exists)):
        formulas = (formulas,)
    formulas = tuple(formulas)
    sig = signature(*formulas)
    variables: set[str] = set(_VARIABLE_LETTERS)
    for f in formulas:
        variables |= all_vars(f)
    avoid = frozenset(variables)

    predicate_chains: dict[PredicateKey, Sequence[tuple[Template, bool]]] = {
        key: _predicate_candidates(*key, style, avoid) for key in sig.predicates
    }
    common = frozenset(common_nouns)
    constant_chains: dict[str, Sequence[tuple[tuple[str, ...], bool]]] = {
        name: _constant_candidates(name, style, avoid, name not in common) for name in sig.constants
    }
    for key, text in (overrides or {}).items():
        if isinstance(key, tuple):
            template = parse_pattern(text, key[1])
            problem = _template_problem(template, key[1])
            if problem:
                raise LexiconError(f"override for {key[0]}/{key[1]} ({text!r}): {problem}")
            predicate_chains[key] = ((template, True),)
        else:
            words = tuple(re.findall(r"[^\s,]+|,", text))
            problem = _phrase_problem(words)
            if problem:
                raise LexiconError(f"override for constant {key!r} ({text!r}): {problem}")
            constant_chains[key] = ((words, True),)
    search = _Search(predicate_chains, constant_chains)

    while True:  # every round falls at least one symbol back or returns; the chains are finite
        clash = search.constant_clash()
        if clash is not None:
            if not search.bump_constant(clash[1]):
                raise LexiconError(f"constant {clash[1]!r} reads like constant {clash[0]!r}")
            continue
        predicates, constants = search.predicates(), search.constants()
        conflicts = _find_conflicts((*predicates, (EQ_KEY, EQ_TEMPLATE)), _Trie.build(constants))
        if not conflicts:
            return Lexicon(predicates, constants, style)
        # Resolve the conflicts of disjoint predicate pairs in one round (a round costs one analysis); after a
        # constant falls back, start a new round, since that may resolve the remaining conflicts too.
        touched: set[PredicateKey] = set()
        progress = False
        for conflict in conflicts:
            if {conflict.first, conflict.second} & touched:
                continue
            touched |= {conflict.first, conflict.second}
            outcome = search.resolve(conflict)
            progress = progress or outcome is not None
            if outcome == "constant":
                break
        if not progress:
            raise LexiconError(conflicts[0].describe() + "; no fallback resolves it")
