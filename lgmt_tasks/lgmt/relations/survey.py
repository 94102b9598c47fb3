"""Surveys over any list of cases: where each relation applies, and a prover-checked property run.

`applicability` gives the table the README shows per source dataset. `property_run` is the issue's quality
bar as a reusable function: seeded applications of every relation to every case, each follow-up discharged by
`check.verify` (and optionally re-checked independently by `check.recheck`); the tests call it on generated
cases, and it runs unchanged on FOLIO / ProverQA cases once loaded.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lgmt_tasks.lgmt.relations.base import Options, Relation
from lgmt_tasks.lgmt.relations.catalogue import RELATIONS
from lgmt_tasks.lgmt.relations.followup import FollowUp
from lgmt_tasks.sources.case import Case


def _relations(relations: Iterable[Relation] | None) -> list[Relation]:
    if relations is None:
        return list(RELATIONS.values())
    return list(relations)


def applicability(
    cases: Sequence[Case], relations: Iterable[Relation] | None = None, **options: object
) -> dict[str, tuple[int, int]]:
    """Per relation id, (number of cases it applies to, number of cases), in registry order.

    Args:
        cases: Any cases (e.g. one source dataset).
        relations: Relations to survey (default: all 20).
        **options: Relation options (e.g. `direction="paper"`, the default, for the paper's reading of each law;
            `direction="forward"` for the laws as written).
    """
    return {r.id: (sum(1 for c in cases if r.applies(c, **options)), len(cases)) for r in _relations(relations)}


def direction_counts(cases: Sequence[Case], relation: Relation, **options: object) -> Counter[str]:
    """Count the cases with at least one site of each direction of `relation`.

    Every site counts (`Relation.all_sites`, including the sites only the `counts` reading uses), except with
    `direction="paper"`: then only the paper's sites (`Relation.paper_site`) count, and with `direction="counts"`
    only issue #25's (`Relation.counts_site`), so the split shows which directions make up that pool (e.g.
    MR-E1.2's forward De Morgan steps and extended negated →/↔/⊕ under `counts`). Other `direction` values select
    nothing here (they are modes of `apply`, not kinds of site); the other options apply.
    """
    counts: Counter[str] = Counter()
    opts = {k: v for k, v in options.items() if k != "direction"}
    keep = {"paper": relation.paper_site, "counts": relation.counts_site}.get(str(options.get("direction")))
    Options.parse(options)  # an invalid direction is an error here too
    for case in cases:
        sites = relation.all_sites(case, **opts)
        for direction in {s.direction for s in sites if keep is None or keep(s)}:
            counts[direction] += 1
    return counts


@dataclass
class Tally:
    """Outcomes of one relation's seeded applications in a property run.

    `applied` counts applications (with multiplicity: two seeds may give the same follow-up); `distinct` counts
    distinct follow-ups, each of which was proven once.
    """

    applied: int = 0
    distinct: int = 0
    not_applicable: int = 0
    verified: int = 0
    rechecked: int = 0
    refuted: list[tuple[str, str]] = field(default_factory=list)  # (case id, reason)
    inconclusive: Counter[str] = field(default_factory=Counter)
    directions: Counter[str] = field(default_factory=Counter)

    @property
    def undecided(self) -> int:
        """Number of inconclusive applications."""
        return sum(self.inconclusive.values())


@dataclass
class PropertyRun:
    """Result of `property_run`: a tally per relation id, and the sources that could not be labelled."""

    tallies: dict[str, Tally]
    unlabelled_sources: Counter[str]

    @property
    def refutations(self) -> list[tuple[str, str, str]]:
        """Every refuted application as (relation id, case id, reason)."""
        return [(mr, cid, why) for mr, t in self.tallies.items() for cid, why in t.refuted]


@dataclass(frozen=True)
class _Settings:
    seed: int
    rounds: int
    target: int | None
    timeout_ms: int
    recheck_every: int
    options: tuple[tuple[str, object], ...]


def _label(case: Case, timeout_ms: int) -> str:
    from lgmt_tasks.logic.prover import Contradictory, Undecided, entailment

    result = entailment(case.premises_fol, case.conclusion_fol, timeout_ms=timeout_ms)
    if isinstance(result, Contradictory):
        return "!contradictory"
    if isinstance(result, Undecided):
        return f"!undecided: {result.reason}"
    return str(result.value)


def _run_relation(relation: Relation, labelled: Sequence[tuple[int, Case, str]], settings: _Settings) -> Tally:
    from lgmt_tasks.lgmt.relations.check import Verdict, recheck, verify

    tally = Tally()
    options = dict(settings.options)
    verdicts: dict[tuple[int, FollowUp], Verdict] = {}  # one proof per distinct follow-up of a case
    for k in range(settings.rounds):
        if settings.target is not None and tally.applied >= settings.target:
            break
        for i, case, label in labelled:
            if settings.target is not None and tally.applied >= settings.target:
                break
            rng = random.Random(f"{settings.seed}/{relation.id}/{i}/{k}")
            fu = relation.apply(case, rng, **options)
            if fu is None:
                tally.not_applicable += 1
                continue
            tally.applied += 1
            tally.directions[fu.direction] += 1
            key = (i, fu)
            verdict = verdicts.get(key)
            if verdict is None:
                tally.distinct += 1
                verdict = verify(case, fu, timeout_ms=settings.timeout_ms, source_label=label)
                if verdict.proven and settings.recheck_every and tally.distinct % settings.recheck_every == 0:
                    tally.rechecked += 1
                    verdict = recheck(case, fu, timeout_ms=settings.timeout_ms, source_label=label)
                verdicts[key] = verdict
            if verdict.status == "proven":
                tally.verified += 1
            elif verdict.status == "refuted":
                tally.refuted.append((case.source_id or str(i), verdict.reason))
            else:
                tally.inconclusive[verdict.reason] += 1
    return tally


def property_run(
    cases: Sequence[Case],
    relations: Iterable[Relation] | None = None,
    *,
    rounds: int = 1,
    target: int | None = None,
    seed: int = 0,
    timeout_ms: int | None = None,
    recheck_every: int = 0,
    workers: int = 1,
    options: dict[str, object] | None = None,
) -> PropertyRun:
    """Apply every relation to every case, round after round, and check every follow-up with the prover.

    Args:
        cases: Source cases (any source). Their labels are computed once by the prover; cases that are
            contradictory or undecided are skipped and counted in `unlabelled_sources`.
        relations: Relations to run (default: all 20).
        rounds: Maximum passes over the cases per relation; pass k seeds the generator of case i with
            (seed, relation, i, k).
        target: Stop a relation once it has this many applications (None: run every round).
        seed: Base seed.
        timeout_ms: Z3 limit per query (default: the prover's).
        recheck_every: Also run the independent `recheck` on every n-th distinct follow-up (0: never).
        workers: Processes to spread the relations (and the source labels) over; 1 runs in process.
        options: Relation options.
    """
    from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS

    settings = _Settings(
        seed=seed,
        rounds=rounds,
        target=target,
        timeout_ms=DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms,
        recheck_every=recheck_every,
        options=tuple(sorted((options or {}).items())),
    )
    chosen = _relations(relations)
    if workers > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            labels = list(pool.map(_label, cases, [settings.timeout_ms] * len(cases), chunksize=32))
            labelled = [(i, c, lab) for i, (c, lab) in enumerate(zip(cases, labels, strict=True)) if lab[0] != "!"]
            futures = [pool.submit(_run_relation, r, labelled, settings) for r in chosen]
            tallies = {r.id: f.result() for r, f in zip(chosen, futures, strict=True)}
    else:
        labels = [_label(c, settings.timeout_ms) for c in cases]
        labelled = [(i, c, lab) for i, (c, lab) in enumerate(zip(cases, labels, strict=True)) if lab[0] != "!"]
        tallies = {r.id: _run_relation(r, labelled, settings) for r in chosen}
    unlabelled = Counter(lab[1:] for lab in labels if lab[0] == "!")
    return PropertyRun(tallies, unlabelled)
