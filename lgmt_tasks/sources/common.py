"""What every source loader shares: the uniform `SourceProblem`, skip reporting, and the generic entry points.

A loader works in two steps, so that the audit (`lgmt audit-source`) and the builders see the same data:

1. ``record_to_problem(record)`` recognises the record's layout (clean JSONL, Hugging Face, raw) and returns a
   `SourceProblem`: the English and FOL *strings*, the normalised gold label, nothing parsed yet. Layout quirks
   are handled here and only here.
2. `problem_to_case` parses every formula, checks that premises and conclusion are sentences and that the
   English lines up with the FOL, and returns a `Case`, or raises `SourceRecordError` naming the record, the
   field and the reason.

A loader never drops a record silently: every record ends up either as a `Case` or as a line in the
`LoadReport` (``records == loaded + sum(skipped.values())``), because a benchmark's annotation errors are a
finding to report, not noise to hide.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.logic.syntax import Formula, free_vars, rename_constant, signature
from lgmt_tasks.sources.case import Case
from lgmt_tasks.vocabulary import TRUTH_LABELS

SourceName = Literal["folio", "proverqa", "logicnli"]
SOURCE_NAMES: tuple[str, ...] = get_args(SourceName)

UnifyMode = Literal["none", "case", "case+numeric"]
UNIFY_MODES: tuple[str, ...] = get_args(UnifyMode)

USABLE_LABELS: tuple[str, ...] = TRUTH_LABELS
"""Gold labels a classical three-valued oracle can reproduce (LogicNLI's "Paradox" is not one)."""

# Skip categories: the keys of `LoadReport.skipped`. Kept as constants so that tests and reports agree on them.
SKIP_UNPARSABLE = "unparsable formula"
SKIP_EMPTY = "empty formula"
SKIP_FREE_VARIABLE = "free variable"
SKIP_NO_CONCLUSION_FOL = "no conclusion FOL"
SKIP_MISALIGNED = "misaligned NL/FOL premises"
SKIP_LABEL = "unusable label"
SKIP_LAYOUT = "unknown record layout"
SKIP_DUPLICATE = "duplicate id"
SKIP_MISSING_FIELD = "missing field"
SKIP_WRONG_TYPE = "wrong field type"
SKIP_INVALID_JSON = "invalid JSON"


class SourceRecordError(ValueError):
    """A source record cannot become a `Case`; says which record, which field, and why.

    Attributes:
        record_id: The record's id (as it will appear in `Case.source_id`).
        field: The offending field, e.g. ``"premises_fol[3]"``, ``"conclusion_fol"`` or ``"label"``.
        reason: A human-readable reason (for a syntax error: the column and what the parser expected).
        category: A short, stable reason category for counting (one of the ``SKIP_*`` constants or a
            loader-specific one).
    """

    def __init__(self, record_id: str, field: str, reason: str, category: str) -> None:
        super().__init__(f"{record_id}: {field}: {reason}")
        self.record_id = record_id
        self.field = field
        self.reason = reason
        self.category = category


class SourceDataError(ValueError):
    """A source file or folder cannot be used as a whole: no usable record, or records of another source.

    Raised (not counted as a skip) because no build should come out of it; the `lgmt` command prints it as one
    ``Error:`` line.
    """


# --------------------------------------------------------------------------- typed fields of a raw record
# A record's fields are checked before anything is converted with `str()`: `str(5)` would be a valid atom and
# `str(None)` an English sentence "None", so a wrong type would otherwise be shipped silently.


def record_ref(file: Path | None, index: int, line: int | None = None) -> str:
    """How a record without a usable id is named in a skip: its file and 1-based line (``a.jsonl:4``).

    Without a line (a caller that does not know it) the record's 0-based position in its file is given as
    ``a.jsonl#3``; records in memory (`cases_from_records`) are ``record 3``, their 0-based index in the list.
    """
    if file is None:
        return f"record {index}"
    return f"{file.name}:{line}" if line is not None else f"{file.name}#{index}"


def record_id(record: Mapping[str, Any], key: str, fallback: str) -> str:
    """The record's id from field `key` (a string or an integer).

    Raises:
        SourceRecordError: The field is missing or of another type (named by `fallback`).
    """
    value = record.get(key)
    if value is None:
        raise SourceRecordError(fallback, key, f"the record has no {key!r}", SKIP_MISSING_FIELD)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise SourceRecordError(
            fallback, key, f"{key} must be a non-empty string or an integer, got {value!r}", SKIP_WRONG_TYPE
        )
    return str(value)


def require(record: Mapping[str, Any], key: str, rid: str) -> Any:
    """The value of a required field.

    Raises:
        SourceRecordError: The field is missing or null (category `SKIP_MISSING_FIELD`).
    """
    value = record.get(key)
    if value is None:
        raise SourceRecordError(rid, key, f"the record has no {key!r}", SKIP_MISSING_FIELD)
    return value


def text_field(rid: str, field: str, value: object) -> str:
    """A non-empty string field (an English sentence), stripped.

    Raises:
        SourceRecordError: Missing or empty (`SKIP_MISSING_FIELD`), or not a string (`SKIP_WRONG_TYPE`).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        raise SourceRecordError(rid, field, f"{field} is missing or empty", SKIP_MISSING_FIELD)
    if not isinstance(value, str):
        raise SourceRecordError(rid, field, f"{field} must be a string, got {type(value).__name__}", SKIP_WRONG_TYPE)
    return value.strip()


def text_list(rid: str, field: str, value: object) -> list[str]:
    """A list of strings (premises, English or FOL), items unchanged.

    Raises:
        SourceRecordError: Missing (`SKIP_MISSING_FIELD`), or not a list of strings (`SKIP_WRONG_TYPE`).
    """
    if value is None:
        raise SourceRecordError(rid, field, f"the record has no {field!r}", SKIP_MISSING_FIELD)
    if not isinstance(value, (list, tuple)):
        raise SourceRecordError(
            rid, field, f"{field} must be a list of strings, got {type(value).__name__}", SKIP_WRONG_TYPE
        )
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise SourceRecordError(
                rid, f"{field}[{i}]", f"{field}[{i}] must be a string, got {item!r}"[:200], SKIP_WRONG_TYPE
            )
    return list(value)


@dataclass(frozen=True)
class UnreadableRecord:
    """What `read_records` yields in place of a line that is not valid JSON: the reason, for the skip."""

    reason: str


@dataclass(frozen=True)
class RecordLocation:
    """Where a record starts in its file, as an editor's ``file:line:column`` (both 1-based).

    Attributes:
        file: The file's name.
        line: 1-based line of the record's first character (blank lines count).
        column: 1-based column of that character; for a line that is not valid JSON, where the JSON error is.
    """

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class SkipDetail:
    """One skipped record: its id, the field at fault, the full reason, its category and where it is.

    `file`, `line` and `column` (1-based, see `RecordLocation`) are None for records that came from memory.
    """

    id: str
    field: str
    reason: str
    category: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    @classmethod
    def of(cls, error: SourceRecordError, location: RecordLocation | None) -> SkipDetail:
        """The detail of a skip error, at `location` (None for a record that came from memory)."""
        return cls(
            error.record_id,
            error.field,
            error.reason,
            error.category,
            location.file if location else None,
            location.line if location else None,
            location.column if location else None,
        )


@dataclass
class LoadReport:
    """What a loader did with every record: how many were read, loaded, and skipped (by reason, with ids).

    Attributes:
        source: The source name (``"folio"``, ``"proverqa"``, ``"logicnli"``).
        paths: The files read (empty when records came from memory, e.g. a `datasets.Dataset`).
        records: Problems read (a LogicNLI story counts once per statement).
        loaded: Problems that became a `Case`.
        skipped: Skipped problems per reason category.
        details: One `SkipDetail` per skipped problem, in reading order.
        notes: Loader-specific facts worth reporting (e.g. LogicNLI's premise mode and story statistics).
        locations: Where each problem read from a file starts (by problem id), so that a problem skipped after
            reading is still located; not part of `to_dict`.
    """

    source: str
    paths: list[str] = field(default_factory=list)
    records: int = 0
    loaded: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    details: list[SkipDetail] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    locations: dict[str, RecordLocation] = field(default_factory=dict, repr=False)

    def skip(self, error: SourceRecordError, location: RecordLocation | None = None) -> None:
        """Count one skipped problem under its category and keep the detail (located, when it came from a file)."""
        self.skipped[error.category] += 1
        self.details.append(SkipDetail.of(error, location or self.locations.get(error.record_id)))

    def to_dict(self) -> dict[str, Any]:
        """Return the report as plain JSON-serialisable data (for build statistics and dataset cards)."""
        return {
            "source": self.source,
            "paths": list(self.paths),
            "records": self.records,
            "loaded": self.loaded,
            "skipped": dict(sorted(self.skipped.items())),
            "details": [asdict(d) for d in self.details],
            "notes": dict(self.notes),
        }

    def to_markdown(self) -> str:
        """Return a short Markdown summary: the counts and a table of skip reasons."""
        lines = [
            f"**{self.source}**: {self.records} records, {self.loaded} loaded, {sum(self.skipped.values())} skipped",
            "",
        ]
        if self.skipped:
            lines += ["| reason | records |", "|---|---:|"]
            lines += [f"| {reason} | {n} |" for reason, n in self.skipped.most_common()]
        return "\n".join(lines)


@dataclass(frozen=True)
class SourceProblem:
    """One source problem in a layout-independent shape, before any formula is parsed.

    Attributes:
        id: Stable record id (the source's own id where it has one).
        dataset: ``"folio"``, ``"proverqa"`` or ``"logicnli"``.
        premises: English premises, stripped of surrounding whitespace.
        premises_fol: FOL premises, verbatim from the source.
        conclusion: English conclusion.
        conclusion_fol: FOL conclusion, verbatim; ``None`` when the source has none (FOLIO v0 train).
        label: Normalised gold label (``True``/``False``/``Unknown``, or ``Paradox`` for LogicNLI), or ``None``.
        label_source: The label as the source spells it.
        meta: Layout-specific extras a loader needs later (LogicNLI: ``num_facts``, ``proof_trace``,
            ``story_id``).
    """

    id: str
    dataset: str
    premises: tuple[str, ...]
    premises_fol: tuple[str, ...]
    conclusion: str
    conclusion_fol: str | None
    label: str | None
    label_source: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def aligned(self) -> bool:
        """Whether the English and FOL premise lists have the same length (premise i says formula i)."""
        return len(self.premises) == len(self.premises_fol)


# --------------------------------------------------------------------------- labels


def normalise_label(raw: object, mapping: Mapping[str, str], record_id: str) -> str | None:
    """Map a source's label spelling onto ``True``/``False``/``Unknown``/``Paradox`` (``None`` if absent).

    Args:
        raw: The label as stored (a string, or a bool when a loader has typed it).
        mapping: Lower-cased source spelling → normalised label.
        record_id: For the error message.

    Raises:
        SourceRecordError: The spelling is not in `mapping` (category `SKIP_LABEL`).
    """
    if raw is None:
        return None
    if isinstance(raw, bool):
        return "True" if raw else "False"
    key = str(raw).strip().lower()
    if key not in mapping:
        raise SourceRecordError(record_id, "label", f"unknown label {raw!r}", SKIP_LABEL)
    return mapping[key]


# --------------------------------------------------------------------------- formulas


def parse_formula(record_id: str, field: str, text: object) -> Formula:
    """Parse one source formula that must be a sentence.

    Args:
        record_id: The record's id, for the error.
        field: Where the formula sits (``"premises_fol[3]"``, ``"conclusion_fol"``), for the error.
        text: The formula as stored in the source.

    Returns:
        The parsed formula (a sentence).

    Raises:
        SourceRecordError: The text is empty, does not parse (the reason gives the column and what the parser
            expected), or has free variables (FOLIO v2 writes ``Rated(x, generalAudience)`` for a ground fact;
            guessing a quantifier would invent a premise, so such records are skipped).
    """
    if text is not None and not isinstance(text, str):
        # `str(5)` would parse as the atom `5`: a wrong type is skipped, never read as a formula.
        raise SourceRecordError(record_id, field, f"a formula must be a string, got {text!r}"[:200], SKIP_WRONG_TYPE)
    if text is None or not text.strip():
        raise SourceRecordError(record_id, field, "empty formula", SKIP_EMPTY)
    source = text
    try:
        formula, free = _parsed(source)
    except FormulaSyntaxError as exc:
        reason = f"syntax error at column {exc.column + 1}: expected {exc.expected} in {source.strip()!r}"
        raise SourceRecordError(record_id, field, reason, SKIP_UNPARSABLE) from exc
    if free:
        raise SourceRecordError(record_id, field, f"free variable {', '.join(free)} in {field}", SKIP_FREE_VARIABLE)
    return formula


@lru_cache(maxsize=1 << 16)
def _parsed(source: str) -> tuple[Formula, tuple[str, ...]]:
    """A formula string parsed once, with its free variables.

    LogicNLI repeats a story's 20-odd premises in each of its problems, so the paper-scale pool parsed the same
    strings about 95,000 times; formulas are immutable, so one parse can be shared. A syntax error is not cached.
    """
    formula = parse(source)
    return formula, tuple(sorted(free_vars(formula)))


def parse_problem(problem: SourceProblem) -> tuple[tuple[Formula, ...], Formula]:
    """Parse a problem's premises and conclusion, stopping at the first bad formula.

    Raises:
        SourceRecordError: No conclusion FOL, or a formula is empty, unparsable or open.
    """
    if problem.conclusion_fol is None:
        raise SourceRecordError(
            problem.id, "conclusion_fol", "the source has no conclusion FOL", SKIP_NO_CONCLUSION_FOL
        )
    premises = tuple(parse_formula(problem.id, f"premises_fol[{i}]", p) for i, p in enumerate(problem.premises_fol))
    conclusion = parse_formula(problem.id, "conclusion_fol", problem.conclusion_fol)
    return premises, conclusion


def problem_to_case(problem: SourceProblem, *, unify_constants: UnifyMode = "none") -> Case:
    """Turn a `SourceProblem` into a `Case` whose premise i is said by English premise i.

    Records whose English and FOL premise lists differ in length (FOLIO v0: an English premise split in two, or
    two formulas for one sentence) are skipped rather than repaired. Every LGMT relation that copies, drops or
    reorders premises relies on premise i's sentence saying formula i; joining the English into one paragraph
    would make every such follow-up's English wrong, and only 3 of the 12 affected FOLIO records could be
    repaired by re-joining a sentence fragment.

    Args:
        problem: The problem to convert.
        unify_constants: Opt-in spelling normalisation of constants (see `unify_constants`); ``"none"`` keeps the
            source's symbols.

    Raises:
        SourceRecordError: An unusable gold label (``Paradox``), no conclusion FOL, misaligned premise lists, or
            a bad formula.
    """
    if problem.label is not None and problem.label not in USABLE_LABELS:
        raise SourceRecordError(
            problem.id,
            "label",
            f"label {problem.label} ({problem.label_source}) has no classical three-valued reading",
            SKIP_LABEL,
        )
    if problem.conclusion_fol is None:
        raise SourceRecordError(
            problem.id, "conclusion_fol", "the source has no conclusion FOL", SKIP_NO_CONCLUSION_FOL
        )
    if not problem.aligned:
        raise SourceRecordError(
            problem.id,
            "premises",
            f"{len(problem.premises)} English premises but {len(problem.premises_fol)} FOL "
            "premises: the English cannot be matched to the FOL premise by premise",
            SKIP_MISALIGNED,
        )
    premises, conclusion = parse_problem(problem)
    if unify_constants != "none":
        unified, _ = unify_constants_in((*premises, conclusion), unify_constants)
        premises, conclusion = unified[:-1], unified[-1]
    return Case(
        premises_fol=premises,
        conclusion_fol=conclusion,
        premises=problem.premises,
        conclusion=problem.conclusion,
        label=problem.label,
        source_dataset=problem.dataset,
        source_id=problem.id,
    )


# --------------------------------------------------------------------------- constant normalisation (opt-in)

_LETTER_BEFORE_DIGIT = re.compile(r"^[a-z](?=\d)")


def constant_key(name: str, mode: UnifyMode) -> str:
    """Return the spelling-insensitive key under which constants are unified.

    ``"case"`` ignores letter case, underscores and hyphens (FOLIO's ``dani_Shapiro`` vs ``daniShapiro``,
    ``kO`` vs ``ko``); ``"case+numeric"`` also ignores one letter in front of a digit, FOLIO v2's way of
    writing a number as an identifier (``y1984`` vs ``1984``).
    """
    if mode == "none":
        return name
    key = name.lower().replace("_", "").replace("-", "")
    if mode == "case+numeric":
        key = _LETTER_BEFORE_DIGIT.sub("", key)
    return key


def unify_constants_in(formulas: Sequence[Formula], mode: UnifyMode) -> tuple[tuple[Formula, ...], dict[str, str]]:
    """Rename constants of one problem that differ only in spelling to one representative.

    This is an opt-in repair for annotation errors (the same individual spelt two ways makes a provable
    conclusion unprovable). It is off by default because it can also merge individuals the annotator meant to
    keep apart. The representative is the most frequent spelling, ties broken alphabetically, so the result is
    deterministic.

    Args:
        formulas: Every formula of one problem (premises and conclusion), so that all are renamed alike.
        mode: ``"none"`` (no change), ``"case"`` or ``"case+numeric"`` (see `constant_key`).

    Returns:
        The renamed formulas, and the map from each renamed spelling to its representative.
    """
    if mode not in UNIFY_MODES:
        raise ValueError(f"unify mode must be one of {', '.join(UNIFY_MODES)}; got {mode!r}")
    if mode == "none":
        return tuple(formulas), {}
    counts: Counter[str] = Counter()
    for f in formulas:
        counts.update(_constant_occurrences(f))
    groups: dict[str, list[str]] = {}
    for name in sorted(counts):
        groups.setdefault(constant_key(name, mode), []).append(name)
    renaming: dict[str, str] = {}
    for names in groups.values():
        if len(names) > 1:
            representative = min(names, key=lambda n: (-counts[n], n))
            renaming.update({n: representative for n in names if n != representative})
    out = list(formulas)
    for old, new in sorted(renaming.items()):
        out = [rename_constant(f, old, new) for f in out]
    return tuple(out), renaming


def _constant_occurrences(f: Formula) -> list[str]:
    """Constant names of `f`, once per formula (frequency = number of formulas that mention it)."""
    return sorted(signature(f).constants)


# --------------------------------------------------------------------------- reading files


def read_records(path: str | Path) -> Iterator[tuple[Any, Path, int]]:
    """Yield ``(record, file, index)`` for every record of a JSON/JSONL file or a folder of them.

    `index` is the record's 0-based position among its file's records (FOLIO v0.0 validation ids are made from
    it). `read_located_records` also gives where each record starts.
    """
    for record, file, index, _location in read_located_records(path):
        yield record, file, index


def read_located_records(path: str | Path) -> Iterator[tuple[Any, Path, int, RecordLocation]]:
    """Yield ``(record, file, index, location)`` for every record of a JSON/JSONL file or a folder of them.

    A folder is read non-recursively, files in name order, ``*.jsonl`` and ``*.json`` only (so a ``raw/``
    sub-folder or a licence file next to the data is ignored). A ``.json`` file holds one JSON array (the raw
    ProverQA layout) or one object per line. A line that is not valid JSON is yielded as an `UnreadableRecord`
    (one bad line must not stop the build, nor vanish: `iter_problems` counts it as a skip); a record may also be
    any JSON value, which the caller checks. `location` is the 1-based line and column where the record starts.

    Raises:
        FileNotFoundError: `path` does not exist.
        SourceDataError: A folder holds no data file, or a ``.json`` file that opens as an array is not valid
            JSON as a whole (no record can be told apart from the next).
    """
    root = Path(path)
    if not root.exists():
        raise FileNotFoundError(f"no such file or folder: {root}")
    files = [root] if root.is_file() else sorted(p for p in root.iterdir() if p.suffix in (".json", ".jsonl"))
    if not files:
        raise SourceDataError(f"no .json or .jsonl files in {root}")
    for file in files:
        text = file.read_text(encoding="utf-8")
        if file.suffix == ".json" and text.lstrip().startswith("["):
            for index, (record, location) in enumerate(_array_elements(text, file)):
                yield record, file, index, location
        else:
            yield from _jsonl_records(text, file)


def _jsonl_records(text: str, file: Path) -> Iterator[tuple[Any, Path, int, RecordLocation]]:
    """The records of a JSON Lines text, one per non-blank line (only a newline ends a line, as in JSON Lines)."""
    index = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        column = len(line) - len(line.lstrip()) + 1
        try:
            record: Any = json.loads(line)
        except json.JSONDecodeError as exc:
            record = UnreadableRecord(f"line is not valid JSON: {exc}")
            column = exc.colno
        yield record, file, index, RecordLocation(file.name, number, column)
        index += 1


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _skip_space(text: str, pos: int) -> int:
    match = _JSON_SPACE.match(text, pos)
    return match.end() if match else pos


def _array_elements(text: str, file: Path) -> Iterator[tuple[Any, RecordLocation]]:
    """The elements of a JSON array text, each with where it starts.

    Raises:
        SourceDataError: The text is not one valid JSON array.
    """
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceDataError(f"{file}: not valid JSON: {exc}") from exc
    if not isinstance(whole, list):
        raise SourceDataError(f"{file}: expected one JSON array")
    decoder = json.JSONDecoder()
    line, line_start, counted = 1, 0, 0  # lines are counted incrementally: the raw files are megabytes

    def locate(offset: int) -> RecordLocation:
        nonlocal line, line_start, counted
        line += text.count("\n", counted, offset)
        newline = text.rfind("\n", counted, offset)
        line_start = newline + 1 if newline >= 0 else line_start
        counted = offset
        return RecordLocation(file.name, line, offset - line_start + 1)

    pos = _skip_space(text, 0) + 1  # after "["
    for _ in range(len(whole)):
        pos = _skip_space(text, pos)
        record, end = decoder.raw_decode(text, pos)
        yield record, locate(pos)
        pos = _skip_space(text, end) + 1  # after ","


def split_from_filename(file: Path | None, choices: Sequence[str]) -> str | None:
    """Return the split or level named in a file name (``folio_v2_validation.jsonl`` → ``validation``), if any."""
    if file is None:
        return None
    stem = file.stem.lower()
    for choice in choices:
        if re.search(rf"(^|[_\-.]){re.escape(choice)}($|[_\-.])", stem):
            return choice
    return None


# --------------------------------------------------------------------------- generic entry points


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
    module = _loader(name)
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
    module = _loader(source)
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
        SourceRecordError: `SKIP_INVALID_JSON` or `SKIP_LAYOUT`, named by `ref` (file and position).
    """
    if isinstance(record, UnreadableRecord):
        raise SourceRecordError(ref, "<record>", record.reason, SKIP_INVALID_JSON)
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
    module = _loader(name)
    report = LoadReport(name)
    problems = list(iter_problems(name, path, report))
    cases = module.problems_to_cases(problems, report, unify_constants=unify_constants, **options)
    if not cases:
        raise SourceDataError(
            f"no usable {name} problem in {path}: {report.records} records, skipped "
            f"{dict(report.skipped.most_common())}"
        )
    return cases, report


def _loader(name: str) -> Any:
    """Return the loader module of a source (imported lazily: the loaders import this module)."""
    if name == "folio":
        from lgmt_tasks.sources import folio

        return folio
    if name == "proverqa":
        from lgmt_tasks.sources import proverqa

        return proverqa
    from lgmt_tasks.sources import logicnli

    return logicnli


def map_problems(
    problems: Iterable[SourceProblem], report: LoadReport, *, unify_constants: UnifyMode = "none"
) -> list[Case]:
    """Convert problems to cases one by one, counting each skipped problem in `report`.

    The shared `problems_to_cases` of FOLIO and ProverQA (LogicNLI adds a prover step).
    """
    cases: list[Case] = []
    for problem in problems:
        report.records += 1
        try:
            cases.append(problem_to_case(problem, unify_constants=unify_constants))
        except SourceRecordError as exc:
            report.skip(exc)
            continue
        report.loaded += 1
    return cases


__all__ = [
    "SOURCE_NAMES",
    "UNIFY_MODES",
    "USABLE_LABELS",
    "LoadReport",
    "RecordLocation",
    "SkipDetail",
    "SourceName",
    "SourceDataError",
    "SourceProblem",
    "SourceRecordError",
    "UnifyMode",
    "UnreadableRecord",
    "cases_from_records",
    "check_identity",
    "constant_key",
    "iter_problems",
    "load_source",
    "map_problems",
    "normalise_label",
    "parse_formula",
    "parse_problem",
    "problem_to_case",
    "read_located_records",
    "read_records",
    "record_id",
    "record_ref",
    "require",
    "split_from_filename",
    "text_field",
    "text_list",
    "unify_constants_in",
]
