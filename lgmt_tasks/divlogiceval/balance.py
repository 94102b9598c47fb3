"""Role balance over a build: 3e1c and missing-premise options whose roles say nothing about the answer.

Why. A reader who never chains anything can look at where an option's literals sit in the shown rules (`role_key`:
antecedent or consequent of how many rules, a literal some rule concludes, a fact, feeding a rule that concludes a
conclusion variable). In a 3c1e item the three non-entailed distractors can share the entailed answer's whole role
vector (non-entailed options are plentiful), and the builder requires it. In 3e1c the three distractors are the
entailed ones and in a missing-premise item the answer is the premise the chain needs; a content of 2 to n + 1
propositions almost never holds four options of one role vector there (none in 1,500 draws;
`benchmarks/results/divlogiceval_role_battery.json`). Matching only a coarse role per item left the rest to leak
(the fitted role family found the answer about half the time).

What instead. What a role reader can learn is how often an option with a given role key is the answer. So the
builder keeps the per-item surface-signature match and balances the roles over the whole build: every instance
offers several drawn contents (`Menu`, `MENUS_PER_ITEM` of them: 5 for 3e1c, 30 for missing) and many option
choices in each; in instance order, `RoleBalance.choose` takes the choice that keeps, for every key of the
battery's role family
(`divlogiceval.shortcuts.ROLE_KEYS`: each role, the link, the pairs, the whole vector), the answers with that key at
one in four of the options with it (3 · answers = distractors), and keeps each direct role rule
(`ROLE_RULES`, largest and smallest) at chance; further passes re-choose each instance against all the others
(`balanced_choices`). Balancing the whole vector balances every part of it too.

Every choice is an admissible item of its type (the answer key and construction claims are proven afterwards,
as for any item); only which admissible item an instance becomes is steered. The choice runs in instance order in
one process, so the rows do not depend on the number of build processes.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from lgmt_tasks.divlogiceval.logic import Proposition, RoleTable, models, role_key
from lgmt_tasks.divlogiceval.shortcuts import ROLE_KEYS, ROLE_RULES
from lgmt_tasks.logic.syntax import Formula

MENUS_PER_ITEM: dict[str, int] = {"3e1c": 5, "missing": 30}
"""Drawn contents offered per instance (each with its option sets): more choice balances better and draws longer.
A missing-premise content offers one answer per (conclusion, removed premise) pair, so it needs more contents
(measured in `benchmarks/results/divlogiceval_role_battery.json`, `balance_trials`)."""

TRIPLES_PER_SET = 20
"""At most this many distractor triples are tried per option set (a seeded sample)."""

ANSWERS_PER_SET = 15
"""At most this many answers are tried per option set of a 3e1c content (a seeded sample)."""

VECTOR_WEIGHT = 8.0
"""Weight of the whole role vector's imbalance against each coarser key's (its keys are the sparsest)."""

BALANCE_PASSES = 3
"""Passes over a type's instances (`balanced_choices`): the greedy pass, then passes that re-choose each instance."""

RULE_WEIGHT = 40.0
"""Weight of the direct role rules' drift from chance against the keys' squared imbalance."""


@dataclass(frozen=True)
class OptionSet:
    """The options one shown content (and conclusion) allows, all of one surface signature.

    Attributes:
        shown: Indices of the shown propositions.
        conclusion: The conclusion of a missing-premise question (None otherwise).
        answers: The possible answers.
        distractors: The possible distractors (three of distinct models are taken).
        avoid: Formulas no distractor may be equivalent to (the answer and conclusion of a missing premise).
    """

    shown: tuple[int, ...]
    conclusion: Formula | None
    answers: tuple[Formula, ...]
    distractors: tuple[Formula, ...]
    avoid: tuple[Formula, ...] = ()


@dataclass(frozen=True)
class Menu:
    """One drawn content of a question type with every option set it allows.

    Attributes:
        question_type: `3e1c` or `missing`.
        propositions: Every sampled proposition.
        occurrences: Algorithm 1's final occurrence counter.
        option_sets: What the content allows (per surface signature; per conclusion and removed premise).
    """

    question_type: str
    propositions: tuple[Proposition, ...]
    occurrences: tuple[int, ...]
    option_sets: tuple[OptionSet, ...]


@dataclass(frozen=True)
class Choice:
    """One admissible item: a menu, one of its option sets, the answer and three distractors."""

    menu: Menu
    option_set: OptionSet
    answer: Formula
    distractors: tuple[Formula, ...]


def choices(menu: Menu, option_set: OptionSet, rng: random.Random) -> list[Choice]:
    """The admissible items of one option set, in a seeded order (a sample when there are very many)."""
    avoid = {models(f) for f in option_set.avoid}
    distinct: dict[int, Formula] = {}
    for formula in rng.sample(list(option_set.distractors), len(option_set.distractors)):
        distinct.setdefault(models(formula), formula)
    pool = [f for mask, f in distinct.items() if mask not in avoid]
    triples = list(itertools.combinations(pool, 3))
    rng.shuffle(triples)
    answers = rng.sample(list(option_set.answers), min(len(option_set.answers), ANSWERS_PER_SET))
    out: list[Choice] = []
    for triple in triples[:TRIPLES_PER_SET]:
        taken = {models(f) for f in triple}
        out += [Choice(menu, option_set, answer, triple) for answer in answers if models(answer) not in taken]
    return out


Reading = tuple[tuple[Hashable, ...], tuple[float, ...]]
"""An option's role-family keys and direct-rule values."""


def _reading(formula: Formula, table: RoleTable) -> Reading:
    key = role_key(formula, table)
    return tuple(view(key) for _, _, view in ROLE_KEYS), tuple(rule(key) for _, rule in ROLE_RULES)


def _table(menu: Menu, option_set: OptionSet) -> RoleTable:
    """The shown content (and conclusion) of an option set, read as rules."""
    return RoleTable.of([menu.propositions[i].formula for i in option_set.shown], option_set.conclusion)


def readings(choice: Choice) -> list[Reading]:
    """The readings of a choice's options, the answer first."""
    table = _table(choice.menu, choice.option_set)
    return [_reading(f, table) for f in (choice.answer, *choice.distractors)]


def _weight(key_name: str) -> float:
    """A role-family key's weight in the imbalance (`VECTOR_WEIGHT` for the whole vector, else 1)."""
    return VECTOR_WEIGHT if key_name == "roles-by-vector" else 1.0


def _rule_scores(values: Sequence[float]) -> list[float]:
    """Expected score above chance of picking the largest, then the smallest, value (the answer is `values[0]`)."""
    out = []
    for best in (max(values), min(values)):
        picks = sum(v == best for v in values)
        out.append((1 / picks if values[0] == best else 0.0) - 1 / len(values))
    return out


class RoleBalance:
    """Running role counts of one question type's chosen items, and the choice that keeps them balanced."""

    def __init__(self) -> None:
        self.answers = [Counter[Hashable]() for _ in ROLE_KEYS]
        self.distractors = [Counter[Hashable]() for _ in ROLE_KEYS]
        self.drift = [0.0] * (2 * len(ROLE_RULES))

    def imbalance(self) -> float:
        """The objective the choices lower: the weighted squared imbalance of every key, and the rules' drift."""
        total = 0.0
        for j, (name, _, _) in enumerate(ROLE_KEYS):
            keys = self.answers[j].keys() | self.distractors[j].keys()
            total += _weight(name) * sum((3 * self.answers[j][k] - self.distractors[j][k]) ** 2 for k in keys)
        return total + RULE_WEIGHT * sum(d**2 for d in self.drift)

    def cost(self, readings: Sequence[Reading]) -> float:
        """How much a choice (its options' readings, the answer first) adds to the imbalance."""
        total = 0.0
        for j, (name, _, _) in enumerate(ROLE_KEYS):
            weight = _weight(name)
            change: Counter[Hashable] = Counter()
            for k, (keys, _) in enumerate(readings):
                change[keys[j]] += 3 if k == 0 else -1
            for key, delta in change.items():
                before = 3 * self.answers[j][key] - self.distractors[j][key]
                total += weight * ((before + delta) ** 2 - before**2)
        for r in range(len(ROLE_RULES)):
            scores = _rule_scores([values[r] for _, values in readings])
            for m, score in enumerate(scores):
                drift = self.drift[2 * r + m]
                total += RULE_WEIGHT * ((drift + score) ** 2 - drift**2)
        return total

    def add(self, readings: Sequence[Reading], sign: int = 1) -> None:
        """Count a chosen item's options (`sign=-1`: take a chosen item's count back out)."""
        for j in range(len(ROLE_KEYS)):
            for k, (keys, _) in enumerate(readings):
                (self.answers if k == 0 else self.distractors)[j][keys[j]] += sign
        for r in range(len(ROLE_RULES)):
            for m, score in enumerate(_rule_scores([values[r] for _, values in readings])):
                self.drift[2 * r + m] += sign * score

    def choose(self, menus: Sequence[Menu], rng: random.Random) -> tuple[Choice, list[Reading]] | None:
        """The admissible item of the menus that adds least imbalance (the first such in a seeded order), counted."""
        best: tuple[float, Choice, list[Reading]] | None = None
        for menu in menus:
            for option_set in menu.option_sets:
                table = _table(menu, option_set)
                read: dict[Formula, Reading] = {}
                for choice in choices(menu, option_set, rng):
                    options = (choice.answer, *choice.distractors)
                    readings = [read[f] if f in read else read.setdefault(f, _reading(f, table)) for f in options]
                    cost = self.cost(readings)
                    if best is None or cost < best[0]:
                        best = (cost, choice, readings)
        if best is None:
            return None
        self.add(best[2])
        return best[1], best[2]


def balanced_choices(
    menus: Sequence[Sequence[Menu]], rng_of: Callable[[int], random.Random], passes: int = 1
) -> list[Choice | None]:
    """One choice per instance from its menus, keeping the roles balanced over all instances.

    The first pass chooses in instance order, each choice against the counts of those before it; every further
    pass revisits the instances in order and re-chooses each against the counts of all the others (the same
    admissible items, in the same seeded order), which repairs early choices made on little information.

    Args:
        menus: Per instance, the contents it is offered.
        rng_of: The seeded generator of an instance (called afresh for each pass, so each pass sees the same
            choices in the same order).
        passes: How many passes (1: the greedy pass alone).
    """
    balance = RoleBalance()
    chosen: list[tuple[Choice, list[Reading]] | None] = []
    for index, offered in enumerate(menus):
        chosen.append(balance.choose(offered, rng_of(index)))
    for _ in range(passes - 1):
        for index, offered in enumerate(menus):
            current = chosen[index]
            if current is None:
                continue
            balance.add(current[1], sign=-1)
            chosen[index] = balance.choose(offered, rng_of(index))
    return [None if c is None else c[0] for c in chosen]
