"""The adaptive designs: which relations still need groups, and what each relation's interval has decided.

Both designs read only each relation's confidence-sequence interval (`sequences.confidence_sequence` at the
simultaneous level `per_relation_alpha`), so a decision made at any stop is as valid as one made at a fixed n:

- `threshold` answers "which relations violate more often than tau?". A relation is decided `above` once its whole
  interval lies above tau − margin, `below` once it lies below tau + margin. A relation within the margin of tau may
  be called either way: that is what the margin allows, and what a wrong decision means is a call beyond it (a rate
  ≤ tau − margin called `above`, or ≥ tau + margin called `below`).
- `weakest` answers "which relation violates most often?". Successive elimination on the same intervals: the leader
  is the relation with the highest lower end; another relation is `eliminated` once its upper end lies below that
  (its rate is below the leader's), and sampling stops when no relation left can beat the leader by more than
  `margin` (each one's upper end ≤ the leader's lower end + margin). The leader is then `weakest`: its rate is within
  `margin` of the highest, and the relations left beside it are `tied` with it.

A relation still open when its pool runs out is `undecided`: never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from lgmt_tasks.adaptive.sequences import Interval, check_alpha, confidence_sequence, per_relation_alpha

Design = Literal["none", "threshold", "weakest"]
DESIGNS: tuple[str, ...] = get_args(Design)

Decision = Literal["open", "above", "below", "weakest", "tied", "eliminated", "undecided"]

DEFAULT_TAU = 0.10
DEFAULT_MARGIN = 0.05
DEFAULT_ALPHA = 0.05


@dataclass(frozen=True)
class Settings:
    """An adaptive run's design and its parameters (the task's `-T adaptive`, `tau`, `margin`, `alpha`)."""

    design: Design = "none"
    tau: float = DEFAULT_TAU
    margin: float = DEFAULT_MARGIN
    alpha: float = DEFAULT_ALPHA

    def __post_init__(self) -> None:
        if self.design not in DESIGNS:
            raise ValueError(f"adaptive={self.design!r}: expected one of {', '.join(DESIGNS)}")
        if not 0 < self.tau < 1:
            raise ValueError(f"tau={self.tau}: expected a rate strictly between 0 and 1 (e.g. 0.1)")
        if not 0 < self.margin < 1:
            raise ValueError(f"margin={self.margin}: expected a number strictly between 0 and 1 (e.g. 0.05)")
        check_alpha(self.alpha)

    @property
    def adaptive(self) -> bool:
        """Whether the run is adaptive at all (`none` is today's uniform run)."""
        return self.design != "none"


@dataclass(frozen=True)
class State:
    """One relation's counts, interval and decision."""

    relation: str
    interval: Interval
    decision: Decision
    exhausted: bool = False


def intervals(counts: Mapping[str, tuple[int, int]], alpha: float) -> dict[str, Interval]:
    """Each relation's interval from its (groups, violations), at the simultaneous level over all of them."""
    level = per_relation_alpha(alpha, max(len(counts), 1))
    return {relation: confidence_sequence(n, v, level) for relation, (n, v) in counts.items()}


def decide(
    settings: Settings, counts: Mapping[str, tuple[int, int]], exhausted: frozenset[str] = frozenset()
) -> dict[str, State]:
    """Every relation's state under the design, given its (groups, violations) so far and whose pools have run out.

    Args:
        settings: The design and its parameters (not `none`).
        counts: Per relation, the groups whose answers all parsed and the violations among them.
        exhausted: The relations with no group left to serve.

    Returns:
        Per relation (in `counts` order) its interval and decision; `open` means it still needs groups.
    """
    if not settings.adaptive:
        raise ValueError("decide() needs an adaptive design (threshold or weakest)")
    bounds = intervals(counts, settings.alpha)
    decisions = (_threshold if settings.design == "threshold" else _weakest)(settings, bounds)
    states = {}
    for relation, interval in bounds.items():
        decision = decisions[relation]
        if decision == "open" and relation in exhausted:
            decision = "undecided"
        states[relation] = State(relation, interval, decision, relation in exhausted)
    return states


def _threshold(settings: Settings, bounds: Mapping[str, Interval]) -> dict[str, Decision]:
    decisions: dict[str, Decision] = {}
    for relation, interval in bounds.items():
        if interval.n and interval.lower > settings.tau - settings.margin:
            decisions[relation] = "above"
        elif interval.n and interval.upper < settings.tau + settings.margin:
            decisions[relation] = "below"
        else:
            decisions[relation] = "open"
    return decisions


def _weakest(settings: Settings, bounds: Mapping[str, Interval]) -> dict[str, Decision]:
    if not bounds or not all(interval.n for interval in bounds.values()):
        return dict.fromkeys(bounds, "open")
    leader = max(sorted(bounds), key=lambda r: (bounds[r].lower, bounds[r].rate))
    floor = bounds[leader].lower  # the leader's rate is at least this; a relation whose rate cannot reach it is out
    decisions: dict[str, Decision] = {
        r: "eliminated" for r, interval in bounds.items() if r != leader and interval.upper < floor
    }
    alive = [r for r in bounds if r != leader and r not in decisions]
    if all(bounds[r].upper <= floor + settings.margin for r in alive):  # none can beat the leader by more than margin
        decisions[leader] = "weakest"
        decisions.update(dict.fromkeys(alive, "tied"))
    else:
        decisions[leader] = "open"
        decisions.update(dict.fromkeys(alive, "open"))
    return decisions


def open_relations(states: Mapping[str, State]) -> list[str]:
    """The relations that still need groups."""
    return [relation for relation, state in states.items() if state.decision == "open"]
