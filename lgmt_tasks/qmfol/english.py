"""QMFOL English: topic lexicons and the paper's §3.2 conversion rules, realised by template and read back exactly.

The paper has an LLM assign topic meanings to the predicates and write the sentences (Figure 3), then checks a round
trip with a prover. The default here is deterministic: each topic is a data file of ours (`data/<topic>.json`: a
domain entity, object names, and at least 200 affirmative predicate phrases with their negations, chosen to be
mutually independent), a task's predicates get phrases by a seeded permutation, and the sentences follow the
conversion rules of Figure 3 with the subject repeated in every clause (no pronouns):

- rule ∀x (A → B): "For every food item, if the food item is perishable and the food item is not served hot, then
  the food item contains garlic or the food item is sour." (each side one literal, or literals joined by one of
  "and" / "or");
- existential ∃x A: "There exists a food item that is perishable and does not contain garlic.";
- quantified facts and conclusions (the default form): "For every food item, the food item is perishable and the
  food item is not sour.", "There exists a food item such that if the food item is perishable, then the food item is
  sour.";
- ground facts and conclusions about the object (`form="ground"`): "Velmora is perishable and Velmora is not sour.",
  "If Velmora is perishable, then Velmora is sour or Velmora contains garlic.".

`read` is the exact inverse on this fragment: `read(realise(f, lx), lx) == f` for every formula the construction
makes, which the builder checks for every sentence it writes (the drift guarantee of DESIGN decision 4). It holds
because the grammar's separators (", if ", ", then ", " and ", " or ") never occur inside a phrase, an entity or an
object name, every subject is known, and the phrases and negations of a lexicon are pairwise distinct; `Topic` and
`QmfolLexicon` check exactly these conditions when they are built.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

from lgmt_tasks.ids import derived_seed
from lgmt_tasks.logic.syntax import And, Atom, Const, Exists, Forall, Formula, Implies, Not, Or, Term, Var
from lgmt_tasks.qmfol.construction import CONSTANT, VARIABLE

TOPICS: tuple[str, ...] = ("Food", "Animal", "University", "Mathematics")
"""The paper's four topics: two general domains and two specialised ones (§3.3)."""

MIN_PHRASES = 200
"""Every topic file must offer at least this many predicate phrases (the issue's bar; the paper's largest task uses
41 basic predicates plus up to 80 fresh ones for 20 distractors)."""

_FORBIDDEN = re.compile(r"(?:^|\s)(?:and|or|if|then)(?:\s|$)|[,.;:]|\s\s|^\s|\s$", re.IGNORECASE)
"""What no phrase, entity or object name may contain: a word of the grammar, punctuation it uses, or odd spacing."""


class EnglishError(ValueError):
    """A topic or lexicon that could make the English ambiguous, or a sentence/formula outside the fragment."""


@dataclass(frozen=True)
class Phrase:
    """How one predicate is said of a subject.

    Attributes:
        phrase: The affirmative verb phrase ("is perishable", "contains garlic").
        negation: Its negation ("is not perishable", "does not contain garlic").
    """

    phrase: str
    negation: str

    def say(self, positive: bool) -> str:
        """The phrase or its negation."""
        return self.phrase if positive else self.negation


def _check_words(what: str, text: str) -> None:
    if not text or _FORBIDDEN.search(text):
        raise EnglishError(
            f"{what} {text!r} must be non-empty, single-spaced, without punctuation or the words and, or, if, then"
        )


@dataclass(frozen=True)
class Topic:
    """A topic lexicon: the domain of discourse and the phrases its predicates may take.

    Attributes:
        name: The topic keyword (`Food`, ...).
        entity: What the variable ranges over ("food item"), used as "For every food item" / "the food item".
        article: "a" or "an", for "There exists a food item".
        constants: Names for the object of the facts and conclusion ("Velmora"; "the number n").
        phrases: The predicate phrases.
    """

    name: str
    entity: str
    article: str
    constants: tuple[str, ...]
    phrases: tuple[Phrase, ...] = field(repr=False)

    def __post_init__(self) -> None:
        _check_words("entity", self.entity)
        if self.article not in ("a", "an"):
            raise EnglishError(f"topic {self.name}: article must be 'a' or 'an', got {self.article!r}")
        if not self.constants:
            raise EnglishError(f"topic {self.name}: needs at least one object name")
        for c in self.constants:
            _check_words("object name", c)
            if c.split()[0].casefold() in ("for", "there"):
                raise EnglishError(f"object name {c!r} starts like a rule or an existential")
        _check_distinct_names(self.constants, f"topic {self.name}")
        texts: list[str] = []
        for p in self.phrases:
            _check_words("phrase", p.phrase)
            _check_words("negation", p.negation)
            texts += [p.phrase, p.negation]
        if len(set(texts)) != len(texts):
            dupes = sorted({t for t in texts if texts.count(t) > 1})
            raise EnglishError(f"topic {self.name}: phrases and negations must be distinct; repeated: {dupes[:5]}")


def _check_distinct_names(names: Sequence[str], where: str) -> None:
    """No name equals another or starts with another followed by a space (the reader finds the subject first)."""
    for a in names:
        for b in names:
            if a != b and (b.casefold() == a.casefold() or b.startswith(a + " ")):
                raise EnglishError(f"{where}: object names {a!r} and {b!r} could be confused")


@cache
def load_topic(name: str) -> Topic:
    """Load a topic lexicon from `lgmt_tasks/qmfol/data/<name>.json`.

    Args:
        name: One of `TOPICS` (case-sensitive, as in the paper's ids).

    Returns:
        The checked topic.

    Raises:
        ValueError: On an unknown topic (the message lists them) or a file with fewer than `MIN_PHRASES` phrases.
    """
    if name not in TOPICS:
        raise ValueError(f"topic={name!r}: expected one of {', '.join(TOPICS)}")
    text = resources.files("lgmt_tasks.qmfol").joinpath("data", f"{name.lower()}.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    topic = Topic(
        name=raw["topic"],
        entity=raw["entity"],
        article=raw["article"],
        constants=tuple(raw["constants"]),
        phrases=tuple(Phrase(p["phrase"], p["negation"]) for p in raw["phrases"]),
    )
    if topic.name != name:
        raise ValueError(f"data/{name.lower()}.json names topic {topic.name!r}")
    if len(topic.phrases) < MIN_PHRASES:
        raise ValueError(f"topic {name} has {len(topic.phrases)} phrases; at least {MIN_PHRASES} are required")
    return topic


@dataclass(frozen=True)
class QmfolLexicon:
    """The English of one task: its topic, a phrase for every predicate and a name for every constant.

    Attributes:
        entity: The domain entity ("food item").
        article: "a" or "an".
        predicates: `(predicate name, phrase)` pairs.
        constants: `(constant name, object name)` pairs.
    """

    entity: str
    article: str
    predicates: tuple[tuple[str, Phrase], ...]
    constants: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        _check_words("entity", self.entity)
        texts: list[str] = []
        for _, p in self.predicates:
            _check_words("phrase", p.phrase)
            _check_words("negation", p.negation)
            texts += [p.phrase, p.negation]
        if len(set(texts)) != len(texts):
            raise EnglishError("the phrases and negations of a lexicon must be pairwise distinct")
        names = [n for _, n in self.constants]
        for n in names:
            _check_words("object name", n)
        _check_distinct_names(names, "lexicon")

    @property
    def subject(self) -> str:
        """How a rule names the variable: "the food item"."""
        return f"the {self.entity}"

    @cached_property
    def _phrases(self) -> dict[str, Phrase]:
        return dict(self.predicates)

    @cached_property
    def _names(self) -> dict[str, str]:
        return dict(self.constants)

    def phrase(self, predicate: str) -> Phrase:
        """The phrase of a predicate (`EnglishError` if it has none)."""
        try:
            return self._phrases[predicate]
        except KeyError:
            raise EnglishError(f"predicate {predicate} has no phrase in this lexicon") from None

    def name(self, constant: str) -> str:
        """The object name of a constant (`EnglishError` if it has none)."""
        try:
            return self._names[constant]
        except KeyError:
            raise EnglishError(f"constant {constant} has no name in this lexicon") from None

    def mapping(self) -> list[str]:
        """The mapping list, in the style of Figure 3 ("P1(x): x is perishable", "a: Velmora")."""
        lines = [f"{pred}(x): x {p.phrase}" for pred, p in sorted(self.predicates, key=lambda kv: _pred_key(kv[0]))]
        return lines + [f"{c}: {n}" for c, n in self.constants]

    @cached_property
    def vp_index(self) -> dict[str, tuple[str, bool]]:
        """Every verb phrase → (predicate, positive)."""
        out: dict[str, tuple[str, bool]] = {}
        for pred, p in self.predicates:
            out[p.phrase] = (pred, True)
            out[p.negation] = (pred, False)
        return out


def _pred_key(name: str) -> tuple[int, str]:
    digits = name.lstrip("P")
    return (int(digits), name) if digits.isdigit() else (1 << 30, name)


def task_lexicon(topic: str | Topic, n_predicates: int, seed: int, *parts: object) -> QmfolLexicon:
    """The lexicon of one task: `P0 … P{n−1}` get phrases by a seeded permutation of the topic's phrases.

    The permutation depends on (seed, topic, parts) only, never on `n_predicates`, so a task and its variants with more
    distractors (more predicates) say every shared predicate the same way.

    Args:
        topic: A topic name or a loaded topic.
        n_predicates: How many predicates need phrases.
        seed: The task seed.
        *parts: Further identity of the task (the builder passes depth and width).

    Returns:
        The lexicon, with the constant `CONSTANT` named by the same generator.

    Raises:
        EnglishError: If the topic has fewer phrases than predicates.
    """
    t = load_topic(topic) if isinstance(topic, str) else topic
    if n_predicates > len(t.phrases):
        raise EnglishError(f"topic {t.name} has {len(t.phrases)} phrases; this task needs {n_predicates} predicates")
    rng = random.Random(derived_seed(seed, "qmfol-phrases", t.name, *parts))
    order = list(range(len(t.phrases)))
    rng.shuffle(order)
    constant = t.constants[rng.randrange(len(t.constants))]
    return QmfolLexicon(
        entity=t.entity,
        article=t.article,
        predicates=tuple((f"P{i}", t.phrases[order[i]]) for i in range(n_predicates)),
        constants=((CONSTANT, constant),),
    )


@dataclass(frozen=True)
class TaskEnglish:
    """The English of one task, however it was written.

    Attributes:
        premises: The premises, in presentation order.
        conclusion: The conclusion.
        predicates: The mapping list ("P0(x): x is perishable", "a: Velmora").
        object: The name of the constant the facts and conclusion are about.
        entity: The domain ("food item"; a model's own words with `translator="model"`).
        translator: `template` or `model`.
        attempts: Model translations tried for this task (0 for templates).
    """

    premises: tuple[str, ...]
    conclusion: str
    predicates: tuple[str, ...]
    object: str
    entity: str
    translator: str = "template"
    attempts: int = 0


# ------------------------------------------------------------------------------------------------ realise


def _literal(f: Formula) -> tuple[str, bool, Term]:
    """(predicate, positive, term) of a literal P(t) / ¬P(t)."""
    positive = True
    if isinstance(f, Not):
        f, positive = f.body, False
    if isinstance(f, Atom) and len(f.args) == 1:
        return f.pred, positive, f.args[0]
    raise EnglishError(f"not a monadic literal: {f!r}")


def _literals(f: Formula) -> tuple[list[Formula], str]:
    """The literals of a side (one literal, or an ∧ / ∨ of literals) and the joining word."""
    if isinstance(f, And):
        return list(f.args), "and"
    if isinstance(f, Or):
        return list(f.args), "or"
    return [f], "and"


def _literals_about(parts: Sequence[Formula], term: Term) -> Iterator[tuple[str, bool, Term]]:
    """(predicate, positive, term) of each literal of `parts`, lazily, checking that each is about `term`."""
    for part in parts:
        pred, positive, t = _literal(part)
        if t != term:
            raise EnglishError(f"{part!r} is not about {term!r}")
        yield pred, positive, t


def _side(f: Formula, lx: QmfolLexicon, term: Term) -> str:
    """A side with its subject repeated: "the food item is sour and the food item contains garlic"."""
    parts, word = _literals(f)
    out = []
    for pred, positive, t in _literals_about(parts, term):
        subject = lx.subject if isinstance(t, Var) else lx.name(t.name)
        out.append(f"{subject} {lx.phrase(pred).say(positive)}")
    return f" {word} ".join(out)


def _vp_side(f: Formula, lx: QmfolLexicon, term: Term) -> str:
    """A side as verb phrases of one subject: "is sour and contains garlic"."""
    parts, word = _literals(f)
    return f" {word} ".join(lx.phrase(pred).say(positive) for pred, positive, _ in _literals_about(parts, term))


def _ground_term(f: Formula) -> Const:
    parts, _ = _literals(f.left if isinstance(f, Implies) else f)
    _, _, t = _literal(parts[0])
    if not isinstance(t, Const):
        raise EnglishError(f"not a sentence about an object: {f!r}")
    return t


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def realise(f: Formula, lx: QmfolLexicon) -> str:
    """Say a QMFOL formula in English (the inverse of `read`).

    Args:
        f: A rule ∀x (A → B), an existential ∃x A, or a literal, ∧/∨ of literals, or implication between such sides
            about one constant (sides are a literal or literals joined by one connective).
        lx: The task's lexicon.

    Returns:
        One sentence, capitalised, ending with a period.

    Raises:
        EnglishError: For a formula outside this fragment, or a symbol the lexicon lacks.
    """
    x = Var(VARIABLE)
    if isinstance(f, Forall):
        if f.var != VARIABLE:
            raise EnglishError(f"a universal must bind {VARIABLE}: {f!r}")
        if not isinstance(f.body, Implies):  # a quantified fact or conclusion: "every food item is …"
            return f"For every {lx.entity}, {_side(f.body, lx, x)}."
        left, right = _side(f.body.left, lx, x), _side(f.body.right, lx, x)
        return f"For every {lx.entity}, if {left}, then {right}."
    if isinstance(f, Exists):
        if f.var != VARIABLE:
            raise EnglishError(f"an existential must bind {VARIABLE}: {f!r}")
        if isinstance(f.body, Implies):
            left, right = _side(f.body.left, lx, x), _side(f.body.right, lx, x)
            return f"There exists {lx.article} {lx.entity} such that if {left}, then {right}."
        return f"There exists {lx.article} {lx.entity} that {_vp_side(f.body, lx, x)}."
    term = _ground_term(f)
    if isinstance(f, Implies):
        return f"If {_side(f.left, lx, term)}, then {_side(f.right, lx, term)}."
    return _capitalise(_side(f, lx, term)) + "."


# ------------------------------------------------------------------------------------------------ read


def _fold_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _split_side(text: str) -> tuple[list[str], str]:
    has_and, has_or = " and " in text, " or " in text
    if has_and and has_or:
        raise EnglishError(f"a side mixes 'and' and 'or': {text!r}")
    word = "or" if has_or else "and"
    return text.split(f" {word} "), word


def _combine(literals: list[Formula], word: str) -> Formula:
    if len(literals) == 1:
        return literals[0]
    return And(tuple(literals)) if word == "and" else Or(tuple(literals))


def _read_literal(vp: str, term: Term, index: Mapping[str, tuple[str, bool]]) -> Formula:
    if vp not in index:
        raise EnglishError(f"unknown verb phrase {vp!r}")
    pred, positive = index[vp]
    atom = Atom(pred, (term,))
    return atom if positive else Not(atom)


def _read_side(
    text: str, subjects: Mapping[str, Term], index: Mapping[str, tuple[str, bool]], initial: bool = False
) -> tuple[Formula, Term]:
    """Read "S vp and S vp ..." where S is one of `subjects`; `initial` allows a capitalised first subject."""
    parts, word = _split_side(text)
    literals: list[Formula] = []
    terms: set[Term] = set()
    for k, part in enumerate(parts):
        found = []
        for name, term in subjects.items():
            spellings = {name, _capitalise(name)} if initial and k == 0 else {name}
            for spelling in spellings:
                if part.startswith(spelling + " ") and part[len(spelling) + 1 :] in index:
                    found.append((term, part[len(spelling) + 1 :]))
        if len(found) != 1:
            raise EnglishError(f"cannot read {part!r}: {'ambiguous' if found else 'no known subject and phrase'}")
        term, vp = found[0]
        terms.add(term)
        literals.append(_read_literal(vp, term, index))
    if len(terms) != 1:
        raise EnglishError(f"a side must be about one subject: {text!r}")
    return _combine(literals, word), terms.pop()


def _read_implication(
    rest: str, subjects: Mapping[str, Term], index: Mapping[str, tuple[str, bool]], text: str
) -> Formula:
    """Read "<side>, then <side>" (what follows "if ") about one subject."""
    if rest.count(", then ") != 1:
        raise EnglishError(f"an implication has one ', then': {text!r}")
    left, right = rest.split(", then ")
    lhs, lt = _read_side(left, subjects, index)
    rhs, rt = _read_side(right, subjects, index)
    if lt != rt:
        raise EnglishError(f"an implication must be about one subject: {text!r}")
    return Implies(lhs, rhs)


def read(text: str, lx: QmfolLexicon) -> Formula:
    """Read a sentence written by `realise` back into its formula.

    Args:
        text: One sentence.
        lx: The lexicon it was written with.

    Returns:
        The formula.

    Raises:
        EnglishError: If the sentence is not in the fragment `realise` writes (with this lexicon).
    """
    if not text.endswith("."):
        raise EnglishError(f"a sentence ends with a period: {text!r}")
    body = text[:-1]
    folded = _fold_first(body)
    index = lx.vp_index
    x = Var(VARIABLE)
    variable = {lx.subject: x}
    opening = f"for every {lx.entity}, if "
    if folded.startswith(opening):
        return Forall(VARIABLE, _read_implication(body[len(opening) :], variable, index, text))
    opening = f"for every {lx.entity}, "
    if folded.startswith(opening):
        return Forall(VARIABLE, _read_side(body[len(opening) :], variable, index)[0])
    opening = f"there exists {lx.article} {lx.entity} such that if "
    if folded.startswith(opening):
        return Exists(VARIABLE, _read_implication(body[len(opening) :], variable, index, text))
    opening = f"there exists {lx.article} {lx.entity} that "
    if folded.startswith(opening):
        parts, word = _split_side(body[len(opening) :])
        return Exists(VARIABLE, _combine([_read_literal(vp, x, index) for vp in parts], word))
    objects: dict[str, Term] = {name: Const(c) for c, name in lx.constants}
    if folded.startswith("if "):
        rest = body[len("if ") :]
        if rest.count(", then ") != 1:
            raise EnglishError(f"an implication has one ', then': {text!r}")
        left, right = rest.split(", then ")
        lhs, lt = _read_side(left, objects, index)
        rhs, rt = _read_side(right, objects, index)
        if lt != rt:
            raise EnglishError(f"an implication must be about one object: {text!r}")
        return Implies(lhs, rhs)
    return _read_side(body, objects, index, initial=True)[0]
