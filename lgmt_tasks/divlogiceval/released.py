"""The authors' released DivLogicEval data (`ttchungc/DivLogicEval`) read into our row shape.

The release is two parquet files, `polished.parquet` (the human-post-edited test set) and `unpolished.parquet`, on the
Hub or in a local folder. Their column names are the authors' (several spellings, see `RELEASED_COLUMNS`); this module
maps each record to the row shape of our builds (`id`, `question_type`, `content`, `question`, four `options`,
`answer` index, and the formulas where the release has them), so the loader (`dataset.py`), the solver and the scorer
treat both sources alike.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgmt_tasks.divlogiceval.config import QUESTION_TYPES, VARIANTS
from lgmt_tasks.solvers.divlogiceval import LETTERS, checked_choice

if TYPE_CHECKING:  # imported where called: the task imports this module, and Inspect imports every plugin at start-up
    import datasets

RELEASED_REPO_ID = "ttchungc/DivLogicEval"
"""The authors' Hub dataset; its card declares the splits `polished` and `unpolished`, one parquet file each."""

RELEASED_COLUMNS: dict[str, tuple[str, ...]] = {
    "content": ("context", "psg", "content"),
    "question": ("question",),
    "options": ("answers", "opts", "options"),
    "answer": ("label", "ans", "answer"),
    "question_type": ("question_label", "question_type"),
}
"""Our field → the released columns it may come from, first found wins.

The names are those the authors' code writes: `context`, `question`, `answers`, `label` (ILogicEval
`to_train_test_val.py`, the rename at line 29 and the column list at lines 126-128), `question_label` (read by
`topllms_eval.py` line 10 and `runtopllms.py` line 13) and the builder's own `psg`, `opts`, `ans`
(`dataset_formation_3c1e_3e1c.py` line 715); our own names are accepted too. The question type is optional: the
layout `to_train_test_val.py` writes has no `question_label`, and the type is then read from the question's wording
(`AUTHOR_QUESTIONS`).
"""

AUTHOR_QUESTIONS: dict[str, tuple[str, ...]] = {
    "3c1e": (  # `qe`, to_train_test_val.py lines 55-72
        "Based on the information given, which is the most accurate conclusion?",
        "Which following statements is supported by the information presented above?",
        "According to the statements above, which is most likely to be true?",
        "If the above statements are accurate, which is the most reasonable inference?",
        "Which is the most plausible conclusion based on the information provided above?",
        "Based on the above statements, which can be inferred?",
        "Which is consistent with the information presented above?",
        "Which is the best interpretation of the statements above?",
        "According to the above statements, which is a valid conclusion?",
        "Which is most likely to be true based on the information given above?",
        "If the statements above are true, which shall also be true on the basis of them?",
        "If the above statements hold true, which  can be reasonably inferred?",
        "Which of the following logically follows from the information presented above?",
        "Based on the statements provided, which options is most consistent with them?",
        "Taking into account the information above, which is the most plausible conclusion?",
        "If we assume the above statements to be true, which is a valid inference?",
    ),
    "3e1c": (  # `qc`, lines 73-91 (their line 80 is commented out, and left out here too)
        "Which statements below, if true, casts doubt on the argument?",
        "If the statements above are true, which shall be false on the basis of them?",
        "Based on the information given, which is the most inaccurate conclusion?",
        "Which of the following statements, if true, would weaken the argument presented?",
        "Given the information provided, which conclusions is least likely to be accurate?",
        "Assuming the statements above are accurate, which contradicts the argument?",
        "Which of the following, if true, would cast doubt on the validity of the argument?",
        "Considering the information provided, which statements is most likely to be false?",
        "Which of the following conclusions is least supported by the given information?",
        "If the above statements are accurate, which undermines the argument?",
        "Based on the given statements, which conclusions is least justified?",
        "Based on the statements provided, which options is least consistent with them?",
        "Based on the statements provided, which options is most inconsistent with them?",
        "Which logically contradicts to the information presented above?",
        "Taking into account the information above, which is the most implausible conclusion?",
        "If we assume the above statements to be true, which is a invalid inference?",
    ),
    "missing": (  # `qmp`, lines 94-108
        "Which one of the following, if true, most strongly supports the conclusion above?",
        "Which one of the following would it be most relevant to investigate in evaluating the conclusion in above?",
        "Which one of the following is the missing premise leading to the conclusion?",
        "Which one of the following, if true, most strengthens the argument?",
        "What is the critical assumption necessary for the conclusion to be valid?",
        "Which one of the following, when considered valid, would support the conclusion the greatest?",
        "What is the underlying assumption necessary to bridge the gap between the statements and the conclusion "
        "above?",
        "What is the missing premise, needed to justify the conclusion?",
        "What is the missing assumption that connects the statements to the conclusion?",
        "What essential assumption is required to validate the conclusion?",
        "What underlying premise must be present to uphold the conclusion?",
        "Among the following, which one, if accurate, would most effectively strengthen the conclusion drawn above?",
        "Determine the omitted premise that serves as a basis for the conclusion provided.",
    ),
}
"""The authors' question wordings per question type, verbatim (typos and the double space included): ILogicEval
`to_train_test_val.py` lists `qe` (lines 55-72), `qc` (73-91) and `qmp` (94-108), of which lines 112-123 draw the
`question` of a `3c1e`, `3e1c` and `missing_premise_*` instance. That script writes only `context, question, answers,
label, id_string` (lines 126-128), so in a file of that layout the wording is the only trace of the question type;
`authors_question_type` reads it back. They serve to recognise the authors' files, never as our prompts (ours are
`english.QUESTIONS`, rewritten: the authors' repository has no licence)."""


def _wording_key(text: str) -> str:
    """A wording compared up to case and runs of whitespace."""
    return " ".join(text.split()).casefold()


_TYPE_OF_WORDING: dict[str, str] = {_wording_key(q): t for t, qs in AUTHOR_QUESTIONS.items() for q in qs}


def authors_question_type(question: Any, at: str) -> str:
    """The question type of an authors' question wording (`AUTHOR_QUESTIONS`), compared up to case and whitespace.

    Raises:
        ValueError: Naming `at` and the wording, if it is none of the authors' wordings.
    """
    found = _TYPE_OF_WORDING.get(_wording_key(str(question)))
    if found is None:
        raise ValueError(
            f"{at}: {question!r} is none of the authors' question wordings (ILogicEval to_train_test_val.py lines "
            f"55-108: qe for 3c1e, qc for 3e1c, qmp for missing), and the record has no "
            f"{' or '.join(RELEASED_COLUMNS['question_type'])} column to name its question type"
        )
    return found


RELEASED_ID_COLUMN = "id_string"
"""The authors' instance id (`to_train_test_val.py` lines 42-44), used in our id when present."""

RELEASED_SYMBOLIC_COLUMNS: tuple[str, str] = ("exp", "optstmts")
"""The formulas of the content and of the options (`dataset_formation_3c1e_3e1c.py` line 715); s-ILogicEval is
made by showing them instead of `psg` / `opts` (`to_train_test_val.py` line 31)."""


def check_variant(variant: str) -> str:
    """Return `variant` if it names a file of the authors' release, else raise a ValueError listing the valid values."""
    return str(checked_choice("variant", variant, VARIANTS))


def is_released(dataset: str) -> bool:
    """Whether `dataset` is in the authors' released layout.

    That is a folder holding `polished.parquet` or `unpolished.parquet`, or the authors' Hub id (a Hub copy under
    another id is read as an lgmt repository: detecting it would take a network call).
    """
    path = Path(dataset)
    if path.is_dir():
        return any((path / f"{variant}.parquet").is_file() for variant in VARIANTS)
    return dataset.strip().lower() == RELEASED_REPO_ID.lower()


def read_released(dataset: str, variant: str, revision: str | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The records of one released file, and where they came from (for error messages).

    A local folder is read with pyarrow (offline); a Hub id with `datasets.load_dataset(id, split=variant)`, the
    card's `polished` / `unpolished` splits.

    Raises:
        ValueError: If the folder lacks the file of `variant`.
    """
    check_variant(variant)
    path = Path(dataset)
    if path.is_dir():
        file = path / f"{variant}.parquet"
        if not file.is_file():
            present = sorted(p.name for p in path.glob("*.parquet"))
            raise ValueError(
                f"variant={variant!r}: {file} does not exist (the released layout has "
                f"{', '.join(f'{v}.parquet' for v in VARIANTS)}; this folder has {', '.join(present) or 'none'})"
            )
        import pyarrow.parquet as pq

        return str(file), pq.read_table(file).to_pylist()
    import datasets

    rows = datasets.load_dataset(dataset, split=variant, revision=revision)
    return f"{dataset}@{revision or 'main'}:{variant}.parquet", [dict(r) for r in rows]


def _column(record: Mapping[str, Any], field: str, at: str) -> tuple[str, Any]:
    for name in RELEASED_COLUMNS[field]:
        if name in record and record[name] is not None:
            return name, record[name]
    raise ValueError(
        f"{at}: no {field} column (looked for {', '.join(RELEASED_COLUMNS[field])}); "
        f"the record has {', '.join(sorted(record))}"
    )


def released_question_type(label: Any, at: str) -> str:
    """Our question type of an authors' label (`3c1e`, `3e1c`, `missing_premise_...`).

    Raises:
        ValueError: Naming `at` and the allowed values, on anything else.
    """
    text = str(label)
    found = [t for t in QUESTION_TYPES if t in text]
    if len(found) != 1:
        raise ValueError(f"{at}: {text!r} is no question type; expected a label containing one of "
                         f"{', '.join(QUESTION_TYPES)}")  # fmt: skip
    return found[0]


def released_answer(value: Any, at: str) -> int:
    """The answer index of an authors' label: 0-3 (as a number or digit) or a letter A-D.

    Raises:
        ValueError: Naming `at` and the allowed values, on anything else.
    """
    text = str(value).strip()
    if text.upper() in LETTERS:
        return LETTERS.index(text.upper())
    if text.isdigit() and int(text) < len(LETTERS):
        return int(text)
    raise ValueError(f"{at}: {value!r} is no answer; expected 0-{len(LETTERS) - 1} or one of {', '.join(LETTERS)}")


def released_options(value: Any, at: str) -> list[str]:
    """The four option texts.

    Raises:
        ValueError: Naming `at`, unless `value` is a sequence of four strings.
    """
    options = list(value) if isinstance(value, Sequence) and not isinstance(value, str) else None
    if options is None or len(options) != len(LETTERS) or not all(isinstance(o, str) for o in options):
        raise ValueError(f"{at}: expected a list of {len(LETTERS)} option strings, got {value!r}")
    return options


def released_formulas(record: Mapping[str, Any]) -> tuple[list[str], list[str], str]:
    """The content, option and conclusion formulas of a released record, or empty ones when it has none.

    `exp` is the comma-separated premises, `|=` and the conclusion for a missing-premise instance
    (`dataset_formation_missing.py` line 186); it may have been stored as the text of a Python list, whose brackets
    and quotes the authors' code also strips before splitting (same file, line 19).
    """
    exp, optstmts = (record.get(name) for name in RELEASED_SYMBOLIC_COLUMNS)
    if exp is None or optstmts is None:
        return [], [], ""
    text = ",".join(exp) if isinstance(exp, Sequence) and not isinstance(exp, str) else str(exp)
    premises, _, conclusion = re.sub(r"[\[\]']", "", text).partition("|=")
    return [p.strip() for p in premises.split(",") if p.strip()], [str(o) for o in optstmts], conclusion.strip()


def _record_question_type(record: Mapping[str, Any], question: Any, at: str) -> str:
    """The question type from a `question_label` column, else from the authors' wording of the question."""
    for name in RELEASED_COLUMNS["question_type"]:
        if record.get(name) is not None:
            return released_question_type(record[name], f"{at}, column {name!r}")
    return authors_question_type(question, f"{at}, column 'question'")


def released_record_to_row(record: Mapping[str, Any], at: str, variant: str) -> dict[str, Any]:
    """One released record in our row shape.

    Args:
        record: The record, as read from the parquet file.
        at: The file and row, for error messages (`polished.parquet, row 3`).
        variant: `polished` or `unpolished` (part of the id).

    Raises:
        ValueError: Naming `at` and the column, if a field is missing or cannot be mapped.
    """
    content_column, content = _column(record, "content", at)
    _, question = _column(record, "question", at)
    options_column, options = _column(record, "options", at)
    answer_column, answer = _column(record, "answer", at)
    question_type = _record_question_type(record, question, at)
    options = released_options(options, f"{at}, column {options_column!r}")
    content_logic, options_logic, conclusion_logic = released_formulas(record)
    row: dict[str, Any] = {
        "question_type": question_type,
        "content": str(content),
        "question": str(question),
        "options": options,
        "answer": released_answer(answer, f"{at}, column {answer_column!r}"),
        "content_logic": content_logic,
        "options_logic": options_logic,
        "conclusion_logic": conclusion_logic,
        "source": variant,
    }
    if not row["content"].strip():
        raise ValueError(f"{at}, column {content_column!r}: empty content")
    key = record.get(RELEASED_ID_COLUMN)
    if not key:
        text = "\x1f".join([row["content"], row["question"], *options])
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    row["id"] = f"dle-{variant}-{key}"
    return row


def load_released_rows(dataset: str, variant: str = "polished", revision: str | None = None) -> datasets.Dataset:
    """The authors' released instances of one variant, in our row shape (ids made unique in file order).

    Raises:
        ValueError: If the file is missing, empty, or a record cannot be mapped (naming file, row and column).
    """
    origin, records = read_released(dataset, variant, revision)
    if not records:
        raise ValueError(f"{origin}: no records")
    rows = [released_record_to_row(r, f"{origin}, row {i}", variant) for i, r in enumerate(records)]
    seen: Counter[str] = Counter()
    for row in rows:
        seen[row["id"]] += 1
        if seen[row["id"]] > 1:
            row["id"] = f"{row['id']}-{seen[row['id']]}"
    import datasets

    return datasets.Dataset.from_list(rows)
