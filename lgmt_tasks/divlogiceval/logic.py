"""The symbolic side of DivLogicEval (Chung et al., 2025, §2.1, Appendices A–B): propositions, options, questions.

Everything here is propositional logic over the eight variables A–H of the paper, as formulas of our AST
(`Atom(name, ())`). The English side lives in `divlogiceval_english`; the builder (`divlogiceval`) joins the two
and proves every answer key with Z3.

Content (Algorithm 1). An instance has `l` propositions, `l` uniform in 2..n+1. Before each proposition the
selection probability of every variable is recomputed from the occurrence counter `o`: Eq. (3),
(max(o) + 1 − oᵢ) / Σⱼ (max(o) + 1 − oⱼ), except that a variable already used n − 1 times gets 0.1 and one used n
times or more gets 0 (the paper mixes the fixed 0.1 with the Eq. (3) values; we renormalise the mixture, which is
the only way to sample from it). Three distinct variables are drawn without replacement with those weights and fitted
into one of the three implication rules of Eq. (1), chosen uniformly; each proposition is the premise of its rule:

- rule 1a, ``A → B`` (contraposition gives ``¬B → ¬A``); only the first two variables are used (Appendix B);
- rule 1b, ``¬(A ∧ B) → C`` (gives ``¬A → C``);
- rule 1c, ``(A ∨ B) → C`` (gives ``A → C``).

Only the variables fitted into the rule are counted (Algorithm 1, line 16).

Potential answer set (§2.1, Appendix B). Over the variables x′ with 0 < oₖ < n: every literal (``X``, ``¬X``) and
every implication between literals of two different variables (``X → ¬Y``). Each candidate is decided against the
content and falls into the entailment group `entailed` or the non-entailment group `not_entailed`; entailed
candidates that a single proposition already entails are removed, so that every correct option needs at least two
propositions.

Deciding the split. The candidates of one instance number about a hundred; asking Z3 about each (a few
milliseconds per query, most of it building a fresh context) would make a build of a few hundred instances take
minutes. For eight propositional variables, truth tables are an exact decision procedure that costs microseconds: the
models of a formula are a 256-bit mask, and Γ ⊨ φ iff mask(Γ) ∧ ¬mask(φ) = 0. The builder therefore splits the
candidates with truth tables and then proves the answer key of every row with Z3 (DESIGN decision 2), dropping and
counting any item where the two disagree or Z3 does not decide (neither has happened); the test suite proves every
other claim of the construction with Z3 as well, over a whole default build.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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


def selection_weights(occurrences: Sequence[int], n: int) -> list[float]:
    """The selection probabilities of the eight variables before a proposition (Algorithm 1, Eq. 3).

    Args:
        occurrences: How often each variable has been fitted into a rule so far (the counter `o`).
        n: The paper's `n`: a variable may occur at most n times in an instance.

    Returns:
        Eq. (3) for each variable, except 0.1 at n − 1 occurrences and 0 at n or more, renormalised to sum to 1
        (all zeros if no variable is selectable).
    """
    top = max(occurrences) + 1
    denominator = sum(top - o for o in occurrences)
    raw = []
    for o in occurrences:
        if o >= n:
            raw.append(0.0)
        elif o == n - 1:
            raw.append(0.1)
        else:
            raw.append((top - o) / denominator)
    total = sum(raw)
    return [w / total for w in raw] if total > 0 else raw


def _weighted_sample(rng: random.Random, weights: Sequence[float], k: int) -> list[int] | None:
    """Draw `k` distinct indices with the given weights (successive draws, weights fixed), or None if impossible."""
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


def sample_content(rng: random.Random, n: int) -> tuple[list[Proposition], list[int]] | None:
    """Sample the content of one instance (Algorithm 1).

    Args:
        rng: The instance's random generator.
        n: The paper's `n` (2..n+1 propositions; at most n occurrences of a variable).

    Returns:
        The propositions and the final occurrence counter, or None if fewer than three variables were selectable
        (impossible for n ≥ 2, kept for safety).
    """
    count = rng.randint(2, n + 1)
    occurrences = [0] * len(VARIABLES)
    propositions: list[Proposition] = []
    for _ in range(count):
        picked = _weighted_sample(rng, selection_weights(occurrences, n), 3)
        if picked is None:
            return None
        rule = rng.choice(RULES)
        used = picked[:2] if rule == "1a" else picked
        names = tuple(VARIABLES[i] for i in used)
        for i in used:
            occurrences[i] += 1
        propositions.append(Proposition(rule, names, rule_formula(rule, names)))
    return propositions, occurrences


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
        entailed: Entailed candidates that no single proposition entails (the paper's filtered group e).
        single: Entailed candidates that a single proposition already entails (removed from e).
        not_entailed: Candidates the content does not entail (the group n).
    """

    entailed: tuple[Formula, ...]
    single: tuple[Formula, ...]
    not_entailed: tuple[Formula, ...]


def split_answers(content: Sequence[Formula], candidates: Iterable[Formula]) -> AnswerSplit:
    """Split candidates into entailed-by-two-or-more, entailed-by-one, and not entailed (truth tables).

    Args:
        content: The content propositions.
        candidates: The potential answer set.

    Returns:
        The split, each group in the candidates' order.
    """
    whole = models_of_all(content)
    singles = [models(p) for p in content]
    entailed: list[Formula] = []
    single: list[Formula] = []
    not_entailed: list[Formula] = []
    for candidate in candidates:
        counter = ~models(candidate)
        if whole & counter:
            not_entailed.append(candidate)
        elif any(mask & counter == 0 for mask in singles):
            single.append(candidate)
        else:
            entailed.append(candidate)
    return AnswerSplit(tuple(entailed), tuple(single), tuple(not_entailed))


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
