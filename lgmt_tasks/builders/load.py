"""`load_selected_rows`: the one skeleton every suite's `load_<suite>_rows` shares.

A task reads either a built / published dataset repository (`-T dataset=...`) or a build made on the fly for its
parameters through the build cache; then it keeps the rows its parameters select, and refuses an empty result with a
message saying what was asked for and where it was looked for. The five suites differed only in how they make the
build and which rows they keep, so that is all they pass here.

Rows are selected by computed indices with `Dataset.select`, never with `Dataset.filter` and a closure. `filter` is
a cached `map`: its result is stored in the dataset's cache folder under a fingerprint made by pickling the closure
with dill, and a later call with the same fingerprint reads that file back instead of calling the function. Closures
over plain values are fingerprinted by value (two different allowed sets give two fingerprints, in one process and
across processes), but anything dill pickles *by reference* is fingerprinted by name only: a module-level function
the closure calls (its code is not hashed), and, for an installed package, a module whose attributes the closure
reads. Measured with datasets 5.2 / dill 0.4.1 on one repository: a closure `lambda r: keep(r["kind"])` returned the
rows of the previous run's `keep` after `keep` was edited (a new process, same fingerprint, same cache file); and in
one process, `lambda r: r["kind"] in mod.ALLOWED` for an installed `mod` returned the first selection's rows after
`mod.ALLOWED` was changed. The cache folder is keyed by the data files' content only
(`lgmt_tasks.hub.repo.content_cache_dir`), so a changed selection rule over unchanged data is exactly the case it
gets wrong. `select` with a list of indices does no cache lookup (the indices mapping is built in memory, and the
indices themselves are part of its fingerprint), so a selection is always the one computed now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import datasets

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.hub.repo import load_dataset_repo


class Build(NamedTuple):
    """How to build a suite's repository on the fly: what `cached_repo` needs.

    Attributes:
        key: The build config's cache key (`Config.key()`); also shown in error messages.
        write: Writes the repository into the folder it is given (called only on a cache miss).
        revision: The builder's `BUILD_REVISION`.
    """

    key: dict[str, Any]
    write: Callable[[Path], object]
    revision: int | str


Selector = Callable[[datasets.Dataset], Iterable[int]]
"""The positions of the rows to keep, in order (computed from the rows, so never served from a cache)."""


def where(columns: Sequence[str], keep: Callable[..., bool]) -> Selector:
    """A selector keeping the rows whose values in `columns` satisfy `keep(*values)`; every row if `columns` is empty.

    Reads whole columns once (no per-row dict), which is also faster than `filter` on large builds.
    """

    def select(rows: datasets.Dataset) -> list[int]:
        if not columns:
            return list(range(len(rows)))
        return [i for i, values in enumerate(zip(*(rows[c] for c in columns), strict=True)) if keep(*values)]

    return select


def load_selected_rows(
    suite: str,
    *,
    dataset: str | None,
    revision: str | None,
    build: Callable[[], Build],
    select: Selector,
    selection: str,
) -> datasets.Dataset:
    """The selected rows of a dataset repository, or of a cached on-the-fly build.

    Args:
        suite: The suite name (the build cache's namespace; named in the error message).
        dataset: A dataset repository folder or Hub id to read; None to build.
        revision: The Hub revision of `dataset`.
        build: Called only when `dataset` is None (so a suite can import its builder lazily and raise on build-only
            parameter errors there).
        select: The positions of the rows to keep.
        selection: What is asked for, for the error message (`"LGMT groups for relations [...]"`).

    Returns:
        The kept rows, in the repository's order.

    Raises:
        ValueError: When no row is kept: `no <selection> in <suite> dataset '<dataset>'` or
            `no <selection> in <suite> build {<key>}`.
    """
    if dataset is not None:
        rows = load_dataset_repo(dataset, revision=revision)
        origin = f"dataset {dataset!r}"
    else:
        spec = build()
        rows = load_dataset_repo(cached_repo(suite, spec.key, spec.write, build_revision=spec.revision))
        origin = f"build {spec.key}"
    rows = rows.select(list(select(rows)))
    if len(rows) == 0:
        raise ValueError(f"no {selection} in {suite} {origin}")
    return rows
