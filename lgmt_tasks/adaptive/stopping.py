"""An adaptive Inspect run (`-T adaptive=threshold|weakest`): Inspect's early-stopping hook skips decided relations.

Inspect asks a task's `EarlyStopping` manager before it runs each sample (`schedule_sample`: run it, or skip it with an
`EarlyStop`), tells it every sample's scores (`complete_sample`), and logs what it returns at the end
(`complete_task`) as `log.results.early_stopping.metadata`. `AdaptiveStopping` is that manager for a suite whose
samples are metamorphic groups (LGMT, lexical): each group is one Bernoulli outcome of its relation (violated or not,
counted only when it was a test, `tested`, and every answer parsed, `parsed`), the relation's interval is the
confidence sequence of `sequences` and its decision that of `design`; a group of a relation whose decision is no
longer `open` is skipped, at no model call. ARCHITECTURE.md says why this hook and not a `SampleSource`.

What the run's order and concurrency mean:

- The task serves the groups round-robin over relations (`adaptive_samples`), so that every relation advances from the
  start and a relation is decided after about as many groups as the design needs for it.
- A decision lags by the samples already running: Inspect asks the hook when a sample takes its place among the
  `max_samples` running ones, so up to that many groups of a relation may still run after the group that decided it.
  They are counted (the interval stays valid at every n), so the log's groups and the summary's agree.
- With `--epochs k`, the first epoch of a group decides whether it runs, and its later epochs follow that decision,
  so that a group that ran has all k epochs and a skipped one none; a group's outcome is counted once, from the first
  of its epochs to finish (its epochs are not independent draws).
- Decisions are recomputed from all counts after every outcome, so the summary's decision is the design's reading
  of its final interval; a relation whose last group was served while it was still open is `undecided`.
- Inspect consults the hook only when it logs samples: under `--no-log-samples` nothing is skipped (the summary then
  says so under `skipping`).
- `eval-retry` reuses the groups an earlier attempt completed without scheduling them: they are counted from their
  completion (run, their outcome, their calls, made by that attempt), and the groups left are served or skipped as the
  restored counts decide, so the retried log's summary covers the whole run.

Model calls are counted as the solver makes them: one per member of a group (the source and its follow-ups, plus
the control member of `-T control`, plus the follow-up a lexical transformer still has to write), times the epochs
run; a lexical transformer's and a grader's own calls are not counted. The uniform run's calls are the same count
over every group of the task.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspect_ai.util import EarlyStop

from lgmt_tasks.adaptive.design import (
    DEFAULT_ALPHA,
    DEFAULT_MARGIN,
    DEFAULT_TAU,
    Settings,
    State,
    decide,
)
from lgmt_tasks.adaptive.sequences import per_relation_alpha
from lgmt_tasks.builders.order import round_robin

if TYPE_CHECKING:
    from inspect_ai.dataset import Sample
    from inspect_ai.log import EvalSpec
    from inspect_ai.scorer import SampleScore
    from pydantic import JsonValue

MANAGER = "lgmt_adaptive"
"""The manager's name, logged as `log.results.early_stopping.manager` (how a report recognises the summary)."""

RELATION_KEY = "mr"
"""The sample metadata key naming a group's relation (LGMT's and lexical's samples both carry it)."""

METADATA_KEY = "adaptive"
"""The task metadata key holding an adaptive run's settings (absent from a uniform run's task metadata)."""


def adaptive_settings(
    adaptive: str, tau: float = DEFAULT_TAU, margin: float = DEFAULT_MARGIN, alpha: float = DEFAULT_ALPHA
) -> Settings | None:
    """The run's settings from the task's `-T adaptive/tau/margin/alpha`, or None for a uniform run (`none`).

    Raises:
        ValueError: On an unknown design or a value out of range (from `Settings`), or on tau, margin or alpha set to
            other than its default without an adaptive design (it would change nothing, silently).
    """
    if adaptive == "none":
        given = [
            f"{name}={value}"
            for name, value, default in (
                ("tau", tau, DEFAULT_TAU),
                ("margin", margin, DEFAULT_MARGIN),
                ("alpha", alpha, DEFAULT_ALPHA),
            )
            if value != default
        ]
        if given:
            raise ValueError(
                f"{', '.join(given)} without an adaptive design: set -T adaptive=threshold or -T adaptive=weakest, "
                "or drop it"
            )
    settings = Settings(adaptive, tau, margin, alpha)  # type: ignore[arg-type]  # checked by Settings itself
    return settings if settings.adaptive else None


def settings_metadata(settings: Settings) -> dict[str, Any]:
    """The settings as the task's metadata records them (`Task(metadata={METADATA_KEY: ...})`)."""
    return {"design": settings.design, "tau": settings.tau, "margin": settings.margin, "alpha": settings.alpha}


def adaptive_samples(samples: Sequence[Sample]) -> list[Sample]:
    """The samples round-robin over their relations, each relation's own order kept (deterministic).

    The loaders already hand rows round-robin over relations (`lgmt_tasks.builders.order`), so this is usually the
    identity; an adaptive run needs the order, so it does not rely on a loader's.
    """
    return [samples[i] for i in round_robin([relation_of(sample) for sample in samples])]


def relation_of(sample: Sample) -> str:
    """A group's relation (its metadata's `mr`).

    Raises:
        ValueError: Naming the sample, if its metadata has no relation.
    """
    relation = (sample.metadata or {}).get(RELATION_KEY)
    if not isinstance(relation, str) or not relation:
        raise ValueError(f"Sample {sample.id}: an adaptive run needs metadata[{RELATION_KEY!r}] (the group's relation)")
    return relation


def group_calls(sample: Sample, extra: int = 0) -> int:
    """The model calls one epoch of a group makes: one per member, plus a pending lexical follow-up and `extra`."""
    metadata = sample.metadata or {}
    members = metadata.get("members")
    count = len(members) if isinstance(members, list) else 2
    return count + int(bool(metadata.get("pending"))) + extra


def group_outcome(value: object) -> tuple[bool, bool] | None:
    """(counted, violated) from a scorer's value dict; None if it is not one (another scorer's, or an error's).

    Counted: the group was a test (`tested`, 1 where the key is absent) and every answer parsed (`parsed`).
    """
    if not isinstance(value, Mapping) or "parsed" not in value or "violation" not in value:
        return None
    counted = bool(value.get("tested", 1)) and bool(value["parsed"])
    return counted, counted and bool(value["violation"])


class AdaptiveStopping:
    """Inspect's `EarlyStopping` manager of an adaptive run: skips the groups of decided relations.

    One instance belongs to one `Task`; `start_task` resets it, so a task evaluated again starts afresh.

    Args:
        settings: The design (not `none`) and its parameters.
        scorer: The name of the scorer whose value dict holds `parsed`, `violation` and `tested` (the suite's own:
            `metamorphic_consistency`, `lexical_consistency`); other scorers (a grader's) are ignored.
        order: The relations in the order the summary lists them (the suite's catalogue); relations not in it follow
            in the order of their first group.
        extra_calls: Model calls per group beyond its members (1 with a control member).
    """

    def __init__(self, settings: Settings, scorer: str, order: Sequence[str] = (), extra_calls: int = 0) -> None:
        if not settings.adaptive:
            raise ValueError("AdaptiveStopping needs an adaptive design (threshold or weakest)")
        self.settings = settings
        self.scorer = scorer
        self.order = tuple(order)
        self.extra_calls = extra_calls
        self._reset([], 1)

    def _reset(self, samples: Sequence[Sample], epochs: int) -> None:
        self.epochs = epochs
        self.relation = {sample.id: relation_of(sample) for sample in samples}
        self.calls = {sample.id: group_calls(sample, self.extra_calls) for sample in samples}
        seen = list(dict.fromkeys(self.relation.values()))
        ranked = [r for r in self.order if r in seen]
        self.relations = [*ranked, *(r for r in seen if r not in ranked)]
        self.pool = Counter(self.relation.values())
        self.unscheduled = Counter(self.pool)
        self.run: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.served: dict[str | int, bool] = {}  # per group: run (True) or skipped, decided at its first schedule
        self.epochs_run: set[tuple[str | int, int]] = set()
        self.scheduled = False  # whether Inspect asked about any sample (it does not under --no-log-samples)
        self.outcomes: set[str | int] = set()  # groups whose outcome is counted
        self.counts: dict[str, tuple[int, int]] = dict.fromkeys(self.relations, (0, 0))
        self.states: dict[str, State] = decide(self.settings, self.counts) if self.relations else {}

    def exhausted(self) -> frozenset[str]:
        """The relations with no group left to serve."""
        return frozenset(r for r in self.relations if self.unscheduled[r] == 0)

    async def start_task(self, task: EvalSpec, samples: list[Sample], epochs: int) -> str:
        """Register the groups the run will serve (after `--limit` / `--sample-id`): its pools and call counts."""
        self._reset(samples, epochs)
        return MANAGER

    async def schedule_sample(self, id: str | int, epoch: int) -> EarlyStop | None:
        """Run the group if its relation is still open (or it ran in an earlier epoch); otherwise skip it."""
        self.scheduled = True
        relation = self.relation.get(id)
        if relation is None:  # not one of the task's groups: nothing to decide
            return None
        if id not in self.served:
            self.unscheduled[relation] -= 1
            run = self.states[relation].decision == "open"
            self.served[id] = run
            (self.run if run else self.skipped)[relation] += 1
        if self.served[id]:
            self.epochs_run.add((id, epoch))
            return None
        state = self.states[relation]
        interval = state.interval
        return EarlyStop(
            id=id,
            epoch=epoch,
            reason=f"{relation} {state.decision}: interval [{interval.lower:.3f}, {interval.upper:.3f}] after "
            f"{interval.n} groups ({interval.violations} violations)",
            metadata={"relation": relation, "decision": state.decision},
        )

    async def complete_sample(self, id: str | int, epoch: int, scores: dict[str, SampleScore]) -> None:
        """Count the group's outcome (once per group) and decide again."""
        relation = self.relation.get(id)
        if relation is None or id in self.outcomes:
            return
        if id not in self.served:  # a group an earlier attempt ran (`eval-retry` reuses it without scheduling it)
            self.unscheduled[relation] -= 1
            self.served[id] = True
            self.run[relation] += 1
        self.epochs_run.add((id, epoch))
        score = scores.get(self.scorer)
        outcome = group_outcome(score.score.value) if score is not None else None
        if outcome is None:
            return
        self.outcomes.add(id)
        counted, violated = outcome
        if counted:
            n, v = self.counts[relation]
            self.counts[relation] = (n + 1, v + violated)
            self.states = decide(self.settings, self.counts, self.exhausted())

    async def complete_task(self) -> dict[str, JsonValue]:
        """The summary logged as `log.results.early_stopping.metadata` (see `summary`)."""
        return self.summary()

    def summary(self) -> dict[str, JsonValue]:
        """The settings, one row per relation, the groups run and skipped, and the calls made and saved.

        Rows: `relation`, `groups` (counted: tested and parsed), `violations`, `lower` and `upper` (the confidence
        sequence at the simultaneous level), `decision`, then `run` and `skipped` (groups served and skipped) and
        `pool` (the relation's groups in the task).
        """
        states = decide(self.settings, self.counts, self.exhausted()) if self.relations else {}
        # Inspect consults the hook only when it logs samples: without a schedule call, every group ran
        skipping_off = not self.scheduled and bool(self.outcomes)
        run = self.pool if skipping_off else self.run
        rows: list[JsonValue] = []
        for relation in self.relations:
            state = states[relation]
            rows.append(
                {
                    "relation": relation,
                    "groups": state.interval.n,
                    "violations": state.interval.violations,
                    "lower": state.interval.lower,
                    "upper": state.interval.upper,
                    "decision": state.decision,
                    "run": run[relation],
                    "skipped": self.skipped[relation],
                    "pool": self.pool[relation],
                }
            )
        uniform = sum(self.calls.values()) * self.epochs
        made = uniform if skipping_off else sum(self.calls[id] for id, _ in self.epochs_run)
        summary: dict[str, JsonValue] = {
            **settings_metadata(self.settings),
            "relation_alpha": per_relation_alpha(self.settings.alpha, max(len(self.relations), 1)),
            "scorer": self.scorer,
            "epochs": self.epochs,
            "relations": rows,
            "groups": {
                "pool": sum(self.pool.values()),
                "run": sum(run.values()),
                "skipped": sum(self.skipped.values()),
            },
            "calls": {"made": made, "uniform": uniform, "saved": uniform - made},
        }
        if skipping_off:
            summary["skipping"] = (
                "off: Inspect asked for no sample to be scheduled (it consults early stopping only when it logs "
                "samples; --no-log-samples), so every group ran"
            )
        return summary


__all__ = [
    "MANAGER",
    "METADATA_KEY",
    "AdaptiveStopping",
    "adaptive_samples",
    "adaptive_settings",
    "group_calls",
    "group_outcome",
    "relation_of",
    "settings_metadata",
]
