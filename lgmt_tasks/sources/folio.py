r"""FOLIO (Han et al., 2022) as source cases, from any of its three record layouts.

The layout is detected per record, so one function serves every copy a user may have:

* **clean JSONL** (ours, ``folio_*.jsonl``): ``id, premises, premises_fol, conclusion, conclusion_fol, label``
  with lists of premises;
* **Hugging Face** ``yale-nlp/FOLIO`` (v2, as ``datasets.load_dataset`` yields it): ``story_id, premises`` and
  ``premises-FOL`` each ONE string with the sentences joined by ``"\\n"``, ``conclusion, conclusion-FOL, label,
  example_id``;
* **raw v0.0** (``Yale-LILY/FOLIO`` ``data/v0.0/*.jsonl``): ``premises`` and ``premises-FOL`` lists,
  ``conclusion-FOL`` (absent in train), ids only in train.

Ids follow the clean files (``folio_v2_validation_700``, ``folio_v0_validation_0016``) so that a problem keeps
its id whichever copy it was read from; the split comes from the file name or the ``split`` argument.

What is repaired first (`lgmt_tasks.sources.repair`, counted in the `LoadReport`): annotation slips whose repair is
the only reading of the formula (a bracket missing or extra, `—>`, `≠`, a final period, ...), proven so by Z3.

What is skipped, and why (counted in the `LoadReport`): FOLIO v0 train (no conclusion FOL), formulas that do
not parse and have no single repair (two brackets missing, the empty formula), formulas with free variables (FOLIO
v2 writes some ground facts with ``x``), and records whose English and FOL premise lists differ in length (see
`problem_to_case`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.common import (
    SKIP_LAYOUT,
    LoadReport,
    SourceProblem,
    SourceRecordError,
    UnifyMode,
    map_problems,
    normalise_label,
    problem_to_case,
    record_id,
    record_ref,
    split_from_filename,
    text_field,
    text_list,
)
from lgmt_tasks.sources.repair import repair_problem, repairs_of

DATASET = "folio"
SPLITS: tuple[str, ...] = ("train", "validation", "test")
LABELS: dict[str, str] = {"true": "True", "false": "False", "unknown": "Unknown", "uncertain": "Unknown"}
"""FOLIO's label spellings: v0.0 train says ``Unknown``, v0.0 validation and v2 say ``Uncertain``."""


def detect_layout(record: Mapping[str, Any]) -> str:
    """``"clean"``, ``"hf"`` (v2, newline-joined strings) or ``"v0"`` (raw lists); ``""`` if none fits."""
    if "premises_fol" in record:
        return "clean"
    fol = record.get("premises-FOL")
    if isinstance(fol, str):
        return "hf"
    if isinstance(fol, list):
        return "v0"
    return ""


def record_to_problem(
    record: Mapping[str, Any],
    *,
    split: str | None = None,
    file: Path | None = None,
    index: int = 0,
    line: int | None = None,
) -> SourceProblem:
    """Map one FOLIO record, in any of the three layouts, to a `SourceProblem` (strings only, nothing parsed).

    Args:
        record: The record.
        split: The split, for ids of records that lack one (default: from `file`'s name).
        file: The file the record came from (for the split).
        index: The record's 0-based position in its file: the id of raw v0.0 validation records, which have no
            ids of their own (the clean file uses the same numbering).
        line: The record's 1-based line in its file (names a record that has no usable id).

    Raises:
        SourceRecordError: The layout is not a FOLIO layout, a field is missing or of the wrong type, or the label
            is not a FOLIO label.
    """
    layout = detect_layout(record)
    split = split or split_from_filename(file, SPLITS)
    if layout == "clean":
        rid = record_id(record, "id", record_ref(file, index, line))
        premises = text_list(rid, "premises", record.get("premises"))
        premises_fol = text_list(rid, "premises_fol", record.get("premises_fol"))
        conclusion_fol = record.get("conclusion_fol")
        label_source = record.get("label_source", record.get("label"))
    elif layout in ("hf", "v0"):
        version = "v2" if layout == "hf" else "v0"
        number = record.get("example_id")
        suffix = str(number) if number is not None else f"{index:04d}"
        rid = "_".join(part for part in ("folio", version, split, suffix) if part)
        if layout == "hf":
            premises = _lines(text_field(rid, "premises", record.get("premises")))
            premises_fol = _lines(text_field(rid, "premises-FOL", record.get("premises-FOL")))
        else:
            premises = text_list(rid, "premises", record.get("premises"))
            premises_fol = text_list(rid, "premises-FOL", record.get("premises-FOL"))
        conclusion_fol = record.get("conclusion-FOL")
        label_source = record.get("label")
    else:
        rid = str(record.get("id", record.get("example_id", record_ref(file, index, line))))
        raise SourceRecordError(
            rid, "<record>", f"not a FOLIO record layout (keys: {', '.join(sorted(record))})", SKIP_LAYOUT
        )
    return SourceProblem(
        id=rid,
        dataset=DATASET,
        premises=tuple(p.strip() for p in premises),
        premises_fol=tuple(premises_fol),
        conclusion=text_field(rid, "conclusion", record.get("conclusion")),
        conclusion_fol=conclusion_fol,
        label=normalise_label(label_source, LABELS, rid),
        label_source=None if label_source is None else str(label_source),
        meta={"layout": layout, "story_id": record.get("story_id")},
    )


def _lines(text: str) -> list[str]:
    """Split a Hugging Face v2 field on newlines (blank lines, which v2 does not have, would be dropped)."""
    return [line for line in text.split("\n") if line.strip()]


def record_to_problems(
    record: Mapping[str, Any],
    *,
    split: str | None = None,
    file: Path | None = None,
    index: int = 0,
    line: int | None = None,
) -> list[SourceProblem]:
    """One record is one problem in FOLIO (the loader protocol allows several, for LogicNLI stories).

    Its annotation slips are repaired where the repair is the only reading (`repair.repair_problem`), so the
    builders and `lgmt audit-source` see the same formulas; each repair is listed in the problem's meta.
    """
    return [repair_problem(record_to_problem(record, split=split, file=file, index=index, line=line))]


def record_to_case(record: Mapping[str, Any], *, split: str | None = None, index: int = 0) -> Case:
    """Map one FOLIO record (any layout) to a `Case`.

    Raises:
        SourceRecordError: Names the record id, the field (``premises_fol[3]``, ``conclusion_fol``, ...) and the
            reason (for a syntax error, the parser's column and expectation).
    """
    return problem_to_case(repair_problem(record_to_problem(record, split=split, index=index)))


def problems_to_cases(
    problems: Iterable[SourceProblem], report: LoadReport, *, unify_constants: UnifyMode = "none"
) -> list[Case]:
    """Convert problems to cases, counting every skipped one and every repaired slip in `report`."""
    problems = list(problems)
    for problem in problems:
        report.repairs.extend({"id": problem.id, **r} for r in repairs_of(problem))
    return map_problems(problems, report, unify_constants=unify_constants)
