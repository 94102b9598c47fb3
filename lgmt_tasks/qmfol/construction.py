"""QMFOL logic construction (paper §3.1): basic rules, the implicit rule, labelled fact–conclusion pairs, distractors.

Everything here is monadic FOL over one variable `x` and one object constant `a` (`CONSTANT`): every predicate is
unary, a *node* is a predicate or its negation (the paper's N_i = P_i or ¬P_i), and a *minimal rule* is
∀x (N_l1 ∧ … ∧ N_lm → N_r1 ∨ … ∨ N_rn) over distinct predicates (§2.2). Its width is m + n − 2, the number of its
connectives; its depth is 1.

Algorithm 1 (`basic_rules`). Depth expansion makes the chain N_0 → N_1, …, N_{D−1} → N_D; width expansion then adds
W new nodes, each to a uniformly chosen rule, on its left by ∧ or on its right by ∨ (a fair coin). Every rule stays
minimal, the rule set has depth D (the longest path of the predicate graph, `measure`) and width W (the sum of the
rule widths). Node polarity is a fair coin (`NEGATION_PROBABILITY`).

Implicit rule (Eq. 1, `implicit_rule`). Seen as a graph with an edge from every left node of a rule to every right
node, the nodes of in-degree 0 (N_in: N_0 and the nodes added on a left) and of out-degree 0 (N_out: N_D and the nodes
added on a right) give R_imp = ∧N_in → ∨N_out, which the rules entail: with every N_in true, the chain either
continues to the next rule or leaves it through one of the extra right nodes, all of which are in N_out.

Fact–conclusion pairs (Eqs. 2–4, `facts_and_conclusion`), instantiated on the constant `a` (the paper's "can also be
instantiated over specific object constants"): proper subsets N_in^f ⊂ N_in and N_out^f ⊂ N_out give the fact
f = ∧N_in^f ∧ ∧¬N_out^f (kept non-empty whenever the sizes allow), and with the rest R_in = N_in ∖ N_in^f,
R_out = N_out ∖ N_out^f:

- True: facts {f}, conclusion R_imp^f = ∧R_in → ∨R_out (Eq. 2);
- False: facts {f}, conclusion C_F = ∧R_in ∧ ∧¬R_out ≡ ¬R_imp^f (Eq. 3);
- Unknown1: facts {f, f_U1 = ∧R_in}, conclusion C_U1 = ∨N_U1 for a non-empty proper subset N_U1 ⊂ R_out (Eq. 4):
  the premises force some node of R_out but not which;
- Unknown2: facts {f, f_U2 = C_U1}, conclusion C_U2 = f_U1 (the converse: affirming the consequent).

Unknown1 needs |R_out| ≥ 2, so it needs |N_out| ≥ 2; when it is impossible an Unknown task uses Unknown2 (counted by
the builder under `construction`). Otherwise the two strategies are a fair coin.

Algorithm 2 (`distractor_rule`): with probability 1/2 a basic rule with one node replaced by a node of a fresh
predicate (*distractor for rule*, still minimal); otherwise a new rule linking one basic node to 1–4 fresh nodes
(*distractor for predicate*), universal or existential (a fair coin). A universal one puts the basic node on one side
and at least one fresh node on the other, each side a conjunction or a disjunction (not necessarily minimal); an
existential one is ∃x of the conjunction of all its nodes. Why these cannot change a label: a fresh predicate can
always be interpreted to satisfy its rule (false on a left side, true on a right side), and an existential is
witnessed by another object on which every node is true (the all-true valuation satisfies every rule). The builder
still proves it for every task with Z3 (label and consistency unchanged), as the issue asks.

Fresh predicates are numbered on from the basic ones, so the first k distractors of a seed are the same for every
requested count: the paper's "corresponding" tasks (`Food_d5_w5_0_0_distract0` and `..._distract15`) share their
basic task and differ only by the added distractors.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

from lgmt_tasks.ids import derived_seed
from lgmt_tasks.logic.syntax import And, Atom, Const, Exists, Forall, Formula, Implies, Not, Or, Term, Var
from lgmt_tasks.vocabulary import TRUTH_LABELS

CONSTANT = "a"
"""The object constant every fact and conclusion is about (FOL name; English names come from the topic)."""

VARIABLE = "x"
"""The one variable of every rule."""

NEGATION_PROBABILITY = 0.5
"""Chance that a new predicate node is a negated predicate (the paper's N_i = ¬P_i)."""

LABELS: tuple[str, str, str] = TRUTH_LABELS
"""The task labels, in the order of their index in the paper's ids (`..._<seed>_<label index>_...`)."""

Junction = Literal["and", "or"]
Quantifier = Literal["forall", "exists"]


@dataclass(frozen=True, order=True)
class Node:
    """A predicate node: predicate `P<pred>` or its negation.

    Attributes:
        pred: The predicate's number (`P0`, `P1`, …).
        positive: False for the negated node ¬P.
    """

    pred: int
    positive: bool = True

    @property
    def name(self) -> str:
        """The predicate's FOL name."""
        return f"P{self.pred}"

    def complement(self) -> Node:
        """The node with the other polarity (¬N, without a double negation)."""
        return Node(self.pred, not self.positive)

    def at(self, term: Term) -> Formula:
        """The literal N(term)."""
        atom = Atom(self.name, (term,))
        return atom if self.positive else Not(atom)


def conjunction(formulas: Sequence[Formula]) -> Formula:
    """∧ of one or more formulas (a single formula stays itself)."""
    if not formulas:
        raise ValueError("an empty conjunction has no formula here")
    return formulas[0] if len(formulas) == 1 else And(tuple(formulas))


def disjunction(formulas: Sequence[Formula]) -> Formula:
    """∨ of one or more formulas (a single formula stays itself)."""
    if not formulas:
        raise ValueError("an empty disjunction has no formula here")
    return formulas[0] if len(formulas) == 1 else Or(tuple(formulas))


def junction(formulas: Sequence[Formula], kind: Junction) -> Formula:
    """∧ or ∨ of one or more formulas."""
    return conjunction(formulas) if kind == "and" else disjunction(formulas)


@dataclass(frozen=True)
class Rule:
    """A QMFOL rule: ∀x (lhs → rhs), or ∃x (lhs) when `quantifier == "exists"` (then `rhs` is empty).

    A side of one node has the default junction (`and` on the left, `or` on the right), so equal rules compare equal.

    Attributes:
        lhs: The left nodes (the body of an existential).
        rhs: The right nodes.
        lhs_junction: How the left nodes combine.
        rhs_junction: How the right nodes combine.
        quantifier: `forall` (a rule) or `exists` (an existential distractor).
    """

    lhs: tuple[Node, ...]
    rhs: tuple[Node, ...] = ()
    lhs_junction: Junction = "and"
    rhs_junction: Junction = "or"
    quantifier: Quantifier = "forall"

    def __post_init__(self) -> None:
        if not self.lhs:
            raise ValueError("a rule needs at least one left node")
        if (self.quantifier == "forall") != bool(self.rhs):
            raise ValueError("a universal rule needs right nodes and an existential none")
        if len(self.lhs) == 1 and self.lhs_junction != "and":
            object.__setattr__(self, "lhs_junction", "and")
        if len(self.rhs) <= 1 and self.rhs_junction != "or":
            object.__setattr__(self, "rhs_junction", "or")

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Every node, left then right."""
        return self.lhs + self.rhs

    @property
    def width(self) -> int:
        """The number of connectives ∧/∨ (m + n − 2 for a minimal rule)."""
        return len(self.lhs) - 1 + max(len(self.rhs) - 1, 0)

    def is_minimal(self) -> bool:
        """Tell whether this is a minimal rule (§2.2): ∀, a conjunction → a disjunction, distinct predicates."""
        preds = [n.pred for n in self.nodes]
        return (
            self.quantifier == "forall"
            and self.lhs_junction == "and"
            and self.rhs_junction == "or"
            and len(set(preds)) == len(preds)
        )

    def formula(self) -> Formula:
        """The rule as a sentence."""
        x = Var(VARIABLE)
        left = junction([n.at(x) for n in self.lhs], self.lhs_junction)
        if self.quantifier == "exists":
            return Exists(VARIABLE, left)
        return Forall(VARIABLE, Implies(left, junction([n.at(x) for n in self.rhs], self.rhs_junction)))


def _node_of(literal: Formula) -> Node:
    positive = not isinstance(literal, Not)
    atom = literal.body if isinstance(literal, Not) else literal
    if not (
        isinstance(atom, Atom)
        and len(atom.args) == 1
        and atom.args[0] == Var(VARIABLE)
        and atom.pred.startswith("P")
        and atom.pred[1:].isdigit()
    ):
        raise ValueError(f"not a predicate node of {VARIABLE}: {literal!r}")
    return Node(int(atom.pred[1:]), positive)


def _side_of(f: Formula) -> tuple[tuple[Node, ...], Junction]:
    if isinstance(f, And):
        return tuple(_node_of(a) for a in f.args), "and"
    if isinstance(f, Or):
        return tuple(_node_of(a) for a in f.args), "or"
    return (_node_of(f),), "and"


def rule_of(f: Formula) -> Rule:
    """The rule a formula states (the inverse of `Rule.formula`), to measure rule sets read from a dataset.

    Raises:
        ValueError: If `f` is not ∀x (A → B) or ∃x A over predicate nodes of `x`.
    """
    if isinstance(f, Exists) and f.var == VARIABLE:
        nodes, kind = _side_of(f.body)
        return Rule(nodes, (), kind, quantifier="exists")
    if isinstance(f, Forall) and f.var == VARIABLE and isinstance(f.body, Implies):
        (lhs, lk), (rhs, rk) = _side_of(f.body.left), _side_of(f.body.right)
        return Rule(lhs, rhs, lk, rk if len(rhs) > 1 else "or")
    raise ValueError(f"not a QMFOL rule: {f!r}")


def _new_node(pred: int, rng: random.Random) -> Node:
    return Node(pred, positive=rng.random() >= NEGATION_PROBABILITY)


def basic_rules(depth: int, width: int, rng: random.Random) -> tuple[Rule, ...]:
    """Algorithm 1: the basic rule set of a depth and a width.

    Args:
        depth: D ≥ 1, the number of chain rules N_{i−1} → N_i.
        width: W ≥ 0, the number of width-expansion rounds (each adds one node and one connective).
        rng: The generator (node polarities, rule choices, sides).

    Returns:
        D minimal rules over the predicates P0 … P_{D+W}; rule i has N_{i−1} first on its left and N_i first on
        its right.

    Raises:
        ValueError: If depth < 1 or width < 0.
    """
    if depth < 1:
        raise ValueError(f"depth={depth}: must be at least 1 (Algorithm 1 starts from one chain rule)")
    if width < 0:
        raise ValueError(f"width={width}: must be at least 0")
    chain = [_new_node(0, rng)]
    sides: list[tuple[list[Node], list[Node]]] = []
    for i in range(1, depth + 1):  # depth expansion
        chain.append(_new_node(i, rng))
        sides.append(([chain[i - 1]], [chain[i]]))
    for j in range(depth + 1, depth + width + 1):  # width expansion
        node = _new_node(j, rng)
        lhs, rhs = sides[rng.randrange(len(sides))]
        (lhs if rng.random() < 0.5 else rhs).append(node)
    return tuple(Rule(tuple(lhs), tuple(rhs)) for lhs, rhs in sides)


def implicit_rule(rules: Iterable[Rule]) -> tuple[tuple[Node, ...], tuple[Node, ...]]:
    """Eq. (1): the nodes of in-degree 0 (N_in) and of out-degree 0 (N_out) of the rule graph, by predicate number."""
    rules = tuple(rules)
    lefts = {n for r in rules for n in r.lhs}
    rights = {n for r in rules for n in r.rhs}
    everything = lefts | rights
    return tuple(sorted(everything - rights)), tuple(sorted(everything - lefts))


def implicit_rule_formula(rules: Iterable[Rule]) -> Formula:
    """R_imp = ∀x (∧N_in → ∨N_out) as a sentence."""
    ins, outs = implicit_rule(rules)
    return Rule(ins, outs).formula()


@dataclass(frozen=True)
class Shape:
    """Depth and width of a rule set, measured from the rules (not from the parameters that made them).

    Attributes:
        depth: The longest path of the predicate graph, in edges (a left node → a right node of one rule).
        width: The sum of the rule widths (connectives).
        minimal: Whether every rule is minimal.
    """

    depth: int
    width: int
    minimal: bool


def measure(rules: Iterable[Rule]) -> Shape:
    """Measure depth, width and minimality of a rule set (the quality bar checks them against the parameters).

    Raises:
        ValueError: If the predicate graph has a cycle (then depth is undefined).
    """
    rules = tuple(rules)
    edges: dict[int, set[int]] = {}
    for r in rules:
        for left in r.lhs:
            edges.setdefault(left.pred, set()).update(n.pred for n in r.rhs)
    longest: dict[int, int] = {}
    visiting: set[int] = set()

    def from_node(p: int) -> int:
        if p in longest:
            return longest[p]
        if p in visiting:
            raise ValueError(f"the rule graph has a cycle through P{p}")
        visiting.add(p)
        best = max((1 + from_node(q) for q in edges.get(p, ())), default=0)
        visiting.discard(p)
        longest[p] = best
        return best

    depth = max((from_node(p) for p in sorted(edges)), default=0)
    return Shape(depth, sum(r.width for r in rules), all(r.is_minimal() for r in rules))


FORMS: tuple[str, ...] = ("quantified", "ground")
"""How facts and conclusion are stated: over every entity (the paper's default form, §3.1 and Table 4: "every food item
is perishable", "there exists an animal such that …") or about the one object constant `CONSTANT` (the paper's "can
also be instantiated over specific object constants")."""

DEFAULT_FORM = "quantified"

VARIANTS: tuple[str, ...] = ("implication", "implication+fact", "and+fact", "or+fact", "literal+fact")
"""The conclusion's top connective (`TOPS`) × whether the part of R_imp^f it builds on (R_in, or C_U1 for Unknown2)
is also a fact (a flat conclusion always builds on it)."""

CONSTRUCTIONS: tuple[str, ...] = ("True", "False", "Unknown1", "Unknown2")
"""The fact–conclusion families of Eqs. (2)–(4) (each in the four `VARIANTS`)."""


def check_form(form: str) -> str:
    """Validate a form name (the error lists the allowed ones)."""
    if form not in FORMS:
        raise ValueError(f"form={form!r}: expected one of {', '.join(FORMS)}")
    return form


@dataclass(frozen=True)
class FactsConclusion:
    """The facts and conclusion of one task, with the strategy that made them.

    Attributes:
        construction: `True`, `False`, `Unknown1` or `Unknown2` (the family of Eqs. 2–4).
        label: The intended label (`True`, `False`, `Unknown`); the builder proves it.
        facts: The fact sentences; f is left out when it is empty (possible only with one in-node and one out-node).
        conclusion: The conclusion sentence.
        variant: One of `VARIANTS`.
        form: `quantified` or `ground`.
    """

    construction: str
    label: str
    facts: tuple[Formula, ...]
    conclusion: Formula
    variant: str = "implication"
    form: str = DEFAULT_FORM


def _subset(nodes: Sequence[Node], size: int, rng: random.Random) -> tuple[Node, ...]:
    return tuple(sorted(rng.sample(list(nodes), size)))


def _wrap(body: Formula, form: str, quantifier: Quantifier) -> Formula:
    """Close a formula over `VARIABLE` (quantified form) or leave it about `CONSTANT` (ground form)."""
    if form == "ground":
        return body
    return Forall(VARIABLE, body) if quantifier == "forall" else Exists(VARIABLE, body)


TOPS: tuple[str, ...] = ("implication", "and", "or", "literal")
"""The conclusion's top connective under its quantifier: an if–then, a conjunction, a disjunction, or one literal."""

TOP_WEIGHTS: tuple[float, ...] = (0.5, 1 / 6, 1 / 6, 1 / 6)
"""How often each of `TOPS` is drawn: if–then half the time (as before), the three flat shapes a sixth each."""

SIDES: tuple[str, ...] = ("one", "and", "or")
"""The connective of one part of a conclusion (an if–then's side, or a flat conclusion): one literal, ∧ or ∨."""

PART_SIZES: tuple[int, ...] = (2, 3)
"""How many literals a ∧ or ∨ part has, drawn with `PART_SIZE_WEIGHTS`."""

PART_SIZE_WEIGHTS: tuple[float, ...] = (0.6, 0.4)

Top = Literal["implication", "and", "or", "literal"]
Side = Literal["one", "and", "or"]


@dataclass(frozen=True)
class ConclusionShape:
    """The surface shape of a conclusion, shared by the three labels of a rule set (`conclusion_shape`).

    Attributes:
        quantifier: `forall` or `exists` (ignored in the ground form).
        top: The top connective (`TOPS`).
        antecedent: An if–then's antecedent connective (`SIDES`); `one` for a flat conclusion.
        consequent: An if–then's consequent connective, or a flat conclusion's (`and`, `or`, `one` for `literal`).
        antecedent_size: The antecedent's number of literals (1 for `one`).
        consequent_size: The consequent's (or flat conclusion's) number of literals (1 for `one`).
        stated: Whether R_in (Unknown2: C_U1) is also a fact (an if–then's fair coin; always for a flat conclusion).
    """

    quantifier: Quantifier
    top: Top
    antecedent: Side = "one"
    consequent: Side = "one"
    antecedent_size: int = 1
    consequent_size: int = 1
    stated: bool = True


def _draw_side(rng: random.Random) -> tuple[Side, int]:
    side: Side = rng.choice(SIDES)  # type: ignore[assignment, arg-type]
    return side, 1 if side == "one" else rng.choices(PART_SIZES, weights=PART_SIZE_WEIGHTS)[0]


def draw_shape(rng: random.Random) -> ConclusionShape:
    """A conclusion shape: quantifier, top connective, its parts' connectives and sizes, whether R_in is stated."""
    quantifier: Quantifier = "exists" if rng.random() < 0.5 else "forall"
    top: Top = rng.choices(TOPS, weights=TOP_WEIGHTS)[0]  # type: ignore[assignment]
    if top == "implication":
        (antecedent, a_size), (consequent, c_size) = _draw_side(rng), _draw_side(rng)
        return ConclusionShape(quantifier, top, antecedent, consequent, a_size, c_size, rng.random() < 0.5)
    if top == "literal":
        return ConclusionShape(quantifier, top)
    size = rng.choices(PART_SIZES, weights=PART_SIZE_WEIGHTS)[0]
    return ConclusionShape(quantifier, top, "one", top, 1, size)  # type: ignore[arg-type]


def conclusion_shape(seed: int, depth: int, width: int) -> ConclusionShape:
    """The conclusion shape of every label of a basic task: drawn from (seed, depth, width), never from the label.

    The three labels of a rule set then share their conclusion's quantifier, top connective, the connective and
    number of literals of each part, and whether R_in is stated, so within every shape and depth (and width, and
    seed) the labels are exactly balanced: a reader who learns which label a surface class goes with learns nothing
    (the shortcut battery's fitted `majority-by-shape` heuristics score chance).
    """
    return draw_shape(random.Random(derived_seed(seed, "qmfol-shape", depth, width)))


def facts_and_conclusion(
    rules: Sequence[Rule],
    label: str,
    rng: random.Random,
    form: str = DEFAULT_FORM,
    shape: ConclusionShape | None = None,
) -> FactsConclusion:
    """Eqs. (2)–(4): facts and a conclusion with the given label, in a form and a given surface shape.

    The paper's constructions tie each label to a surface (True: an if–then with "or"; False: a conjunction;
    Unknown: two facts and a flat conclusion), which a reader can answer from without reasoning (the shortcut
    battery, `lgmt_tasks.qmfol.shortcuts`, scores up to 0.67 on them against 0.33 chance). Here the conclusion's
    shape (`ConclusionShape`: quantifier, top connective, each part's connective and number of literals, whether
    R_in is stated) is given, the same for the three labels of a rule set, and every label takes it.

    Each label has its natural parts (R = R_in; N_U1 a proper part of R_out); "stated" means that R_in (Unknown2:
    C_U1) is also a fact:

    - True: if–then `R_in → ∨R_out` (Eq. 2); flat `∨R_out` after the fact R_in.
    - False: if–then `A → ∧¬R_out` (R_in stated) or `A → (∧R_in ∧ ∧¬R_out)` (Eq. 3 as the consequent), where A is
      forced: literals of R_in (stated) or literals the rules derive from f (not stated), or for an `or` antecedent
      "A or <inner chain nodes>" (it still holds); flat `∧¬R_out` after the fact R_in (Eq. 3 with R_in stated).
      A `one` or `or` consequent without R_in stated refutes literals of f (`¬L`, `¬L ∨ ¬L'`).
    - Unknown1 (|R_out| ≥ 2): `R_in → ∨N_U1`; flat `∨N_U1` after the fact R_in (Eq. 4).
    - Unknown2: `C_U1 → ∧R_in`; flat `∧R_in` after the fact C_U1 = ∨N_U1 (Eq. 4).

    A part gets its connective and size by choosing k_in, k_out and |N_U1| (one node where the connective is not
    the part's natural one) and, where nodes run short, by logically idle literals L that the facts force: `∧ L` in
    a conjunction, `∨ ¬L` in a disjunction (so True's `r ∧ L`, False's `¬r ∨ ¬L`, Unknown's `u ∧ L`, `u ∨ ¬L`).
    In tiny rule sets (depth 1, width ≤ 3) a part can stay shorter than its shape when no idle literal is left.

    Quantified facts are universal (`∀x f`); a conclusion is `∀x C` or `∃x C`. Since the facts and rules hold of
    every entity and the domain is not empty, both quantifiers keep the label; the builder proves every task.

    Args:
        rules: A basic rule set (Algorithm 1).
        label: `True`, `False` or `Unknown`.
        rng: The generator (strategy, subset members, idle literals).
        form: `quantified` (default) or `ground`.
        shape: The conclusion's shape (default: drawn from `rng` by `draw_shape`). Its quantifier is ignored in
            the ground form.

    Returns:
        The facts and conclusion.

    Raises:
        ValueError: On an unknown label or form.
    """
    if label not in LABELS:
        raise ValueError(f"label={label!r}: expected one of {', '.join(LABELS)}")
    check_form(form)
    shape = shape if shape is not None else draw_shape(rng)
    implication = shape.top == "implication"
    ante: tuple[Side, int] = (shape.antecedent, shape.antecedent_size)
    cons: tuple[Side, int] = (shape.consequent, shape.consequent_size)
    ins, outs = implicit_rule(rules)
    construction = label
    if label == "Unknown":
        construction = "Unknown1" if rng.random() < 0.5 else "Unknown2"
        if construction == "Unknown1" and len(outs) < 2:
            construction = "Unknown2"
    stated = shape.stated or not implication
    max_out = len(outs) - (2 if construction == "Unknown1" else 1)

    def size(target: tuple[Side, int], natural: Junction, limit: int) -> int:
        """How many natural nodes a part takes: its size if the connective is natural, else one."""
        return max(1, min(target[1], limit)) if target[0] == natural else 1

    # the part roles of each label: which part holds R_in, R_out, N_U1 (None: not in the conclusion)
    r_in_part = {"True": ante, "Unknown1": ante, "Unknown2": cons}.get(construction) if implication else None
    if construction == "Unknown2" and not implication:
        r_in_part = cons
    r_out_part = cons if construction == "True" or (construction == "False" and stated) else None
    u_part = {"Unknown1": cons, "Unknown2": ante if implication else ("or", cons[1])}.get(construction)
    k_in = rng.randint(0, len(ins) - 1)
    k_out = rng.randint(0, max_out)
    fixed_in = fixed_out = False
    if r_in_part is not None:
        k_in, fixed_in = len(ins) - size(r_in_part, "and", len(ins)), True
    if r_out_part is not None:
        natural: Junction = "or" if construction == "True" else "and"
        k_out, fixed_out = len(outs) - size(r_out_part, natural, len(outs)), True
    if u_part is not None:
        wanted = size(u_part, "or", len(outs) - 1) + 1  # R_out keeps one node more than N_U1
        k_out, fixed_out = max(0, min(max_out, len(outs) - wanted)), True
    if construction == "False" and implication and not stated and cons[0] == "and":
        # Eq. 3 as the consequent, ∧R_in ∧ ∧¬R_out, with as many literals as the shape says
        n_out = rng.randint(1, max(1, min(len(outs), cons[1] - 1)))
        n_in = max(1, min(len(ins), cons[1] - n_out))
        k_in, k_out, fixed_in, fixed_out = len(ins) - n_in, len(outs) - n_out, True, True
    elif construction == "False" and implication and not stated:
        # a `one` or `or` consequent refutes literals of f: keep f as large as Eqs. 2–4 allow
        k_in, k_out, fixed_in, fixed_out = len(ins) - 1, max_out, True, True
    if k_in == 0 and k_out == 0 and (len(ins) > 1 or max_out > 0):  # keep the fact f non-empty when possible
        # a part whose size is fixed loses a node to f only when both are fixed (idle literals top it up)
        if len(ins) > 1 and (
            max_out == 0 or (fixed_out and not fixed_in) or (fixed_out == fixed_in and rng.random() < 0.5)
        ):
            k_in = 1
        elif max_out > 0:
            k_out = 1
    in_f, out_f = _subset(ins, k_in, rng), _subset(outs, k_out, rng)
    if construction == "False" and implication and not stated:
        # A comes from what the rules derive from f, so f takes the in-nodes of the earliest rules (the chain fires
        # from them): otherwise f alone often derives nothing and A would be one of f's own literals
        first = {n: min(i for i, r in enumerate(rules) if n in r.lhs) for n in ins}
        in_f = tuple(sorted(sorted(ins, key=lambda n: (first[n], rng.random()))[:k_in]))
    rest_in = tuple(n for n in ins if n not in in_f)
    rest_out = tuple(n for n in outs if n not in out_f)
    f_nodes = sorted([*in_f, *(n.complement() for n in out_f)])
    chosen_nodes: tuple[Node, ...] = ()
    if u_part is not None:
        chosen_nodes = _subset(rest_out, size(u_part, "or", max(1, len(rest_out) - 1)), rng)
    if construction == "False" and implication and not stated and not f_nodes:
        stated = True  # `N → …` needs a literal of f
    term: Term = Var(VARIABLE) if form == "quantified" else Const(CONSTANT)

    forced = [*f_nodes]
    if stated and construction != "Unknown2":
        forced += rest_in
    if stated and construction == "Unknown2" and len(chosen_nodes) == 1:
        forced += chosen_nodes
    used: set[int] = set()

    inferred = sorted(derived(rules, forced) - set(forced))  # forced, but not a fact: the rules derive it

    def idle() -> Node | None:
        """A literal the premises force, on a predicate the conclusion does not use yet (None if there is none).

        One the rules derive from the facts when there is one, else a fact's: a fact repeated in the conclusion
        would mark the labels whose parts need idle literals most.
        """
        pool = [n for n in inferred if n.pred not in used] or sorted({n for n in forced if n.pred not in used})
        return pool[rng.randrange(len(pool))] if pool else None

    def part(nodes: Sequence[Node], natural: Junction, target: tuple[Side, int]) -> Formula:
        """The nodes with the target connective and size, topped up with idle literals (L in ∧, ¬L in ∨)."""
        used.update(n.pred for n in nodes)
        kind: Junction = natural if len(nodes) > 1 or target[0] == "one" else target[0]  # type: ignore[assignment]
        members = list(nodes)
        while len(members) < target[1]:
            extra = idle()
            if extra is None:  # no forced literal left (tiny rule sets): the part stays shorter
                break
            used.add(extra.pred)
            members.append(extra if kind == "and" else extra.complement())
        return junction([n.at(term) for n in sorted(members)], kind)

    negated_out = [n.complement() for n in rest_out]
    body: Formula
    extra_fact: Formula | None = conjunction([n.at(term) for n in rest_in]) if stated else None
    if construction == "True":
        consequent = part(rest_out, "or", cons)
        body = Implies(part(rest_in, "and", ante), consequent) if implication else consequent
    elif construction == "False":
        if not implication:
            body = part(negated_out, "and", cons)
        else:
            used.update(n.pred for n in (*rest_in, *rest_out))
            # forced literals that are not facts first (derived by the rules from f), then f's own: a fact repeated
            # in the conclusion would otherwise mark False
            derived_pool = [n for n in sorted(derived(rules, f_nodes) - set(f_nodes)) if n.pred not in used]
            fact_pool = [n for n in f_nodes if n.pred not in used]
            rng.shuffle(derived_pool)
            rng.shuffle(fact_pool)
            refute = not stated and cons[0] != "and" and len(derived_pool) + len(fact_pool) > cons[1]
            if refute:  # without R_in stated only f and what follows from it are forced: refute those literals
                refuted = (derived_pool + fact_pool)[: cons[1]]
                used.update(n.pred for n in refuted)
                derived_pool = [n for n in derived_pool if n.pred not in used]
                fact_pool = [n for n in fact_pool if n.pred not in used]
            # A: forced literals, from R_in when it is stated, else from the pools above
            pool = list(rest_in) if stated else derived_pool + fact_pool
            pool = pool or list(f_nodes)
            if stated:
                rng.shuffle(pool)
            if ante[0] == "or":
                a = pool[0]
                taken = used | {a.pred}
                inner = sorted({n for r in rules for n in r.nodes} - set(ins) - set(outs))
                inner = [n for n in inner if n.pred not in taken]  # the chain's inner nodes not used yet
                picked = [_new_node(n.pred, rng) for n in rng.sample(inner, min(len(inner), ante[1] - 1))]
                used.update(n.pred for n in (a, *picked))
                # "A or anything" still holds of every entity
                antecedent = disjunction([n.at(term) for n in sorted([a, *picked])])
            else:
                antecedent = part(pool[: size(ante, "and", len(pool))], "and", ante)
            if refute:
                consequent = junction([n.complement().at(term) for n in sorted(refuted)], "or")
            else:
                consequent = part(negated_out if stated else sorted([*rest_in, *negated_out]), "and", cons)
            body = Implies(antecedent, consequent)
    elif construction == "Unknown1":
        consequent = part(chosen_nodes, "or", cons)
        body = Implies(part(rest_in, "and", ante), consequent) if implication else consequent
    else:
        extra_fact = disjunction([n.at(term) for n in chosen_nodes]) if stated else None
        consequent = part(rest_in, "and", cons)
        body = Implies(part(chosen_nodes, "or", ante), consequent) if implication else consequent
    facts = [_wrap(conjunction([n.at(term) for n in f_nodes]), form, "forall")] if f_nodes else []
    if extra_fact is not None:
        facts.append(_wrap(extra_fact, form, "forall"))
    variant = shape.top + ("+fact" if stated else "")
    return FactsConclusion(construction, label, tuple(facts), _wrap(body, form, shape.quantifier), variant, form)


def derived(rules: Iterable[Rule], known: Iterable[Node]) -> set[Node]:
    """The literals the rules force from `known` by unit propagation (`known` included).

    A rule whose left nodes are all known forces its one right node whose complement is not known (the others are
    refuted).
    """
    out = set(known)
    changed = True
    while changed:
        changed = False
        for rule in rules:
            if rule.quantifier == "forall" and all(n in out for n in rule.lhs):
                open_ = [n for n in rule.rhs if n.complement() not in out]
                if len(open_) == 1 and open_[0] not in out:
                    out.add(open_[0])
                    changed = True
    return out


def _split(nodes: Sequence[Node], rng: random.Random) -> tuple[list[Node], list[Node]]:
    """Split fresh nodes into (joining the basic node, on the other side); the other side keeps at least one."""
    k = rng.randint(0, len(nodes) - 1)
    return list(nodes[:k]), list(nodes[k:])


def _junction(rng: random.Random) -> Junction:
    return "and" if rng.random() < 0.5 else "or"


def distractor_rule(rules: Sequence[Rule], rng: random.Random, next_pred: int) -> tuple[Rule, int]:
    """Algorithm 2: one distractor rule for a basic rule set.

    Args:
        rules: The basic rules.
        rng: The generator.
        next_pred: The number of the first fresh predicate.

    Returns:
        The distractor and the number of the next fresh predicate.
    """
    if rng.random() < 0.5:  # distractor for a rule: one node replaced by a fresh one
        rule = rules[rng.randrange(len(rules))]
        old = rule.nodes[rng.randrange(len(rule.nodes))]
        new = _new_node(next_pred, rng)
        swap = tuple(new if n == old else n for n in rule.lhs), tuple(new if n == old else n for n in rule.rhs)
        return Rule(swap[0], swap[1], rule.lhs_junction, rule.rhs_junction), next_pred + 1
    basic = sorted({n for r in rules for n in r.nodes})  # distractor for a predicate node
    selected = basic[rng.randrange(len(basic))]
    count = rng.randint(1, 4)
    fresh = [_new_node(next_pred + i, rng) for i in range(count)]
    if rng.random() < 0.5:
        members = list(fresh)
        members.insert(rng.randint(0, count), selected)
        return Rule(tuple(members), (), quantifier="exists"), next_pred + count
    joining, other = _split(fresh, rng)
    with_selected = [selected, *joining]
    rng.shuffle(with_selected)
    if rng.random() < 0.5:  # the basic node on the left, fresh nodes on the right
        rule = Rule(tuple(with_selected), tuple(other), _junction(rng), _junction(rng))
    else:
        rule = Rule(tuple(other), tuple(with_selected), _junction(rng), _junction(rng))
    return rule, next_pred + count


def distractor_rules(rules: Sequence[Rule], count: int, rng: random.Random) -> tuple[Rule, ...]:
    """`count` distractors in sequence (a prefix of a longer sequence of the same generator)."""
    next_pred = 1 + max(n.pred for r in rules for n in r.nodes)
    out: list[Rule] = []
    for _ in range(count):
        rule, next_pred = distractor_rule(rules, rng, next_pred)
        out.append(rule)
    return tuple(out)


SCREEN_AHEAD = 20
"""Quantified tasks screen distractor candidates until at least this many are accepted (the paper's largest count),
so that every smaller count takes a prefix of one sequence."""

MAX_CANDIDATES_PER_DISTRACTOR = 10
"""Candidates drawn per accepted distractor before screening gives up (`DistractorShortage`)."""


class DistractorShortage(ValueError):
    """Too few candidate distractors left the label and the consistency of a quantified task unchanged."""


def _harmless(premises: Sequence[Formula], candidate: Rule, conclusion: Formula, label: str) -> bool:
    """Whether a candidate distractor keeps the label (and so the consistency) of the premises; Z3 in-process.

    Z3's deterministic resource limit only (no wall-clock limit), so that the same seed gives the same distractors.
    """
    from lgmt_tasks.logic.prover import Label, entailment

    result = entailment([*premises, candidate.formula()], conclusion, timeout_ms=None)
    return isinstance(result, Label) and result.value == label


@cache
def _screened(depth: int, width: int, seed: int, label: str, count: int) -> tuple[Rule, ...]:
    """The first `count` harmless distractors of a quantified task (cached: the counts of a task share them)."""
    rules = basic_rules(depth, width, random.Random(derived_seed(seed, "qmfol-rules", depth, width)))
    rng = random.Random(derived_seed(seed, "qmfol-facts", depth, width, label))
    pair = facts_and_conclusion(rules, label, rng, "quantified", conclusion_shape(seed, depth, width))
    premises: list[Formula] = [*(r.formula() for r in rules), *pair.facts]
    candidates = random.Random(derived_seed(seed, "qmfol-distractors", depth, width))
    next_pred = 1 + max(n.pred for r in rules for n in r.nodes)
    accepted: list[Rule] = []
    for _ in range(MAX_CANDIDATES_PER_DISTRACTOR * count):
        if len(accepted) == count:
            break
        rule, next_pred = distractor_rule(rules, candidates, next_pred)
        if _harmless(premises, rule, pair.conclusion, label):
            accepted.append(rule)
            premises.append(rule.formula())
    return tuple(accepted)


def screened_distractors(depth: int, width: int, seed: int, label: str, count: int) -> tuple[Rule, ...]:
    """Algorithm 2 for a quantified task: candidates in sequence, each kept only if Z3 proves the label unchanged.

    With universal facts, the argument that makes every ground distractor harmless fails: an existential distractor
    ∃x (N ∧ …) contradicts a universal fact ∀x ¬N, and it can witness an existential conclusion. Such candidates
    are skipped (the paper's distractors "do not alter the original inference path"); the builder proves the final
    task again.

    Raises:
        DistractorShortage: If fewer than `count` of `MAX_CANDIDATES_PER_DISTRACTOR × count` candidates are harmless.
    """
    out = _screened(depth, width, seed, label, max(count, SCREEN_AHEAD))[:count]
    if len(out) < count:
        raise DistractorShortage(f"only {len(out)} of {count} candidate distractors keep the label")
    return out


def predicate_count(depth: int, width: int, distractors: int) -> int:
    """The most predicates a task can use: the basic ones plus up to four fresh ones per distractor."""
    return depth + width + 1 + 4 * distractors


@dataclass(frozen=True)
class LogicTask:
    """One QMFOL task in FOL, before English.

    Attributes:
        depth: D of Algorithm 1.
        width: W of Algorithm 1.
        seed: The task seed (the paper's third id field).
        label: The intended label.
        construction: `True`, `False`, `Unknown1` or `Unknown2`.
        rules: The basic rules.
        distractors: The distractor rules.
        facts: The facts.
        conclusion: The conclusion.
        order: The presentation order: `premises[order[k]]` is shown k-th.
        variant: The conclusion's surface variant (one of `VARIANTS`).
        form: `quantified` or `ground`.
    """

    depth: int
    width: int
    seed: int
    label: str
    construction: str
    rules: tuple[Rule, ...]
    distractors: tuple[Rule, ...]
    facts: tuple[Formula, ...]
    conclusion: Formula
    order: tuple[int, ...]
    variant: str = "implication"
    form: str = DEFAULT_FORM

    @cached_property
    def premises(self) -> tuple[Formula, ...]:
        """Every premise in canonical order: basic rules, distractors, facts."""
        return (*(r.formula() for r in self.rules), *(r.formula() for r in self.distractors), *self.facts)

    @cached_property
    def basic_premises(self) -> tuple[Formula, ...]:
        """The premises of the basic task (no distractors)."""
        return (*(r.formula() for r in self.rules), *self.facts)

    @cached_property
    def presented(self) -> tuple[Formula, ...]:
        """The premises in presentation (shuffled) order."""
        premises = self.premises
        return tuple(premises[i] for i in self.order)


def make_logic_task(
    depth: int, width: int, seed: int, label: str, distractors: int, form: str = DEFAULT_FORM
) -> LogicTask:
    """Build one task in FOL from its parameters, deterministically.

    Each part has its own derived generator, so that tasks share what the paper's design shares: the basic rules
    depend on (seed, depth, width) only (the same rules for every label, distractor count and topic), the facts and
    conclusion also on the label, the distractors on (seed, depth, width) as a sequence of which a task takes a
    prefix, and the presentation order on everything but the topic (so the four topics show one logical task in the
    same order).

    Args:
        depth: D ≥ 1.
        width: W ≥ 0.
        seed: The task seed.
        label: `True`, `False` or `Unknown`.
        distractors: The number of distractor rules (≥ 0).
        form: `quantified` (facts and conclusion over every entity, the default) or `ground` (about `CONSTANT`);
            the basic rules, distractors and order do not depend on it.

    Returns:
        The task.
    """
    if distractors < 0:
        raise ValueError(f"distractors={distractors}: must be at least 0")
    rules = basic_rules(depth, width, random.Random(derived_seed(seed, "qmfol-rules", depth, width)))
    rng = random.Random(derived_seed(seed, "qmfol-facts", depth, width, label))
    pair = facts_and_conclusion(rules, label, rng, form, conclusion_shape(seed, depth, width))
    if form == "quantified":
        extra = screened_distractors(depth, width, seed, label, distractors) if distractors else ()
    else:
        extra = distractor_rules(
            rules, distractors, random.Random(derived_seed(seed, "qmfol-distractors", depth, width))
        )
    order = list(range(len(rules) + len(extra) + len(pair.facts)))
    random.Random(derived_seed(seed, "qmfol-shuffle", depth, width, label, distractors)).shuffle(order)
    return LogicTask(
        depth,
        width,
        seed,
        label,
        pair.construction,
        rules,
        extra,
        pair.facts,
        pair.conclusion,
        tuple(order),
        pair.variant,
        form,
    )
