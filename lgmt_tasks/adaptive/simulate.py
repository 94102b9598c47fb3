"""How many groups an adaptive run needs, by simulation, beside the fixed-n design that answers the same question.

`lgmt plan --adaptive --rates …` prints these, and `benchmarks/adaptive_simulation.py` writes the README's table. A
simulated run serves one group per open relation per round (the order an adaptive task serves them), draws each
outcome as a Bernoulli of the relation's planted rate, and decides with `design.decide` after every round, until no
relation is open or every open relation has `pool` groups. The fixed-n design answers the same question with a
Wilson interval at the same simultaneous level after n groups of every relation, n chosen in advance for the planted
rates: for `threshold`, the smallest n at which the interval at every planted rate (its expected count) decides it
(lies above tau − margin or below tau + margin); for `weakest`, the smallest n at which the interval of the highest
rate lies above those of the rates more than `margin` below it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from lgmt_tasks.adaptive.design import Settings, decide, open_relations
from lgmt_tasks.adaptive.sequences import per_relation_alpha
from lgmt_tasks.scorers.intervals import wilson_interval

MAX_FIXED_N = 1_000_000


@dataclass(frozen=True)
class Simulated:
    """The mean outcome of simulated adaptive runs."""

    runs: int
    groups: float  # mean groups run over all relations
    per_relation: tuple[float, ...]  # mean groups per relation, in the order of the rates
    wrong: int  # decisions beyond the margin, over all runs and relations
    undecided: float  # mean relations left undecided per run


def wrong_decision(decision: str, rate: float, rates: Sequence[float], settings: Settings) -> bool:
    """Whether a decision is wrong beyond the margin (see `design`'s docstring)."""
    if decision == "above":
        return rate <= settings.tau - settings.margin
    if decision == "below":
        return rate >= settings.tau + settings.margin
    if decision == "weakest":  # `tied` claims nothing of its own rate: only that the weakest is within the margin
        return rate < max(rates) - settings.margin
    return False


def simulate(rates: Sequence[float], settings: Settings, *, pool: int, runs: int, seed: int = 0) -> Simulated:
    """Run `runs` simulated adaptive runs of relations with the planted `rates`; the mean groups and the errors."""
    rng = random.Random(seed)
    names = [f"r{i}" for i in range(len(rates))]
    totals = [0] * len(rates)
    wrong = undecided = 0
    for _ in range(runs):
        counts = dict.fromkeys(names, (0, 0))
        states = decide(settings, counts)
        while True:
            serving = [r for r in open_relations(states) if counts[r][0] < pool]
            if not serving:
                break
            for relation in serving:
                n, v = counts[relation]
                counts[relation] = (n + 1, v + (rng.random() < rates[names.index(relation)]))
            exhausted = frozenset(r for r in names if counts[r][0] >= pool)
            states = decide(settings, counts, exhausted)
        for i, relation in enumerate(names):
            totals[i] += counts[relation][0]
            wrong += wrong_decision(states[relation].decision, rates[i], rates, settings)
            undecided += states[relation].decision in ("undecided", "open")
    per_relation = tuple(total / runs for total in totals)
    return Simulated(runs, sum(per_relation), per_relation, wrong, undecided / runs)


def fixed_n(rates: Sequence[float], settings: Settings) -> int:
    """The groups per relation a fixed-n design needs for the same question (see the module docstring)."""
    z = NormalDist().inv_cdf(1 - per_relation_alpha(settings.alpha, len(rates)) / 2)

    def settles(n: int) -> bool:
        bounds = [wilson_interval(rate * n, n, z=z) for rate in rates]
        if settings.design == "threshold":
            low_end, high_end = settings.tau - settings.margin, settings.tau + settings.margin
            return all(low > low_end or high < high_end for low, high in bounds)
        top = max(range(len(rates)), key=lambda i: rates[i])
        return all(bounds[i][1] < bounds[top][0] for i, rate in enumerate(rates) if rate < rates[top] - settings.margin)

    n = 1
    while not settles(n):
        n *= 2
        if n > MAX_FIXED_N:
            return MAX_FIXED_N
    low = n // 2
    while low + 1 < n:
        middle = (low + n) // 2
        low, n = (low, middle) if settles(middle) else (middle, n)
    return n
