"""Turn a smaller source shape into a proven metamorphic group, or say why it cannot be one.

A candidate is never trusted: its source label is re-proven by Z3 and becomes the candidate's gold label, and its
follow-up is re-derived by applying the group's *same* relation to the smaller source and discharging that
follow-up's proof obligation with `relations.check.verify`, exactly as the builder does. Three outcomes are kept
apart (as in `check`): `Derived` (proven), `Rejected` with status `refuted` (the prover, the structural check or the
relation says no: contradictory premises, a relation with no site left, a failed obligation) and `Rejected` with
status `undecided` (the prover could not decide within its limits: counted, never used).

Which site. The relation is applied at the site that corresponds best to the original group's site: the same law,
at the premise the original rewrote (followed through drops and replacements by `Shape.origin`), at the same
path, in the same direction — each preference in that order, then the relation's own site order. The original
site is found by replaying the build's seeded choice (`original_site`), under the log's relation options or, for rows
the log's task did not build (`-T dataset=`), the options that give the row's follow-up (`replay`).

English. A premise (or conclusion) whose formula is unchanged keeps the original sentence; every other formula is
written by the template realiser (`lgmt_tasks.logic.realize`), with one lexicon over the smaller case and its
follow-up, as the `template` builds do; the follow-up's English comes from the builder's own `followup_english`
(through `build.checked_row`), and a renaming whose English fails the builder's check (`english.renaming_problems`)
is rejected as the builder drops it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from lgmt_tasks.ids import derived_seed
from lgmt_tasks.lgmt.build import checked_row
from lgmt_tasks.lgmt.english import RENAMING_LEFT, common_noun_constants, usage_hints
from lgmt_tasks.lgmt.relations import RELATIONS, Case, FollowUp, Relation, Site
from lgmt_tasks.lgmt.relations.base import Direction, Fuse, Split
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.shrink.candidates import Shape
from lgmt_tasks.logic.lexicon import lexicon_for
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import Contradictory, Undecided, entailment
from lgmt_tasks.logic.realize import realize


@dataclass(frozen=True)
class Original:
    """A violating group as the shrinker needs it.

    Attributes:
        row: The group's row (the dataset columns, rebuilt from the log's sample).
        case: The source case, with its English and proven label.
        relation: The group's relation.
        site: The site the build used, or None when it could not be replayed.
        options: The relation options of the build (`names`, `direction`, `fuse`, `split`).
    """

    row: Mapping[str, Any]
    case: Case
    relation: Relation
    site: Site | None
    options: Mapping[str, str]

    @property
    def shape(self) -> Shape:
        """The original source as a shape (every premise its own origin)."""
        n = len(self.case.premises_fol)
        return Shape(self.case.premises_fol, self.case.conclusion_fol, tuple(range(n)))


@dataclass(frozen=True)
class Derived:
    """A proven smaller group: its source case (gold label re-proven), follow-up and dataset row."""

    case: Case
    followup: FollowUp | None  # None for the original group, asked as built
    row: dict[str, Any]
    verdict: str

    status: Literal["proven"] = "proven"


@dataclass(frozen=True)
class Rejected:
    """A candidate that is not a proven group: `refuted` (the prover or relation says no) or `undecided`."""

    status: Literal["refuted", "undecided"]
    reason: str


def _apply_at(
    relation: Relation, case: Case, site: Site, rng: random.Random, options: Mapping[str, str]
) -> FollowUp | None:
    return relation.apply_at(case, site, rng, **options)


def _rng(seed: int, mr: str, case: Case) -> random.Random:
    return random.Random(derived_seed(seed, mr, case.source_dataset, case.source_id))


def original_site(
    relation: Relation, case: Case, row: Mapping[str, Any], options: Mapping[str, str], seed: int
) -> Site | None:
    """The site the build applied the relation at: the build's seeded choice replayed, checked against the row.

    When the replay does not give the row's follow-up (a build with another seed, a hand-made row), the first site
    that gives it; None when no site does (other relation options).
    """
    sites = relation.sites(case, **options)
    if not sites:
        return None
    wanted = (list(row["followup_premises_fol"]), row["followup_conclusion_fol"])

    def gives_row(site: Site, rng: random.Random) -> bool:
        fu = _apply_at(relation, case, site, rng, options)
        return fu is not None and ([show(f) for f in fu.premises_fol], show(fu.conclusion_fol)) == wanted

    rng = _rng(seed, relation.id, case)
    site = rng.choice(sites)
    if gives_row(site, rng):
        return site
    # Another seed or a hand-made row: the first site that gives the row's follow-up.
    return next((s for s in sites if gives_row(s, _rng(seed, relation.id, case))), None)


def replay(
    relation: Relation, case: Case, row: Mapping[str, Any], options: Mapping[str, str], seed: int
) -> tuple[Site | None, Mapping[str, str]]:
    """The site the build used, and the relation options that give it: the log's, else the first others that do.

    A task run on a `-T dataset=` folder records its own `direction`, `p4` and `p5` arguments, which did not make
    the folder's rows (a folder built with `direction=any`, say, evaluated by a task whose default is `paper`). When
    the row's follow-up is not made at any site under the log's options, every other `direction`, MR-P4 `fuse` and
    MR-P5 `split` is tried, so the smaller groups are made by the same kind of site as the original; the log's
    options, and no site, when none gives it.
    """
    site = original_site(relation, case, row, options, seed)
    if site is not None:
        return site, options
    for direction in get_args(Direction):
        for fuse in get_args(Fuse):
            for split in get_args(Split):
                other = {**options, "direction": direction, "fuse": fuse, "split": split}
                if other != dict(options):
                    site = original_site(relation, case, row, other, seed)
                    if site is not None:
                        return site, other
    return None, options


def _preference(site: Site, shape: Shape, original: Original) -> tuple[bool, ...]:
    target = None if site.target is None else shape.origin[site.target]
    old = original.site
    if old is None:
        return (site.direction != original.row["direction"],)
    return (site.law != old.law, target != old.target, site.path != old.path, site.direction != old.direction)


def english(shape: Shape, followup: FollowUp, original: Original) -> tuple[tuple[str, ...], str]:
    """The English of a smaller source: unchanged formulas keep their sentence, the others are realised."""
    source = original.case
    lexicon = lexicon_for(
        [*shape.premises, shape.conclusion, *followup.premises_fol, followup.conclusion_fol],
        style="natural",
        common_nouns=common_noun_constants(source),
        usage=usage_hints(source),
    )
    premises = tuple(
        source.premises[o] if source.premises and f == source.premises_fol[o] else realize(f, lexicon)
        for f, o in zip(shape.premises, shape.origin, strict=True)
    )
    same = source.conclusion and shape.conclusion == source.conclusion_fol
    return premises, source.conclusion if same else realize(shape.conclusion, lexicon)


def derive(original: Original, shape: Shape, *, seed: int, timeout_ms: int, rlimit: int | None) -> Derived | Rejected:
    """Re-prove a smaller source and re-derive its follow-up by the same relation; see the module docstring.

    Args:
        original: The violating group being shrunk.
        shape: The smaller source.
        seed: Seed of the relation's own further choices (fresh names, seeded atoms).
        timeout_ms: Z3 wall-clock limit per query.
        rlimit: Z3 resource limit for the source label (deterministic; None: none).
    """
    base = Case(
        shape.premises,
        shape.conclusion,
        source_dataset=original.case.source_dataset,
        source_id=original.case.source_id,
    )
    label = entailment(shape.premises, shape.conclusion, timeout_ms=timeout_ms, rlimit=rlimit)
    if isinstance(label, Undecided):
        return Rejected("undecided", f"source label undecided: {label.reason}")
    if isinstance(label, Contradictory):
        return Rejected("refuted", "source premises contradictory")
    gold = str(label.value)
    relation = original.relation
    sites = relation.sites(base, **original.options)
    ranked = sorted(range(len(sites)), key=lambda i: (_preference(sites[i], shape, original), i))
    followup = None
    for i in ranked:
        followup = _apply_at(relation, base, sites[i], _rng(seed, relation.id, base), original.options)
        if followup is not None:
            break
    if followup is None:
        return Rejected("refuted", f"{relation.id} does not apply to the smaller source")
    premises, conclusion = english(shape, followup, original)
    case = Case(
        shape.premises,
        shape.conclusion,
        premises,
        conclusion,
        gold,
        original.case.source_dataset,
        original.case.source_id,
    )
    verdict = verify(case, followup, timeout_ms=timeout_ms, source_label=gold)
    if verdict.status == "undecided":
        return Rejected("undecided", f"{relation.id} claim undecided: {verdict.reason}")
    if not verdict.proven:
        return Rejected("refuted", f"{relation.id} claim refuted: {verdict.reason}")
    row, problems, _, _ = checked_row(case, [followup])
    if problems:  # a renaming whose English still names the old symbol: the builder drops such a group too
        return Rejected("refuted", f"{RENAMING_LEFT}: {problems[0]}")
    return Derived(case, followup, row, verdict.reason)


def relation_of(mr: str) -> Relation:
    """The relation of a group; composed chains (`MR-E1.1+MR-C3`) are not shrunk.

    Raises:
        ValueError: For a chain or an unknown relation id.
    """
    if "+" in mr:
        raise ValueError(f"relation {mr!r} is a composed chain; lgmt shrink handles single relations only")
    if mr not in RELATIONS:
        raise ValueError(f"relation {mr!r} is not an LGMT relation (expected one of {', '.join(RELATIONS)})")
    return RELATIONS[mr]
