"""Rows for the DivLogicEval tasks: an on-the-fly build, a built repository, or the authors' released data.

The authors' release is `ttchungc/DivLogicEval` (`polished.parquet` / `unpolished.parquet`), read by `released.py`.
Every source gives rows of one shape (`id`, `question_type`, `content`, `question`, four `options`, `answer` index,
and, where known, the formulas `content_logic`, `options_logic`, `conclusion_logic`), so one solver and one scorer
run them all. `shown_row` then turns a row into what the model sees: the English (`form="natural"`) or the formulas
in the authors' notation (`form="symbolic"`, s-DivLogicEval of Table 7).
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import (
    BuildRecipe,
    Loaded,
    dataset_metadata,
    given_build_parameters,
    load_selected,
    rows_only,
    summary_line,
    where,
)
from lgmt_tasks.builders.order import Strata, interleave
from lgmt_tasks.divlogiceval.config import (
    DEFAULT_N,
    DEFAULT_PER_TYPE,
    FORMS,
    QUESTION_TYPE_CHOICES,
    QUESTION_TYPES,
    SCHEMA,
    DivLogicEvalConfig,
)
from lgmt_tasks.divlogiceval.released import (
    RELEASED_REPO_ID,
    RELEASED_SYMBOLIC_COLUMNS,
    check_variant,
    is_released,
    load_released_rows,
)
from lgmt_tasks.solvers.divlogiceval import LETTERS, checked_choice, rotation_prompts

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


def build_config(
    per_type: int = DEFAULT_PER_TYPE, seed: int = 0, n: int = DEFAULT_N, pool: str | None = None, **pool_options: Any
) -> DivLogicEvalConfig:
    """The build config of the task parameters (a pool file path is made absolute, so the cache key is stable)."""
    if pool and Path(pool).exists():
        pool = str(Path(pool).resolve())
    return DivLogicEvalConfig(per_type=int(per_type), seed=int(seed), n=int(n), pool=pool, **pool_options)


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
    form: str = "natural",
    *,
    used_elsewhere: Collection[str] = (),
) -> Loaded:
    """The instances of the selected question types, round-robin over types, and their metadata for the log.

    With `dataset` in the authors' released layout (`is_released`), its `variant` file is read. With any other
    `dataset` (a folder written by `lgmt build divlogiceval`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision`. In both cases the build parameters are ignored. Otherwise the instances
    are built for the parameters (cached on disk: the same parameters give the same bytes).

    The rows are in the `form` the model is shown (`shown_row`): with `symbolic`, `content` and `options` are the
    formulas (the English under `content_natural` / `options_natural`). With a built `dataset`, the build parameters
    given (other than those in `used_elsewhere`: the task's shots use them) are named once as without effect.

    Raises:
        ValueError: On an invalid parameter, or when no instance is left.
    """
    wanted = set(selected_types(question_type))
    check_variant(variant)
    check_form(form)
    selection = f"DivLogicEval instances of type {sorted(wanted)}"
    if dataset is not None and is_released(dataset):
        return shown_rows(load_released(dataset, variant, revision, wanted, selection), form)
    if variant != "polished":
        raise ValueError(
            f"variant={variant!r} applies only to the authors' released data (a folder with polished.parquet / "
            f"unpolished.parquet, or {RELEASED_REPO_ID}); dataset={dataset!r} is not in that layout"
        )

    def build() -> BuildRecipe:
        from lgmt_tasks.divlogiceval.build import BUILD_REVISION, build_divlogiceval
        from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

        config = build_config(per_type, seed, n, pool)
        return BuildRecipe(
            config.key(),
            lambda out: write_divlogiceval_repo(build_divlogiceval(config, progress=True), out),
            BUILD_REVISION,
        )

    loaded = load_selected(
        "divlogiceval",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("question_type",), lambda t: t in wanted),
        selection=selection,
        strata=STRATA,
        expected=sorted(wanted),
        unit="instances",
        build_only=given_build_parameters(
            {
                k: v
                for k, v in {"per_type": per_type, "seed": seed, "n": n, "pool": pool}.items()
                if k not in used_elsewhere
            },
            SCHEMA.task_defaults(),
            SCHEMA.lm_eval_defaults(),
        ),
    )
    return shown_rows(loaded, form)


load_divlogiceval_rows = rows_only(load_divlogiceval)


def shown_rows(loaded: Loaded, form: str) -> Loaded:
    """The loaded rows in `form` (`shown_row`; `natural`: unchanged), with the same metadata."""
    if form == "natural":
        return loaded
    import datasets

    return Loaded(datasets.Dataset.from_list([shown_row(dict(r), form) for r in loaded.rows]), loaded.metadata)


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
