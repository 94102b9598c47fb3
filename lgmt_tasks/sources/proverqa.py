"""ProverQA (ProverGen, Qi et al., ICLR 2025) dev set as source cases.

Two record layouts, detected per record:

* **clean JSONL** (ours, ``proverqa_dev_<level>.jsonl``): ``id, premises, premises_fol, conclusion,
  conclusion_fol, label`` (+ ``question``, ``context``, ``reasoning``);
* **raw** (the Hugging Face ``opendatalab/ProverQA`` ``dev/<level>.json`` files, one JSON array each): ``id`` (an
  int), ``context`` (the premises as one paragraph), ``question`` ("Based on the above information, is the
  following statement true, false, or uncertain? <statement>"), ``answer`` (``A``/``B``/``C`` for
  True/False/Uncertain), ``nl2fol`` (a dict: English premise → FOL premise, in context order) and
  ``conclusion_fol``.

The premises are the items of ``nl2fol`` (a dict, so a sentence repeated in ``context`` appears once: three
dev records are affected, none loses information). The conclusion is the question without its fixed prefix.
Ids follow the clean files: ``proverqa_<level>_<id>``, the level taken from the file name (``hard.json``) or
the ``split`` argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.common import (
    SKIP_LAYOUT,
    SKIP_WRONG_TYPE,
    LoadReport,
    SourceProblem,
    SourceRecordError,
    UnifyMode,
    map_problems,
    normalise_label,
    problem_to_case,
    record_id,
    record_ref,
    require,
    split_from_filename,
    text_field,
    text_list,
)

DATASET = "proverqa"
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
LABELS: dict[str, str] = {
    "a": "True",
    "b": "False",
    "c": "Unknown",
    "true": "True",
    "false": "False",
    "uncertain": "Unknown",
    "unknown": "Unknown",
}
"""ProverQA's answer letters (options are always ``A) True, B) False, C) Uncertain``) and label words."""

QUESTION_PREFIX = re.compile(
    r"^\s*Based on the above information, is the following statement true, false, or uncertain\?\s*"
)


def detect_layout(record: Mapping[str, Any]) -> str:
    """``"clean"`` or ``"raw"`` (with ``nl2fol``); ``""`` if neither fits."""
    if "premises_fol" in record:
        return "clean"
    if "nl2fol" in record and "question" in record:
        return "raw"
    return ""


def record_to_problem(
    record: Mapping[str, Any],
    *,
    split: str | None = None,
    file: Path | None = None,
    index: int = 0,
    line: int | None = None,
) -> SourceProblem:
    """Map one ProverQA record (clean or raw layout) to a `SourceProblem` (strings only, nothing parsed).

    Args:
        record: The record.
        split: The difficulty level, for ids of raw records (default: from `file`'s name).
        file: The file the record came from.
        index: The record's 0-based position in its file.
        line: The record's 1-based line in its file (names a record that has no usable id).

    Raises:
        SourceRecordError: Not a ProverQA layout, a field missing or of the wrong type, or an unknown answer.
    """
    layout = detect_layout(record)
    if layout == "clean":
        rid = record_id(record, "id", record_ref(file, index, line))
        premises = text_list(rid, "premises", record.get("premises"))
        premises_fol = text_list(rid, "premises_fol", record.get("premises_fol"))
        conclusion = text_field(rid, "conclusion", record.get("conclusion"))
        label_source = record.get("label_source", record.get("label"))
    elif layout == "raw":
        level = split or split_from_filename(file, LEVELS)
        rid = "_".join(
            part for part in ("proverqa", level, record_id(record, "id", record_ref(file, index, line))) if part
        )
        nl2fol = require(record, "nl2fol", rid)
        if not isinstance(nl2fol, Mapping):
            raise SourceRecordError(
                rid, "nl2fol", f"nl2fol must be an object, got {type(nl2fol).__name__}", SKIP_WRONG_TYPE
            )
        # Through `datasets`, a dict column becomes a struct holding every key of every row (None where absent).
        pairs = [(nl, fol) for nl, fol in nl2fol.items() if fol is not None]
        premises, premises_fol = [nl for nl, _ in pairs], text_list(rid, "nl2fol", [fol for _, fol in pairs])
        conclusion = QUESTION_PREFIX.sub("", text_field(rid, "question", record.get("question")))
        label_source = record.get("answer")
    else:
        rid = str(record.get("id", record_ref(file, index, line)))
        raise SourceRecordError(
            rid, "<record>", f"not a ProverQA record layout (keys: {', '.join(sorted(record))})", SKIP_LAYOUT
        )
    return SourceProblem(
        id=rid,
        dataset=DATASET,
        premises=tuple(p.strip() for p in premises),
        premises_fol=tuple(premises_fol),
        conclusion=text_field(rid, "conclusion", conclusion),
        conclusion_fol=record.get("conclusion_fol"),
        label=normalise_label(label_source, LABELS, rid),
        label_source=None if label_source is None else str(label_source),
        meta={"layout": layout},
    )


def record_to_problems(
    record: Mapping[str, Any],
    *,
    split: str | None = None,
    file: Path | None = None,
    index: int = 0,
    line: int | None = None,
) -> list[SourceProblem]:
    """One record is one problem in ProverQA (the loader protocol allows several, for LogicNLI stories)."""
    return [record_to_problem(record, split=split, file=file, index=index, line=line)]


def record_to_case(record: Mapping[str, Any], *, split: str | None = None) -> Case:
    """Map one ProverQA record (clean or raw) to a `Case`.

    Raises:
        SourceRecordError: Names the record id, the field and the reason.
    """
    return problem_to_case(record_to_problem(record, split=split))


def problems_to_cases(
    problems: Iterable[SourceProblem], report: LoadReport, *, unify_constants: UnifyMode = "none"
) -> list[Case]:
    """Convert problems to cases, counting every skipped one in `report`."""
    return map_problems(problems, report, unify_constants=unify_constants)
