"""Rows for the DivLogicEval tasks: an on-the-fly build, a built repository, or the authors' released data.

The authors' release is `ttchungc/DivLogicEval` (`polished.parquet` / `unpolished.parquet`). Every source gives
rows of one shape (`id`, `question_type`, `content`, `question`, four `options`, `answer` index, and, where known,
the formulas `content_logic`, `options_logic`, `conclusion_logic`), so one solver and one scorer run them all.
`shown_row` then turns a row into what the model sees: the English (`form="natural"`) or the formulas in the
authors' notation (`form="symbolic"`, s-DivLogicEval of Table 7).
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

import datasets
from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import Build, Loaded, dataset_metadata, load_selected, rows_only, summary_line, where
from lgmt_tasks.builders.order import Strata, interleave
from lgmt_tasks.divlogiceval.build import DEFAULT_N, DEFAULT_PER_TYPE, QUESTION_TYPES, DivLogicEvalConfig
from lgmt_tasks.solvers.divlogiceval import LETTERS, checked_choice, rotation_prompts

QuestionTypeChoice = Literal["3c1e", "3e1c", "missing", "all"]
QUESTION_TYPE_CHOICES: tuple[str, ...] = get_args(QuestionTypeChoice)

FormChoice = Literal["natural", "symbolic"]
FORMS: tuple[str, ...] = get_args(FormChoice)
"""How an instance is shown: in English (DivLogicEval) or as formulas (s-DivLogicEval, Table 7)."""

VariantChoice = Literal["polished", "unpolished"]
VARIANTS: tuple[str, ...] = get_args(VariantChoice)
"""The two files of the authors' release: the human-post-edited test set (900) and the rest (§4.1)."""

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
(`dataset_formation_3c1e_3e1c.py` line 715); our own names are accepted too.
"""

RELEASED_ID_COLUMN = "id_string"
"""The authors' instance id (`to_train_test_val.py` lines 42-44), used in our id when present."""

RELEASED_SYMBOLIC_COLUMNS: tuple[str, str] = ("exp", "optstmts")
"""The formulas of the content and of the options (`dataset_formation_3c1e_3e1c.py` line 715); s-ILogicEval is
made by showing them instead of `psg` / `opts` (`to_train_test_val.py` line 31)."""

FORMULA = re.compile(r"[A-Z¬∧∨→()\s]+")
"""The characters of a propositional formula in the authors' notation and ours."""

STRATA = Strata(("question_type",))
"""Instances are ordered round-robin over their question type, so `--limit N` covers every type from N = 3."""


def selected_types(question_type: str) -> tuple[str, ...]:
    """The question types a `question_type` parameter selects.

    Raises:
        ValueError: Listing the valid values, on anything else.
    """
    if question_type not in QUESTION_TYPE_CHOICES:
        raise ValueError(f"question_type={question_type!r}: expected one of {', '.join(QUESTION_TYPE_CHOICES)}")
    return QUESTION_TYPES if question_type == "all" else (question_type,)


def check_form(form: str) -> str:
    """Return `form` if it is `natural` or `symbolic`, else raise a ValueError listing the valid values."""
    return str(checked_choice("form", form, FORMS))


def check_variant(variant: str) -> str:
    """Return `variant` if it names a file of the authors' release, else raise a ValueError listing the valid values."""
    return str(checked_choice("variant", variant, VARIANTS))


def build_config(
    per_type: int = DEFAULT_PER_TYPE, seed: int = 0, n: int = DEFAULT_N, pool: str | None = None, **pool_options: Any
) -> DivLogicEvalConfig:
    """The build config of the task parameters (a pool file path is made absolute, so the cache key is stable)."""
    if pool and Path(pool).exists():
        pool = str(Path(pool).resolve())
    return DivLogicEvalConfig(per_type=int(per_type), seed=int(seed), n=int(n), pool=pool, **pool_options)


# ------------------------------------------------------------------------------------------------ released data


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
    type_column, label = _column(record, "question_type", at)
    options = released_options(options, f"{at}, column {options_column!r}")
    content_logic, options_logic, conclusion_logic = released_formulas(record)
    row: dict[str, Any] = {
        "question_type": released_question_type(label, f"{at}, column {type_column!r}"),
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
    return datasets.Dataset.from_list(rows)


# ------------------------------------------------------------------------------------------------ selection


def load_divlogiceval(
    question_type: str = "all",
    per_type: int = DEFAULT_PER_TYPE,
    seed: int = 0,
    n: int = DEFAULT_N,
    pool: str | None = None,
    dataset: str | None = None,
    revision: str | None = None,
    variant: str = "polished",
) -> Loaded:
    """The instances of the selected question types, round-robin over types, and their metadata for the log.

    With `dataset` in the authors' released layout (`is_released`), its `variant` file is read. With any other
    `dataset` (a folder written by `lgmt build divlogiceval`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision`. In both cases the build parameters are ignored. Otherwise the instances
    are built for the parameters (cached on disk: the same parameters give the same bytes).

    Raises:
        ValueError: On an invalid parameter, or when no instance is left.
    """
    wanted = set(selected_types(question_type))
    check_variant(variant)
    selection = f"DivLogicEval instances of type {sorted(wanted)}"
    if dataset is not None and is_released(dataset):
        return load_released(dataset, variant, revision, wanted, selection)
    if variant != "polished":
        raise ValueError(
            f"variant={variant!r} applies only to the authors' released data (a folder with polished.parquet / "
            f"unpolished.parquet, or {RELEASED_REPO_ID}); dataset={dataset!r} is not in that layout"
        )

    def build() -> Build:
        from lgmt_tasks.divlogiceval.build import BUILD_REVISION, build_divlogiceval
        from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

        config = build_config(per_type, seed, n, pool)
        return Build(
            config.key(),
            lambda out: write_divlogiceval_repo(build_divlogiceval(config, progress=True), out),
            BUILD_REVISION,
        )

    return load_selected(
        "divlogiceval",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("question_type",), lambda t: t in wanted),
        selection=selection,
        strata=STRATA,
        expected=sorted(wanted),
        unit="instances",
    )


load_divlogiceval_rows = rows_only(load_divlogiceval)


def load_released(dataset: str, variant: str, revision: str | None, wanted: set[str], selection: str) -> Loaded:
    """The instances of the wanted types in one file of the authors' release, and their metadata for the log.

    The release has no build statistics or card of ours: the metadata names the file and fingerprints its bytes.

    Raises:
        ValueError: When no instance is left (or see `load_released_rows`).
    """
    rows = load_released_rows(dataset, variant, revision)
    total = len(rows)
    rows = rows.select(list(where(("question_type",), lambda t: t in wanted)(rows)))
    if len(rows) == 0:
        raise ValueError(f"no {selection} in the {variant} file of divlogiceval released data {dataset!r}")
    rows = interleave(rows, STRATA)
    source: dict[str, Any] = {"kind": "released", "dataset": dataset, "variant": variant, "revision": revision}
    file = Path(dataset) / f"{variant}.parquet"
    metadata = dataset_metadata("divlogiceval", source, None, total=total, kept=len(rows), selection=selection)
    if file.is_file():
        metadata["fingerprint"] = "sha256:" + hashlib.sha256(file.read_bytes()).hexdigest()
    per_type = Counter(rows["question_type"])
    metadata.update(strata=STRATA.name, per_stratum=dict(sorted(per_type.items())))
    print(f"lgmt_tasks: {summary_line('divlogiceval', metadata, 'instances')}", file=sys.stderr, flush=True)
    return Loaded(rows, metadata)


def shot_rows(
    *,
    exclude_ids: Sequence[str],
    per_type: int = DEFAULT_PER_TYPE,
    seed: int = 0,
    n: int = DEFAULT_N,
    pool: str | None = None,
    dataset: str | None = None,
    revision: str | None = None,
) -> list[dict[str, Any]]:
    """The three solved examples of three-shot prompting, one per question type (3c1e, 3e1c, missing).

    For the authors' released data they come from its unpolished file, as in §4.1: the first instance of each type
    not evaluated (the authors' `runtopllms.py` line 21 takes instance 0 of each type of their training split).
    Otherwise they are built from a seed stream disjoint from the evaluated instances (`build.build_shots`).

    Raises:
        ValueError: If the unpolished file lacks an instance of some type.
    """
    if dataset is not None and is_released(dataset):
        excluded = set(exclude_ids)
        rows = [dict(r) for r in load_released_rows(dataset, "unpolished", revision)]
        shots = []
        for question_type in QUESTION_TYPES:
            found = next((r for r in rows if r["question_type"] == question_type and r["id"] not in excluded), None)
            if found is None:
                raise ValueError(f"shots=3: the unpolished file of {dataset!r} has no {question_type} instance to show")
            shots.append(found)
        return shots
    from lgmt_tasks.divlogiceval.build import build_shots

    return build_shots(build_config(per_type, seed, n, pool), exclude_ids=exclude_ids)


# ------------------------------------------------------------------------------------------------ what is shown


def symbolic_formula(formula: str) -> str:
    """A formula in the authors' notation: no spaces, a compound formula wrapped in one pair of parentheses.

    As in `(¬(A∧B)→C)`, `((A∨B)→C)`, `¬F` (ILogicEval `make_expression.py` lines 48-56 and 103-106).
    """
    compact = re.sub(r"\s+", "", formula)
    if re.fullmatch(r"¬?[A-Z]", compact) or _wrapped(compact):
        return compact
    return f"({compact})"


def _wrapped(formula: str) -> bool:
    if not formula.startswith("("):
        return False
    depth = 0
    for i, char in enumerate(formula):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return i == len(formula) - 1
    return False


def symbolic_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row as s-DivLogicEval shows it: the content and options as formulas, the question wording unchanged.

    The content is the premises joined by commas, then `|=` and the conclusion for a missing-premise instance, as
    the authors' s-ILogicEval context (`dataset_formation_missing.py` line 186); the English stays under
    `content_natural` / `options_natural`.

    Raises:
        ValueError: Naming the instance and the column, if it has no formulas or one is not a formula.
    """
    premises = list(row.get("content_logic") or [])
    options = list(row.get("options_logic") or [])
    conclusion = str(row.get("conclusion_logic") or "")
    if not premises or len(options) != len(LETTERS):
        raise ValueError(
            f"form='symbolic': instance {row.get('id')!r} has no formulas (columns content_logic / options_logic of "
            f"an lgmt build, or {' / '.join(RELEASED_SYMBOLIC_COLUMNS)} of the authors' data); use form='natural'"
        )
    for column, formulas in (
        ("content_logic", premises),
        ("options_logic", options),
        ("conclusion_logic", [conclusion]),
    ):
        bad = [f for f in formulas if f and not FORMULA.fullmatch(f)]
        if bad:
            raise ValueError(
                f"form='symbolic': instance {row.get('id')!r}, column {column!r}: {bad[0]!r} is no formula"
            )
    content = ",".join(symbolic_formula(p) for p in premises)
    if conclusion:
        content += "|=" + symbolic_formula(conclusion)
    shown = dict(row)
    shown.update(
        content=content,
        options=[symbolic_formula(o) for o in options],
        content_natural=row["content"],
        options_natural=list(row["options"]),
    )
    return shown


def shown_row(row: Mapping[str, Any], form: str = "natural") -> dict[str, Any]:
    """The row with the `content` and `options` the model is shown in `form` (`natural`: unchanged).

    Raises:
        ValueError: On an invalid form, or (symbolic) an instance without formulas.
    """
    return symbolic_row(row) if check_form(form) == "symbolic" else dict(row)


def record_to_sample(
    record: Mapping[str, Any], shots: Sequence[Mapping[str, Any]] = (), instruction: str = "standard"
) -> Sample:
    """One instance → one Sample: the original-order prompt as input, all four rotation prompts in metadata.

    Args:
        record: A DivLogicEval row, in the form to show (`shown_row`).
        shots: Solved examples for three-shot prompting (none for zero-shot), in the same form.
        instruction: `standard` (Appendix I) or `no_reasoning` (§3.1, NoLR).

    Returns:
        The sample; its target is the gold letter in the original order.
    """
    members = rotation_prompts(record, shots, instruction)
    metadata = {k: v for k, v in record.items() if k not in ("id", "answer")}
    metadata["members"] = members
    metadata["gold_index"] = int(record["answer"])
    return Sample(id=record["id"], input=members[0], target=LETTERS[int(record["answer"])], metadata=metadata)
