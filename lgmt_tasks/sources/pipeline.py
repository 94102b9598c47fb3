"""The source stage LGMT and the lexical suite share: load a source's cases, prove their labels, order them.

Both suites start from the same proven source cases (so that the lexical baseline and LGMT are measured on the same
problems), so this stage is written once here. Its unit functions (`_generate_run`, `_prove_run`) run in the
builders' worker processes (`lgmt_tasks.builders.parallel`); the order and the counts do not depend on the number
of processes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lgmt_tasks.builders.cache import BUILD_LOGGER
from lgmt_tasks.builders.parallel import SERIAL, Workers, split
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import derived_seed
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment
from lgmt_tasks.sources import logicasker as logicasker_source
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.common import SKIP_GOLD_DISAGREES
from lgmt_tasks.sources.qmfol import (
    DEFAULT_DEPTHS,
    DEFAULT_PER_CELL,
    DEFAULT_WIDTHS,
    cell_cases,
    check_per_cell,
    difficulty_of,
    grid_values,
)
from lgmt_tasks.vocabulary import SOURCES

PATHLESS_SOURCES: tuple[str, ...] = ("generated", "qmfol", "logicasker")
"""Sources made by this package, which read no records (so take no `source_path`)."""

SOURCE_STAGE_REVISION = 5  # 5: FOLIO slips with one reading repaired (issue #36)
"""Bump when this stage's output changes: both suites' build revisions include it, so their caches are renewed."""


@dataclass(frozen=True)
class SourceConfig:
    """Where source cases come from.

    Attributes:
        source: `generated`, `folio`, `proverqa`, `logicnli`, `qmfol` or `logicasker`.
        source_path: File or folder of the source records (required except for `generated`, `qmfol` and
            `logicasker`).
        seed: Seed of the generated and qmfol sources and of the candidate order.
        generated_cases: Number of generated cases (for `source="generated"`).
        timeout_ms: Z3 limit per query.
        depths: Reasoning depths of the `qmfol` source (sorted, without repeats; `lgmt_tasks.sources.qmfol`).
        widths: Reasoning widths of the `qmfol` source.
        per_cell: `qmfol` problems per (depth, width) cell.
            With `logicasker`: `depths` are chain lengths (1–7; `lgmt_tasks.sources.logicasker`), `per_cell` is
            tests per depth, and `widths` are not used (LogicAsker has no width).
    """

    source: str = "generated"
    source_path: str | None = None
    seed: int = 0
    generated_cases: int = 300
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    depths: tuple[int, ...] = DEFAULT_DEPTHS
    widths: tuple[int, ...] = DEFAULT_WIDTHS
    per_cell: int = DEFAULT_PER_CELL

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"source={self.source!r}: expected one of {', '.join(SOURCES)}")
        if self.source not in PATHLESS_SOURCES and not self.source_path:
            raise ValueError(f"source={self.source!r} needs source_path (a file or folder of its records)")
        if self.source not in PATHLESS_SOURCES and not Path(str(self.source_path)).expanduser().exists():
            # checked with the parameters, before anything is built (a missing file used to fail mid-build)
            raise ValueError(f"source_path={self.source_path!r}: no such file or folder (the {self.source} records)")
        if self.source == "qmfol":
            if self.source_path:
                raise ValueError(f"source='qmfol' builds its problems and reads no records: drop {self.source_path!r}")
            object.__setattr__(self, "depths", grid_values("depth", self.depths, DEFAULT_DEPTHS))
            object.__setattr__(self, "widths", grid_values("width", self.widths, DEFAULT_WIDTHS))
            check_per_cell(self.per_cell)
        if self.source == "logicasker":
            if self.source_path:
                raise ValueError(
                    f"source='logicasker' builds its problems and reads no records: drop {self.source_path!r}"
                )
            object.__setattr__(self, "depths", logicasker_source.depth_values(self.depths))
            check_per_cell(self.per_cell)


_LOG = logging.getLogger(BUILD_LOGGER)
"""Stage lines (shown on stderr while a task's first use builds; see `lgmt_tasks.builders.cache`)."""


def load_source_cases(config: SourceConfig, stats: BuildStats, workers: Workers = SERIAL) -> list[Case]:
    """Source cases for the configured source, with skipped records counted under bucket `source`.

    Generated cases are drawn in runs of indices by `workers` (case `i` depends only on the seed and `i`).
    """
    if config.source == "generated":
        from lgmt_tasks.sources.generated import GenerationReport

        _LOG.info("generating %d source problems (seed %d)", config.generated_cases, config.seed)

        runs = split(range(config.generated_cases), workers.runs(config.generated_cases))
        jobs = [(run[0], len(run), config.seed, config.timeout_ms) for run in runs]
        gen_report = GenerationReport(requested=0, seed=config.seed)
        cases: list[Case] = []
        for part, part_report in workers.map(_generate_run, jobs):
            cases.extend(part)
            gen_report.merge(part_report)
        stats.notes["source_report"] = _report_dict(gen_report)
        return cases
    if config.source == "qmfol":
        return _qmfol_cases(config, stats, workers)
    if config.source == "logicasker":
        return _logicasker_cases(config, stats, workers)
    from lgmt_tasks.sources.load import load_source

    assert config.source_path is not None
    _LOG.info("reading %s records from %s", config.source, config.source_path)
    cases, report = load_source(config.source, config.source_path)  # type: ignore[arg-type]
    stats.count("source", "records", report.records)
    stats.count("source", "loaded", report.loaded)
    for reason, n in report.skipped.items():
        stats.drop("source", reason, n, ids=[d.id for d in report.details if d.category == reason])
    if report.details:
        # Every unusable record: id, field, reason, and where it is (file, 1-based line and column).
        stats.notes["source_skips"] = [asdict(d) for d in report.details]
    if report.repairs:
        # Every repaired annotation slip (lgmt_tasks.sources.repair): id, field, kind, formula before and after.
        stats.count("source", "repaired records", report.repaired_problems)
        stats.notes["source_repairs"] = list(report.repairs)
    return list(cases)


def load_sources(configs: Sequence[SourceConfig], stats: BuildStats, workers: Workers = SERIAL) -> list[Case]:
    """The source cases of one or several sources, concatenated in the order given.

    One source is exactly `load_source_cases` (so a single-source build's statistics are unchanged). With several,
    each source is loaded into its own statistics, whose `source` bucket is renamed `source <name>` (and whose
    notes get a ``<name>: `` prefix; the name is followed by the path when one source is given twice) before
    they are merged, so that build_stats.json says what each source gave; note `read_by_source` adds up, per source
    dataset, the records read (sources that read files) and the cases loaded over all its paths.

    Raises:
        ValueError: The same (source, path) is given twice, or two sources yield a case with the same
            (`source_dataset`, `source_id`): row ids are derived from that pair, so it must name one case.
    """
    if len(configs) == 1:
        return load_source_cases(configs[0], stats, workers)
    pairs = [(c.source, c.source_path) for c in configs]
    repeated = sorted({f"{s} {p or ''}".strip() for s, p in pairs if pairs.count((s, p)) > 1})
    if repeated:
        raise ValueError(f"sources: {', '.join(repeated)} given more than once")
    cases: list[Case] = []
    origin: dict[tuple[str, str], str] = {}
    read: dict[str, dict[str, int]] = {}
    names = [c.source for c in configs]
    for config in configs:
        where = f"{config.source} {config.source_path or ''}".strip()
        label = config.source if names.count(config.source) == 1 else where
        part = BuildStats()
        loaded = load_source_cases(config, part, workers)
        for case in loaded:
            key = (case.source_dataset, case.source_id)
            if key in origin:
                raise ValueError(
                    f"sources: case {case.source_id!r} ({case.source_dataset}) is read both from {origin[key]} and "
                    f"from {where}: give each record once (row ids are derived from the source and its id)"
                )
            origin[key] = where
        counts = read.setdefault(config.source, {})
        if "records" in part.counts.get("source", {}):
            counts["records"] = counts.get("records", 0) + part.counts["source"]["records"]
        counts["loaded"] = counts.get("loaded", 0) + len(loaded)
        _rename_bucket(part, "source", f"source {label}")
        part.notes = {f"{label}: {k}": v for k, v in part.notes.items()}
        stats.merge(part)
        cases.extend(loaded)
    stats.notes["read_by_source"] = {name: read[name] for name in sorted(read)}
    return cases


def _rename_bucket(stats: BuildStats, old: str, new: str) -> None:
    if old in stats.counts:
        stats.counts[new] = stats.counts.pop(old)
    if old in stats.dropped:
        stats.dropped[new] = stats.dropped.pop(old)
    if old in stats.dropped_ids:
        stats.dropped_ids[new] = stats.dropped_ids.pop(old)


def _qmfol_cases(config: SourceConfig, stats: BuildStats, workers: Workers) -> list[Case]:
    """QMFOL problems of the configured depth × width grid, one cell per unit of work, cells in grid order."""
    cells = [(d, w) for d in config.depths for w in config.widths]
    _LOG.info(
        "making %d QMFOL problems per cell for depth %s × width %s (seed %d)",
        config.per_cell,
        ",".join(map(str, config.depths)),
        ",".join(map(str, config.widths)),
        config.seed,
    )
    jobs = [(d, w, config.per_cell, config.seed, config.timeout_ms) for d, w in cells]
    cases: list[Case] = []
    for part, part_stats in workers.map(cell_cases, jobs):
        cases.extend(part)
        stats.merge(part_stats)
    stats.notes["qmfol_grid"] = {
        "depths": list(config.depths),
        "widths": list(config.widths),
        "per_cell": config.per_cell,
        "form": "ground",
        "distractors": 0,
    }
    return cases


def _logicasker_cases(config: SourceConfig, stats: BuildStats, workers: Workers) -> list[Case]:
    """LogicAsker predicate-logic chains of the configured depths, one depth per unit of work, in depth order."""
    _LOG.info(
        "making %d LogicAsker tests per depth for depth %s (seed %d)",
        config.per_cell,
        ",".join(map(str, config.depths)),
        config.seed,
    )
    jobs = [(d, config.per_cell, config.seed, config.timeout_ms) for d in config.depths]
    cases: list[Case] = []
    for part, part_stats in workers.map(logicasker_source.depth_cases, jobs):
        cases.extend(part)
        stats.merge(part_stats)
    stats.notes["logicasker_depths"] = {
        "depths": list(config.depths),
        "per_cell": config.per_cell,
        "logic": logicasker_source.LOGIC,
    }
    return cases


def _generate_run(job: tuple[int, int, int, int]) -> tuple[list[Case], Any]:
    """Generated source cases `first` … `first + n - 1` and their report (one unit of work)."""
    from lgmt_tasks.sources.generated import generate_cases

    first, n, seed, timeout_ms = job
    return generate_cases(n, seed, timeout_ms=timeout_ms, first=first)


def _report_dict(report: object) -> Any:
    to_dict = getattr(report, "to_dict", None)
    return to_dict() if callable(to_dict) else str(report)


def prove_sources(cases: Iterable[Case], stats: BuildStats, timeout_ms: int, workers: Workers = SERIAL) -> list[Case]:
    """Keep the cases whose label Z3 proves (and which agree with a gold label when there is one).

    With `workers`, runs of cases are proven in worker processes; kept cases and counts are merged in order.
    """
    ordered = list(cases)
    _LOG.info("proving the labels of %d source cases with Z3", len(ordered))
    jobs = [(run, timeout_ms) for run in split(ordered, workers.runs(len(ordered)))]
    kept: list[Case] = []
    for part, part_stats in workers.map(_prove_run, jobs):
        kept.extend(part)
        stats.merge(part_stats)
    return kept


def _prove_run(job: tuple[Sequence[Case], int]) -> tuple[list[Case], BuildStats]:
    """Prove the labels of a run of source cases (one unit of work): the kept cases and the run's counts."""
    cases, timeout_ms = job
    stats = BuildStats()
    kept: list[Case] = []
    for case in cases:
        result = entailment(case.premises_fol, case.conclusion_fol, timeout_ms=timeout_ms)
        if isinstance(result, Contradictory):
            stats.drop("source", "contradictory premises", ids=[case.source_id])
        elif isinstance(result, Undecided):
            stats.drop("source", f"undecided: {result.reason}", ids=[case.source_id])
        elif case.label is not None and case.label != result.value:
            stats.drop("source", SKIP_GOLD_DISAGREES, ids=[case.source_id])
        else:
            kept.append(case if case.label is not None else _with_label(case, result))
            stats.count("source", "proven")
    return kept, stats


def _with_label(case: Case, label: Label) -> Case:
    from dataclasses import replace

    return replace(case, label=label.value)


def ordered_candidates(cases: Sequence[Case], bucket: str, seed: int) -> list[Case]:
    """Candidates in a seeded order, stratified round-robin over labels (True, False, Unknown).

    A case with a difficulty (a `qmfol` case's (depth, width) cell, a `logicasker` case's depth) is stratified first
    over its cell, then over its label within the cell: each round takes one candidate from every cell, in turn, and
    each cell gives its labels in turn. So a `per_mr` smaller than the pool takes every cell alike, within one group
    (`per_mr` = 8 over 4 cells: 2 per cell; the 8 first (cell, label) strata in a fixed order gave 3, 3, 2 and 0).
    Which cell starts the rounds, and which label starts each cell, is rotated per relation (a hash of seed, relation
    and cell), so that the cells that get one more when `per_mr` is not a multiple of the cells, and the labels a
    cell gets when it takes fewer than three, differ from relation to relation: over a build every cell then holds
    every relation, and about the same mix of labels. Other sources' order is unchanged.
    """
    ordered = sorted(cases, key=lambda c: derived_seed(seed, bucket, c.source_dataset, c.source_id))
    if not any(_cell(case) is not None for case in ordered):
        by_label = _by(ordered, lambda c: c.label or "")
        return _round_robin([by_label[k] for k in sorted(by_label)])
    strata = _by(ordered, lambda c: _cell(c) or f"~{c.label or ''}")  # plain cases: one stratum per label, last
    names = sorted(strata)
    start = derived_seed(seed, bucket, "cell order") % len(names)
    queues = []
    for name in names[start:] + names[:start]:
        labels = _by(strata[name], lambda c: c.label or "")
        order = sorted(labels)
        first = derived_seed(seed, bucket, name, "label order") % len(order)
        queues.append(_round_robin([labels[k] for k in order[first:] + order[:first]]))
    return _round_robin(queues)


def _by(cases: Sequence[Case], key: Callable[[Case], str]) -> dict[str, list[Case]]:
    """The cases by `key`, each list in the given order."""
    found: dict[str, list[Case]] = {}
    for case in cases:
        found.setdefault(key(case), []).append(case)
    return found


def _round_robin(queues: Sequence[Sequence[Case]]) -> list[Case]:
    """One from each queue in turn, until all are empty."""
    iterators = [iter(q) for q in queues]
    order: list[Case] = []
    remaining = [len(q) for q in queues]
    while any(remaining):
        for index, iterator in enumerate(iterators):
            if remaining[index]:
                order.append(next(iterator))
                remaining[index] -= 1
    return order


def _cell(case: Case) -> str | None:
    """A case's difficulty cell (`d003-w002` for QMFOL, `d003` for a LogicAsker chain), or None."""
    if case.source_dataset == logicasker_source.SOURCE:
        depth = logicasker_source.difficulty_of(case.source_id)
        return None if depth is None else f"d{depth:03d}"
    cell = difficulty_of(case.source_id) if case.source_dataset == "qmfol" else None
    return None if cell is None else f"d{cell[0]:03d}-w{cell[1]:03d}"
