"""The proof that a lexicon's atoms cannot be misread: the checks a `Lexicon` runs when it is built.

`read(realize(f, lx), lx) == f` must hold for every formula over the lexicon's symbols. The connective grammar
(see `realize.py`) is unambiguous by construction, so everything rests on the atoms: the text of an atom must
determine the atom. The set of all atom texts (every template filled with every constant or a variable) must be

1. **injective**: two different atoms never have the same text, even when the first letter is capitalised
   (a sentence starts with a capital, so "Alice" and "alice" count as the same word there);
2. **prefix-safe**: an atom's text followed by a connective word (`and`, `or`, `if`, or a comma) is never the
   beginning of another atom's text, so the reader always knows where an atom ends;
3. **keyword-safe**: no atom starts with a word that opens a connective ("it", "both", "either", "if", "for",
   "there", "all", "at", "exactly") or that may follow a comma in the grammar ("and", "or", "then", "but").

(3) and the word-level rules are `local_problem`, `template_problem` and `phrase_problem`. (1) and (2) are decided
exactly by `find_conflicts`, without enumerating atoms, by exploring the pairs of positions in the templates
and the constant trie that can read the same words (the classical test for an ambiguous automaton; a property
test checks it against brute-force enumeration). Two slots that start together are stepped over in one move,
so the cost grows with the number of templates that share their words, not with templates x constants: one
lexicon for all of FOLIO and ProverQA (12,000 predicates, 2,500 constants) is built in seconds.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from lgmt_tasks.logic.constant_trie import ConstantTrie
from lgmt_tasks.logic.grammar_words import COMMA, FOLLOWERS, FORBIDDEN_FIRST
from lgmt_tasks.logic.phrasing import EQ_KEY, PredicateKey, Template, fold, template_pattern

_TOKEN_RE = re.compile(r"[^\s,]+")
_VAR_LABEL = "\x00var"  # the analysis' stand-in for "any variable word"


def local_problem(
    predicates: Sequence[tuple[PredicateKey, Template]], constants: Sequence[tuple[str, tuple[str, ...]]]
) -> str | None:
    """Word-level rules that the automaton analysis relies on; a message, or None when all hold."""
    seen_keys = set()
    for (name, arity), template in predicates:
        if (name, arity) in seen_keys or (name, arity) == EQ_KEY:
            return f"predicate {name}/{arity} is listed twice or reserved"
        seen_keys.add((name, arity))
        problem = template_problem(template, arity)
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
        problem = phrase_problem(words)
        if problem:
            return f"constant {name!r} ({' '.join(words)!r}): {problem}"
    return None


def phrase_problem(words: Sequence[str]) -> str | None:
    """What is wrong with a constant's phrase (empty, a word with a space or comma, a connective first), or None."""
    if not words:
        return "empty phrase"
    for w in words:
        if not _TOKEN_RE.fullmatch(w):
            return f"word {w!r} contains a space or a comma"
    if fold(words[0]) in FORBIDDEN_FIRST:
        return f"starts with the connective word {words[0]!r}"
    return None


def template_problem(template: Template, arity: int) -> str | None:
    """What is wrong with a predicate's template (its slots, its words, a connective first), or None."""
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
class Conflict:
    """Two templates whose atoms can be confused (the same template twice: its constants are to blame)."""

    first: PredicateKey
    second: PredicateKey
    kind: Literal["ambiguous", "prefix"]

    def describe(self) -> str:
        """The conflict as one line of a `LexiconError`."""
        what = "can read the same words" if self.kind == "ambiguous" else "can end where the other goes on"
        return f"atoms of {_show_key(self.first)} and {_show_key(self.second)} {what} (with these constants)"


def _show_key(key: PredicateKey) -> str:
    return "equality" if key == EQ_KEY else f"{key[0]}/{key[1]}"


def find_conflicts(
    templates: Sequence[tuple[PredicateKey, Template]], trie: ConstantTrie, *, first_only: bool = False
) -> list[Conflict]:
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
    conflicts: dict[tuple[PredicateKey, PredicateKey], Conflict] = {}
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


def _parting_moments(trie: ConstantTrie, first: bool) -> list[_Parting]:
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

    def __init__(self, templates: Sequence[tuple[PredicateKey, Template]], trie: ConstantTrie) -> None:
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

    def prefix_conflict(self, p: Cursor, q: Cursor) -> Conflict | None:
        """When exactly one run has finished: a conflict if the other can go on with a connective word."""
        ended, going = (p, q) if self.item(p) is None else (q, p)
        if any(w in FOLLOWERS and self.advance(going, w, False) for w in self.words_after(going)):
            return Conflict(self.key(ended), self.key(going), "prefix")
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

    def explore(self) -> Iterator[Conflict]:
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

    def ambiguous(self) -> Iterator[Conflict]:
        """The injectivity conflicts, in exploration order: live pairs of different runs (after `explore`)."""
        alive = self.alive()
        for state in self.order:
            p, q, differ = state
            if (p != q or differ) and state in alive:
                yield Conflict(self.runs.key(p), self.runs.key(q), "ambiguous")
