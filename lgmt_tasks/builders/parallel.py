"""Process pools for builders: `num_proc` workers, results in input order, so output never depends on `num_proc`.

Every builder splits its work into independent units (LGMT: a relation's bucket; LogicAsker: a skill; DivLogicEval:
a run of instances; QMFOL: a basic task with all its distractor counts; the source stage of LGMT and lexical: a run
of source cases). Each unit draws from its own derived seed (`lgmt_tasks.ids.derived_seed`) and returns its rows and
its `BuildStats`; the parent merges them in the units' order. A serial build runs the very same unit functions in
the same order, so one code path produces the rows whatever the number of processes.

Why a process pool and not `Dataset.map(num_proc=...)`: a unit is not a map over existing rows (a bucket stops
when `per_mr` follow-ups are proven, a LogicAsker slot retries until a test is proven), and `datasets` forks its
workers. Workers here are started by the `forkserver` method (`spawn` where it does not exist): a clean server
process imports the builder modules once (`PRELOAD`) and every worker is forked from it, so a worker never inherits
Z3 state or library threads from the parent (Z3 is not fork-safe once used), and does not pay the 2-3 s import
of `datasets` that each `spawn`ed worker would. The prover builds a fresh `z3.Context` per query anyway.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from lgmt_tasks.suites import SUITES

T = TypeVar("T")
R = TypeVar("R")

PRELOAD: tuple[str, ...] = ("lgmt_tasks.sources.pipeline",) + tuple(
    module for s in SUITES for module in (f"{s.package}.build", *(f"{s.package}.{m}" for m in s.extra_modules))
)
"""Modules the fork server imports once: the shared source stage and every suite's builder (from the suite
registry); they hold the unit functions a worker runs."""


def start_method() -> str:
    """`forkserver` where the platform has it (Linux, macOS), else `spawn` (Windows)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def check_num_proc(num_proc: int) -> int:
    """Validate a `num_proc` argument.

    Raises:
        ValueError: If it is not an integer of at least 1.
    """
    if isinstance(num_proc, bool) or not isinstance(num_proc, int) or num_proc < 1:
        raise ValueError(f"num_proc={num_proc!r}: expected an integer of at least 1 (1 builds in this process)")
    return num_proc


@dataclass(frozen=True)
class Workers:
    """Where a build's units of work run: here (`num_proc=1`, no pool) or in a pool of worker processes.

    Attributes:
        num_proc: Number of processes (1: this one).
        pool: The worker pool (None when `num_proc=1`).
    """

    num_proc: int = 1
    pool: Executor | None = None

    def map(
        self,
        fn: Callable[[T], R],
        jobs: Sequence[T],
        progress: Any = None,
        cost: Callable[[T], float] | None = None,
    ) -> list[R]:
        """`[fn(job) for job in jobs]`, in the workers if there are any; results always in `jobs` order.

        Args:
            fn: A module-level function (workers import it by name).
            jobs: Its arguments, one per unit of work (picklable).
            progress: A tqdm bar (or anything with `update()`), advanced once per finished unit.
            cost: An estimate of a job's cost: workers start the costliest first, so that a long job does not run
                alone at the end (the results are still returned in `jobs` order).
        """
        order = list(range(len(jobs)))
        if self.pool is not None and cost is not None:
            order.sort(key=lambda i: -cost(jobs[i]))
        results: dict[int, R] = {}
        submitted = [jobs[i] for i in order]
        for i, result in zip(order, map(fn, submitted) if self.pool is None else self.pool.map(fn, submitted)):
            results[i] = result
            if progress is not None:
                progress.update()
        return [results[i] for i in range(len(jobs))]

    def runs(self, num_items: int) -> int:
        """How many runs to cut a stage of `num_items` into: 1 in process; four per worker, for load balance."""
        return 1 if self.pool is None else max(1, min(num_items, 4 * self.num_proc))


SERIAL = Workers()
"""No pool: every unit runs in this process."""


@contextmanager
def process_pool(num_proc: int) -> Iterator[Workers]:
    """`Workers` with a pool of `num_proc` processes; `SERIAL` for `num_proc=1` (the build runs in this process).

    The pool is shut down (and its workers joined) when the block exits, also on an error.

    Raises:
        ValueError: If `num_proc` is not an integer of at least 1.
    """
    if check_num_proc(num_proc) == 1:
        yield SERIAL
        return
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        # Takes effect when the fork server starts (once per process); later calls are harmless no-ops.
        context.set_forkserver_preload(list(PRELOAD))
    with ProcessPoolExecutor(num_proc, mp_context=context) as pool:
        yield Workers(num_proc, pool)


def split(items: Sequence[T], parts: int) -> list[list[T]]:
    """Cut `items` into at most `parts` contiguous runs of near-equal length (concatenated, they are `items`)."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    runs: list[list[T]] = []
    start = 0
    for k in range(parts):
        end = start + size + (1 if k < extra else 0)
        runs.append(list(items[start:end]))
        start = end
    return [run for run in runs if run]


@dataclass(frozen=True)
class Shard:
    """One of `count` deterministic parts of a build's units of work (`--shard index/count`, 0-based index).

    A shard runs only its units; the union of the `count` shards' units is every unit exactly once, so merging
    the shards' outputs in unit order gives the unsharded build. Which unit goes to which shard depends only on
    the units' costs (see `assign_shards`), never on the machine, so separate hosts agree without talking.
    """

    index: int
    count: int

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ValueError(f"shard count {self.count!r}: expected an integer of at least 1")
        if isinstance(self.index, bool) or not isinstance(self.index, int) or not 0 <= self.index < self.count:
            raise ValueError(f"shard index {self.index!r}: expected 0 to {self.count - 1} (shards are 0-based)")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`"1/3"` → `Shard(1, 3)`.

        Raises:
            ValueError: Not of the form `i/n` with integers 0 <= i < n.
        """
        index, sep, count = text.partition("/")
        if not sep or not index.strip().isdigit() or not count.strip().isdigit():
            raise ValueError(f"shard {text!r}: expected i/n, e.g. 0/3 (the first of three shards)")
        return cls(int(index), int(count))

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def assign_shards(costs: Sequence[float], count: int) -> list[int]:
    """The shard of each unit of work: costliest units first, each to the least-loaded shard (ties: lowest).

    Deterministic in `costs` alone (ties between units are broken by their index).
    """
    loads = [0.0] * count
    owner = [0] * len(costs)
    for i in sorted(range(len(costs)), key=lambda i: (-costs[i], i)):
        target = min(range(count), key=lambda s: (loads[s], s))
        owner[i] = target
        loads[target] += costs[i]
    return owner
