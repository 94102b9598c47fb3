"""The order tasks hand rows to a framework in: round-robin over a suite's strata, so any `--limit N` is stratified.

Inspect's and lm-eval's `--limit N` both take the first N samples. A repository's rows are in a seeded content-hash
order (stable, but blind to relations), so the first 20 LGMT groups covered 7 of 10 relations of `mr_e`. Reordering
the *loaded* rows round-robin over one column per suite (the relation, skill, question type or configuration: each
dataset module's `STRATA`) makes the first N rows cover min(N, strata) strata, while the repository's bytes and ids
stay what they are. Both frameworks load through the suite's loader, so both see this same order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: tasks import this module, so Inspect's plugin import would pay for `datasets`
    import datasets


@dataclass(frozen=True)
class Strata:
    """What a suite stratifies its rows by: the columns read and the stratum their values make.

    Attributes:
        columns: The columns a row's stratum is computed from (e.g. `("mr",)`).
        key: Maps the values of `columns` (one positional argument each) to the stratum's name; default: the value
            of the single column, as a string.
    """

    columns: tuple[str, ...]
    key: Callable[..., str] | None = None

    def keys(self, rows: datasets.Dataset) -> list[str]:
        """The stratum of every row, in order (whole columns read once)."""
        values = zip(*(rows[c] for c in self.columns), strict=True)
        if self.key is None:
            return ["/".join(str(v) for v in row) for row in values]
        return [self.key(*row) for row in values]

    @property
    def name(self) -> str:
        """The columns, for metadata and messages (`mr`, `depth/width/distractors`)."""
        return "/".join(self.columns)


def round_robin(keys: Sequence[Hashable]) -> list[int]:
    """Positions ordering items round-robin over their keys, keeping each key's own order.

    Args:
        keys: The key (stratum) of each item, in the items' order.

    Returns:
        The first item of every key (keys in order of first appearance), then every key's second item, and so on.
        Applying it to rows already in this order gives the same order (it is idempotent).
    """
    queues: dict[Hashable, list[int]] = {}
    for index, key in enumerate(keys):
        queues.setdefault(key, []).append(index)
    longest = max((len(queue) for queue in queues.values()), default=0)
    return [queue[k] for k in range(longest) for queue in queues.values() if k < len(queue)]


def interleave(rows: datasets.Dataset, strata: Strata) -> datasets.Dataset:
    """The same rows, round-robin over `strata` (see `round_robin`)."""
    return rows.select(round_robin(strata.keys(rows)))


def interleave_by(rows: datasets.Dataset, column: str, group_of: Callable[[Any], str] = str) -> datasets.Dataset:
    """Rows round-robin over the groups of one column (`group_of` maps a value to its group; default: itself)."""
    return interleave(rows, Strata((column,), group_of))
