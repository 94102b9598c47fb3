"""`DivLogicEvalConfig`: everything that determines a DivLogicEval build, and the one list of its dataset parameters.

Each field carries its `Param` (`lgmt_tasks.builders.schema`): the `lgmt build divlogiceval` options, the card's
reproduce command, the task's and lm-eval's parameters and the README's parameter table are all derived from it.
The loader-only parameters (`question_type`, `form`, `dataset`, `variant`, `revision`) choose or show rows of a
build or a dataset; their value lists are declared here too, so that this light module (no `datasets`, no Inspect)
is the one place they are written.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from lgmt_tasks.builders.schema import (
    DATASET,
    GENERATION_ATTEMPTS,
    REVISION,
    SEED,
    TIMEOUT_MS,
    Param,
    SuiteSchema,
    param,
    selection,
)
from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS  # not `prover`: Z3 stays unloaded (see limits)

QuestionType = Literal["3c1e", "3e1c", "missing"]
QUESTION_TYPES: tuple[str, ...] = get_args(QuestionType)
"""The three question types of §2.1, in the paper's order."""

QuestionTypeChoice = Literal[QuestionType, "all"]
QUESTION_TYPE_CHOICES: tuple[str, ...] = get_args(QuestionTypeChoice)
"""What the `question_type` parameter accepts: one question type, or `all`."""

FormChoice = Literal["natural", "symbolic"]
FORMS: tuple[str, ...] = get_args(FormChoice)
"""How an instance is shown: in English (DivLogicEval) or as formulas (s-DivLogicEval, Table 7)."""

VariantChoice = Literal["polished", "unpolished"]
VARIANTS: tuple[str, ...] = get_args(VariantChoice)
"""The two files of the authors' release: the human-post-edited test set (900) and the rest (§4.1)."""

DEFAULT_PER_TYPE = 300
"""Instances per question type of the default build: the paper's 900 questions, 300 per type (§3.2)."""

DEFAULT_N = 3
"""The paper's n (2..n + 1 propositions, at most n occurrences of a variable); the paper does not state its value."""


@dataclass(frozen=True)
class DivLogicEvalConfig:
    """Everything that determines a DivLogicEval build (and so its cache key); see each field's `Param`.

    `pool` is None (the default, `snli+coco`), `snli` (SNLI premises and hypotheses, as the paper uses), `snli+coco`
    (with COCO captions added), `frames` (our generated frame pool;
    `builtin` is its earlier name), a `.txt` / `.jsonl` file, or a dataset folder or Hub id; `pool_column`,
    `pool_negation_column` and `pool_split` say where a JSONL or dataset pool keeps its sentences.
    """

    per_type: int = param(
        DEFAULT_PER_TYPE, help="Instances per question type (the paper: 300).", always=True,
    )  # fmt: skip
    n: int = param(DEFAULT_N, help="The paper's n: 2..n+1 propositions per instance, at most n uses of a variable.")
    pool: str | None = param(
        None, help="Sentence pool: `snli+coco` (the default: SNLI premises and hypotheses and COCO captions, CC BY-SA "
        "4.0), `snli` (SNLI only), `frames` (our generated sentences; alias `builtin`), a .txt / .jsonl file, or a "
        "dataset folder / Hub id with a `sentence` column."
    )  # fmt: skip
    pool_column: str = param("sentence", task=False, help="Sentence column of a JSONL / dataset pool.")
    pool_negation_column: str | None = param(
        "negation", task=False, help="Negation column, used when present (else negations are made by rule)."
    )
    pool_split: str = param("train", task=False, help="Split of a dataset pool.")
    max_attempts: int = param(
        1000, GENERATION_ATTEMPTS, help="Contents drawn per instance before it is given up (each draw its own seed)."
    )
    timeout_ms: int = param(DEFAULT_TIMEOUT_MS, TIMEOUT_MS)
    seed: int = param(0, SEED)

    def __post_init__(self) -> None:
        if self.per_type < 1:
            raise ValueError(f"per_type={self.per_type}: must be at least 1")
        if not 2 <= self.n <= 6:
            raise ValueError(f"n={self.n}: expected 2..6 (eight variables cannot fill more propositions)")
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts={self.max_attempts}: must be at least 1")

    def key(self) -> dict[str, Any]:
        """The config as plain data, with a digest of a pool file's content (so an edited pool rebuilds)."""
        key = asdict(self)
        if self.pool and Path(self.pool).is_file():
            key["pool_sha256"] = hashlib.sha256(Path(self.pool).read_bytes()).hexdigest()
        return key


SCHEMA = SuiteSchema(
    "divlogiceval",
    DivLogicEvalConfig,
    loader=(
        selection("question_type", "all", Param("The question types to evaluate.", choices=QUESTION_TYPE_CHOICES)),
        selection(
            "form", "natural",
            Param("How an instance is shown: in English, or its content, conclusion and options as formulas in the "
                  "authors' notation (s-DivLogicEval, Table 7; the question wording stays).", choices=FORMS),
        ),
        selection(
            "dataset", None,
            DATASET.but(help=DATASET.help + " The authors' released data is read too: `ttchungc/DivLogicEval`, or a "
                        "folder holding its polished.parquet / unpolished.parquet."),
        ),
        selection(
            "variant", "polished",
            Param("Which file of the authors' released data to evaluate: `polished` (the paper's 900-question test "
                  "set) or `unpolished`.", choices=VARIANTS),
        ),
        selection("revision", None, REVISION),
    ),
)  # fmt: skip
"""DivLogicEval's dataset parameters. `shots`, `alpha` and `instruction` are the task's own (prompting, scoring)."""
