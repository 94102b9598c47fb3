"""The symbolic side of DivLogicEval (Chung et al., 2025, §2.1, Appendices A–B): propositions, options, questions.

Everything here is propositional logic over the eight variables A–H of the paper, as formulas of our AST
(`Atom(name, ())`). The English side lives in `divlogiceval_english`; the builder (`divlogiceval`) joins the two
and proves every answer key with Z3.

Content (Algorithm 1, as the authors' ILogicEval `make_expression.py` runs it). An instance has `l` propositions,
`l` uniform in 2..n+1. Before each proposition the selection weight of every variable is recomputed: the raw Eq. (3)
numerator max(o) + 1 − oᵢ, except 0.1 for a variable already used n − 1 times and 0 for one used n times, the
mixture normalised once (`selection_weights`). Three distinct variables are drawn without replacement with those
weights, shuffled, and fitted into one of the three implication rules of Eq. (1), drawn 1/4, 1/4, 1/2 as the authors'
`randint(0, 3)` does (`RULE_DRAW`); each proposition is the premise of its rule:

- rule 1a, ``A → B`` (contraposition gives ``¬B → ¬A``); only the first two variables are used (Appendix B);
- rule 1b, ``¬(A ∧ B) → C`` (gives ``¬A → C``);
- rule 1c, ``(A ∨ B) → C`` (gives ``A → C``).

Only the variables fitted into the rule count as uses (Algorithm 1, line 16); the counter Eq. (3) reads follows the
authors' code (`_count_uses`). Then literal facts (``X``, ``¬X``) over the variables used fewer than n times are
inserted among the propositions (`add_facts`), as in the paper's Appendix H instance.

Potential answer set (§2.1, Appendix B). Over the variables x′ with 0 < oₖ < n: every literal (``X``, ``¬X``) and
every implication between literals of two different variables (``X → ¬Y``). Each candidate is decided against the
content and falls into the entailment group `entailed` or the non-entailment group `not_entailed`; entailed
candidates that a single proposition already entails, and implications the content entails only vacuously (it fixes
one of their literals), are removed, so that every correct option needs at least two propositions and some chaining.
`surface_signature` says what a form-only shortcut could read off an option; the builder gives every distractor the
answer's signature. `role_key` says where an option's literals sit in the shown rules and facts (antecedent or
consequent of how many rules, fired on or concluded as this very literal, stated as a fact, feeding a rule that
concludes a conclusion variable, linked by a rule), the reading of the shortcut battery's role family;
the builder gives 3c1e distractors the answer's whole role vector and balances the roles of 3e1c and missing-premise
options over a build (`divlogiceval.balance`).

Deciding the split. The candidates of one instance number about a hundred; asking Z3 about each (a few
milliseconds per query, most of it building a fresh context) would make a build of a few hundred instances take
minutes. For eight propositional variables, truth tables are an exact decision procedure that costs microseconds: the
models of a formula are a 256-bit mask, and Γ ⊨ φ iff mask(Γ) ∧ ¬mask(φ) = 0. The builder therefore splits the
candidates with truth tables and then proves the answer key of every row with Z3 (DESIGN decision 2), dropping and
counting any item where the two disagree or Z3 does not decide (neither has happened), and proves every construction
claim with Z3 as well (`build.construction_claims`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from lgmt_tasks.logic.syntax import And, Atom, Formula, Implies, Not, Or, children

VARIABLES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")
"""The eight variables of the paper."""

Rule = Literal["1a", "1b", "1c"]
RULES: tuple[Rule, ...] = ("1a", "1b", "1c")
"""The three implication rules of Eq. (1), by equation number."""

RULE_FORMS: dict[str, str] = {"1a": "A → B", "1b": "¬(A ∧ B) → C", "1c": "(A ∨ B) → C"}
"""The premise of each rule, the form a content proposition takes."""

_ASSIGNMENTS = 1 << len(VARIABLES)
FULL_MASK = (1 << _ASSIGNMENTS) - 1
"""The mask of every assignment (the models of ⊤)."""

_ATOM_MASKS: dict[str, int] = {
    name: sum(1 << a for a in range(_ASSIGNMENTS) if a >> bit & 1) for bit, name in enumerate(VARIABLES)
}


# ------------------------------------------------------------------------------------------------- truth tables


@lru_cache(maxsize=1 << 16)
def models(formula: Formula) -> int:
    """The set of models of a propositional formula over A–H, as a bit mask over the 256 assignments.

    Args:
        formula: A formula built from atoms A–H with ¬, ∧, ∨ and →.

    Returns:
        Bit `a` is set iff assignment `a` (bit i of `a` = truth value of the i-th variable) satisfies the formula.

    Raises:
        ValueError: On any other connective or atom (the generator never makes one).
    """
    if isinstance(formula, Atom):
        if formula.args or formula.pred not in _ATOM_MASKS:
            raise ValueError(f"not a DivLogicEval variable: {formula!r}")
        return _ATOM_MASKS[formula.pred]
    if isinstance(formula, Not):
        return FULL_MASK & ~models(formula.body)
    if isinstance(formula, And):
        mask = FULL_MASK
        for arg in formula.args:
            mask &= models(arg)
        return mask
    if isinstance(formula, Or):
        mask = 0
        for arg in formula.args:
            mask |= models(arg)
        return mask
    if isinstance(formula, Implies):
        return (FULL_MASK & ~models(formula.left)) | models(formula.right)
    raise ValueError(f"unsupported connective in {formula!r}")


def models_of_all(formulas: Iterable[Formula]) -> int:
    """The models of a conjunction of formulas (⊤ for none)."""
    mask = FULL_MASK
    for formula in formulas:
        mask &= models(formula)
    return mask


def tt_entails(premises: Iterable[Formula], conclusion: Formula) -> bool:
    """Whether the premises entail the conclusion, decided by truth table (exact for propositional logic)."""
    return models_of_all(premises) & ~models(conclusion) == 0


# ------------------------------------------------------------------------------------------------- propositions


def var(name: str) -> Atom:
    """The propositional atom of a variable."""
    return Atom(name, ())


def rule_formula(rule: str, variables: Sequence[str]) -> Formula:
    """Fit variables into the premise of a rule of Eq. (1).

    Args:
        rule: `1a`, `1b` or `1c`.
        variables: Two variables for 1a, three for 1b and 1c.

    Returns:
        ``A → B``, ``¬(A ∧ B) → C`` or ``(A ∨ B) → C`` with the variables in order.

    Raises:
        ValueError: On an unknown rule or the wrong number of variables.
    """
    atoms = [var(v) for v in variables]
    if rule == "1a" and len(atoms) == 2:
        return Implies(atoms[0], atoms[1])
    if rule == "1b" and len(atoms) == 3:
        return Implies(Not(And((atoms[0], atoms[1]))), atoms[2])
    if rule == "1c" and len(atoms) == 3:
        return Implies(Or((atoms[0], atoms[1])), atoms[2])
    raise ValueError(f"rule {rule!r} with variables {list(variables)}: expected 1a with 2, or 1b / 1c with 3")


@dataclass(frozen=True)
class Proposition:
    """One content proposition: a rule of Eq. (1) instantiated with variables.

    Attributes:
        rule: `1a`, `1b` or `1c`.
        variables: The variables fitted into the rule, in order.
        formula: The instantiated premise of the rule.
    """

    rule: str
    variables: tuple[str, ...]
    formula: Formula


RULE_DRAW: tuple[Rule, ...] = ("1b", "1c", "1a", "1a")
"""The rule of each value of the authors' `random.randint(0, 3)` (ILogicEval `make_expression.py:74`, read by
`addbyrule`, lines 43–57): 0 is ``¬(A ∧ B) → C``, 1 is ``(A ∨ B) → C``, 2 and 3 are ``A → B``; so 1a is drawn half the
time and 1b, 1c a quarter each (the paper's text does not say; the authors' code decides)."""

FACT = "fact"
"""The `rule` of a literal fact ``X`` / ``¬X`` added to the content (ILogicEval `make_expression.py:93–98`)."""


def draw_rule(rng: random.Random) -> Rule:
    """Draw the rule of one proposition as the authors' generator does (see `RULE_DRAW`)."""
    return RULE_DRAW[rng.randint(0, 3)]


def selection_weights(priority: Sequence[int], uses: Sequence[int], n: int) -> list[float]:
    """The selection probabilities of the eight variables before a proposition, as the authors compute them.

    ILogicEval `make_expression.py:68–72`: the raw numerator of Eq. (3), ``max(o) + 1 − oᵢ``, is mixed unnormalised
    with the fixed 0.1 for a variable used n − 1 times (0 at n uses), and the mixture is normalised once. (Mixing the
    0.1 with normalised Eq. (3) values instead would make a variable's (n)-th use about ten times likelier.)

    Args:
        priority: The authors' occurrence counter that Eq. (3) reads (`candidates_count`, see `sample_content`).
        uses: How often each variable has been fitted into a rule so far (`candidates_use`, the cap).
        n: The paper's `n`: a variable may occur at most n times in an instance.

    Returns:
        One probability per variable, summing to 1 (all zeros if no variable is selectable).
    """
    top = max(priority) + 1
    raw = []
    for p, u in zip(priority, uses, strict=True):
        if u >= n:
            raw.append(0.0)
        elif u == n - 1:
            raw.append(0.1)
        else:
            raw.append(float(top - p))
    total = sum(raw)
    return [w / total for w in raw] if total > 0 else raw


def _weighted_sample(rng: random.Random, weights: Sequence[float], k: int) -> list[int] | None:
    """Draw `k` distinct indices with the given weights (successive draws, renormalised), or None if impossible."""
    remaining = list(weights)
    chosen: list[int] = []
    for _ in range(k):
        total = sum(remaining)
        if total <= 0:
            return None
        x = rng.random() * total
        acc = 0.0
        pick = max(i for i, w in enumerate(remaining) if w > 0)  # guards against rounding at the top end
        for i, w in enumerate(remaining):
            acc += w
            if w > 0 and x < acc:
                pick = i
                break
        chosen.append(pick)
        remaining[pick] = 0.0
    return chosen


def _count_uses(priority: list[int], uses: list[int], used: Sequence[int]) -> None:
    """Update both counters after a proposition, as ILogicEval `make_expression.py:82–87` does.

    Every fitted variable gains a use (the cap of Algorithm 1). The counter Eq. (3) reads gains 2 for the first
    antecedent variable and 1 for the last one (the loop adds 2 to each antecedent, then takes 1 back from the last),
    and nothing for the consequent: for ``A → B`` that is A + 1; for the three-variable rules A + 2, B + 1.
    """
    for i in used[:-1]:
        priority[i] += 2
    priority[used[-2]] -= 1
    for i in used:
        uses[i] += 1


def add_facts(rng: random.Random, propositions: list[Proposition], uses: Sequence[int], n: int) -> None:
    """Insert literal facts into the content, as ILogicEval `make_expression.py:91–98` does.

    Over the variables used fewer than n times, ``randint(0, ⌊len / 1.5⌋)`` of them are drawn without replacement;
    each becomes the fact ``¬X`` with probability 1/3 (else ``X``) and is inserted at a uniform position. Facts do not
    count as uses (the authors add them after the counters are final).
    """
    eligible = [name for name, u in zip(VARIABLES, uses, strict=True) if 0 < u < n]
    for name in rng.sample(eligible, rng.randint(0, int(len(eligible) / 1.5))):
        positive = rng.randint(0, 2) != 0
        fact = Proposition(FACT, (name,), literal(name, positive))
        propositions.insert(rng.randint(0, len(propositions)), fact)


def sample_content(rng: random.Random, n: int) -> tuple[list[Proposition], list[int]] | None:
    """Sample the content of one instance (Algorithm 1, as ILogicEval `make_expression.py:62–98` runs it).

    Args:
        rng: The instance's random generator.
        n: The paper's `n` (2..n+1 rule propositions; at most n occurrences of a variable).

    Returns:
        The propositions (rule premises and literal facts, in content order) and the final use counter, or None if
        fewer than three variables were selectable (impossible for n ≥ 2, kept for safety).
    """
    count = rng.randint(2, n + 1)
    priority = [0] * len(VARIABLES)
    uses = [0] * len(VARIABLES)
    propositions: list[Proposition] = []
    for _ in range(count):
        picked = _weighted_sample(rng, selection_weights(priority, uses, n), 3)
        if picked is None:
            return None
        rng.shuffle(picked)  # make_expression.py:73: the roles in the rule do not follow the draw order
        rule = draw_rule(rng)
        used = picked[:2] if rule == "1a" else picked
        names = tuple(VARIABLES[i] for i in used)
        _count_uses(priority, uses, used)
        propositions.append(Proposition(rule, names, rule_formula(rule, names)))
    add_facts(rng, propositions, uses, n)
    return propositions, uses


# ------------------------------------------------------------------------------------------------------- options


def literal(name: str, positive: bool) -> Formula:
    """``X`` or ``¬X``."""
    return var(name) if positive else Not(var(name))


def is_literal(formula: Formula) -> bool:
    """Whether a formula is ``X`` or ``¬X`` for a variable X."""
    return isinstance(formula, Atom) or (isinstance(formula, Not) and isinstance(formula.body, Atom))


def literal_variable(formula: Formula) -> str:
    """The variable of a literal."""
    atom = formula.body if isinstance(formula, Not) else formula
    assert isinstance(atom, Atom)
    return atom.pred


def option_variables(occurrences: Sequence[int], n: int) -> list[str]:
    """The variables x′ the options are built from: used, but fewer than n times (Appendix B)."""
    return [name for name, o in zip(VARIABLES, occurrences) if 0 < o < n]


def potential_answers(variables: Sequence[str]) -> list[Formula]:
    """The potential answer set over some variables: every literal, and every implication between two literals.

    Args:
        variables: The variables x′.

    Returns:
        Literals first (``X``, ``¬X`` per variable), then implications ``l₁ → l₂`` with different variables.
    """
    literals = [literal(v, positive) for v in variables for positive in (True, False)]
    pairs = [Implies(a, b) for a in literals for b in literals if literal_variable(a) != literal_variable(b)]
    return [*literals, *pairs]


def kind(formula: Formula) -> str:
    """The kind of an option: `literal`, `implication` (between literals), `1b` or `1c` (rule premises)."""
    if is_literal(formula):
        return "literal"
    if isinstance(formula, Implies):
        if isinstance(formula.left, Not) and isinstance(formula.left.body, And):
            return "1b"
        if isinstance(formula.left, Or):
            return "1c"
        if is_literal(formula.left) and is_literal(formula.right):
            return "implication"
    raise ValueError(f"not an option shape: {formula!r}")


def shape(formula: Formula) -> str:
    """The surface shape of an option: its kind and the polarity of its literals, e.g. `implication+-` for X → ¬Y.

    Polarity matters because it can give an answer away: every rule of Eq. (1) has a positive consequent, so an
    implication X → ¬Y is never entailed, and an option set in which only the answer has that pattern would be
    solvable without reasoning. Options are therefore drawn with the answer's shape where possible.
    """
    signs = "".join("-" if isinstance(f, Not) else "+" for _, f in _literals(formula))
    return kind(formula) + signs


def _literals(formula: Formula) -> list[tuple[int, Formula]]:
    """The literals of an option, left to right (negations of conjunctions are not literals)."""
    if is_literal(formula):
        return [(0, formula)]
    out: list[tuple[int, Formula]] = []
    for part in children(formula):
        out += _literals(part)
    return out


@dataclass(frozen=True)
class AnswerSplit:
    """The potential answer set of one content, split by entailment.

    Attributes:
        entailed: Entailed candidates that no single proposition entails and that are not vacuous (the paper's
            filtered group e).
        single: Entailed candidates that a single proposition already entails (removed from e).
        vacuous: Entailed implications ``l₁ → l₂`` that hold only because the content alone fixes a literal (it
            entails ``l₂`` or ``¬l₁``); removed from e, since they test no chaining (literal facts make them common).
        not_entailed: Candidates the content does not entail (the group n).
    """

    entailed: tuple[Formula, ...]
    single: tuple[Formula, ...]
    vacuous: tuple[Formula, ...]
    not_entailed: tuple[Formula, ...]


def vacuity_witnesses(formula: Formula) -> list[Formula]:
    """What a content would have to entail for an implication between literals to hold vacuously.

    Returns:
        ``[l₂, ¬l₁]`` for ``l₁ → l₂`` (the content entails the implication trivially if it entails either); nothing
        for any other shape.
    """
    if isinstance(formula, Implies) and is_literal(formula.left) and is_literal(formula.right):
        left = formula.left
        return [formula.right, left.body if isinstance(left, Not) else Not(left)]
    return []


def split_answers(content: Sequence[Formula], candidates: Iterable[Formula]) -> AnswerSplit:
    """Split candidates into entailed (non-vacuously, by two or more), by one, vacuously, and not entailed.

    Args:
        content: The content propositions.
        candidates: The potential answer set.

    Returns:
        The split, each group in the candidates' order (decided on truth tables).
    """
    whole = models_of_all(content)
    singles = [models(p) for p in content]
    groups: dict[str, list[Formula]] = {"entailed": [], "single": [], "vacuous": [], "not_entailed": []}
    for candidate in candidates:
        counter = ~models(candidate)
        if whole & counter:
            groups["not_entailed"].append(candidate)
        elif any(mask & counter == 0 for mask in singles):
            groups["single"].append(candidate)
        elif any(whole & ~models(w) == 0 for w in vacuity_witnesses(candidate)):
            groups["vacuous"].append(candidate)
        else:
            groups["entailed"].append(candidate)
    return AnswerSplit(**{name: tuple(group) for name, group in groups.items()})


@lru_cache(maxsize=65536)
def _option_literals(formula: Formula) -> tuple[Formula, ...]:
    """`_literals` of an option, without positions (cached: the same candidates recur across a content's pairs)."""
    return tuple(f for _, f in _literals(formula))


def _mentioned(formula: Formula) -> set[str]:
    """The variables a formula mentions."""
    return {literal_variable(f) for _, f in _literals(formula)}


def surface_signature(option: Formula, shown: Sequence[Formula], conclusion: Formula | None) -> tuple[object, ...]:
    """Everything about an option that a form-only shortcut can read off the row, relative to the content shown.

    Options with equal signatures cannot be told apart by any heuristic of `divlogiceval.shortcuts` except through
    the sentences chosen for their variables and the templates (both drawn at random, independently of which option
    is the answer). The builder therefore draws the distractors with the answer's signature.

    Per literal of the option, left to right: its polarity; whether a shown proposition mentions its variable;
    whether the content states it as a fact (1), states its negation (−1) or neither (0); and how it relates to each
    literal of the conclusion (same literal 1, same variable negated 2, other variable 0). For the option as a whole:
    its kind, and for each pair of its variables whether some shown proposition mentions both.

    Args:
        option: The option.
        shown: The propositions shown in the content.
        conclusion: The conclusion of a missing-premise question (None otherwise).
    """
    return signature_reader(shown, conclusion)(option)


def signature_reader(shown: Sequence[Formula], conclusion: Formula | None) -> Callable[[Formula], tuple[object, ...]]:
    """`surface_signature` for many options against one shown content and conclusion (read once, not per option)."""
    mentions = [_mentioned(p) for p in shown]
    facts = {f for f in shown if is_literal(f)}
    conclusion_literals = [f for _, f in _literals(conclusion)] if conclusion is not None else []

    per_literal: dict[Formula, tuple[object, ...]] = {}

    def literal_reading(lit: Formula) -> tuple[object, ...]:
        name = literal_variable(lit)
        negated = Not(lit) if isinstance(lit, Atom) else lit.body if isinstance(lit, Not) else lit
        fact = 1 if lit in facts else -1 if negated in facts else 0
        relation = tuple(1 if c == lit else 2 if literal_variable(c) == name else 0 for c in conclusion_literals)
        return (isinstance(lit, Not), any(name in m for m in mentions), fact, relation)

    def read(option: Formula) -> tuple[object, ...]:
        literals = _option_literals(option)
        readings = tuple(
            per_literal[lit] if lit in per_literal else per_literal.setdefault(lit, literal_reading(lit))
            for lit in literals
        )
        names = [literal_variable(f) for f in literals]
        together = tuple(any(a in m and b in m for m in mentions) for i, a in enumerate(names) for b in names[i + 1 :])
        return (kind(option), readings, together)

    return read


def necessary_premises(content: Sequence[Formula], conclusion: Formula) -> list[int]:
    """Indices of the propositions without which the content no longer entails the conclusion (truth tables)."""
    return [i for i in range(len(content)) if not tt_entails([p for j, p in enumerate(content) if j != i], conclusion)]


def rule_shaped(rule: str, variables: Sequence[str]) -> list[Formula]:
    """Every instantiation of a rule's premise over some variables (distractors shaped like a missing premise).

    Args:
        rule: `1a`, `1b` or `1c`.
        variables: The variables to instantiate with (distinct in each formula).

    Returns:
        For 1a every ``X → Y``; for 1b and 1c every formula with an unordered pair {X, Y} and a third variable Z.
    """
    out: list[Formula] = []
    if rule == "1a":
        return [rule_formula("1a", (x, y)) for x in variables for y in variables if x != y]
    for i, x in enumerate(variables):
        for y in variables[i + 1 :]:
            for z in variables:
                if z not in (x, y):
                    out.append(rule_formula(rule, (x, y, z)))
    return out


def pick_distinct(
    rng: random.Random, pool: Sequence[Formula], k: int, avoid: Sequence[Formula] = (), at_most: bool = False
) -> list[Formula] | None:
    """Draw `k` formulas from `pool` that are pairwise inequivalent and inequivalent to every formula in `avoid`.

    Two equivalent options would make an option set with two right answers, or a giveaway; equivalence is decided
    on truth tables.

    Args:
        rng: The instance's random generator.
        pool: Candidates (drawn in a random order).
        k: How many to draw.
        avoid: Formulas already chosen.
        at_most: Return what there is when the pool has fewer than `k` such formulas (instead of None).

    Returns:
        The formulas, or None if the pool does not have `k` such formulas (and `at_most` is false).
    """
    seen = {models(f) for f in avoid}
    chosen: list[Formula] = []
    for formula in rng.sample(list(pool), len(pool)):
        if len(chosen) == k:
            break
        mask = models(formula)
        if mask not in seen:
            seen.add(mask)
            chosen.append(formula)
    if len(chosen) < k and not at_most:
        return None
    return chosen


# --------------------------------------------------------------------------------------------------------- roles

RoleLiteral = tuple[str, bool]
"""A literal as `(variable, positive)`."""


def role_literals(formula: Formula) -> list[RoleLiteral]:
    """The literals of a formula as a role reader sees them, left to right.

    A literal is itself; an implication gives its antecedent's then its consequent's; ``¬(A ∧ B)`` gives ¬A and ¬B
    (the literals it fires on); a conjunction or disjunction gives its arguments'. This is the reading of
    `divlogiceval.shortcuts` (the role family), which calls it on parsed option strings.
    """
    if isinstance(formula, Atom):
        return [(formula.pred, True)]
    if isinstance(formula, Not) and isinstance(formula.body, Atom):
        return [(formula.body.pred, False)]
    if isinstance(formula, Implies):
        return [*role_literals(formula.left), *role_literals(formula.right)]
    if isinstance(formula, Not) and isinstance(formula.body, And):
        return [(v, not p) for v, p in role_literals(formula.body)]
    if isinstance(formula, (And, Or)):
        return [lit for arg in formula.args for lit in role_literals(arg)]
    return []


@dataclass(frozen=True)
class RoleTable:
    """The shown content read as rules, for the roles of options' literals (see `role_key`).

    Attributes:
        rules: Each rule implication as its antecedent literals (as they fire) and its consequent literal.
        facts: The literal facts.
        conclusion: The variables of the conclusion (empty without one).
    """

    rules: tuple[tuple[tuple[RoleLiteral, ...], RoleLiteral], ...]
    facts: frozenset[RoleLiteral]
    conclusion: frozenset[str]

    @classmethod
    def of(cls, shown: Sequence[Formula], conclusion: Formula | None) -> RoleTable:
        """Read the shown content (and the conclusion of a missing-premise question)."""
        rules = []
        facts = set()
        for formula in shown:
            if is_literal(formula):
                facts.add(role_literals(formula)[0])
            elif isinstance(formula, Implies) and is_literal(formula.right):
                rules.append((tuple(role_literals(formula.left)), role_literals(formula.right)[0]))
        mentioned = frozenset(v for v, _ in role_literals(conclusion)) if conclusion is not None else frozenset()
        return cls(tuple(rules), frozenset(facts), mentioned)

    def literal_roles(self, variable: str, positive: bool) -> tuple[int, ...]:
        """The roles of one literal (`ROLE_FEATURES` of `divlogiceval.shortcuts`, in that order).

        How many rules have its variable in the antecedent; as the consequent; fire on this very literal; conclude
        this very literal; whether the content states it (1), its negation (−1) or neither (0); how many rules with
        its variable in the antecedent have a conclusion variable as consequent; whether the conclusion mentions it.
        """
        rules = self.rules
        lit = (variable, positive)
        return (
            sum(any(v == variable for v, _ in ante) for ante, _ in rules),
            sum(c[0] == variable for _, c in rules),
            sum(lit in ante for ante, _ in rules),
            sum(c == lit for _, c in rules),
            1 if lit in self.facts else -1 if (variable, not positive) in self.facts else 0,
            sum(any(v == variable for v, _ in ante) and c[0] in self.conclusion for ante, c in rules),
            int(variable in self.conclusion),
        )

    def linked(self, literals: Sequence[RoleLiteral]) -> bool:
        """Whether a rule leads from a variable of the literals but the last (antecedent) to the last (consequent)."""
        if len(literals) < 2:
            return False
        last = literals[-1][0]
        first = {v for v, _ in literals[:-1]}
        return any(c[0] == last and any(v in first for v, _ in ante) for ante, c in self.rules)


LITERAL_ROLES: tuple[str, ...] = (
    "antecedent",
    "consequent",
    "antecedent-literal",
    "consequent-literal",
    "fact",
    "feeds-conclusion",
    "in-conclusion",
)
"""The names of `RoleTable.literal_roles`, in order (the `ROLE_FEATURES` of `divlogiceval.shortcuts`)."""


RoleReading = tuple[tuple[tuple[int, ...], ...], bool]
"""What a role reader sees of one option: per literal its `LITERAL_ROLES`, and whether a rule links its literals."""


def role_key(option: Formula, table: RoleTable) -> RoleReading:
    """An option's full role vector: per literal its roles (`RoleTable.literal_roles`), and whether a rule links them.

    Equal role keys give equal values of every role feature the shortcut battery reads (`roles-by-vector` and each
    of its projections, and the direct role rules), so a role reader cannot tell such options apart.
    """
    literals = role_literals(option)
    return (tuple(table.literal_roles(v, p) for v, p in literals), table.linked(literals))
