"""Generate one LogicAsker test: a rule application, its inference chain, its false kinds, proven by Z3 (§3.2).

How one test of skill S, problem type T and length L is made, all with one seeded generator:

1. **Base expression.** A form of S (for `valid`, `contradiction` and `unrelated`: one of its valid forms; for a
   fallacy's `valid` tests: one of its counterparts; for `fallacy`: one of its fallacious forms) is instantiated
   with fresh abstract symbols. Predicate extensions of a propositional rule (Appendix C) lift every proposition
   p to a predicate P(x) and quantify: `universal` puts every premise and the conclusion under ∀x; `existential`
   puts one premise (drawn) and the conclusion under ∃x and the other premises under ∀x.
2. **Chain.** L − 1 times, one premise F is replaced by the premises of another valid rule application whose
   conclusion is F (§3.2: "substitute the premises ... with the conclusion of some other syllogism"). The
   supporting rules (`SUPPORT_RULES`) are the catalogue's propositional inference rules and De Morgan, conditional
   and biconditional laws, matched against F with their schematic letters bound to literals (or, for a pattern
   with structure, to quantified formulas); letters the match leaves open become fresh propositions. A quantified
   F = ∀x φ / ∃x φ is supported under its quantifier (the ∀ / ∃ extension of the supporting rule), a ground atom
   P(a) also by universal instantiation from ∀x P(x), and ∃x φ also by existential generalization from φ(a).
   New premises stay flat (at most one binary connective outside quantified parts, no double negation) so the
   English stays readable; a support that would put the conclusion among the premises, or a premise next to its
   own negation, is skipped. Only when no premise has such a support may a premise F of any shape be supported
   as a whole, by modus ponens (r → F, r) or disjunctive syllogism (r ∨ F, ¬r). A fallacy's chain uses valid
   rules only, so the invalid step stays the fallacy. A chain whose steps cancel (simplification from A ∧ B,
   then conjunction giving A ∧ B back from A and B) is shallower than L: its *effective depth*, the fewest rule
   applications that reach the chain's conclusion (`depth.effective_depth`, a search over the catalogue's rules
   without the prover), must equal L, or the attempt is rejected.
3. **Conclusion.** `valid` and `fallacy`: the form's conclusion. `contradiction`: the conclusion negated, with
   the negation pushed down to the literals (`contradict`: ¬∀x A becomes ∃x ¬A, ¬(A → B) becomes A ∧ ¬B).
   `unrelated`: the conclusion with one symbol swapped for another of the premises (or else a literal over the
   premises' symbols) that Z3 shows independent of the premises (`independent`); the paper's fresh-symbol
   version (`unrelated`) is kept for reference only, since its new words give the answer away. Each letter of the
   base form is instantiated negated half the time (`_polarities`), so negation words do not mark the answer
   either.
4. **Words.** The abstract symbols get Appendix D vocabulary and FOL names (`english.assign_vocabulary`).
5. **Proof.** Z3 decides the final FOL: the answer is `yes` iff the premises entail the conclusion. A test whose
   premises are contradictory, whose query is undecided, or whose proven answer differs from its problem type's
   is rejected with the reason, and the caller tries again with the next seed. Nothing here trusts the chaining
   of step 2: it only proposes; the prover decides.
6. **Every premise needed.** A `yes` test must need each of its premises: Z3 proves, for every premise, that the
   conclusion does not follow from the others (`needless_premises`); otherwise the attempt is rejected. The
   effective depth (step 2) counts rule applications along the chain, and a premise the conclusion follows without
   means the reader can skip steps that the depth still counts (`existential_simplification-ab07e61a775a` of
   the former lengths 1-7 build: length 5, about 3 real steps).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from lgmt_tasks.ids import content_id
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment
from lgmt_tasks.logic.syntax import (
    And,
    Atom,
    Bottom,
    Const,
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
    children,
    free_vars,
    subformulas,
    substitute,
    with_children,
)
from lgmt_tasks.logicasker.catalogue import YES_TYPE, Form, Skill, answer_of, catalogue
from lgmt_tasks.logicasker.config import MAX_LENGTH
from lgmt_tasks.logicasker.depth import effective_depth
from lgmt_tasks.logicasker.english import EnglishError, assign_vocabulary, sentence

SUPPORT_RULES: tuple[str, ...] = (
    "modus_ponens",
    "modus_tollens",
    "transitivity",
    "disjunctive_syllogism",
    "simplification",
    "conjunction",
    "constructive_dilemma",
    "destructive_dilemma",
    "resolution",
    "disjunction_elimination",
    "biconditional_introduction",
    "biconditional_elimination",
    "de_morgans_laws",
    "conditional_laws",
    "biconditional_laws",
)
"""Propositional rules (catalogue ids) that may support a premise in a chain.

Addition is left out on purpose: deriving `A ∨ B` from `A` replaces a weak premise by a strong one, which in a chain
often contradicts another premise (`¬A` from a disjunctive syllogism), and the prover would reject the test. So are
the commutative laws, whose steps a chain can undo at once.
"""

FALLBACK_RULES: tuple[str, ...] = ("modus ponens", "disjunctive syllogism")
"""Rules that may support a premise of any shape, as a whole (`r → F`, `r` ⊢ F), when no other rule applies."""


@dataclass(frozen=True)
class Problem:
    """One generated, proven LogicAsker test.

    Attributes:
        skill: The skill tested.
        problem_type: `valid`, `contradiction`, `unrelated` or `fallacy`.
        length: Number of rule applications (1 + supporting inferences).
        form_name: The rule the base expression instantiates (a fallacy's counterpart for its `valid` tests).
        premises_fol: The premises, in FOL over the final names.
        conclusion_fol: The conclusion, in FOL.
        premises: The premises in English, one sentence each.
        conclusion: The conclusion in English.
        answer: `yes` iff Z3 proved that the premises entail the conclusion, else `no`.
        steps: The supporting rules of the chain, in the order they were applied.
        effective_depth: The fewest rule applications that derive the chain's conclusion from the premises
            (`depth.effective_depth`); always equal to `length`, since shallower chains are rejected.
    """

    skill: Skill
    problem_type: str
    length: int
    form_name: str
    premises_fol: tuple[Formula, ...]
    conclusion_fol: Formula
    premises: tuple[str, ...]
    conclusion: str
    answer: str
    steps: tuple[str, ...] = ()
    effective_depth: int = 1

    @property
    def id(self) -> str:
        """Stable, content-derived id (the dataset row's `id`): the rule id, then a hash of the test's content."""
        identity = [
            self.problem_type,
            self.length,
            [show(p) for p in self.premises_fol],
            show(self.conclusion_fol),
            self.premises,
            self.conclusion,
        ]
        return content_id(self.skill.id, identity)


@dataclass(frozen=True)
class Rejected:
    """An attempt that did not give a test, and why (counted in the build statistics)."""

    reason: str


# --------------------------------------------------------------------------- symbols


@dataclass
class Symbols:
    """Fresh abstract symbols of one test (local to one generation: no global counters)."""

    atoms: list[str] = field(default_factory=list)
    predicates: list[str] = field(default_factory=list)
    constants: list[str] = field(default_factory=list)

    def atom(self) -> str:
        """A fresh proposition (0-ary atom)."""
        self.atoms.append(f"A{len(self.atoms) + 1}")
        return self.atoms[-1]

    def predicate(self) -> str:
        """A fresh unary predicate."""
        self.predicates.append(f"P{len(self.predicates) + 1}")
        return self.predicates[-1]

    def constant(self) -> str:
        """A fresh constant."""
        self.constants.append(f"c{len(self.constants) + 1}")
        return self.constants[-1]


def map_symbols(
    f: Formula,
    atoms: dict[str, str] | None = None,
    predicates: dict[str, str] | None = None,
    constants: dict[str, str] | None = None,
) -> Formula:
    """Rename 0-ary atoms, predicates (arity ≥ 1) and constants; names not in a map are kept.

    Args:
        f: The formula.
        atoms: 0-ary atom renaming.
        predicates: Predicate renaming (atoms with arguments).
        constants: Constant renaming.

    Returns:
        The renamed formula (variables and structure unchanged).
    """
    atoms, predicates, constants = atoms or {}, predicates or {}, constants or {}

    def term(t: Term) -> Term:
        return Const(constants.get(t.name, t.name)) if isinstance(t, Const) else t

    def go(g: Formula) -> Formula:
        if isinstance(g, Atom):
            if not g.args:
                return Atom(atoms.get(g.pred, g.pred))
            return Atom(predicates.get(g.pred, g.pred), tuple(term(a) for a in g.args))
        return with_children(g, tuple(go(c) for c in children(g)))

    return go(f)


def _symbols_of(formulas: Sequence[Formula]) -> tuple[list[str], list[str], list[str]]:
    """0-ary atoms, predicates and constants of `formulas`, in order of first occurrence."""
    atoms: dict[str, None] = {}
    preds: dict[str, None] = {}
    consts: dict[str, None] = {}

    def go(g: Formula) -> None:
        if isinstance(g, Atom):
            (preds if g.args else atoms)[g.pred] = None
            for a in g.args:
                if isinstance(a, Const):
                    consts[a.name] = None
        for c in children(g):
            go(c)

    for f in formulas:
        go(f)
    return list(atoms), list(preds), list(consts)


# --------------------------------------------------------------------------- base expressions


def _lift(f: Formula, predicates: dict[str, str], var: str) -> Formula:
    """Replace every proposition p by the predicate atom `predicates[p](var)` (Appendix C)."""
    if isinstance(f, Atom) and not f.args:
        return Atom(predicates[f.pred], (Var(var),))
    return with_children(f, tuple(_lift(c, predicates, var) for c in children(f)))


def instantiate(
    skill: Skill, form: Form, rng: random.Random, sym: Symbols, existential: int | None = None
) -> tuple[list[Formula], Formula]:
    """Instantiate a form of a skill with fresh symbols (and, for extended skills, quantifiers).

    Args:
        skill: The skill (its `quantifier` says how propositional forms are lifted).
        form: One of the skill's forms or counterparts.
        rng: The test's generator (draws which premise is existential).
        sym: The test's fresh symbols.
        existential: For an `existential` skill, the premise to put under ∃ (None: drawn with `rng`).

    Returns:
        The premises and the conclusion.
    """
    atoms_, preds_, consts_ = _symbols_of([*form.premises, form.conclusion])
    flips = _polarities([*atoms_, *preds_], form, rng)
    if skill.quantifier is None:
        amap = {a: sym.atom() for a in atoms_}
        pmap = {p: sym.predicate() for p in preds_}
        cmap = {c: sym.constant() for c in consts_}
        negative = {amap.get(n, pmap.get(n, n)) for n in flips}
        premises = [flip(map_symbols(p, amap, pmap, cmap), negative) for p in form.premises]
        return premises, flip(map_symbols(form.conclusion, amap, pmap, cmap), negative)
    lifted = {a: sym.predicate() for a in atoms_}
    negative = {lifted[n] for n in flips}
    if skill.quantifier != "existential":
        existential = -1
    elif existential is None:
        existential = rng.randrange(len(form.premises))
    premises = [
        (Exists if i == existential else Forall)("x", flip(_lift(p, lifted, "x"), negative))
        for i, p in enumerate(form.premises)
    ]
    lifted_conclusion = flip(_lift(form.conclusion, lifted, "x"), negative)
    conclusion = (Exists if skill.quantifier == "existential" else Forall)("x", lifted_conclusion)
    return premises, conclusion


def _polarities(letters: Sequence[str], form: Form, rng: random.Random) -> set[str]:
    """The schematic letters to instantiate with a negated symbol (each with probability 1/2).

    Without this, most conclusions of the catalogue's forms are positive, so their contradictions are negative and
    "a negated conclusion means no" would answer the test (the shortcut battery's `negated` heuristic). A form
    that is about double negation (complement laws) keeps its letters positive: a flip would collapse it.
    """
    if any(_double_negation(f) for f in (*form.premises, form.conclusion)):
        return set()
    return {letter for letter in letters if rng.random() < 0.5}


def flip(f: Formula, negative: set[str]) -> Formula:
    """Negate every atom whose symbol is in `negative`, writing ¬¬A (a flipped atom under a negation) as A."""
    if isinstance(f, Not) and isinstance(f.body, Atom) and f.body.pred in negative:
        return f.body
    if isinstance(f, Atom) and f.pred in negative:
        return Not(f)
    return with_children(f, tuple(flip(c, negative) for c in children(f)))


# --------------------------------------------------------------------------- false kinds


def negate(f: Formula) -> Formula:
    """The contradiction of a conclusion: ¬f with the negation moved through quantifiers and ¬¬ removed."""
    if isinstance(f, Not):
        return f.body
    if isinstance(f, Forall):
        return Exists(f.var, negate(f.body))
    if isinstance(f, Exists):
        return Forall(f.var, negate(f.body))
    return Not(f)


def contradict(f: Formula) -> Formula:
    """The contradiction of a conclusion, with the negation pushed down to the literals (negation normal form).

    ¬(A → B) is written A ∧ ¬B, ¬(A ∧ B) as ¬A ∨ ¬B, ¬(A ∨ B) as ¬A ∧ ¬B, ¬(A ↔ B) as A ↔ ¬B, ¬∀x A as ∃x ¬A.
    A bare "it is not the case that ..." would mark every contradiction by its surface (see `_polarities`).
    """
    if isinstance(f, Not):
        return f.body
    if isinstance(f, Forall):
        return Exists(f.var, contradict(f.body))
    if isinstance(f, Exists):
        return Forall(f.var, contradict(f.body))
    if isinstance(f, Implies):
        return And((f.left, contradict(f.right)))
    if isinstance(f, And):
        return Or(tuple(contradict(c) for c in f.args))
    if isinstance(f, Or):
        return And(tuple(contradict(c) for c in f.args))
    if isinstance(f, Iff):
        return Iff(f.left, contradict(f.right))
    if isinstance(f, Top):
        return Bottom()
    if isinstance(f, Bottom):
        return Top()
    return Not(f)


def _constants_in(f: Formula) -> list[str]:
    return _symbols_of([f])[2]


def unrelated(conclusion: Formula, rng: random.Random, sym: Symbols) -> Formula:
    """A conclusion about a fresh symbol, shaped like `conclusion` (∀x U(x), ∃x ¬U(x), U(a) or a proposition)."""
    negated = rng.random() < 0.5
    if isinstance(conclusion, Forall | Exists):
        core: Formula = Atom(sym.predicate(), (Var(conclusion.var),))
        return type(conclusion)(conclusion.var, Not(core) if negated else core)
    consts = _constants_in(conclusion)
    core = Atom(sym.predicate(), (Const(consts[0]),)) if consts else Atom(sym.atom())
    return Not(core) if negated else core


# --------------------------------------------------------------------------- chains


@dataclass(frozen=True)
class _Support:
    """A supporting rule application that derives one premise: its name and how to make its premises."""

    rule: str
    make: Callable[[random.Random, Symbols], list[Formula]]
    unit: Formula | None = None  # a premise kept whole (fallback): readability is checked around it


@cache
def _support_forms() -> tuple[Form, ...]:
    by_id = {s.id: s for s in catalogue()}
    return tuple(form for rule in SUPPORT_RULES for form in by_id[rule].forms)


def _is_literal(f: Formula) -> bool:
    return isinstance(f, Atom) or (isinstance(f, Not) and isinstance(f.body, Atom))


def _match(pattern: Formula, f: Formula, binding: dict[str, Formula], quantified_ok: bool) -> dict[str, Formula] | None:
    """Match a schematic pattern against `f`; schematic propositions bind literals (or quantified formulas)."""
    if isinstance(pattern, Atom) and not pattern.args:
        if pattern.pred in binding:
            return binding if binding[pattern.pred] == f else None
        unit = isinstance(f, Atom) or (quantified_ok and isinstance(f, Forall | Exists))
        return {**binding, pattern.pred: f} if unit else None
    if type(pattern) is not type(f):
        return None
    if isinstance(pattern, Top | Bottom):
        return binding
    kids_p, kids_f = children(pattern), children(f)
    if len(kids_p) != len(kids_f):
        return None
    out = binding
    for p, g in zip(kids_p, kids_f, strict=True):
        matched = _match(p, g, out, quantified_ok)
        if matched is None:
            return None
        out = matched
    return out


def _binary_depth(f: Formula) -> int:
    """Nesting of binary connectives outside quantified parts (a quantified formula counts as a unit)."""
    if isinstance(f, Forall | Exists):
        return 0
    own = 1 if isinstance(f, And | Or | Implies | Iff) else 0
    return own + max((_binary_depth(c) for c in children(f)), default=0)


def _double_negation(f: Formula) -> bool:
    if isinstance(f, Not) and isinstance(f.body, Not):
        return True
    return any(_double_negation(c) for c in children(f))


def _flat(f: Formula) -> bool:
    return _binary_depth(f) <= 1 and not _double_negation(f)


def _propositional_supports(target: Formula, quantified_ok: bool) -> list[tuple[str, Form, dict[str, Formula]]]:
    """Support forms whose conclusion matches `target`, with the binding (letters left open are fresh later)."""
    found = []
    for form in _support_forms():
        bare = isinstance(form.conclusion, Atom) or (
            isinstance(form.conclusion, Not) and isinstance(form.conclusion.body, Atom)
        )
        binding = _match(form.conclusion, target, {}, quantified_ok and not bare)
        if binding is not None:
            found.append((form.name, form, binding))
    return found


def _instantiate_support(
    form: Form, binding: dict[str, Formula], fresh: Callable[[Symbols], Formula], sym: Symbols
) -> list[Formula]:
    atoms_, _, _ = _symbols_of([*form.premises, form.conclusion])
    full = dict(binding)
    for a in atoms_:
        if a not in full:
            full[a] = fresh(sym)

    def fill(g: Formula) -> Formula:
        if isinstance(g, Atom) and not g.args:
            return full[g.pred]
        return with_children(g, tuple(fill(c) for c in children(g)))

    return [fill(p) for p in form.premises]


def _supports(target: Formula, logic: str, fallback: bool) -> list[_Support]:
    """Every way to derive `target` by one valid rule application (see the module docstring, step 2)."""
    out: list[_Support] = []
    if isinstance(target, Forall | Exists) and not free_vars(target):
        var, body = target.var, target.body
        if not any(isinstance(g, Forall | Exists) for _, g in subformulas(body)) and free_vars(body) == {var}:

            def fresh_pred(sym: Symbols, var: str = var) -> Formula:
                return Atom(sym.predicate(), (Var(var),))

            for name, form, binding in _propositional_supports(body, quantified_ok=False):
                out.append(
                    _Support(
                        f"{'universal' if isinstance(target, Forall) else 'existential'} {name}",
                        _under_quantifier(target, form, binding, fresh_pred),
                    )
                )
            if isinstance(target, Exists) and _flat(body):
                out.append(_Support("existential generalization", _generalization(var, body)))
    if logic == "predicate" and _is_literal(target) and _constants_in(target):
        atom = target.body if isinstance(target, Not) else target
        assert isinstance(atom, Atom)
        if len(atom.args) == 1:
            out.append(_Support("universal instantiation", _instantiation(target, atom)))
    if not isinstance(target, Forall | Exists) or fallback:
        consts = _constants_in(target)

        def fresh_unit(sym: Symbols) -> Formula:
            return Atom(sym.predicate(), (Const(consts[0]),)) if consts else Atom(sym.atom())

        for name, form, binding in _propositional_supports(target, quantified_ok=True):
            out.append(_Support(name, _top_level(form, binding, fresh_unit)))
        if fallback and not _is_literal(target):
            for form in _support_forms():
                if form.name in FALLBACK_RULES and isinstance(form.conclusion, Atom):
                    binding = {form.conclusion.pred: target}
                    out.append(_Support(form.name, _top_level(form, binding, fresh_unit), unit=target))
    return out


def _top_level(
    form: Form, binding: dict[str, Formula], fresh: Callable[[Symbols], Formula]
) -> Callable[[random.Random, Symbols], list[Formula]]:
    def make(rng: random.Random, sym: Symbols) -> list[Formula]:
        return _instantiate_support(form, binding, fresh, sym)

    return make


def _under_quantifier(
    target: Forall | Exists, form: Form, binding: dict[str, Formula], fresh: Callable[[Symbols], Formula]
) -> Callable[[random.Random, Symbols], list[Formula]]:
    def make(rng: random.Random, sym: Symbols) -> list[Formula]:
        bodies = _instantiate_support(form, binding, fresh, sym)
        existential = rng.randrange(len(bodies)) if isinstance(target, Exists) else -1
        return [(Exists if i == existential else Forall)(target.var, b) for i, b in enumerate(bodies)]

    return make


def _generalization(var: str, body: Formula) -> Callable[[random.Random, Symbols], list[Formula]]:
    def make(rng: random.Random, sym: Symbols) -> list[Formula]:
        name = rng.choice(sym.constants) if sym.constants and rng.random() < 0.5 else sym.constant()
        return [substitute(body, var, Const(name))]

    return make


def _instantiation(target: Formula, atom: Atom) -> Callable[[random.Random, Symbols], list[Formula]]:
    def make(rng: random.Random, sym: Symbols) -> list[Formula]:
        core: Formula = Atom(atom.pred, (Var("x"),))
        return [Forall("x", Not(core) if isinstance(target, Not) else core)]

    return make


def expand(
    premises: list[Formula], conclusion: Formula, steps: int, logic: str, rng: random.Random, sym: Symbols
) -> tuple[list[Formula], list[str], list[Formula]] | None:
    """Grow the inference chain by `steps` supporting rule applications (§3.2), or None if it cannot grow.

    Args:
        premises: The base expression's premises.
        conclusion: The base conclusion (a support may not produce it as a premise: that would make the test
            trivial).
        steps: How many premises to replace by the premises of a rule deriving them.
        logic: `propositional` or `predicate` (predicate tests may also use instantiation and generalization).
        rng: The test's generator.
        sym: The test's fresh symbols.

    Returns:
        The new premises, the names of the supporting rules and the premises they replaced (the chain's inner
        nodes, which `depth.effective_depth` may pass through), or None when no premise can be supported.
    """
    base = (tuple(premises), conclusion)
    premises = list(premises)
    used: list[str] = []
    replaced: list[Formula] = []
    for _ in range(steps):

        def honest(index: int, new: list[Formula], done: int = len(used)) -> bool:
            # The chain so far plus this step must need every one of its steps (no cancelling pair).
            trial = [*premises[:index], *new, *premises[index + 1 :]]
            wanted = done + 2  # the base step, the steps taken, and this one
            return effective_depth(trial, conclusion, wanted, base, [*replaced, premises[index]]) == wanted

        step = _one_step(premises, conclusion, logic, rng, sym, honest)
        if step is None:
            return None
        index, new, rule = step
        replaced.append(premises[index])
        premises[index : index + 1] = new
        used.append(rule)
    return premises, used, replaced


def _one_step(
    premises: list[Formula],
    conclusion: Formula,
    logic: str,
    rng: random.Random,
    sym: Symbols,
    honest: Callable[[int, list[Formula]], bool] | None = None,
) -> tuple[int, list[Formula], str] | None:
    """Support one premise: a random readable, non-trivial option; the fallback only when nothing else works.

    `honest(index, new)` vets an option that is otherwise acceptable: `expand` uses it to refuse a step that would
    make the chain shallower than its length (checking step by step wastes fewer attempts than rejecting at the end).
    """
    for fallback in (False, True):
        options = [(i, s) for i, f in enumerate(premises) for s in _supports(f, logic, fallback)]
        rng.shuffle(options)
        for index, support in options:
            trial = Symbols(list(sym.atoms), list(sym.predicates), list(sym.constants))
            new = support.make(rng, trial)
            acceptable = all(_readable(p, support.unit) for p in new) and not _conflicts(new, premises, conclusion)
            if acceptable and (honest is None or honest(index, new)):
                sym.atoms, sym.predicates, sym.constants = trial.atoms, trial.predicates, trial.constants
                return index, new, support.rule
    return None


_UNIT = Atom("\x00unit")


def _replace(f: Formula, old: Formula, new: Formula) -> Formula:
    if f == old:
        return new
    return with_children(f, tuple(_replace(c, old, new) for c in children(f)))


def _readable(f: Formula, unit: Formula | None) -> bool:
    """Flat (under its quantifier, if any), counting a premise kept whole by the fallback as one atom.

    A quantified left operand of ↔ is refused: "for all x, A, if and only if B" has two readings that are not
    equivalent (with ∧, ∨ and → the English readings coincide, see `english`).
    """
    if any(isinstance(g, Iff) and isinstance(g.left, Forall | Exists) for _, g in subformulas(f)):
        return False
    if unit is not None:
        f = _replace(f, unit, _UNIT)
    if isinstance(f, Forall | Exists):
        f = f.body
    return _flat(f)


def _conflicts(new: Sequence[Formula], premises: Sequence[Formula], conclusion: Formula) -> bool:
    """Whether a support would make the test trivial (the conclusion as a premise) or contradict a premise outright."""
    if conclusion in new:
        return True
    present = set(premises) | set(new)
    return any(negate(p) in present for p in new)


# --------------------------------------------------------------------------- one test


def independent(
    premises: Sequence[Formula], conclusion: Formula, rng: random.Random, timeout_ms: int
) -> Formula | Rejected:
    """An `unrelated` conclusion in the premises' own words, which the premises neither entail nor refute.

    The paper's unrelated conclusion is about a fresh proposition, so its words never occur in the premises and
    "a word the premises lack means no" answers every such test (the shortcut battery's `new-word` heuristic).
    Here the candidates come first from the conclusion itself with one of its symbols replaced by another symbol of
    the premises, plain or negated (same shape and length as the valid conclusion, so "a long conclusion means
    yes" fails too), then from literals over the premises' symbols shaped like the conclusion (∀x P(x) / ∃x ¬P(x),
    P(a) at its constant, or a proposition), each group in a seeded order; the first that Z3 shows independent of
    the premises (neither it nor its negation follows) is the conclusion. At most `MAX_UNRELATED_TRIES` are proven.
    """
    candidates = _same_shape(premises, conclusion, rng) + _literals(premises, conclusion, rng)
    tried = 0
    for candidate in candidates:
        if candidate in (conclusion, negate(conclusion)):
            continue
        tried += 1
        if tried > MAX_UNRELATED_TRIES:
            break
        if _prove(premises, candidate, timeout_ms) == "no" and _prove(premises, negate(candidate), timeout_ms) == "no":
            return candidate
    return Rejected("no unrelated conclusion in the premises' words")


MAX_UNRELATED_TRIES = 12
"""Candidates proven per unrelated attempt (two Z3 queries each) before the attempt is given up."""


def _same_shape(premises: Sequence[Formula], conclusion: Formula, rng: random.Random) -> list[Formula]:
    """The conclusion with one symbol swapped for another symbol of the premises (plain or negated), shuffled."""
    p_atoms, p_preds, _ = _symbols_of(premises)
    c_atoms, c_preds, _ = _symbols_of([conclusion])
    out: list[Formula] = []
    for own, pool, kind in ((c_atoms, p_atoms, "atoms"), (c_preds, p_preds, "predicates")):
        for old in own:
            for new in pool:
                if new in own:
                    continue
                renamed = map_symbols(conclusion, **{kind: {old: new}})
                out += [renamed, flip(renamed, {new})]
    rng.shuffle(out)
    return out


def _literals(premises: Sequence[Formula], conclusion: Formula, rng: random.Random) -> list[Formula]:
    """Literals over the premises' symbols shaped like the conclusion (quantifier, constant), shuffled."""
    atoms_, preds_, _ = _symbols_of(premises)
    consts = _constants_in(conclusion)
    cores: list[Formula]
    if isinstance(conclusion, Forall | Exists):
        cores = [Atom(p, (Var(conclusion.var),)) for p in preds_]
    elif consts:
        cores = [Atom(p, (Const(consts[0]),)) for p in preds_]
    else:
        cores = [Atom(a) for a in atoms_]
    candidates: list[Formula] = [lit for core in cores for lit in (core, Not(core))]
    if isinstance(conclusion, Forall | Exists):
        candidates = [type(conclusion)(conclusion.var, c) for c in candidates]
    rng.shuffle(candidates)
    return candidates


NEEDLESS_PREMISE = "a premise is not needed (the entailment holds without it)"
"""Why a yes-test is rejected when its premise set is not minimal (`needless_premises`)."""


def needless_premises(
    premises: Sequence[Formula], conclusion: Formula, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> list[int] | Rejected:
    """The positions of the premises a yes-test does not need: without premise i the entailment still holds.

    A yes-test is meant to need every premise: its chain replaced each premise by the premises of a rule that
    derives it, so a premise the conclusion follows without is a step the reader may skip (the chain cancels, or a
    premise of a supporting rule is idle), and the test is shallower than its length. Each premise is dropped in
    turn and Z3 proves the conclusion no longer follows. One Z3 query per premise.

    Returns:
        The positions of needless premises (empty when the premise set is minimal), or `Rejected` when a query is
        undecided (a timeout is never taken as "needed").
    """
    spare: list[int] = []
    for i in range(len(premises)):
        answer = _prove([*premises[:i], *premises[i + 1 :]], conclusion, timeout_ms)
        if isinstance(answer, Rejected):
            return answer
        if answer == "yes":
            spare.append(i)
    return spare


def _prove(premises: Sequence[Formula], conclusion: Formula, timeout_ms: int) -> str | Rejected:
    result = entailment(premises, conclusion, timeout_ms=timeout_ms)
    if isinstance(result, Contradictory):
        return Rejected("premises contradictory")
    if isinstance(result, Undecided):
        return Rejected(f"undecided: {result.reason}")
    return "yes" if result == Label.TRUE else "no"


def generate(
    skill: Skill, problem_type: str, length: int, rng: random.Random, *, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> Problem | Rejected:
    """Make one test of a skill, or say why this attempt failed (see the module docstring).

    Args:
        skill: The skill.
        problem_type: One of `skill.problem_types`.
        length: Rule applications, 1 to `MAX_LENGTH`.
        rng: The attempt's generator (derive it from the build seed and the test's identity).
        timeout_ms: Z3 wall-clock limit per check.

    Returns:
        The proven test, or `Rejected` with a reason.

    Raises:
        ValueError: On a problem type the skill does not have, or a length out of range.
    """
    if problem_type not in skill.problem_types:
        raise ValueError(f"{skill.name}: problem_type={problem_type!r}; expected one of {skill.problem_types}")
    if not 1 <= length <= MAX_LENGTH:
        raise ValueError(f"length={length}: expected 1 to {MAX_LENGTH}")
    sym = Symbols()
    forms = skill.valid_forms() if problem_type == YES_TYPE or not skill.is_fallacy else skill.forms
    form = rng.choice(forms)
    base_premises, base_conclusion = instantiate(skill, form, rng, sym)
    grown = expand(base_premises, base_conclusion, length - 1, skill.logic, rng, sym)
    if grown is None:
        return Rejected("no premise can be supported")
    premises, steps, replaced = grown
    depth = effective_depth(premises, base_conclusion, length, (base_premises, base_conclusion), replaced)
    if depth is None:
        return Rejected("effective depth not found within the length")
    if depth < length:
        return Rejected("shallower than its length (cancelling steps)")
    if problem_type == "contradiction":
        conclusion = contradict(base_conclusion)
    elif problem_type == "unrelated":
        found = independent(premises, base_conclusion, rng, timeout_ms)
        if isinstance(found, Rejected):
            return found
        conclusion = found
    else:
        conclusion = base_conclusion

    atoms_, preds_, consts_ = _symbols_of([*premises, conclusion])
    try:
        assignment = assign_vocabulary(atoms_, preds_, consts_, rng)
    except EnglishError as exc:
        return Rejected(f"vocabulary: {exc}")
    rename = (assignment.propositions, assignment.predicates, assignment.constants)
    premises_fol = tuple(map_symbols(p, *map(dict, rename)) for p in premises)
    conclusion_fol = map_symbols(conclusion, *map(dict, rename))

    answer = _prove(premises_fol, conclusion_fol, timeout_ms)
    if isinstance(answer, Rejected):
        return answer
    if answer != answer_of(problem_type):
        return Rejected(f"proven answer {answer} differs from problem type {problem_type}")
    if answer == "yes":
        spare = needless_premises(premises_fol, conclusion_fol, timeout_ms)
        if isinstance(spare, Rejected):
            return spare
        if spare:
            return Rejected(NEEDLESS_PREMISE)
    return Problem(
        skill=skill,
        problem_type=problem_type,
        length=length,
        form_name=form.name,
        premises_fol=premises_fol,
        conclusion_fol=conclusion_fol,
        premises=tuple(sentence(p, assignment.wording) for p in premises_fol),
        conclusion=sentence(conclusion_fol, assignment.wording),
        answer=answer,
        steps=tuple(steps),
        effective_depth=depth,
    )
