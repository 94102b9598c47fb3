"""Effective depth: the fewest rule applications the catalogue's rules need to reach a chain's conclusion.

A chain of requested length L is meant to need L rule applications. A chain can fall short when one step undoes
another: supporting the premise `A` by simplification from `A ∧ B`, then `A ∧ B` by conjunction from `A` and `B`,
leaves `A` among the premises (and `B` as a stray one), so the conclusion is one step nearer than L says. The
prover cannot see this (the test stays valid); only a proof-length measure can.

The measure is prover-free and purely syntactic. A derivation is a tree whose leaves are premises and whose inner
nodes are rule applications; its size is its number of inner nodes, and the effective depth of a conclusion is the
size of its smallest derivation. It is computed as a least fixpoint (a Knuth-style generalisation of shortest
paths to trees): `cost(f) = 0` for a premise, else `1 + min over rule instances deriving f of the sum of their
premises' costs`, iterated until nothing improves, ignoring any cost above the bound. The rules are:

* every form of every propositional inference and equivalence rule of the catalogue, applied at the top level
  with its letters bound to arbitrary formulas (so `r → (p ∧ q)`, `r` ⊢ `p ∧ q` is modus ponens);
* the same forms under a quantifier (Appendix C): all premises `∀x φ` give `∀x ψ`; one premise `∃x φ` and the
  others `∀x φ` give `∃x ψ`;
* universal instantiation (`∀x φ` ⊢ `φ[a]`) and existential generalisation (`φ[a]` ⊢ `∃x φ`) at the test's
  constants;
* the test's own base step, as a concrete instance (this covers predicate rules and fallacies, whose schematic
  forms use predicates the letter matcher does not bind).

Derived formulas are restricted to the test's universe (the subformulas of premises and conclusion, their
negations and their instances at the test's constants) together with the premises the chain replaced on its way
(the formulas its own derivation passes through), which keeps the search finite and ensures that a chain of length
L always has a derivation of size at most L inside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from lgmt_tasks.logic.syntax import (
    Atom,
    Const,
    Exists,
    Forall,
    Formula,
    Not,
    Var,
    children,
    free_vars,
    subformulas,
    substitute,
    with_children,
)
from lgmt_tasks.logicasker.catalogue import Form, catalogue

Binding = dict[str, Formula]
Costs = dict[Formula, int]


@cache
def rule_forms() -> tuple[Form, ...]:
    """Every valid schematic form the search applies: the catalogue's propositional inference and equivalence rules."""
    return tuple(
        form
        for skill in catalogue()
        if skill.logic == "propositional" and skill.quantifier is None and not skill.is_fallacy
        for form in skill.forms
    )


def _bind(pattern: Formula, f: Formula, binding: Binding) -> Binding | None:
    """Match a schematic pattern against `f`, its letters (0-ary atoms) binding any formula consistently."""
    if isinstance(pattern, Atom) and not pattern.args:
        bound = binding.get(pattern.pred)
        if bound is None:
            return {**binding, pattern.pred: f}
        return binding if bound == f else None
    if type(pattern) is not type(f):
        return None
    kids_p, kids_f = children(pattern), children(f)
    if len(kids_p) != len(kids_f):
        return None
    out: Binding | None = binding
    for p, g in zip(kids_p, kids_f, strict=True):
        out = _bind(p, g, out) if out is not None else None
    return out


def _canonical(var: str, body: Formula) -> Formula:
    """A quantified body with its variable renamed to `x`, so `∀x φ` and `∀y φ[y/x]` share one body."""
    return body if var == "x" else substitute(body, var, Var("x"))


def _constants(formulas: Iterable[Formula]) -> list[str]:
    out: dict[str, None] = {}
    for f in formulas:
        for _, g in subformulas(f):
            if isinstance(g, Atom):
                for a in g.args:
                    if isinstance(a, Const):
                        out[a.name] = None
    return list(out)


def _negation(f: Formula) -> Formula:
    return f.body if isinstance(f, Not) else Not(f)


def universe(premises: Sequence[Formula], conclusion: Formula, through: Sequence[Formula] = ()) -> set[Formula]:
    """The formulas a derivation may pass through (see the module docstring), with the chain's own `through`."""
    constants = _constants([*premises, conclusion, *through])
    base: set[Formula] = set()
    for f in (*premises, conclusion, *through):
        base.update(g for _, g in subformulas(f))
    instances: set[Formula] = set()
    for g in base:
        if isinstance(g, Forall | Exists):
            instances.update(substitute(g.body, g.var, Const(c)) for c in constants)
    every = base | instances
    return every | {_negation(g) for g in every}


def _assignments(
    patterns: Sequence[Formula], known: Costs, binding: Binding, budget: int
) -> Iterator[tuple[Binding, int]]:
    """Every way to match `patterns` to known formulas consistently with `binding`, with the summed cost."""
    if not patterns:
        yield binding, 0
        return
    first, rest = patterns[0], patterns[1:]
    for f, cost in known.items():
        if cost > budget:
            continue
        matched = _bind(first, f, binding)
        if matched is None:
            continue
        for full, more in _assignments(rest, known, matched, budget - cost):
            yield full, cost + more


def _fill(pattern: Formula, binding: Binding) -> Formula | None:
    if isinstance(pattern, Atom) and not pattern.args:
        return binding.get(pattern.pred)
    kids = [_fill(c, binding) for c in children(pattern)]
    if any(k is None for k in kids):
        return None
    return with_children(pattern, tuple(k for k in kids if k is not None))


def _quantified(known: Costs, kind: type) -> Costs:
    """The canonical bodies of the known formulas quantified by `kind` (∀ or ∃), with their costs."""
    out: Costs = {}
    for f, cost in known.items():
        if isinstance(f, kind) and isinstance(f, Forall | Exists):
            body = _canonical(f.var, f.body)
            out[body] = min(cost, out.get(body, cost))
    return out


def _schematic_cost(target: Formula, forms: Sequence[Form], known: Costs, budget: int) -> int | None:
    """The cheapest top-level application of a schematic form deriving `target`."""
    best: int | None = None
    for form in forms:
        start = _bind(form.conclusion, target, {})
        if start is None:
            continue
        limit = budget - 1 if best is None else min(budget - 1, best - 2)
        for _, cost in _assignments(form.premises, known, start, limit):
            if best is None or cost + 1 < best:
                best = cost + 1
                limit = min(limit, best - 2)
    return best


def _lifted_cost(
    target: Formula, forms: Sequence[Form], universal: Costs, existential: Costs, budget: int
) -> int | None:
    """The cheapest application of a schematic form under ∀ (or ∃ with one existential premise) deriving `target`."""
    if not isinstance(target, Forall | Exists):
        return None
    body = _canonical(target.var, target.body)
    best: int | None = None
    for form in forms:
        start = _bind(form.conclusion, body, {})
        if start is None:
            continue
        if isinstance(target, Forall):
            for _, cost in _assignments(form.premises, universal, start, budget - 1):
                best = cost + 1 if best is None else min(best, cost + 1)
            continue
        for i in range(len(form.premises)):
            # Premise i under ∃, the others under ∀.
            ordered = [form.premises[i], *form.premises[:i], *form.premises[i + 1 :]]
            for first, c0 in _assignments(ordered[:1], existential, start, budget - 1):
                for _, rest in _assignments(ordered[1:], universal, first, budget - 1 - c0):
                    total = c0 + rest + 1
                    best = total if best is None else min(best, total)
    return best


def _quantifier_cost(target: Formula, known: Costs, constants: Sequence[str]) -> int | None:
    """Universal instantiation and existential generalisation at the test's constants."""
    best: int | None = None
    if not free_vars(target):
        for f, cost in known.items():
            if isinstance(f, Forall) and any(substitute(f.body, f.var, Const(c)) == target for c in constants):
                best = cost + 1 if best is None else min(best, cost + 1)
    if isinstance(target, Exists):
        for c in constants:
            instance = substitute(target.body, target.var, Const(c))
            if instance in known:
                cost = known[instance] + 1
                best = cost if best is None else min(best, cost)
    return best


def effective_depth(
    premises: Sequence[Formula],
    conclusion: Formula,
    bound: int,
    base_step: tuple[Sequence[Formula], Formula] | None = None,
    through: Sequence[Formula] = (),
) -> int | None:
    """The size of the smallest derivation of `conclusion` from `premises`, or None if it is larger than `bound`.

    Args:
        premises: The test's premises (cost 0 each).
        conclusion: The conclusion the chain was built to reach (for a contradiction or unrelated test, the
            conclusion of its valid chain, not the asked one).
        bound: The requested length; larger derivations are not searched.
        base_step: The test's own rule application, `(premises, conclusion)`, usable as one more step.
        through: Formulas the derivation may also pass through: the premises the chain replaced (they are not
            subformulas of the final premises, yet the chain's own derivation goes through them).

    Returns:
        0 if the conclusion is a premise, else the fewest rule applications, or None beyond `bound`.
    """
    forms = rule_forms()
    inner = [*through, *(base_step[0] if base_step else ())]
    constants = _constants([*premises, conclusion, *inner])
    targets = universe(premises, conclusion, inner)
    known: Costs = {p: 0 for p in premises}
    if conclusion in known:
        return 0
    for _ in range(bound):
        universal, existential = _quantified(known, Forall), _quantified(known, Exists)
        changed = False
        for target in targets:
            current = known.get(target)
            if current == 0:
                continue
            options = [
                _schematic_cost(target, forms, known, bound),
                _lifted_cost(target, forms, universal, existential, bound),
                _quantifier_cost(target, known, constants),
            ]
            if base_step is not None and target == base_step[1] and all(p in known for p in base_step[0]):
                options.append(1 + sum(known[p] for p in base_step[0]))
            found = [c for c in options if c is not None and c <= bound]
            if found and (current is None or min(found) < current):
                known[target] = min(found)
                changed = True
        if not changed:
            break
    return known.get(conclusion)
