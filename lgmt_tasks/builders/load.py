"""`load_selected_rows`: the one skeleton every suite's `load_<suite>_rows` shares.

A task reads either a built / published dataset repository (`-T dataset=...`) or a build made on the fly for its
parameters through the build cache (or, when that build is a default build the package ships, or a part of one, the
shipped folder: `lgmt_tasks.builders.shipped`; a default-parameter task then starts without building, and any other
build is announced on stderr before it starts, naming what differs from the shipped build: `build_notice`); then it
keeps the rows its parameters select, and refuses an empty result with a message saying what was asked for and
where it was looked for. The five suites differed only in how they make the build and which rows they keep, so that
is all they pass here.

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

Three things happen around the selection. A `-T dataset=` folder is checked before `datasets` reads it
(`lgmt_tasks.builders.repo_folder`), so a mistyped path, another suite's folder or a file that is not gzip is reported
as such. The kept rows are ordered round-robin over the suite's strata (`lgmt_tasks.builders.order`), so `--limit N`
is a stratified smoke test in Inspect and lm-eval alike. And the loader returns, beside the rows, what an evaluation
log should record about them (`Loaded.metadata`: build statistics, licence, fingerprint, rows per stratum), prints
one summary line, and warns when a requested stratum has no row.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, ParamSpec

from lgmt_tasks.builders.cache import cache_root, cached_repo, check_writable, described, entry_folder
from lgmt_tasks.builders.order import Strata, round_robin
from lgmt_tasks.builders.repo_folder import FolderFacts, check_folder, looks_like_path, no_such_folder
from lgmt_tasks.builders.shipped import BUILD_MINUTES, manifest, plain, shipped_build, subset_fields
from lgmt_tasks.hub.repo import load_dataset_repo

if TYPE_CHECKING:  # annotations only: this module is imported by every task, so by Inspect's plugin import
    import datasets

logger = logging.getLogger(__name__)

P = ParamSpec("P")

METADATA_KEY = "dataset"
"""The key of the task metadata (and so of the log's `eval.metadata`) under which `Loaded.metadata` is stored."""


class BuildRecipe(NamedTuple):
    """How to build a suite's repository on the fly: what `cached_repo` needs.

    Attributes:
        key: The build config's cache key (`Config.key()`); also shown in error messages.
        write: Writes the repository into the folder it is given (called only on a cache miss).
        revision: The builder's `BUILD_REVISION`.
    """

    key: dict[str, Any]
    write: Callable[[Path], object]
    revision: int | str


class Loaded(NamedTuple):
    """The selected rows and what the evaluation log records about them.

    Attributes:
        rows: The kept rows, round-robin over the suite's strata (repository order without strata).
        metadata: JSON-ready facts about the rows (see `dataset_metadata`); a task passes them as
            `Task(metadata={METADATA_KEY: metadata})`, and Inspect writes them to the log's `eval.metadata`.
    """

    rows: datasets.Dataset
    metadata: dict[str, Any]

    @property
    def task_metadata(self) -> dict[str, Any]:
        """`{METADATA_KEY: metadata}`, what a task passes as `Task(metadata=...)` (merged with its own keys)."""
        return {METADATA_KEY: self.metadata}


Selector = Callable[["datasets.Dataset"], Iterable[int]]
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


def load_selected(
    suite: str,
    *,
    dataset: str | None,
    revision: str | None,
    build: Callable[[], BuildRecipe],
    select: Selector,
    selection: str,
    strata: Strata | None = None,
    expected: Iterable[str] = (),
    unit: str = "rows",
    build_only: Mapping[str, Any] | None = None,
) -> Loaded:
    """The selected rows of a dataset repository, or of a cached on-the-fly build, with their metadata.

    Args:
        suite: The suite name (the build cache's namespace; named in messages).
        dataset: A dataset repository folder or Hub id to read; None to build.
        revision: The Hub revision of `dataset`.
        build: Called only when `dataset` is None (so a suite can import its builder lazily and raise on build-only
            parameter errors there).
        select: The positions of the rows to keep.
        selection: What is asked for, for messages (`"LGMT groups for relations [...]"`).
        strata: What to order the kept rows round-robin over (None: keep the repository's order).
        expected: The strata the parameters ask for; a warning names each that has no kept row.
        unit: What one row is, for the summary line (`groups`, `tests`, ...).
        build_only: The parameters given (with a value other than their default) that only say how a build is made
            (`per_skill`, `seed`, ...): with `dataset` they change nothing, and one warning says so
            (`given_build_parameters` makes this mapping).

    Returns:
        The kept rows and their metadata.

    Raises:
        ValueError: When `dataset` is no folder and no readable Hub id, is another suite's folder, or has a data file
            that cannot be read (the message names it); and when no row is kept: `no <selection> in <suite> dataset
            '<dataset>'` or `no <selection> in <suite> build {<key>}`.
    """
    if dataset is not None:
        if build_only:
            given = ", ".join(f"{name}={value!r}" for name, value in build_only.items())
            logger.warning(
                f"{suite}: dataset={dataset!r} is read as it was built, so {given} "
                f"{'has' if len(build_only) == 1 else 'have'} no effect (they choose what a build makes: pass them to "
                f"`lgmt build {suite}`, or drop -T dataset to build on the fly)"
            )
        rows, facts, source = read_argument(suite, dataset, revision)
        origin = f"dataset {dataset!r}"
    else:
        spec = build()
        rows, facts, source = read_build(suite, spec)
        origin = f"build {spec.key}"
    total = len(rows)
    rows = rows.select(list(select(rows)))
    if len(rows) == 0:
        raise ValueError(f"no {selection} in {suite} {origin}")
    keys = strata.keys(rows) if strata is not None else []
    if strata is not None:
        rows = rows.select(round_robin(keys))
    per_stratum = dict(sorted(Counter(keys).items()))
    metadata = dataset_metadata(suite, source, facts, total=total, kept=len(rows), selection=selection)
    if strata is not None:
        metadata.update(strata=strata.name, per_stratum=per_stratum)
    print(f"lgmt_tasks: {summary_line(suite, metadata, unit)}", file=sys.stderr, flush=True)
    empty = [key for key in expected if key not in per_stratum]
    if empty and strata is not None:
        metadata["empty_strata"] = empty
        logger.warning(
            f"{suite}: no {unit} for {strata.name} {shortened(empty)} in {origin} "
            f"({len(per_stratum)} of the {len(per_stratum) + len(empty)} requested have some)"
        )
    if dataset is not None and build_only:
        metadata["ignored_parameters"] = dict(build_only)
    return Loaded(rows, metadata)


def shortened(names: Sequence[str], longest: int = 12) -> str:
    """`a, b, c` for a few names; `a, b, c, ... and 89 more (listed in the log's ...)` for many (one short line)."""
    if len(names) <= longest:
        return ", ".join(names)
    shown = ", ".join(names[:3])
    return f"{shown}, ... and {len(names) - 3} more (all listed in the log: eval.metadata.{METADATA_KEY}.empty_strata)"


def given_build_parameters(values: Mapping[str, Any], *defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The build-only parameters whose value is no default: what `load_selected(build_only=...)` takes.

    Args:
        values: Parameter name → the value the loader got.
        *defaults: Parameter name → its default, one mapping per front end (the task's, lm-eval's): a value equal to
            one of them may not have been given, so it is not named.
    """
    return {name: value for name, value in values.items() if all(value != d.get(name) for d in defaults)}


def rows_only(loader: Callable[P, Loaded]) -> Callable[P, datasets.Dataset]:
    """A suite loader that returns only the rows (lm-eval's `load_docs` and older callers use these)."""

    @functools.wraps(loader)
    def rows(*args: P.args, **kwargs: P.kwargs) -> datasets.Dataset:
        return loader(*args, **kwargs).rows

    rows.__doc__ = f"The rows of `{loader.__name__}` (same arguments), without the metadata."
    return rows


load_selected_rows = rows_only(load_selected)


# ------------------------------------------------------------------------------------------------ reading

BUILD_FOR: ContextVar[str] = ContextVar("lgmt_tasks_build_for", default="")
"""Whom a build made on the fly is for (`lm-eval task lgmt_mr_e`), named in its notice; set with `building_for`."""


@contextmanager
def building_for(task: str) -> Iterator[None]:
    """Name `task` in the notice of a build made on the fly within (lm-eval's loaders say which task loads)."""
    token = BUILD_FOR.set(task)
    try:
        yield
    finally:
        BUILD_FOR.reset(token)


def build_notice(suite: str, spec: BuildRecipe, task: str | None = None) -> str | None:
    """The line said on stderr before `spec` is built on the fly, or None when a shipped build serves it.

    A task whose parameters are not a shipped build's builds before the framework shows anything (minutes for
    DivLogicEval), so the line says so before it starts (issue #38): the parameters that differ from the shipped
    build and their shipped values (what to pass to skip the build), whom it is for, how long the shipped build took
    (`shipped.BUILD_MINUTES`), and where it is cached. `read_build` passes it to the cache, which says it on a miss
    only (a cached build is read at once). The decision is `shipped_build`'s, the one `read_build` acts on.

    Args:
        suite: The suite.
        spec: The build asked for.
        task: Whom it is for (`lm-eval task lgmt_mr_e`); default: `building_for`'s, if any.
    """
    if shipped_build(suite, spec.key, spec.revision) is not None:
        return None
    task = BUILD_FOR.get() if task is None else task
    requested = plain(spec.key)
    shipped = (manifest().get(suite) or {}).get("config")
    if shipped is None:
        params, why = described(requested), "not a shipped build (the package ships none of this suite)"
    else:
        differ = [
            name
            for name in requested
            if shipped.get(name) != requested[name] and not _part(suite, name, requested[name], shipped.get(name))
        ]
        params = _listed({name: requested[name] for name in differ}) or "the shipped parameters"
        theirs = _listed({name: shipped[name] for name in differ if name in shipped})
        minutes = BUILD_MINUTES.get(suite)
        took = f"; it took up to {minutes} min on 2 cores" if minutes else ""
        shipped_one = f"has {theirs}" if theirs else "was made by another package or builder version"
        why = f"not a shipped build (the shipped one {shipped_one}{took})"
    target = f" for {task}" if task else ""
    folder = entry_folder(suite, spec.key, spec.revision)
    return f"building {suite} dataset ({params}){target}: {why}; cached afterwards in {folder}..."


def _part(suite: str, name: str, requested: Any, shipped: Any) -> bool:
    """Whether `requested` asks for a part of the shipped value of a `SHIPPED_SUBSETS` / `SHIPPED_COUNTS` field.

    Such a value (LGMT's relations of `mr_s`) is not what makes a build, so the notice names the other fields.
    """
    subsets, counts = subset_fields(suite)
    if name in subsets and isinstance(requested, list) and isinstance(shipped, list):
        return set(requested) <= set(shipped)
    if name in counts and isinstance(requested, int) and isinstance(shipped, int):
        return 1 <= requested <= shipped
    return False


def _listed(values: Mapping[str, Any]) -> str:
    """`name=value, ...` as the cache's messages write a key (`cache.described`), but None and empty values shown."""
    return ", ".join(described({name: value}) or f"{name}={value!r}" for name, value in values.items())


def read_build(suite: str, spec: BuildRecipe) -> tuple[datasets.Dataset, FolderFacts, dict[str, Any]]:
    """The rows of a build: the shipped default build when it is the one asked for, else the cached build.

    A shipped folder (`lgmt_tasks.builders.shipped`) is used only if its rows still have the recorded fingerprint;
    for a subset request (LGMT's relation sets) only the requested rows are returned, so the result is the rows the
    build would have made.

    Returns:
        The whole build, its folder's facts, and where it came from (`source` of `dataset_metadata`).
    """
    shipped = shipped_build(suite, spec.key, spec.revision)
    if shipped is not None:
        facts = check_folder(shipped.folder, suite)
        if facts.fingerprint == shipped.fingerprint:
            rows = load_folder(shipped.folder)
            source: dict[str, Any] = {
                "kind": "build",
                "shipped_folder": str(shipped.folder),
                "build_revision": spec.revision,
            }
            if shipped.keep is not None:
                columns, allowed = tuple(shipped.keep), list(shipped.keep.values())
                keep = where(columns, lambda *row: all(v in a for v, a in zip(row, allowed, strict=True)))
                rows = rows.select(keep(rows))
                source["subset_of_shipped"] = {column: sorted(values) for column, values in shipped.keep.items()}
            return rows, facts, source
        logger.warning(
            f"{suite}: the shipped default build {shipped.folder} does not have the rows recorded for it "
            f"({facts.fingerprint} != {shipped.fingerprint}); building instead (regenerate the record with "
            "`python -m lgmt_tasks.builders.shipped`)"
        )
    notice = build_notice(suite, spec)  # None after a shipped folder whose rows changed: the cache's own line
    folder = cached_repo(suite, spec.key, spec.write, build_revision=spec.revision, announce=notice)
    source = {"kind": "build", "cache_folder": str(folder), "build_revision": spec.revision}
    return load_folder(folder), check_folder(folder, suite), source


def load_folder(folder: Path) -> datasets.Dataset:
    """`load_dataset_repo(folder)`, after checking that the cache root it copies the rows into can be written.

    Raises:
        CacheDirError: Naming the cache root and `LGMT_CACHE_DIR` (instead of `datasets`' traceback).
    """
    check_writable(cache_root())
    return load_dataset_repo(folder)


def read_argument(
    suite: str, dataset: str, revision: str | None
) -> tuple[datasets.Dataset, FolderFacts | None, dict[str, Any]]:
    """Read a `-T dataset=` argument: a checked local folder, or a Hub id.

    Returns:
        The whole split, the folder's facts (None for a Hub id whose files cannot be fetched), and where it came from.

    Raises:
        ValueError: See `load_selected`.
    """
    path = Path(dataset).expanduser()
    if path.is_dir():
        facts = check_folder(path, suite)
        return load_folder(path), facts, {"kind": "folder", "path": str(path.resolve())}
    if path.exists():
        raise ValueError(f"dataset={dataset!r}: {path.resolve()} is a file; pass the repository folder that holds it")
    if looks_like_path(dataset):
        raise no_such_folder(dataset)
    try:
        rows = load_dataset_repo(dataset, revision=revision)
    except OSError as exc:  # datasets: "Couldn't reach ... on the Hub", DatasetNotFoundError, missing files
        raise no_such_folder(dataset, str(exc)) from exc
    return rows, hub_facts(suite, dataset, revision), {"kind": "hub", "id": dataset, "revision": revision}


def hub_facts(suite: str, repo_id: str, revision: str | None) -> FolderFacts | None:
    """The facts of a Hub dataset's card, statistics and data files (fetched, or read from the Hub cache).

    Returns:
        None when they cannot be fetched (offline, a repository without these files): the rows are already loaded,
        so the run goes on and the metadata says the facts are unknown.

    Raises:
        ValueError: If the repository is another suite's, or a data file is not what its name says.
    """
    try:
        from huggingface_hub import snapshot_download

        folder = snapshot_download(
            repo_id,
            repo_type="dataset",
            revision=revision,
            allow_patterns=["README.md", "build_stats.json", "data/**"],
        )
    except Exception as exc:  # noqa: BLE001 - the rows are loaded; missing provenance is reported, not fatal
        logger.warning(f"{suite}: could not fetch the card and build statistics of {repo_id!r} ({exc})")
        return None
    return check_folder(Path(folder), suite)


# ------------------------------------------------------------------------------------------------ metadata


def dataset_metadata(
    suite: str, source: dict[str, Any], facts: FolderFacts | None, *, total: int, kept: int, selection: str
) -> dict[str, Any]:
    """What the evaluation log records about the rows (JSON-ready).

    Keys: `suite`; `source` (`build` with its cache folder, `folder` with its path, or `hub` with id and revision);
    `fingerprint` (`sha256:` of the data files' JSON Lines, see `repo_folder`); `licence` and `source_datasets` (the
    card's); `rows` (in the dataset) and `selected`; `selection`; `build_config`; `dropped` (total), `dropped_by_reason`
    and `dropped_by_bucket` (what the builder could not prove or construct, and why); `build_counts` (the builder's
    counters per bucket: relation, skill, question type, configuration); `build_notes` (source reports, pool sizes).
    Statistics are absent when the repository has no `build_stats.json`.
    """
    metadata: dict[str, Any] = {"suite": suite, "source": source, "rows": total, "selected": kept}
    metadata["selection"] = selection
    if facts is not None:
        metadata["fingerprint"] = facts.fingerprint
        metadata["data_files"] = list(facts.data_files)
        card = facts.card
        if "license" in card:
            metadata["licence"] = card["license"] if "license_name" not in card else card["license_name"]
        if "source_datasets" in card:
            metadata["source_datasets"] = card["source_datasets"]
        stats = facts.stats
        if stats:
            dropped = stats.get("dropped") or {}
            by_reason: Counter[str] = Counter()
            for reasons in dropped.values():
                by_reason.update(reasons)
            metadata.update(
                build_config=stats.get("config", {}),
                dropped=sum(by_reason.values()),
                dropped_by_reason=dict(by_reason.most_common()),
                dropped_by_bucket=dropped,
                build_counts=stats.get("counts", {}),
                build_notes=stats.get("notes", {}),
            )
    return json.loads(json.dumps(metadata, default=str))


def summary_line(suite: str, metadata: dict[str, Any], unit: str) -> str:
    """One line on what a task evaluates.

    As in `lgmt: 2,928 groups over 20 mr values (all 2,928 of the build; 4 dropped while building: duplicate: 3, ...)`.
    """
    kept, total = metadata["selected"], metadata["rows"]
    strata = metadata.get("per_stratum")
    over = f" over {len(strata)} {metadata['strata']} values" if strata else ""
    source = metadata["source"]
    named = source.get("path") or source.get("id") or source.get("dataset")
    where = "the build" if source["kind"] == "build" else named
    share = f"all {total:,} of {where}" if kept == total else f"{kept:,} of {total:,} in {where}"
    dropped = metadata.get("dropped")
    if dropped is None:
        built = "; no build statistics"
    elif dropped:
        reasons = list(metadata["dropped_by_reason"].items())
        shown = ", ".join(f"{reason}: {n:,}" for reason, n in reasons[:3]) + (", ..." if len(reasons) > 3 else "")
        built = f"; {dropped:,} dropped while building: {shown}"
    else:
        built = "; nothing dropped while building"
    return f"{suite}: {kept:,} {unit}{over} ({share}{built})"
