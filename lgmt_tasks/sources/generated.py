"""The built-in ``generated`` source: random first-order problems over a small English vocabulary, labelled by Z3.

It is the default LGMT source, so the package builds metamorphic groups with no data download. A problem is a
list of 4-8 premises and one conclusion over a few people (constants), properties (unary predicates) and
relations (binary predicates) drawn from `data/generated_vocabulary.json`; its English is produced from the FOL
by the template realiser, so the two never drift apart.

How a problem is drawn (and why)
--------------------------------
Random premise sets almost never entail anything, so labels would be nearly all ``Unknown``. Each problem is
therefore grown around a *derivation chain*: given facts about a main person and 2-4 rules whose forward
chaining derives new literals about that person or about a related one (modus ponens through conjunctive,
disjunctive and biconditional rules, modus tollens, a negated existential, disjunctive syllogism, a rule over
a binary relation with two adjacent universal quantifiers). Decoy premises are then added in the shapes LGMT's
20 relations rewrite: negated compounds, double negation, existentials, nested quantifiers over relations,
quantifiers inside a conjunction or disjunction (the sites of quantifier lifting), two quantifiers over the
same variable name (the sites of α-renaming), nested and distributable conjunctions, ground biconditionals and,
in a minority of problems, the redundant shapes that MR-E2's laws eliminate as written (φ ∨ φ, φ ∧ (φ ∨ ψ),
ψ ∨ ¬ψ inside a formula, φ ∧ ⊤, φ ∨ ⊥, …).

The conclusion is chosen for a target label: a derived literal or a small compound of derived literals for
``True``, the negation of one for ``False``, a literal about a property/person pair the chain leaves open for
``Unknown`` (often a trap: affirming the consequent). The construction only *proposes*: every label is the
label Z3 proves (`lgmt_tasks.logic.prover.entailment`), and a draw whose proven label is not the target is
rejected and counted, as are undecided queries and contradictory premise sets.

Balance and determinism
-----------------------
Case ``i`` targets label ``("True", "False", "Unknown")[i % 3]`` and is drawn with a generator seeded from
``(seed, "generated", i)`` only, so labels are balanced exactly (to within one for ``n`` not divisible by 3) and
``generate_cases(n, s)`` is a prefix of ``generate_cases(m, s)`` for ``n <= m``. The prover's limit is its
deterministic resource counter, so the same seed gives the same cases on every machine (the wall-clock timeout
is only a backstop).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeAlias

from lgmt_tasks.ids import content_id, derived_seed
from lgmt_tasks.logic.lexicon import lexicon_for
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.logic.syntax import (
    FALSE,
    TRUE,
    And,
    Atom,
    Const,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Term,
    Var,
    at,
    replace_at,
    signature,
    subformulas,
)
from lgmt_tasks.sources.case import Case

__all__ = [
    "LABELS",
    "SOURCE_DATASET",
    "GenerationReport",
    "Vocabulary",
    "generate_cases",
    "load_vocabulary",
]

SOURCE_DATASET = "generated"
"""The `Case.source_dataset` of every generated case."""

LABELS: tuple[str, ...] = (Label.TRUE.value, Label.FALSE.value, Label.UNKNOWN.value)
"""Target labels, assigned round-robin by case index."""

DEFAULT_MAX_ATTEMPTS = 60
"""Problems drawn per case before giving up on it (in practice a case needs 1-3)."""

_CANDIDATES_PER_DRAW = 3
"""Conclusions tried against one premise set before drawing a new one."""

_VOCABULARY_RESOURCE = ("lgmt_tasks.sources", "data/generated_vocabulary.json")

_CONSTANT_NAME = re.compile(r"^[a-z][A-Za-z0-9]*$")
_PREDICATE_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")

X, Y = Var("x"), Var("y")


# --------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Vocabulary:
    """The symbols problems are drawn from.

    Names are chosen for the template realiser's natural phrasing (`lgmt_tasks.logic.lexicon`), which derives
    English from the names alone: a unary predicate reads "x is <words>" unless its first word is a verb
    ("Alice is happy", "Alice is fond of jazz", "Alice owns a dog"), a binary one reads "x <verb> y" ("Alice likes
    Bob"); a person is spoken as a proper name, capitalised wherever it stands ("Either Bob cooks or Alice is
    happy"). Bare nouns would read without an article ("Alice is student"), so the packaged vocabulary has none.

    Attributes:
        people: Individual constants (lowerCamel person names, never a single letter u-z, which would read as a
            variable).
        properties: Unary predicates (CamelCase).
        relations: Binary predicates (CamelCase, a verb in the third person).
    """

    people: tuple[str, ...]
    properties: tuple[str, ...]
    relations: tuple[str, ...]

    def __post_init__(self) -> None:
        problems = []
        if len(self.people) < 6:
            problems.append(f"at least 6 people needed, got {len(self.people)}")
        if len(self.properties) < 16:
            problems.append(f"at least 16 properties needed, got {len(self.properties)}")
        if len(self.relations) < 3:
            problems.append(f"at least 3 relations needed, got {len(self.relations)}")
        for name in self.people:
            if not _CONSTANT_NAME.match(name) or (len(name) == 1 and name in "uvwxyz"):
                problems.append(f"person {name!r} is not a lowerCamel constant name (and not a letter u-z)")
        for name in self.properties + self.relations:
            if not _PREDICATE_NAME.match(name):
                problems.append(f"predicate {name!r} is not a CamelCase name")
        for kind, names in (("people", self.people), ("predicates", self.properties + self.relations)):
            duplicates = sorted(n for n, k in Counter(names).items() if k > 1)
            if duplicates:
                problems.append(f"duplicate {kind}: {', '.join(duplicates)}")
        if problems:
            raise ValueError("invalid generated-source vocabulary: " + "; ".join(problems))


_VOCABULARY_KEYS = ("people", "properties", "relations")


def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """Read a vocabulary file: JSON with the lists `people`, `properties` and `relations` (see `Vocabulary`).

    Args:
        path: A JSON file; `None` reads the one shipped with the package.

    Returns:
        The validated vocabulary.

    Raises:
        ValueError: A list is missing, or a name is malformed or duplicated.
    """
    if path is None:
        package, name = _VOCABULARY_RESOURCE
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    missing = [k for k in _VOCABULARY_KEYS if not isinstance(data.get(k), list)]
    if missing:
        raise ValueError(f"vocabulary {path or 'generated_vocabulary.json'}: missing list(s) {', '.join(missing)}")
    return Vocabulary(
        people=tuple(data["people"]),
        properties=tuple(data["properties"]),
        relations=tuple(data["relations"]),
    )


# --------------------------------------------------------------------------- report


@dataclass
class GenerationReport:
    """What generation tried, kept and rejected (printed by the builder and written to the dataset card).

    Attributes:
        requested: Cases asked for.
        seed: The generation seed.
        attempts: (premises, conclusion) problems tried (accepted or rejected for one of the reasons below).
        premise_sets: Premise sets drawn (each is tried with up to a few conclusions).
        accepted: Accepted cases per label.
        rejected: Rejected problems by reason: ``"label quota full"`` (a proven label other than the case's
            target: accepting it would unbalance the labels), ``"contradictory premises"``,
            ``"undecided: <reason>"``, ``"conclusion restates a premise"``; and premise sets rejected before
            any conclusion was tried: ``"duplicate premise"``, ``"no candidate conclusion"`` (nothing open was
            left for an Unknown question).
        exhausted: Case indices given up on after the attempt budget (they are missing from the output, so the
            balance is then off by those cases).
    """

    requested: int
    seed: int
    attempts: int = 0
    premise_sets: int = 0
    accepted: Counter[str] = field(default_factory=Counter)
    rejected: Counter[str] = field(default_factory=Counter)
    exhausted: list[int] = field(default_factory=list)

    @property
    def generated(self) -> int:
        """Accepted cases in total."""
        return sum(self.accepted.values())

    def merge(self, other: GenerationReport) -> None:
        """Add the report of the next run of indices (`generate_cases(..., first=...)`; parallel builds)."""
        self.requested += other.requested
        self.attempts += other.attempts
        self.premise_sets += other.premise_sets
        self.accepted.update(other.accepted)
        self.rejected.update(other.rejected)
        self.exhausted.extend(other.exhausted)

    def to_dict(self) -> dict[str, Any]:
        """Plain, sorted, JSON-ready form (for build statistics and the dataset card)."""
        return {
            "requested": self.requested,
            "seed": self.seed,
            "generated": self.generated,
            "attempts": self.attempts,
            "premise_sets": self.premise_sets,
            "accepted": {label: self.accepted.get(label, 0) for label in LABELS},
            "rejected": dict(sorted(self.rejected.items())),
            "exhausted": list(self.exhausted),
        }


# --------------------------------------------------------------------------- literals

Key: TypeAlias = tuple[str, tuple[str, ...]]
"""A ground atom as (predicate, constant names)."""


def _atom(pred: str, *terms: Term | str) -> Atom:
    return Atom(pred, tuple(Const(t) if isinstance(t, str) else t for t in terms))


def _lit(pred: str, terms: Sequence[Term | str], positive: bool) -> Formula:
    a = _atom(pred, *terms)
    return a if positive else Not(a)


def _neg(f: Formula) -> Formula:
    """Complement a literal (or negate anything else)."""
    return f.body if isinstance(f, Not) else Not(f)


@dataclass
class _Draft:
    """One problem under construction; local to one draw, never shared.

    Attributes:
        rng: The case's generator.
        people: The problem's constants; `people[0]` is the main person of the chain.
        pool: Unused unary predicates, consumed by `fresh`.
        relations: The binary predicates available to this problem.
        premises: The premises so far.
        known: Ground literals fixed by the chain (given or derived): key -> truth value.
        derived: Keys derived by a rule (not stated), in derivation order.
        extra_true: Non-literal sentences the chain makes true (e.g. ∃y Likes(alice, y)).
        used: Unary predicates occurring in the premises.
    """

    rng: random.Random
    people: list[str]
    pool: list[str]
    relations: list[str]
    premises: list[Formula] = field(default_factory=list)
    known: dict[Key, bool] = field(default_factory=dict)
    derived: list[Key] = field(default_factory=list)
    extra_true: list[Formula] = field(default_factory=list)
    used: list[str] = field(default_factory=list)

    def fresh(self) -> str:
        """Take a unary predicate not used yet in this problem (a used one once the pool is spent)."""
        if not self.pool:
            return self.rng.choice(self.used)
        pred = self.pool.pop()
        self.used.append(pred)
        return pred

    def some_used(self) -> str:
        """Pick a unary predicate already in the problem (so decoys share symbols with the chain)."""
        return self.rng.choice(self.used) if self.used else self.fresh()

    def given(self, pred: str, args: tuple[str, ...], positive: bool) -> Formula:
        """Record a stated ground literal and return it."""
        self.known[(pred, args)] = positive
        return _lit(pred, args, positive)

    def derive(self, pred: str, args: tuple[str, ...], positive: bool) -> None:
        """Record a literal the premises entail (a proposal: the prover checks every label anyway)."""
        key = (pred, args)
        if key not in self.known:
            self.known[key] = positive
            self.derived.append(key)

    def facts_about(self, person: str) -> list[tuple[str, bool]]:
        """Known unary literals about a person, as (predicate, truth value)."""
        return [(p, v) for (p, args), v in self.known.items() if args == (person,)]

    def open_pairs(self) -> list[Key]:
        """Unary atoms over symbols of the premises that the chain does not fix (candidate Unknown conclusions).

        Only symbols that occur in the premises are used: a question about a person or a property the premises
        never mention would be Unknown for a trivial reason.
        """
        sig = signature(*self.premises)
        people = [c for c in self.people if c in sig.constants]
        preds = [p for p in dict.fromkeys(self.used) if (p, 1) in sig.predicates]
        return [(p, (c,)) for c in people for p in preds if (p, (c,)) not in self.known]


# --------------------------------------------------------------------------- the derivation chain


def _subject_with_facts(d: _Draft) -> str:
    """Pick a person with known unary literals, preferring the most recently derived one (deeper chains)."""
    for _pred, args in reversed(d.derived):
        if len(args) == 1 and d.rng.random() < 0.7:
            return args[0]
    return d.people[0]


def _known_literal(d: _Draft, person: str) -> tuple[str, bool]:
    """Pick a known unary literal about `person`, preferring derived ones."""
    facts = d.facts_about(person)
    derived = [(p, d.known[(p, a)]) for p, a in d.derived if a == (person,)]
    if derived and d.rng.random() < 0.75:
        return derived[-1] if d.rng.random() < 0.6 else d.rng.choice(derived)
    return d.rng.choice(facts)


def _step_rule(d: _Draft) -> bool:
    """∀x (L(x) → ±Q(x)): modus ponens."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q, pos = d.fresh(), d.rng.random() < 0.75
    d.premises.append(Forall("x", Implies(_lit(k, [X], v), _lit(q, [X], pos))))
    d.derive(q, (s,), pos)
    return True


def _step_and_antecedent(d: _Draft) -> bool:
    """∀x ((L1(x) ∧ L2(x)) → Q(x)): both conditions must be known."""
    s = _subject_with_facts(d)
    facts = d.facts_about(s)
    if len(facts) < 2:
        return False
    (k1, v1), (k2, v2) = d.rng.sample(facts, 2)
    q, pos = d.fresh(), d.rng.random() < 0.8
    d.premises.append(Forall("x", Implies(And((_lit(k1, [X], v1), _lit(k2, [X], v2))), _lit(q, [X], pos))))
    d.derive(q, (s,), pos)
    return True


def _step_or_antecedent(d: _Draft) -> bool:
    """∀x ((L(x) ∨ U(x)) → Q(x)): one known disjunct suffices."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    u, q = d.some_used(), d.fresh()
    if u == k:
        u = d.fresh()
    disjuncts = [_lit(k, [X], v), _atom(u, X)]
    d.rng.shuffle(disjuncts)
    d.premises.append(Forall("x", Implies(Or(tuple(disjuncts)), _atom(q, X))))
    d.derive(q, (s,), True)
    return True


def _step_and_consequent(d: _Draft) -> bool:
    """∀x (L(x) → (Q1(x) ∧ ±Q2(x))): one rule derives two literals."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q1, q2, pos2 = d.fresh(), d.fresh(), d.rng.random() < 0.5
    d.premises.append(Forall("x", Implies(_lit(k, [X], v), And((_atom(q1, X), _lit(q2, [X], pos2))))))
    d.derive(q1, (s,), True)
    d.derive(q2, (s,), pos2)
    return True


def _step_or_consequent(d: _Draft) -> bool:
    """∀x (L(x) → (Q1(x) ∨ Q2(x))) with ¬Q2(s) stated: disjunctive syllogism derives Q1(s)."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q1, q2 = d.fresh(), d.fresh()
    disjuncts = [_atom(q1, X), _atom(q2, X)]
    d.rng.shuffle(disjuncts)
    d.premises.append(Forall("x", Implies(_lit(k, [X], v), Or(tuple(disjuncts)))))
    d.premises.append(d.given(q2, (s,), False))
    d.derive(q1, (s,), True)
    return True


def _step_iff(d: _Draft) -> bool:
    """∀x (L(x) ↔ Q(x)): a biconditional rule, used left to right."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q = d.fresh()
    sides = (_lit(k, [X], v), _atom(q, X))
    d.premises.append(Forall("x", Iff(*sides) if d.rng.random() < 0.6 else Iff(sides[1], sides[0])))
    d.derive(q, (s,), True)
    return True


def _step_modus_tollens(d: _Draft) -> bool:
    """∀x (Q(x) → ¬L(x)) with L(s) known: derives ¬Q(s)."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q = d.fresh()
    d.premises.append(Forall("x", Implies(_atom(q, X), _lit(k, [X], not v))))
    d.derive(q, (s,), False)
    return True


def _step_not_exists(d: _Draft) -> bool:
    """¬∃x (L(x) ∧ Q(x)) with L(s) known: derives ¬Q(s)."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    q = d.fresh()
    d.premises.append(Not(Exists("x", And((_lit(k, [X], v), _atom(q, X))))))
    d.derive(q, (s,), False)
    return True


def _step_relation(d: _Draft) -> bool:
    """R(s, t) stated and ∀x ∀y ((L(x) ∧ R(x, y)) → ±Q(y)): the chain moves to another person."""
    s = _subject_with_facts(d)
    others = [p for p in d.people if p != s]
    t = d.rng.choice(others)
    k, v = _known_literal(d, s)
    r = d.rng.choice(d.relations)
    q, pos = d.fresh(), d.rng.random() < 0.8
    d.premises.append(d.given(r, (s, t), True))
    body = Implies(And((_lit(k, [X], v), _atom(r, X, Y))), _lit(q, [Y], pos))
    # Usually in canonical order (x occurs first); sometimes not, which is a forward site of MR-E1.6.
    d.premises.append(Forall("y", Forall("x", body)) if d.rng.random() < 0.25 else Forall("x", Forall("y", body)))
    d.derive(q, (t,), pos)
    return True


def _step_relation_converse(d: _Draft) -> bool:
    """R(s, t) stated and ∀x ∀y (R(x, y) → R'(y, x)) (sometimes written ∀y ∀x): derives R'(t, s)."""
    s = d.people[0]
    t = d.rng.choice(d.people[1:])
    r1, r2 = d.rng.sample(d.relations, 2)
    d.premises.append(d.given(r1, (s, t), True))
    body = Implies(_atom(r1, X, Y), _atom(r2, Y, X))
    d.premises.append(Forall("y", Forall("x", body)) if d.rng.random() < 0.35 else Forall("x", Forall("y", body)))
    d.derive(r2, (t, s), True)
    return True


def _step_exists_consequent(d: _Draft) -> bool:
    """∀x (L(x) → ∃y R(x, y)): derives the quantified ∃y R(s, y)."""
    s = _subject_with_facts(d)
    k, v = _known_literal(d, s)
    r = d.rng.choice(d.relations)
    d.premises.append(Forall("x", Implies(_lit(k, [X], v), Exists("y", _atom(r, X, Y)))))
    d.extra_true.append(Exists("y", _atom(r, s, Y)))
    return True


_CHAIN_STEPS: tuple[tuple[Callable[[_Draft], bool], float], ...] = (
    (_step_rule, 3.0),
    (_step_and_antecedent, 2.0),
    (_step_or_antecedent, 1.0),
    (_step_and_consequent, 1.0),
    (_step_or_consequent, 1.0),
    (_step_iff, 1.0),
    (_step_modus_tollens, 1.0),
    (_step_not_exists, 0.7),
    (_step_relation, 1.2),
    (_step_relation_converse, 0.5),
    (_step_exists_consequent, 0.4),
)


def _start_chain(d: _Draft) -> None:
    """State the main person's facts: one or two literals, sometimes fused into one conjunctive premise."""
    a = d.people[0]
    facts = [d.given(d.fresh(), (a,), True)]
    if d.rng.random() < 0.6:
        facts.append(d.given(d.fresh(), (a,), d.rng.random() < 0.6))
    if len(facts) == 2 and d.rng.random() < 0.45:
        d.premises.append(And(tuple(facts)))
    elif d.rng.random() < 0.08:
        d.premises.extend([Not(Not(facts[0])), *facts[1:]])  # facts[0] is positive: ¬¬P(a), never ¬¬¬P(a)
    else:
        d.premises.extend(facts)


# --------------------------------------------------------------------------- decoys


def _other(d: _Draft) -> str:
    return d.rng.choice(d.people[1:])


def _decoy_fact(d: _Draft) -> Formula:
    """State a literal about another person (often a rule's consequent: the affirming-the-consequent trap)."""
    p, c = d.some_used(), _other(d)
    if (p, (c,)) in d.known:
        p = d.fresh()
    return d.given(p, (c,), d.rng.random() < 0.7)


def _decoy_double_negation(d: _Draft) -> Formula:
    """¬¬P(c) (P(c) positive, so never a triple negation)."""
    p, c = d.some_used(), _other(d)
    if (p, (c,)) in d.known:
        p = d.fresh()
    return Not(Not(d.given(p, (c,), True)))


def _decoy_not_and(d: _Draft) -> Formula:
    """¬(P(c) ∧ Q(c))."""
    c = _other(d)
    return Not(And((_atom(d.some_used(), c), _atom(d.fresh(), c))))


def _decoy_not_or(d: _Draft) -> Formula:
    """¬(P(c) ∨ Q(c))."""
    c = _other(d)
    p, q = d.fresh(), d.fresh()
    d.known[(p, (c,))] = False
    d.known[(q, (c,))] = False
    return Not(Or((_atom(p, c), _atom(q, c))))


def _decoy_exists(d: _Draft) -> Formula:
    """∃x (P(x) ∧ ±Q(x))."""
    return Exists("x", And((_atom(d.some_used(), X), _lit(d.fresh(), [X], d.rng.random() < 0.6))))


def _decoy_not_forall(d: _Draft) -> Formula:
    """¬∀x P(x), or ¬∀x (P(x) → Q(x))."""
    if d.rng.random() < 0.5:
        return Not(Forall("x", _atom(d.fresh(), X)))
    return Not(Forall("x", Implies(_atom(d.fresh(), X), _atom(d.some_used(), X))))


def _decoy_not_exists(d: _Draft) -> Formula:
    """¬∃x (P(x) ∧ Q(x)) over a fresh predicate (so it cannot clash with the chain)."""
    return Not(Exists("x", And((_atom(d.fresh(), X), _atom(d.some_used(), X)))))


def _decoy_forall_exists(d: _Draft) -> Formula:
    """∀x ∃y R(x, y), or ∀x (P(x) → ∃y (R(x, y) ∧ Q(y))): nested quantifiers over a relation."""
    r = d.rng.choice(d.relations)
    if d.rng.random() < 0.5:
        return Forall("x", Exists("y", _atom(r, X, Y)))
    inner = Exists("y", And((_atom(r, X, Y), _atom(d.some_used(), Y))))
    return Forall("x", Implies(_atom(d.some_used(), X), inner))


def _decoy_forall_forall(d: _Draft) -> Formula:
    """∀x ∀y (R(x, y) → R'(y, x)) or ∀y ∀x (…): a block of adjacent universal quantifiers."""
    r1, r2 = d.rng.choice(d.relations), d.rng.choice(d.relations)
    body = Implies(And((_atom(r1, X, Y), _atom(d.some_used(), X))), _atom(r2, Y, X))
    return Forall("y", Forall("x", body)) if d.rng.random() < 0.5 else Forall("x", Forall("y", body))


def _decoy_quantifier_in_junction(d: _Draft) -> Formula:
    """(∀x (P(x) → Q(x))) ∧ R(c), or ±R(c) ∨ (∃x …): a quantifier to lift out of ∧/∨ (MR-E1.3)."""
    rule = Forall("x", Implies(_atom(d.fresh(), X), _atom(d.some_used(), X)))
    fact = _lit(d.some_used(), [_other(d)], d.rng.random() < 0.7)
    if d.rng.random() < 0.6:
        parts = [rule, fact]
        d.rng.shuffle(parts)
        return And(tuple(parts))
    return Or((fact, Exists("x", And((_atom(d.fresh(), X), _atom(d.some_used(), X))))))


def _decoy_variable_clash(d: _Draft) -> Formula:
    """(∀x P(x)-ish) ∘ (∃x Q(x)-ish): both sides bind `x`, so lifting needs α-renaming first (MR-E1.5)."""
    left = Forall("x", Implies(_atom(d.fresh(), X), _atom(d.some_used(), X)))
    right = Exists("x", And((_atom(d.some_used(), X), _atom(d.fresh(), X))))
    if d.rng.random() < 0.5:
        return Or((left, right)) if d.rng.random() < 0.5 else Or((right, left))
    return And((Exists("x", _atom(d.some_used(), X)), Exists("x", _lit(d.fresh(), [X], False))))


def _decoy_junction(d: _Draft) -> Formula:
    """Ground compounds: P(c) ∨ Q(c), P(c) ∧ (Q(c) ∨ R(c)), P(c) ∨ (Q(c) ∧ R(c)), P(c) ∧ (Q(c) ∧ ¬R(c))."""
    c = _other(d)
    p, q, r = d.some_used(), d.fresh(), d.fresh()
    shape = d.rng.randrange(4)
    if shape == 0:
        return Or((_atom(p, c), _atom(q, c)))
    if shape == 1:
        return And((_atom(p, c), Or((_atom(q, c), _atom(r, c)))))
    if shape == 2:
        return Or((_atom(p, c), And((_atom(q, c), _atom(r, c)))))
    return And((_atom(p, c), And((_atom(q, c), _lit(r, [c], False)))))


def _decoy_iff(d: _Draft) -> Formula:
    """P(c) ↔ ±Q(c)."""
    c = _other(d)
    return Iff(_atom(d.some_used(), c), _lit(d.fresh(), [c], d.rng.random() < 0.5))


_DECOYS: tuple[tuple[Callable[[_Draft], Formula], float], ...] = (
    (_decoy_fact, 2.0),
    (_decoy_double_negation, 0.5),
    (_decoy_not_and, 1.0),
    (_decoy_not_or, 0.5),
    (_decoy_exists, 1.3),
    (_decoy_not_forall, 0.8),
    (_decoy_not_exists, 0.6),
    (_decoy_forall_exists, 1.5),
    (_decoy_forall_forall, 0.8),
    (_decoy_quantifier_in_junction, 1.2),
    (_decoy_variable_clash, 1.2),
    (_decoy_junction, 1.4),
    (_decoy_iff, 0.7),
)


def _weighted(rng: random.Random, table: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([item for item, _ in table], weights=[w for _, w in table])[0]


# --------------------------------------------------------------------------- redundant shapes (MR-E2 as written)


def _literal_sites(f: Formula) -> list[tuple[int, ...]]:
    """Positions of atoms and negated atoms (not the atom under a negation): where a redundancy is inserted."""
    sites = []
    for path, sub in subformulas(f):
        if isinstance(sub, Not) and isinstance(sub.body, Atom):
            sites.append(path)
        elif isinstance(sub, Atom) and not (path and isinstance(at(f, path[:-1]), Not)):
            sites.append(path)
    return sites


def _related_literal(d: _Draft, phi: Formula) -> Formula:
    """Make a literal over the same terms as `phi` (so it is well scoped at its position), another predicate."""
    atom = phi.body if isinstance(phi, Not) else phi
    assert isinstance(atom, Atom)
    if len(atom.args) == 1:
        others = [p for p in d.used if p != atom.pred]
        pred = d.rng.choice(others) if others and d.rng.random() < 0.5 else d.fresh()
        return _lit(pred if pred != atom.pred else d.fresh(), atom.args, d.rng.random() < 0.7)
    others = [r for r in d.relations if r != atom.pred]
    return _atom(d.rng.choice(others), *atom.args)


def _add_redundancy(d: _Draft) -> None:
    """Rewrite one literal φ of one premise into an equivalent redundant shape that MR-E2 eliminates as written.

    The premise keeps its meaning (each shape is equivalent to φ), so the chain still derives what it did.
    """
    index = d.rng.randrange(len(d.premises))
    premise = d.premises[index]
    sites = _literal_sites(premise)
    path = d.rng.choice(sites)
    phi = at(premise, path)
    psi = _related_literal(d, phi)
    families: tuple[tuple[Formula, ...], ...] = (
        # idempotence and absorption (MR-E2.1)
        (Or((phi, phi)), And((phi, phi)), And((phi, Or((phi, psi)))), Or((phi, And((phi, psi))))),
        # excluded middle and contradiction inside a formula (MR-E2.2)
        (And((phi, Or((psi, _neg(psi))))), Or((phi, And((psi, _neg(psi)))))),
        # identity (MR-E2.3)
        (And((phi, TRUE)), Or((phi, FALSE))),
    )
    d.premises[index] = replace_at(premise, path, d.rng.choice(d.rng.choice(families)))


# --------------------------------------------------------------------------- conclusions


def _key_formula(key: Key, positive: bool) -> Formula:
    pred, args = key
    return _lit(pred, args, positive)


def _candidates(d: _Draft, target: str) -> list[Formula]:
    """Conclusions proposed for the target label, most plausible first (the prover has the last word)."""
    rng = d.rng
    derived = [_key_formula(k, d.known[k]) for k in d.derived]
    stated = [_key_formula(k, v) for k, v in d.known.items() if k not in d.derived]
    facts = derived or stated
    open_lits = [_lit(p, args, rng.random() < 0.6) for p, args in d.open_pairs()]
    rng.shuffle(open_lits)
    # Deeper derivations make harder questions; prefer the last ones.
    deep = facts[-3:] if len(facts) > 3 else facts
    true_lit = rng.choice(deep)
    other_true = rng.choice(facts + stated)
    unknown = open_lits[0] if open_lits else None
    out: list[Formula] = []
    shape = rng.random()
    if target == Label.TRUE.value:
        if shape < 0.55:
            out.append(true_lit)
        elif shape < 0.7 and other_true != true_lit:
            out.append(And((true_lit, other_true)))
        elif shape < 0.8 and unknown is not None:
            parts = [true_lit, unknown]
            rng.shuffle(parts)
            out.append(Or(tuple(parts)))
        elif shape < 0.88 and d.extra_true:
            out.append(rng.choice(d.extra_true))
        elif shape < 0.94 and isinstance(true_lit, (Atom, Not)):
            out.append(_exists_version(true_lit))
        elif unknown is not None:
            out.append(Implies(unknown, true_lit))
        out.append(true_lit)
    elif target == Label.FALSE.value:
        if shape < 0.55:
            out.append(_neg(true_lit))
        elif shape < 0.7 and unknown is not None:
            parts = [unknown, _neg(true_lit)]
            rng.shuffle(parts)
            out.append(And(tuple(parts)))
        elif shape < 0.8 and other_true != true_lit:
            out.append(Implies(other_true, _neg(true_lit)))
        elif shape < 0.88 and d.extra_true:
            out.append(Not(rng.choice(d.extra_true)))
        elif shape < 0.94 and isinstance(true_lit, (Atom, Not)):
            out.append(_forall_version(_neg(true_lit)))
        else:
            out.append(Not(Or((_neg(other_true), true_lit))) if other_true != true_lit else _neg(true_lit))
        out.append(_neg(true_lit))
    else:
        if shape < 0.6 or len(open_lits) < 2:
            out.extend(open_lits[:_CANDIDATES_PER_DRAW])
        elif shape < 0.75:
            out.append(And((true_lit, open_lits[0])))
        elif shape < 0.85:
            out.append(Or((open_lits[0], _neg(true_lit))))
        elif shape < 0.93:
            out.append(Implies(true_lit, open_lits[0]))
        else:
            out.append(_exists_version(open_lits[0]) if len(_terms(open_lits[0])) == 1 else open_lits[0])
        out.extend(open_lits[1:_CANDIDATES_PER_DRAW])
    return list(dict.fromkeys(out))[:_CANDIDATES_PER_DRAW]


def _terms(lit: Formula) -> tuple[Term, ...]:
    atom = lit.body if isinstance(lit, Not) else lit
    return atom.args if isinstance(atom, Atom) else ()


def _exists_version(lit: Formula) -> Formula:
    """∃x L(x) from a ground unary literal L(c) (true whenever L(c) is); relations keep their first argument."""
    atom = lit.body if isinstance(lit, Not) else lit
    assert isinstance(atom, Atom)
    positive = not isinstance(lit, Not)
    args = (X,) if len(atom.args) == 1 else (atom.args[0], Y)
    var = "x" if len(atom.args) == 1 else "y"
    return Exists(var, _lit(atom.pred, args, positive))


def _forall_version(lit: Formula) -> Formula:
    """∀x L(x) from a ground literal L(c) (false whenever L(c) is); relations keep their first argument."""
    atom = lit.body if isinstance(lit, Not) else lit
    assert isinstance(atom, Atom)
    positive = not isinstance(lit, Not)
    args = (X,) if len(atom.args) == 1 else (atom.args[0], Y)
    var = "x" if len(atom.args) == 1 else "y"
    return Forall(var, _lit(atom.pred, args, positive))


# --------------------------------------------------------------------------- drawing one problem


def _draw_premises(rng: random.Random, vocabulary: Vocabulary) -> _Draft:
    """Grow a premise set around a derivation chain, with decoys and (sometimes) one redundant shape."""
    people = rng.sample(vocabulary.people, rng.choice((2, 3, 3, 4)))
    pool = rng.sample(vocabulary.properties, min(24, len(vocabulary.properties)))
    relations = rng.sample(vocabulary.relations, 3)
    d = _Draft(rng=rng, people=people, pool=pool, relations=relations)
    _start_chain(d)
    for _ in range(rng.choice((2, 2, 3, 3, 4))):
        for _try in range(4):
            step = _weighted(rng, _CHAIN_STEPS)
            if len(d.premises) < 7 and step(d):
                break
    target_size = rng.randint(max(4, len(d.premises)), 8)
    while len(d.premises) < target_size:
        d.premises.append(_weighted(rng, _DECOYS)(d))
    if rng.random() < 0.3:
        _add_redundancy(d)
    rng.shuffle(d.premises)
    return d


def _case(premises: Sequence[Formula], conclusion: Formula, label: str) -> Case:
    """Build a `Case` with English from the natural-style template realiser (one lexicon per problem)."""
    lexicon = lexicon_for([*premises, conclusion], style="natural")
    premises_fol = tuple(premises)
    identity = [[show(p) for p in premises_fol], show(conclusion), label]
    return Case(
        premises_fol=premises_fol,
        conclusion_fol=conclusion,
        premises=tuple(realize(p, lexicon) for p in premises_fol),
        conclusion=realize(conclusion, lexicon),
        label=label,
        source_dataset=SOURCE_DATASET,
        source_id=content_id("gen", identity),
    )


def _generate_one(
    index: int,
    seed: int,
    vocabulary: Vocabulary,
    timeout_ms: int,
    max_attempts: int,
    report: GenerationReport,
) -> Case | None:
    """Draw problems for case `index` until one's proven label is the index's target label."""
    target = LABELS[index % len(LABELS)]
    rng = random.Random(derived_seed(seed, SOURCE_DATASET, index))
    attempts = 0
    while attempts < max_attempts:
        d = _draw_premises(rng, vocabulary)
        report.premise_sets += 1
        if len(set(d.premises)) < len(d.premises):
            report.rejected["duplicate premise"] += 1
            attempts += 1
            continue
        candidates = _candidates(d, target)
        if not candidates:
            report.rejected["no candidate conclusion"] += 1
            attempts += 1
            continue
        for conclusion in candidates:
            attempts += 1
            report.attempts += 1
            if conclusion in d.premises:
                report.rejected["conclusion restates a premise"] += 1
                continue
            result = entailment(d.premises, conclusion, timeout_ms=timeout_ms)
            if isinstance(result, Contradictory):
                report.rejected["contradictory premises"] += 1
                break  # every other conclusion would meet the same premises
            if isinstance(result, Undecided):
                report.rejected[f"undecided: {result.reason}"] += 1
                continue
            if result.value != target:
                report.rejected["label quota full"] += 1
                continue
            report.accepted[target] += 1
            return _case(d.premises, conclusion, target)
    report.exhausted.append(index)
    return None


def generate_cases(
    n: int,
    seed: int,
    *,
    timeout_ms: int | None = None,
    vocabulary: Path | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    first: int = 0,
) -> tuple[list[Case], GenerationReport]:
    """Generate `n` source cases with Z3-proven labels, balanced over True/False/Unknown.

    Args:
        n: Number of cases.
        seed: Generation seed; case `i` depends only on `(seed, i)`, so the first `k` cases of a run are the
            cases of a run with `n = k`.
        timeout_ms: Wall-clock backstop per prover check (`None`: the prover's default). Labels are limited
            first by the prover's deterministic resource limit, so this does not normally affect the output.
        vocabulary: A vocabulary JSON file (see `load_vocabulary`); `None` uses the packaged one.
        max_attempts: Prover attempts per case before it is given up on (and reported in `exhausted`).
        first: Index of the first case: cases `first` … `first + n - 1` (a parallel build generates runs of
            indices and concatenates them, merging the reports with `GenerationReport.merge`).

    Returns:
        The cases in index order (case `i` has target label `LABELS[i % 3]`), and the generation report.

    Raises:
        ValueError: `n` is negative, `max_attempts` is not positive, or the vocabulary is invalid.
    """
    if n < 0:
        raise ValueError(f"n={n}: must be non-negative")
    if max_attempts < 1:
        raise ValueError(f"max_attempts={max_attempts}: must be at least 1")
    vocab = load_vocabulary(vocabulary)
    limit = DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms
    report = GenerationReport(requested=n, seed=seed)
    cases: list[Case] = []
    for index in range(first, first + n):
        case = _generate_one(index, seed, vocab, limit, max_attempts, report)
        if case is not None:
            cases.append(case)
    return cases, report
