"""How predicates and constants are spoken in template English, and the guarantee that this is unambiguous.

The realiser (`realize.py`) and the reader (`read.py`) share one immutable `Lexicon`: for every predicate
(with its arity) a *template*, a sequence of words and argument slots such as `[0, "is", "resident", "of", 1]`
("Tom is resident of Lawton Park"), and for every constant a *phrase* (`lawtonPark` -> "Lawton Park").

Why the lexicon carries a proof obligation
------------------------------------------
`read(realize(f, lx), lx) == f` must hold for every formula over the lexicon's symbols, so a `Lexicon` checks,
when it is built, that its atom texts are injective, prefix-safe and keyword-safe (`ambiguity.py` states and
decides these). A lexicon that fails raises `LexiconError`; `lexicon_for` never fails on that account: when two
symbols collide it falls back deterministically (a natural template becomes the paper's abstract phrasing "x has
property Pre1", a natural constant phrase becomes the raw name, then the raw name with a numeric suffix) until the
checks pass.

Variables are spoken as their names. A word is read as a variable when it looks like one (lower-case first
letter, letters, digits and underscores) and is not a word of the lexicon or of the grammar; `realize` refuses a
variable whose name would not read back that way.

Choosing the words
------------------
`lexicon_for` tries each symbol's natural phrasing first (`phrasing.py` says how a name becomes words), then the
formal one. Natural phrases never contain the words "and", "or", "if" (a human could take them for connectives),
the letters u-z as words, or a variable name of the formulas (compared in lower case); such names fall back to the
abstract phrasing. Abstract-looking names (`c1`, `Con1`) and raw-name fallbacks keep their spelling, and so do the
constants a caller names as common nouns (`lexicon_for(..., common_nouns=...)`: FOLIO writes its constant
`company` as "the company").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal, TypeAlias, get_args

from lgmt_tasks.logic.ambiguity import Conflict, find_conflicts, local_problem, phrase_problem, template_problem
from lgmt_tasks.logic.constant_trie import ConstantTrie
from lgmt_tasks.logic.grammar_words import FOLLOWERS, GRAMMAR_WORDS
from lgmt_tasks.logic.morphology import Usage
from lgmt_tasks.logic.phrasing import (
    EQ_KEY,
    EQ_TEMPLATE,
    NUMBER_WORDS,
    PredicateKey,
    Template,
    abstract_template,
    fold,
    looks_abstract,
    natural_template,
    numeral_phrase,
    proper_name,
    split_name,
    template_pattern,
)
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

VARIABLE_RE = re.compile(r"[a-z][A-Za-z0-9_]*")
# Free-variable letters of the FOL parser (u-z): never used as a word of a phrase, so that a formula whose
# variables were not seen by `lexicon_for` can still usually be realised.
_VARIABLE_LETTERS = frozenset("uvwxyz")
_MAX_SUFFIX = 20


class LexiconError(ValueError):
    """A lexicon that would make template English ambiguous, or a request that cannot be honoured."""


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
        problem = local_problem(self.predicates, self.constants)
        if problem is None:
            conflicts = find_conflicts(self._atom_templates, self._trie, first_only=True)
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
    def _trie(self) -> ConstantTrie:
        return ConstantTrie.build(self.constants)

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


# --------------------------------------------------------------------------- building a lexicon


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


@lru_cache(maxsize=1 << 15)
def _predicate_candidates(
    name: str,
    arity: int,
    style: Style,
    avoid: frozenset[str],
    usage: Usage | None = None,
    learned: Template | None = None,
) -> tuple[tuple[Template, bool], ...]:
    """Templates to try for a predicate, best first, each flagged natural or not.

    `learned`: the phrase the source's English uses for the name (`english.learned_templates`), tried first.

    Cached: a pure function of its arguments, and the costliest step of `lexicon_for`, which an LGMT build calls
    once per group, i.e. about twenty times for each source case's same predicates (the paper-scale pool spent a
    third of its relation stage here). The result is a tuple, so no caller can change a cached chain.
    """
    out: list[tuple[Template, bool]] = []
    formal = learned is not None and learned == abstract_template(name, arity)  # the English has no place for it
    if style == "natural" and learned is not None and not looks_abstract(name) and not formal:
        if _words_ok([w for w in learned if isinstance(w, str)], avoid):
            out.append((learned, True))
    if style == "natural" and not formal:
        nat = natural_template(name, arity, usage)
        if nat is not None and _words_ok([w for w in nat if isinstance(w, str)], avoid):
            out.append((nat, True))
    for k in range(1, _MAX_SUFFIX + 1):
        raw = name if k == 1 else f"{name}_{k}"
        if _words_ok([raw], avoid):
            out.append((abstract_template(raw, arity), False))
    return tuple((t, nat) for t, nat in out if template_problem(t, arity) is None)


@lru_cache(maxsize=1 << 15)
def _constant_candidates(
    name: str, style: Style, avoid: frozenset[str], proper: bool = True, spelled: tuple[str, ...] | None = None
) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Phrases to try for a constant, best first, each flagged natural or not.

    `proper`: capitalise its words; `spelled`: the capitals the source's English gives its words, tried first.
    Cached and a tuple, as `_predicate_candidates`.
    """
    out: list[tuple[tuple[str, ...], bool]] = []
    number = numeral_phrase(name) if style == "natural" else None
    if number is not None:  # `num98199` is "98199": a number reads as itself
        out.append((number, True))
    if style == "natural" and spelled and not looks_abstract(name) and _words_ok(spelled, avoid):
        out.append((spelled, True))
        recased = name_cased(spelled, name)
        if recased is not None and recased != spelled:  # for a clash with a name that differs only in case
            out.append((recased, True))
    if style == "natural" and not looks_abstract(name):
        words = split_name(name, keep_acronyms=True)
        proper = proper and not all(w in NUMBER_WORDS for w in words)  # `oneMillion` is "one million"
        if words and _words_ok(words, avoid):  # checked in lower case: "And" is still a connective to a reader
            out.append((proper_name(words) if proper else words, True))
    for k in range(1, _MAX_SUFFIX + 1):
        raw = name if k == 1 else f"{name}_{k}"
        if _words_ok([raw], avoid):
            out.append(((raw,), False))
    return tuple((p, nat) for p, nat in out if phrase_problem(p) is None)


def name_cased(spelled: Sequence[str], name: str) -> tuple[str, ...] | None:
    """The English's words for a constant with the capitals of its FOL name inside each word, or None.

    Two constants that differ only in case (`moonWatch`, `moonwatch`) are both written "Moonwatch" by the English;
    the second is then spoken "MoonWatch", still the source's word, so that the two read apart.
    """
    letters = [c for c in name if c.isalnum()]
    k = 0
    out: list[str] = []
    for i, word in enumerate(spelled):
        if i == 0 and word in ("a", "an", "the") and len(spelled) > 1:
            out.append(word)
            continue
        chars = list(word)
        for j, c in enumerate(chars):
            if not c.isalnum():
                continue
            if k >= len(letters) or letters[k].lower() != c.lower():
                return None
            if j:
                chars[j] = letters[k]
            k += 1
        out.append("".join(chars))
    return tuple(out) if k == len(letters) else None


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

    def bump_to_distinct(self, name: str) -> bool:
        """Move `name` on to its next natural phrase that reads differently from its current one, if it has one."""
        chain, at = self.constant_chains[name], self.constant_at[name]
        current = (fold(chain[at][0][0]), *chain[at][0][1:])
        for k in range(at + 1, len(chain)):
            words, natural = chain[k]
            if natural and (fold(words[0]), *words[1:]) != current:
                self.constant_at[name] = k
                return True
        return False

    def constant_clash(self) -> tuple[str, str] | None:
        """Two constants that read the same (also at the start of a sentence): (earlier, later)."""
        taken: dict[tuple[str, ...], str] = {}
        for name, words in self.constants():
            folded = (fold(words[0]), *words[1:])
            if folded in taken:
                return taken[folded], name
            taken[folded] = name
        return None

    def resolve(self, conflict: Conflict) -> Literal["predicate", "constant"] | None:
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
    usage: Mapping[PredicateKey, Usage] | None = None,
    spellings: Mapping[str, tuple[str, ...]] | None = None,
    learned: Mapping[PredicateKey, Template] | None = None,
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
        usage: How the source's English uses predicates (`morphology.usage_hint`): settles whether an ambiguous
            word is spoken as a noun, a verb or an adjective ("a pet", "animals that bark").
        spellings: How the source's English writes constants' words inside its sentences ("LGA airport" for
            `lgaAirport`, "salad" for `salad`): tried before the proper-name phrase.
        learned: Templates learned from the words of the source's English that a predicate's atoms cover
            ("{0} can block {1}" for `CanBlock`, `english.learned_templates`): tried before the natural template
            built from the name alone, and given up like it when it makes atoms ambiguous.

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
        key: _predicate_candidates(*key, style, avoid, (usage or {}).get(key), (learned or {}).get(key))
        for key in sig.predicates
    }
    common = frozenset(common_nouns)
    constant_chains: dict[str, Sequence[tuple[tuple[str, ...], bool]]] = {
        name: _constant_candidates(name, style, avoid, name not in common, (spellings or {}).get(name))
        for name in sig.constants
    }
    for key, text in (overrides or {}).items():
        if isinstance(key, tuple):
            template = parse_pattern(text, key[1])
            problem = template_problem(template, key[1])
            if problem:
                raise LexiconError(f"override for {key[0]}/{key[1]} ({text!r}): {problem}")
            predicate_chains[key] = ((template, True),)
        else:
            words = tuple(re.findall(r"[^\s,]+|,", text))
            problem = phrase_problem(words)
            if problem:
                raise LexiconError(f"override for constant {key!r} ({text!r}): {problem}")
            constant_chains[key] = ((words, True),)
    search = _Search(predicate_chains, constant_chains)

    while True:  # every round falls at least one symbol back or returns; the chains are finite
        clash = search.constant_clash()
        if clash is not None:
            # the constant that has another natural phrase gives way (`moonWatch` "Moon Watch" next to `moonwatch`
            # "Moonwatch", both written "Moonwatch"), else the later one, as far as its chain goes
            if not search.bump_to_distinct(clash[1]) and not search.bump_to_distinct(clash[0]):
                if search.bump_constant(clash[1]):
                    continue
                raise LexiconError(f"constant {clash[1]!r} reads like constant {clash[0]!r}")
            continue
        predicates, constants = search.predicates(), search.constants()
        conflicts = find_conflicts((*predicates, (EQ_KEY, EQ_TEMPLATE)), ConstantTrie.build(constants))
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
