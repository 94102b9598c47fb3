"""Build statistics: what a builder generated, dropped, and why.

Every builder reports through one `BuildStats` so that the CLI summary, the dataset card and the tests read
the same numbers. Counts are keyed by a bucket (for example a relation id or a source dataset) and a reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class BuildStats:
    """Counters of a build, by bucket.

    Attributes:
        counts: `counts[bucket][event]`, e.g. `counts["MR-E1.1"]["proven"]`.
        dropped: `dropped[bucket][reason]`, e.g. `dropped["MR-E1.1"]["undecided: timeout"]`.
        dropped_ids: `dropped_ids[bucket][reason]`: the ids of dropped items, where the builder knows them (a
            source record's id, a source case's id, or the seed coordinates of a generated draw), so that a
            dropped item can be found again, not only counted. Sorted in `to_dict`.
        notes: Free-form facts worth printing (candidate pool size, source licence, ...).
    """

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    dropped: dict[str, Counter[str]] = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)
    dropped_ids: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def count(self, bucket: str, event: str, n: int = 1) -> None:
        """Add `n` to an event counter of a bucket."""
        self.counts.setdefault(bucket, Counter())[event] += n

    def drop(self, bucket: str, reason: str, n: int = 1, ids: Iterable[str] = ()) -> None:
        """Record that `n` items of a bucket were dropped, and why; `ids` names them when they have ids."""
        self.dropped.setdefault(bucket, Counter())[reason] += n
        named = list(ids)
        if named:
            self.dropped_ids.setdefault(bucket, {}).setdefault(reason, []).extend(named)

    def merge(self, other: BuildStats) -> None:
        """Add another build's counters into this one (for parallel builds)."""
        for bucket, counter in other.counts.items():
            self.counts.setdefault(bucket, Counter()).update(counter)
        for bucket, counter in other.dropped.items():
            self.dropped.setdefault(bucket, Counter()).update(counter)
        for bucket, by_reason in other.dropped_ids.items():
            for reason, ids in by_reason.items():
                self.dropped_ids.setdefault(bucket, {}).setdefault(reason, []).extend(ids)
        self.notes.update(other.notes)

    def total_dropped(self, bucket: str | None = None) -> int:
        """Dropped items of one bucket, or of all buckets."""
        buckets = [bucket] if bucket is not None else list(self.dropped)
        return sum(sum(self.dropped.get(b, Counter()).values()) for b in buckets)

    def to_dict(self) -> dict[str, Any]:
        """Plain, sorted, JSON-ready form (stable for cards and tests)."""
        return {
            "counts": {b: dict(sorted(c.items())) for b, c in sorted(self.counts.items())},
            "dropped": {b: dict(sorted(c.items())) for b, c in sorted(self.dropped.items())},
            "dropped_ids": {
                b: {r: sorted(ids) for r, ids in sorted(named.items())} for b, named in sorted(self.dropped_ids.items())
            },
            "notes": dict(sorted(self.notes.items())),
        }

    def to_markdown(self, events: list[str] | None = None) -> str:
        """A Markdown table: one row per bucket, one column per event, then dropped reasons."""
        buckets = sorted(set(self.counts) | set(self.dropped))
        cols = events or sorted({e for c in self.counts.values() for e in c})
        lines = ["| bucket | " + " | ".join(cols) + " | dropped (reason: n) |", "|---" * (len(cols) + 2) + "|"]
        for b in buckets:
            c = self.counts.get(b, Counter())
            reasons = "; ".join(f"{r}: {n}" for r, n in sorted(self.dropped.get(b, Counter()).items())) or "-"
            lines.append(f"| {b} | " + " | ".join(str(c.get(e, 0)) for e in cols) + f" | {reasons} |")
        return "\n".join(lines)
