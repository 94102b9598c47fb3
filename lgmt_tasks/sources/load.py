"""The front door of the source readers: load a FOLIO, ProverQA or LogicNLI file or folder as `Case`s.

`load_source` (files) and `cases_from_records` (records in memory) check the source name and each record's stated
identity, hand every record to its source's reader (`folio`, `proverqa`, `logicnli`: `record_to_problems`, then
`problems_to_cases`), and account for every record in a `LoadReport`; `iter_problems` stops before any formula is
parsed (the audit and the second-prover re-check start there). The readers import `common.py`, this module imports
the readers: nothing imports back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from lgmt_tasks.sources import folio, logicnli, proverqa
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.common import (
    SKIP_DUPLICATE,
    SKIP_LAYOUT,
    SOURCE_NAMES,
    UNIFY_MODES,
    LoadReport,
    SourceDataError,
    SourceName,
    SourceProblem,
    SourceRecordError,
    UnifyMode,
    record_ref,
)
from lgmt_tasks.sources.record_files import UnreadableRecord, read_located_records

READERS: Mapping[str, ModuleType] = {"folio": folio, "proverqa": proverqa, "logicnli": logicnli}
"""Each source's reader module (`record_to_problems`, `problems_to_cases`), by source name (`SOURCE_NAMES`)."""


def _check_name(name: str) -> None:
    if name not in SOURCE_NAMES:
        raise ValueError(f"unknown source {name!r}; valid sources: {', '.join(SOURCE_NAMES)}")


def iter_problems(name: SourceName, path: str | Path, report: LoadReport | None = None) -> Iterator[SourceProblem]:
    """Every problem of a source file or folder as a `SourceProblem` (no parsing, no prover).

    Records whose layout is not recognised, or whose id repeats an earlier one (a LogicNLI stories file next
    to the per-problem file of the same split), are counted in `report` and not yielded.

    Args:
        name: The source.
        path: A file or a folder of files.
        report: Receives the paths read and the records skipped at this stage.
    """
    _check_name(name)
    module = READERS[name]
    seen: set[str] = set()
    current: Path | None = None
    for record, file, index, location in read_located_records(path):
        if report is not None and file != current:
            report.paths.append(str(file))
            current = file
        ref = record_ref(file, index, location.line)
        check_identity(name, record, ref, f"{file}:{location.line}")
        try:
            problems = module.record_to_problems(_mapping(record, ref), file=file, index=index, line=location.line)
        except SourceRecordError as exc:
            if report is not None:
                report.records += 1
                report.skip(exc, location)
            continue
        for problem in problems:
            if problem.id in seen:
                if report is not None:
                    report.records += 1
                    report.skip(
                        SourceRecordError(
                            problem.id, "id", f"id already read from an earlier record ({file.name})", SKIP_DUPLICATE
                        ),
                        location,
                    )
                continue
            seen.add(problem.id)
            if report is not None:
                report.locations[problem.id] = location
            yield problem


def check_identity(name: str, record: object, ref: str, where: str) -> None:
    """Refuse a record that names another source dataset than the one it is read as.

    Our clean files (and LogicNLI's) carry a ``dataset`` field. A FOLIO file read as ProverQA would otherwise be
    loaded (both clean layouts look alike), and the build's card would state ProverQA's licence for FOLIO's
    share-alike data: the data, not the flag, decides what a build is.

    Args:
        name: The source the records are read as.
        record: The record (anything but a mapping is left to the loader).
        ref: How to name the record when it has no id.
        where: Where it is (``path:line``, or ``record N`` for records in memory).

    Raises:
        SourceDataError: The record's ``dataset`` is a string other than `name`; names the file and line, the
            record and both identities.
    """
    if not isinstance(record, Mapping):
        return
    identity = record.get("dataset")
    if not isinstance(identity, str) or identity.strip().lower() in ("", name):
        return
    rid = record.get("id")
    label = rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) and str(rid).strip() else ref
    said = identity.strip().lower()
    advice = f": read this file as {said}, or give {name} data" if said in SOURCE_NAMES else ""
    raise SourceDataError(
        f'{where}: record {label!r} is a {identity!r} record (its "dataset" field), but it is read as {name}{advice}'
    )


def cases_from_records(
    records: Iterable[Mapping[str, Any]],
    source: SourceName,
    *,
    split: str | None = None,
    unify_constants: UnifyMode = "none",
    **options: Any,
) -> tuple[list[Case], LoadReport]:
    """Cases from records already in memory, e.g. a `datasets.Dataset` from ``load_dataset("json", ...)``.

    Args:
        records: Source records in any layout the source's loader recognises (detected per record).
        source: The source they come from.
        split: The split or level, used only to build ids when the records lack them (``"validation"``,
            ``"easy"``).
        unify_constants: Opt-in constant spelling normalisation (default off).
        **options: Loader-specific options (LogicNLI: ``premises``, ``timeout_ms``).

    Returns:
        The cases and the `LoadReport`.
    """
    _check_name(source)
    module = READERS[source]
    report = LoadReport(source)
    problems: list[SourceProblem] = []
    for index, record in enumerate(records):
        check_identity(source, record, record_ref(None, index), f"record {index}")
        try:
            problems.extend(
                module.record_to_problems(_mapping(record, record_ref(None, index)), split=split, index=index)
            )
        except SourceRecordError as exc:
            report.records += 1
            report.skip(exc)
    cases = module.problems_to_cases(problems, report, unify_constants=unify_constants, **options)
    return cases, report


def _mapping(record: object, ref: str) -> dict[str, Any]:
    """The record as a dict, or a skip: an unreadable line, or a JSON value that is not an object.

    Raises:
        SourceRecordError: `SKIP_INVALID_JSON`, `SKIP_NOT_UTF8` or `SKIP_LAYOUT`, named by `ref` (file and position).
    """
    if isinstance(record, UnreadableRecord):
        raise SourceRecordError(ref, "<record>", record.reason, record.skip)
    if not isinstance(record, Mapping):
        raise SourceRecordError(
            ref, "<record>", f"a record must be a JSON object, got {type(record).__name__}", SKIP_LAYOUT
        )
    return dict(record)


def load_source(
    name: SourceName,
    path: str | Path | None,
    *,
    unify_constants: UnifyMode = "none",
    **options: Any,
) -> tuple[list[Case], LoadReport]:
    """Load a source benchmark's problems as `Case`s, skipping (and reporting) what cannot be used.

    No data ships with the package, so a path is required: a file (clean JSONL, Hugging Face JSONL, raw JSON)
    or a folder of such files (read non-recursively).

    Args:
        name: ``"folio"``, ``"proverqa"`` or ``"logicnli"``.
        path: File or folder.
        unify_constants: Opt-in constant spelling normalisation (``"none"``, ``"case"``, ``"case+numeric"``).
        **options: Loader-specific options. LogicNLI: ``premises`` (``"consistent-subset"``, the default;
            ``"trace"``; ``"all"``) and ``timeout_ms``.

    Returns:
        ``(cases, report)``.

    Raises:
        ValueError: Unknown source name or no path.
        SourceDataError: No record could be loaded (the message gives the skip counts), or a record names
            another source dataset than `name`.
        FileNotFoundError: The path does not exist or holds no data file.
    """
    _check_name(name)
    if unify_constants not in UNIFY_MODES:
        raise ValueError(f"unify_constants must be one of {', '.join(UNIFY_MODES)}; got {unify_constants!r}")
    if path is None:
        raise ValueError(
            f"a path to the {name} data (file or folder) is required: no source data ships with lgmt-tasks"
        )
    module = READERS[name]
    report = LoadReport(name)
    problems = list(iter_problems(name, path, report))
    cases = module.problems_to_cases(problems, report, unify_constants=unify_constants, **options)
    if not cases:
        raise SourceDataError(
            f"no usable {name} problem in {path}: {report.records} records, skipped "
            f"{dict(report.skipped.most_common())}"
        )
    return cases, report


__all__ = ["READERS", "cases_from_records", "check_identity", "iter_problems", "load_source"]
