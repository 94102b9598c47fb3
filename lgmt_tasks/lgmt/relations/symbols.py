"""MR-S: symbol renaming invariance (paper §3.3.2), and the fresh symbols it (and MR-P3) draws.

A renamed symbol is fresh: no constant, predicate or variable of the case has that name (compared
case-insensitively, so that the English cannot confuse them either). Fresh names are either abstract (`Con1`,
`Pre1`, …: the smallest unused index, as the paper's translation prompt expects) or natural words drawn by the
seeded generator from `data/fresh_names.json` (names of people and places for constants; adjectives and nouns for
unary and propositional predicates; verbs and relations for predicates of arity ≥ 2).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

from lgmt_tasks.lgmt.relations.base import Names, Options, Relation, Site, case_formulas, premise_name, used_names
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.logic.syntax import Formula, rename_constant, rename_predicate, signature
from lgmt_tasks.sources.case import Case


@lru_cache(maxsize=1)
def fresh_name_lists() -> Mapping[str, tuple[str, ...]]:
    """Return the word lists of `data/fresh_names.json` (read once; a read-only mapping of tuples)."""
    text = resources.files("lgmt_tasks.lgmt.relations").joinpath("data", "fresh_names.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return MappingProxyType({k: tuple(v) for k, v in data.items() if not k.startswith("_")})


def _abstract(prefix: str, avoid: frozenset[str]) -> str:
    lowered = {a.lower() for a in avoid}
    k = 1
    while f"{prefix}{k}".lower() in lowered:
        k += 1
    return f"{prefix}{k}"


def _natural(words: tuple[str, ...], avoid: frozenset[str], rng: random.Random) -> str | None:
    lowered = {a.lower() for a in avoid}
    free = [w for w in words if w.lower() not in lowered]
    return rng.choice(free) if free else None


def fresh_constant(case: Case, names: Names, rng: random.Random, avoid: frozenset[str] = frozenset()) -> str:
    """Return a constant name used nowhere in `case` (nor in `avoid`).

    Natural names follow the case's style: lower-case initial (`marisol`) when all its constants have one.
    """
    taken = used_names(case) | avoid
    if names == "natural":
        word = _natural(fresh_name_lists()["constants"], taken, rng)
        if word is not None:
            constants = signature(*case_formulas(case)).constants
            if constants and all(c[:1].islower() for c in constants):
                word = word[:1].lower() + word[1:]
            return word
    return _abstract("Con", taken)


def fresh_predicate(
    case: Case, arity: int, names: Names, rng: random.Random, avoid: frozenset[str] = frozenset()
) -> str:
    """Return a predicate name used nowhere in `case` (nor in `avoid`), CamelCase."""
    taken = used_names(case) | avoid
    if names == "natural":
        key = "relational_predicates" if arity >= 2 else "unary_predicates"
        word = _natural(fresh_name_lists()[key], taken, rng)
        if word is not None:
            return word
    return _abstract("Pre", taken)


def _changed(premises_changed: list[int], conclusion_changed: bool) -> str:
    if premises_changed and conclusion_changed:
        return "all"
    if conclusion_changed:
        return "conclusion"
    if len(premises_changed) == 1:
        return premise_name(premises_changed[0])
    return "premises"


class _Renaming(Relation):
    category = "MR-S"
    kind: str

    def _symbols(self, case: Case) -> list[str]:
        raise NotImplementedError

    def _rename(self, f: Formula, old: str, new: str) -> Formula:
        raise NotImplementedError

    def _fresh(self, case: Case, old: str, rng: random.Random, opts: Options) -> str:
        raise NotImplementedError

    def _iter_sites(self, case: Case, opts: Options) -> Iterator[Site]:
        for name in self._symbols(case):
            yield Site(None, (), "forward", f"{self.kind} renaming", (name,))

    def _apply_at(self, case: Case, site: Site, rng: random.Random, opts: Options) -> FollowUp | None:
        (old,) = site.detail
        assert isinstance(old, str)
        new = self._fresh(case, old, rng, opts)
        premises = tuple(self._rename(p, old, new) for p in case.premises_fol)
        conclusion = self._rename(case.conclusion_fol, old, new)
        origin = tuple(i if p == q else None for i, (p, q) in enumerate(zip(case.premises_fol, premises, strict=True)))
        changed = [i for i, o in enumerate(origin) if o is None]
        return FollowUp(
            premises_fol=premises,
            conclusion_fol=conclusion,
            premise_origin=origin,
            conclusion_changed=conclusion != case.conclusion_fol,
            mr=self.id,
            category=self.category,
            direction="forward",
            changed=_changed(changed, conclusion != case.conclusion_fol),
            site=f"{self.kind} {old}",
            obligation=LABEL_OBLIGATION,
            renaming=((self.kind, old, new),),
            law=site.law,
        )


class ConstantRenaming(_Renaming):
    """MR-S1 (Constant Renaming Invariance).

    Law (§3.3.2): (Γ, q) ⇝ (Γ, q)[c := c'], where c is a constant symbol occurring in (Γ, q) and c' is a fresh
    constant symbol. The constant is chosen uniformly by the seeded generator; every premise that mentions it is
    rewritten (origin None), the others are copied.
    """

    id = "MR-S1"
    name = "Constant Renaming Invariance"
    law = "(Γ, q) ⇝ (Γ, q)[c := c'], c' fresh"
    kind = "constant"

    def _symbols(self, case: Case) -> list[str]:
        return sorted(signature(*case_formulas(case)).constants)

    def _rename(self, f: Formula, old: str, new: str) -> Formula:
        return rename_constant(f, old, new)

    def _fresh(self, case: Case, old: str, rng: random.Random, opts: Options) -> str:
        return fresh_constant(case, opts.names, rng)


class PredicateRenaming(_Renaming):
    """MR-S2 (Predicate Renaming Invariance).

    Law (§3.3.2): (Γ, q) ⇝ (Γ, q)[P := P'], where P is a predicate symbol occurring in (Γ, q) and P' is a fresh
    predicate symbol. Every arity of the name is renamed together (equality is logical, never renamed).
    """

    id = "MR-S2"
    name = "Predicate Renaming Invariance"
    law = "(Γ, q) ⇝ (Γ, q)[P := P'], P' fresh"
    kind = "predicate"

    def _symbols(self, case: Case) -> list[str]:
        return sorted(signature(*case_formulas(case)).predicate_names)

    def _rename(self, f: Formula, old: str, new: str) -> Formula:
        return rename_predicate(f, old, new)

    def _fresh(self, case: Case, old: str, rng: random.Random, opts: Options) -> str:
        arity = max(a for n, a in signature(*case_formulas(case)).predicates if n == old)
        return fresh_predicate(case, arity, opts.names, rng)


MR_S: tuple[Relation, ...] = (ConstantRenaming(), PredicateRenaming())
