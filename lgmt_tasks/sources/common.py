"""What every source reader shares: the uniform `SourceProblem`, record fields, formulas, and skip reporting.

The readers (`folio`, `proverqa`, `logicnli`) import this module; the front door that reads files and dispatches to
them is `lgmt_tasks.sources.load` (`load_source`, `iter_problems`, `cases_from_records`), which nothing here imports.

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

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
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
SKIP_GOLD_DISAGREES = "gold label disagrees with prover"
"""One wording, for every source, of a record whose gold label is not the label Z3 proves (FOLIO's and ProverQA's
check in `pipeline.prove_sources`, LogicNLI's while selecting premises)."""
SKIP_LAYOUT = "unknown record layout"
SKIP_DUPLICATE = "duplicate id"
SKIP_MISSING_FIELD = "missing field"
SKIP_WRONG_TYPE = "wrong field type"
SKIP_INVALID_JSON = "invalid JSON"
SKIP_NOT_UTF8 = "not UTF-8 text"


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
    ``a.jsonl#3``; records in memory (`load.cases_from_records`) are ``record 3``, their 0-based index in the list.
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
        repairs: One entry per annotation slip repaired (`lgmt_tasks.sources.repair`): the problem id, the field,
            the kind of slip and the formula before and after; a problem may have several.
    """

    source: str
    paths: list[str] = field(default_factory=list)
    records: int = 0
    loaded: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    details: list[SkipDetail] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    locations: dict[str, RecordLocation] = field(default_factory=dict, repr=False)
    repairs: list[dict[str, str]] = field(default_factory=list)

    @property
    def repaired(self) -> Counter[str]:
        """Repairs per kind of slip."""
        return Counter(r["kind"] for r in self.repairs)

    @property
    def repaired_problems(self) -> int:
        """Problems with at least one repaired formula (loaded or later skipped for another reason)."""
        return len({r["id"] for r in self.repairs})

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
            "repaired": dict(sorted(self.repaired.items())),
            "repairs": list(self.repairs),
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
        if self.repairs:
            lines += ["", f"{self.repaired_problems} records with repaired annotation slips:", ""]
            lines += ["| slip repaired | formulas |", "|---|---:|"]
            lines += [f"| {kind} | {n} |" for kind, n in self.repaired.most_common()]
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


def split_from_filename(file: Path | None, choices: Sequence[str]) -> str | None:
    """Return the split or level named in a file name (``folio_v2_validation.jsonl`` → ``validation``), if any."""
    if file is None:
        return None
    stem = file.stem.lower()
    for choice in choices:
        if re.search(rf"(^|[_\-.]){re.escape(choice)}($|[_\-.])", stem):
            return choice
    return None


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
    "constant_key",
    "map_problems",
    "normalise_label",
    "parse_formula",
    "parse_problem",
    "problem_to_case",
    "record_id",
    "record_ref",
    "require",
    "split_from_filename",
    "text_field",
    "text_list",
    "unify_constants_in",
]
