"""`LexicalConfig`: everything that determines a lexical (LLMorph) build, and the one list of its dataset parameters.

Each field carries its `Param` (`lgmt_tasks.builders.schema`): the `lgmt build lexical` options, the card's reproduce
command, the task's and lm-eval's parameters and the README's parameter table are all derived from it. The source is
one `--source [--source-path]` pair, written together (`source_args`); `--transformer-model` sets `transformer` only
when LLM-based relations are selected (`lexical.cli`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import click

from lgmt_tasks.builders.command import source_args
from lgmt_tasks.builders.schema import (
    DATASET,
    GENERATED_CASES,
    REVISION,
    SEED,
    SOURCE,
    SOURCE_PATH,
    TIMEOUT_MS,
    SuiteSchema,
    no_args,
    param,
    selection,
)
from lgmt_tasks.lexical.catalogue import DEFAULT_STYLE, FUNCTION_BASED, LEXICAL_RELATIONS, PARTS, STYLES, resolve_mrs
from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS
from lgmt_tasks.vocabulary import SOURCES

if TYPE_CHECKING:
    from lgmt_tasks.sources.pipeline import SourceConfig


def parse_mrs(values: str | Sequence[str]) -> tuple[str, ...]:
    """`--mr` values (ids, comma-separated lists, or `function` / `llm` / `all`) → relation ids in catalogue order.

    Raises:
        click.BadParameter: On an unknown id or an empty selection.
    """
    try:
        return resolve_mrs(values if isinstance(values, str) else list(values))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--mr") from exc


@dataclass(frozen=True)
class LexicalConfig:
    """Everything that determines a lexical build (and so its cache key); see each field's `Param`.

    `mrs` are relation ids (Table II) and `parts` the parts to transform (MR-49 always has the single part `none`).
    `transformer` is the model that made the LLM-based follow-ups (set by the build, for the card and the cache key;
    None when LLM rows are left pending). The source stage is LGMT's: the same seed and source give the same source
    cases (`source_config`).
    """

    source: str = param("generated", SOURCE, choices=SOURCES, always=True, args=source_args)
    source_path: str | None = param(None, SOURCE_PATH, cli_type=click.Path(exists=True), args=no_args)
    mrs: tuple[str, ...] = param(
        FUNCTION_BASED, name="mr", flags=("--mr",), many="repeat", parse=parse_mrs, task_default="function",
        default_text="function",
        help="Relation ids (repeatable or comma-separated), e.g. MR-126, or `function` / `llm` / `all`; the "
        "function-based relations when none given.",
    )  # fmt: skip
    parts: tuple[str, ...] = param(
        PARTS, name="part", flags=("--part",), many="repeat", choices=PARTS, task_default="all",
        help="Parts to transform, each its own variant (several comma-separated at the task, or `all`); all three "
        "when none given. MR-49 has the single part `none` and comes with any part.",
    )  # fmt: skip
    per_mr: int = param(100, help="Groups per relation and part.")
    generated_cases: int = param(300, GENERATED_CASES)
    timeout_ms: int = param(DEFAULT_TIMEOUT_MS, TIMEOUT_MS)
    style: str = param(
        DEFAULT_STYLE, choices=STYLES,
        help="Function-based transformations: LLMorph's own algorithms, or ours (changes drawn only among the "
        "characters a relation can change).",
    )  # fmt: skip
    transformer: str | None = param(
        None, name="transformer_model", flags=("--transformer-model",), task=False,
        help="Inspect model that writes the LLM-based follow-ups (needed for every relation of `--mr llm`); without "
        "it the task makes them at eval time (`-T transformer_model=`).",
    )  # fmt: skip
    seed: int = param(0, SEED)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mrs", tuple(self.mrs))
        object.__setattr__(self, "parts", tuple(self.parts))
        self.source_config()  # validates the source and its path
        unknown = [m for m in self.mrs if m not in LEXICAL_RELATIONS]
        if unknown or not self.mrs:
            raise ValueError(f"mrs={list(self.mrs)}: expected one or more of {', '.join(LEXICAL_RELATIONS)}")
        bad_parts = [p for p in self.parts if p not in PARTS]
        if bad_parts or not self.parts:
            raise ValueError(f"parts={list(self.parts)}: expected one or more of {', '.join(PARTS)}")
        if self.per_mr < 1:
            raise ValueError(f"per_mr={self.per_mr}: must be at least 1")
        if self.style not in STYLES:
            raise ValueError(f"style={self.style!r}: expected one of {', '.join(STYLES)}")

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card)."""
        return asdict(self)

    def llm_relations(self) -> tuple[str, ...]:
        """The selected LLM-based relations (their follow-ups need a transformer model)."""
        return tuple(m for m in self.mrs if LEXICAL_RELATIONS[m].kind == "llm")

    def source_config(self) -> SourceConfig:
        """Where this build's source cases come from: the same loader, seed and prover limit as LGMT's."""
        from lgmt_tasks.sources.pipeline import SourceConfig  # the source stage imports datasets: only when used

        return SourceConfig(self.source, self.source_path, self.seed, self.generated_cases, self.timeout_ms)


SCHEMA = SuiteSchema(
    "lexical",
    LexicalConfig,
    loader=(selection("dataset", None, DATASET), selection("revision", None, REVISION)),
)
"""The lexical suite's dataset parameters. `prompting`, `output`, `transformer_model` and the similarity parameters
are the task's own (prompting and scoring), not the data's."""
