"""The relation protocol, its options, application sites, and helpers shared by the relation families.

Every relation is a stateless object with an `id`, a `name`, a `category`, the `law` it implements (quoted
from the paper, §3.3), the `directions` it can produce, and three methods:

* `sites(case, **options)`: every place where the relation can act, in a fixed order;
* `applies(case, **options)`: a cheap test, true iff `sites` is non-empty;
* `apply(case, rng, **options)`: pick one site uniformly with the seeded generator and return the follow-up
  (or None when there is no site). The same case, options and generator state give the same follow-up.

Options (keyword arguments, shared by all relations so that a builder can pass one set to every relation; a
relation ignores the options that do not concern it, and an unknown option name raises `TypeError`):

* `direction`: `"paper"` (default), `"forward"`, `"introduction"`, `"any"` or `"counts"`.
  `"paper"` is the paper's reading of each law (issues #25 and #36; `lgmt_tasks/lgmt/issue25_paper_reading.md`):
  a filter over sites, `Relation.paper_site`, with no fallback, so a relation can have no site at all (MR-E2.3
  on FOLIO, ProverQA and LogicNLI, as in the paper's Table 9). For every relation it is the forward sites (the
  law as §3.3 writes it, oriented toward the canonical form as App. A.3 says), except MR-E1.5, which also renames
  a clashing variable (see its docstring).
  `"forward"` is only the law as written; `"introduction"` only the relation's other directions (`"introduction"`
  and `"extended"`, see `followup`); `"any"`: forward sites when the case has any, otherwise the other directions
  (the default before issue #25: it makes every relation applicable, but mixes the law and our variants).
  `"counts"` is issue #25's reading fitted to Table 9's group counts (`Relation.counts_site`; the `paper` default
  of task versions 4-A to 5-x): the paper's sites plus MR-E1.2's negated →/↔/⊕, every MR-E1.6 block (canonical
  ones permuted) and MR-E2.4's ⊕ step; issue #36 found those beyond the text, so their rows' `variant` is
  `extended` (ours). Relations with a single direction (MR-S, MR-P, MR-C) ignore the option. The extended sites
  that only `counts` takes (`Relation.counts_only`) are left out of `forward`, `introduction` and `any`, so that
  those modes give the same follow-ups as before issue #25.
* `names`: `"abstract"` (default; `Con1`, `Pre1` as the paper's translation prompt expects) or `"natural"`
  (fresh words from `data/fresh_names.json`) for the fresh symbols of MR-S1/S2 and MR-P3.
* `scope`: where MR-E rewrites: `"premises"` (default, as in the paper: Γ ⇝ Γ'), `"conclusion"`, or `"all"`.
* `fuse`: MR-P4 `"replace"` (default: φ and ψ are replaced by φ ∧ ψ) or `"add"` (φ ∧ ψ is added, φ and ψ kept).
* `split`: MR-P5 `"replace"` (default: φ ∧ ψ is replaced, in place, by its conjuncts) or `"add"` (the conjuncts
  are added, φ ∧ ψ kept). The tasks' `p4` / `p5` set `fuse` / `split` and default to `"add"`, the paper's §3.3.3.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias, get_args

from lgmt_tasks.lgmt.relations.followup import PAPER_VARIANT, FollowUp
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
    Path,
    Term,
    Top,
    Var,
    Xor,
    all_vars,
    free_vars,
    signature,
    subformulas,
)
from lgmt_tasks.sources.case import Case

Direction = Literal["paper", "forward", "introduction", "any", "counts"]
Names = Literal["abstract", "natural"]
Scope = Literal["premises", "conclusion", "all"]
Fuse = Literal["replace", "add"]
Split = Literal["replace", "add"]


@dataclass(frozen=True)
class Options:
    """The options every relation accepts (see the module docstring)."""

    direction: Direction = "paper"
    names: Names = "abstract"
    scope: Scope = "premises"
    fuse: Fuse = "replace"
    split: Split = "replace"

    @classmethod
    def parse(cls, options: Mapping[str, object]) -> Options:
        """Validate keyword options.

        Raises:
            TypeError: On an unknown option name.
            ValueError: On a value outside the option's allowed values.
        """
        allowed = {"direction": Direction, "names": Names, "scope": Scope, "fuse": Fuse, "split": Split}
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise TypeError(f"unknown relation option(s) {unknown}; expected among {sorted(allowed)}")
        for key, value in options.items():
            values = get_args(allowed[key])
            if value not in values:
                raise ValueError(f"{key}={value!r}: expected one of {', '.join(map(repr, values))}")
        return cls(**options)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Site:
    """One place where a relation can act.

    Attributes:
        target: Index of the premise acted on, or None for the conclusion or the whole case.
        path: Position of the rewritten sub-formula inside the target (formula-level relations).
        direction: "forward" | "introduction" | "extended".
        law: The specific rule.
        detail: Relation-specific data (operand indices, premise indices, a symbol name).
    """

    target: int | None
    path: Path
    direction: str
    law: str
    detail: tuple[int | str, ...] = ()


class Relation(ABC):
    """A metamorphic relation of LGMT (§3.3): a seeded, checkable transformation of a case."""

    id: ClassVar[str]
    name: ClassVar[str]
    category: ClassVar[str]
    law: ClassVar[str]
    directions: ClassVar[tuple[str, ...]] = ("forward",)

    def __repr__(self) -> str:
        return f"<{self.id} {self.name}>"

    @abstractmethod
    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        """Every site of every direction, in a fixed order."""

    @abstractmethod
    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        """Build the follow-up for one site (may draw further choices from `rng`)."""

    def paper_site(self, site: Site) -> bool:
        """Whether `site` is in the paper's reading of the law (what `direction="paper"` keeps).

        By default the law as written (the forward sites): §3.3 states each law left to right and Appendix A.3
        orients every MR-E1 step "from non-canonical to canonical form". Only MR-E1.5 overrides it (issue #36).
        """
        return site.direction == "forward"

    def counts_site(self, site: Site) -> bool:
        """Whether `site` is in issue #25's reading fitted to Table 9's counts (what `direction="counts"` keeps).

        By default the paper's sites; MR-E1.2, MR-E1.6 and MR-E2.4 add the extended sites that reading took
        (issue #36 moved them out of `paper_site`: the text does not cover them).
        """
        return self.paper_site(site)

    def counts_only(self, site: Site) -> bool:
        """Whether `site` exists only for the `counts` reading, so `forward`, `introduction` and `any` skip it.

        Sites added for issue #25 (MR-E1.2's negated →/↔/⊕, MR-E2.4's ⊕ step) would otherwise change which
        follow-ups those older modes draw for the same seed; keeping them out leaves those modes as they were.
        """
        return False

    def all_sites(self, case: Case, **options: object) -> list[Site]:
        """Every site of every direction, in a fixed order (no `direction` selection; other options apply)."""
        return list(self._iter_sites(case, Options.parse(options)))

    def sites(self, case: Case, **options: object) -> list[Site]:
        """Return the sites `apply` chooses from under `options` (see the module docstring for `direction`)."""
        opts = Options.parse(options)
        every = list(self._iter_sites(case, opts))
        if opts.direction == "paper":
            return [s for s in every if self.paper_site(s)]
        if opts.direction == "counts":
            return [s for s in every if self.counts_site(s)]
        if len(self.directions) == 1:
            return every
        every = [s for s in every if not self.counts_only(s)]
        forward = [s for s in every if s.direction == "forward"]
        other = [s for s in every if s.direction != "forward"]
        if opts.direction == "forward":
            return forward
        if opts.direction == "introduction":
            return other
        return forward or other

    def applies(self, case: Case, **options: object) -> bool:
        """Whether the relation has at least one site in `case` under `options`."""
        opts = Options.parse(options)
        sites = self._iter_sites(case, opts)
        if opts.direction == "paper":
            return any(self.paper_site(s) for s in sites)
        if opts.direction == "counts":
            return any(self.counts_site(s) for s in sites)
        if len(self.directions) == 1:
            return next(sites, None) is not None
        sites = (s for s in sites if not self.counts_only(s))
        if opts.direction == "any":
            return next(sites, None) is not None
        want_forward = opts.direction == "forward"
        return any((s.direction == "forward") == want_forward for s in sites)

    def variant(self, site: Site) -> str:
        """`FollowUp.variant` of a follow-up made at `site`: "paper" if `paper_site`, else the site's direction."""
        return PAPER_VARIANT if self.paper_site(site) else site.direction

    def apply_at(self, case: Case, site: Site, rng: random.Random, **options: object) -> FollowUp | None:
        """The follow-up at one given site (one of `sites(case, **options)`).

        For callers that choose the site themselves: `lgmt shrink` keeps the site closest to the original group's.
        """
        return self._apply_at(case, site, rng, Options.parse(options))

    def apply(self, case: Case, rng: random.Random, **options: object) -> FollowUp | None:
        """One seeded application: a site chosen uniformly among `sites(case, **options)`.

        Returns:
            The follow-up, or None when the relation does not apply.
        """
        opts = Options.parse(options)
        candidates = self.sites(case, **options)
        if not candidates:
            return None
        return self._apply_at(case, rng.choice(candidates), rng, opts)


# --------------------------------------------------------------------------- helpers


def premise_name(index: int) -> str:
    """Human-readable, 1-based name of premise `index`."""
    return f"premise {index + 1}"


def site_text(target: int | None, path: Path) -> str:
    """`"premise 2 [0, 1]"` or `"conclusion [1]"`."""
    where = "conclusion" if target is None else premise_name(target)
    return f"{where} {list(path)}"


def case_formulas(case: Case) -> tuple[Formula, ...]:
    """Premises then conclusion."""
    return (*case.premises_fol, case.conclusion_fol)


def used_names(case: Case) -> frozenset[str]:
    """Every name in the case: constants, predicates and variables (fresh names must avoid all of them)."""
    sig = signature(*case_formulas(case))
    names: set[str] = set(sig.constants) | set(sig.predicate_names)
    for f in case_formulas(case):
        names |= all_vars(f)
    return frozenset(names)


_VARIABLE_PREFERENCE = ("x", "y", "z", "w", "v", "u")


def fresh_variable(avoid: frozenset[str] | set[str]) -> str:
    """Return the first of x, y, z, w, v, u not in `avoid` (case-insensitively), else x1, x2, …."""
    lowered = {a.lower() for a in avoid}
    for name in _VARIABLE_PREFERENCE:
        if name not in lowered:
            return name
    i = 1
    while f"x{i}" in lowered:
        i += 1
    return f"x{i}"


CanonicalKey: TypeAlias = tuple[Any, ...]


def canonical_key(f: Formula) -> CanonicalKey:
    """Return the sort key of the fixed total order `<` of MR-E1.4 (the paper: "e.g., lexicographic order").

    On quantifier-free NNF it is the order `normal_forms.pnnf` sorts by (with bound variables compared by name):
    ⊤, ⊥, then literals by atom (equalities first, then by predicate name, arity and arguments, constants before
    variables) with A just before ¬A, then conjunctions, then disjunctions. Every other formula comes last,
    ordered by connective and then by its parts.
    """
    if isinstance(f, Top):
        return (0, 0)
    if isinstance(f, Bottom):
        return (0, 1)
    if isinstance(f, (Atom, Eq)):
        return (1, _atom_key(f), 0)
    if isinstance(f, Not) and isinstance(f.body, (Atom, Eq)):
        return (1, _atom_key(f.body), 1)
    if isinstance(f, And):
        return (2, tuple(canonical_key(a) for a in f.args))
    if isinstance(f, Or):
        return (3, tuple(canonical_key(a) for a in f.args))
    if isinstance(f, Not):
        return (4, "¬", canonical_key(f.body))
    if isinstance(f, (Implies, Iff, Xor)):
        op = {Implies: "→", Iff: "↔", Xor: "⊕"}[type(f)]
        return (4, op, canonical_key(f.left), canonical_key(f.right))
    if isinstance(f, (Forall, Exists)):
        return (4, "∀" if isinstance(f, Forall) else "∃", f.var, canonical_key(f.body))
    raise TypeError(f"not a formula: {f!r}")


def _term_key(t: Term) -> CanonicalKey:
    return (0, t.name) if isinstance(t, Const) else (1, t.name)


def _atom_key(f: Atom | Eq) -> CanonicalKey:
    if isinstance(f, Eq):
        return (0, "", 2, (_term_key(f.left), _term_key(f.right)))
    return (1, f.pred, len(f.args), tuple(_term_key(t) for t in f.args))


def seeded_atom(
    case: Case, bound: tuple[str, ...], avoid: frozenset[str], rng: random.Random, exclude: Formula | None = None
) -> Formula:
    """Draw a seeded atom ψ for the introduction direction of MR-E2 (ψ is arbitrary in those laws).

    ψ is preferably an atom that already occurs in the case and whose variables are all bound at the site
    (`bound`), so that it reads naturally in context (`Human(x)` under `∀x`, `Mammal(tom)` at the top level);
    `exclude` (the rewritten sub-formula) is never chosen. Failing that, a predicate of the case is applied to
    variables bound at the site and the case's constants, or closed by a fresh ∃ when no term is available.
    """
    candidates = {
        a
        for f in case_formulas(case)
        for _, a in subformulas(f)
        if isinstance(a, (Atom, Eq)) and a != exclude and free_vars(a) <= set(bound)
    }
    if candidates:
        return rng.choice(sorted(candidates, key=canonical_key))
    sig = signature(*case_formulas(case))
    preds = sorted(sig.predicates)
    terms: list[Term] = [Var(v) for v in dict.fromkeys(bound)]
    terms += [Const(c) for c in sorted(sig.constants)]
    if not preds:
        if terms:
            return Eq(rng.choice(terms), rng.choice(terms))
        v = fresh_variable(avoid)
        return Exists(v, Eq(Var(v), Var(v)))
    name, arity = rng.choice(preds)
    if arity == 0:
        return Atom(name)
    if terms:
        return Atom(name, tuple(rng.choice(terms) for _ in range(arity)))
    v = fresh_variable(avoid)
    return Exists(v, Atom(name, (Var(v),) * arity))
