"""`QmfolConfig`: everything that determines a QMFOL build, and the one list of its dataset parameters.

Each field carries its `Param` (`lgmt_tasks.builders.schema`): the `lgmt build qmfol` options, the card's reproduce
command, the task's and lm-eval's parameters and the README's parameter table are all derived from it.

The grid parameters have two defaults on purpose: `lgmt build qmfol` builds the paper's grid (2,880 tasks), while the
task and lm-eval, which build on first use, default to a 96-task grid (`TASK_DEPTHS`, ...) that builds in seconds;
given a `dataset`, they keep every row whose values were not restricted.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from lgmt_tasks.builders.schema import (
    DATASET,
    REVISION,
    SEED,
    TIMEOUT_MS,
    TRANSLATION_ATTEMPTS,
    TRANSLATOR,
    TRANSLATOR_MODEL,
    Param,
    SuiteSchema,
    param,
    selection,
)
from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS
from lgmt_tasks.qmfol.construction import DEFAULT_FORM, FORMS, LABELS, check_form, predicate_count
from lgmt_tasks.qmfol.english import MIN_PHRASES, TOPICS

PAPER_DEPTHS: tuple[int, ...] = (5, 10, 15, 20)
PAPER_WIDTHS: tuple[int, ...] = (5, 10, 15, 20)
PAPER_DISTRACTORS: tuple[int, ...] = (0, 5, 10, 15, 20)
PAPER_SEEDS = 3
"""The paper's grid (§3.3): 4 depths × 4 widths × 5 distractor levels × 3 labels × 4 topics × 3 seeds = 2,880."""

TASK_DEPTHS: tuple[int, ...] = (5, 10)
TASK_WIDTHS: tuple[int, ...] = (5, 10)
TASK_DISTRACTORS: tuple[int, ...] = (0, 10)
"""The default on-the-fly grid of the task: 2 depths × 2 widths × 2 distractor levels × 3 labels × 4 topics × one
seed = 96 tasks, built in about two seconds. The paper's full grid is `lgmt build qmfol` (2,880 tasks); pass its
folder as `-T dataset=...`, or ask for more with `-T depth=[5,10,15,20] -T per_config=3`."""

TRANSLATORS: tuple[str, ...] = ("template", "model")

ROUND_TRIPS: tuple[str, ...] = ("sentence", "label", "both")
"""The round-trip checks of a model translation (`lgmt_tasks.qmfol.translate`)."""

ON_THE_FLY = "When a task or lm-eval builds (no `dataset`), the default is {}; with a `dataset`, every value."


def _ints(name: str, values: Iterable[int], minimum: int) -> tuple[int, ...]:
    out = tuple(sorted(set(int(v) for v in values)))
    if not out:
        raise ValueError(f"{name}: at least one value is needed")
    bad = [v for v in out if v < minimum]
    if bad:
        raise ValueError(f"{name}={bad}: every value must be at least {minimum}")
    return out


def _choices(name: str, values: Iterable[str], valid: Sequence[str]) -> tuple[str, ...]:
    given = set(values)
    unknown = sorted(given - set(valid))
    if unknown:
        raise ValueError(f"{name}: unknown value(s) {unknown}; expected among {', '.join(valid)}")
    if not given:
        raise ValueError(f"{name}: at least one value is needed")
    return tuple(v for v in valid if v in given)


def _grid(default: tuple[Any, ...], task: tuple[Any, ...] | None, help: str, **attributes: Any) -> Any:
    """A grid field: one or more values (`--depth 5 10`, `-T depth=[5,10]`), None at the task meaning its default."""
    why = ON_THE_FLY.format(",".join(map(str, task))) if task else ""
    return param(default, help=help, many="spread", task_default=None, why=why, **attributes)


@dataclass(frozen=True)
class QmfolConfig:
    """Everything that determines a QMFOL build (and so its cache key). The grid is the product of the tuples.

    Values are normalised when the config is made (sorted, duplicates dropped; labels and topics in the paper's
    order), so equal grids have equal keys. See each field's `Param` for what it sets.
    """

    depths: tuple[int, ...] = _grid(
        PAPER_DEPTHS, TASK_DEPTHS, "Reasoning depths D (the paper: 5 10 15 20).", name="depth"
    )
    widths: tuple[int, ...] = _grid(
        PAPER_WIDTHS, TASK_WIDTHS, "Reasoning widths W (the paper: 5 10 15 20).", name="width"
    )
    distractors: tuple[int, ...] = _grid(
        PAPER_DISTRACTORS, TASK_DISTRACTORS, "Distractor rule counts (the paper: 0 5 10 15 20)."
    )
    labels: tuple[str, ...] = _grid(LABELS, None, "Gold labels.", name="label", choices=LABELS)
    topics: tuple[str, ...] = _grid(TOPICS, None, "Topics.", name="topic", choices=TOPICS)
    seeds: int = param(
        PAPER_SEEDS, name="per_config", flags=("--per-config", "--seeds"), task_default=None,
        help="Seeds per configuration (task seeds seed … seed + per_config − 1; the paper: 3). --seeds is its "
        "former flag.", why="A task or lm-eval build makes one seed per configuration.",
        cli_type=None,
    )  # fmt: skip
    form: str = param(
        DEFAULT_FORM, choices=FORMS, task_default=None,
        help="Facts and conclusion over every entity (∀/∃, the paper's default) or about one object constant; with "
        "a `dataset`, selects the rows of that form.",
    )  # fmt: skip
    translator: str = param("template", TRANSLATOR, task=False)
    translator_model: str | None = param(None, TRANSLATOR_MODEL)
    max_attempts: int = param(
        3, TRANSLATION_ATTEMPTS, name="translation_attempts", flags=("--translation-attempts", "--max-attempts")
    )
    round_trip: str = param(
        "sentence", choices=ROUND_TRIPS, task=False,
        help="How a model translation is accepted (--translator model): every sentence proven equivalent, the "
        "back-translated task's label (the paper's check; Z3, then E), or both.",
    )  # fmt: skip
    timeout_ms: int = param(DEFAULT_TIMEOUT_MS, TIMEOUT_MS)
    seed: int = param(0, SEED, always=False, task_default=None, help="First task seed.")

    def __post_init__(self) -> None:
        object.__setattr__(self, "depths", _ints("depths", self.depths, 1))
        object.__setattr__(self, "widths", _ints("widths", self.widths, 0))
        object.__setattr__(self, "distractors", _ints("distractors", self.distractors, 0))
        object.__setattr__(self, "labels", _choices("labels", self.labels, LABELS))
        object.__setattr__(self, "topics", _choices("topics", self.topics, TOPICS))
        if self.seeds < 1:
            raise ValueError(f"seeds={self.seeds}: must be at least 1")
        if self.seed < 0:
            raise ValueError(f"seed={self.seed}: must be at least 0")
        check_form(self.form)
        if self.translator not in TRANSLATORS:
            raise ValueError(f"translator={self.translator!r}: expected one of {', '.join(TRANSLATORS)}")
        if self.translator == "model" and not self.translator_model:
            raise ValueError("translator='model' needs translator_model (an Inspect model name)")
        if self.translator == "template" and self.translator_model:
            raise ValueError("translator_model is only used with translator='model'")
        if self.round_trip not in ROUND_TRIPS:
            raise ValueError(f"round_trip={self.round_trip!r}: expected one of {', '.join(ROUND_TRIPS)}")
        if self.translator == "template" and self.round_trip != "sentence":
            raise ValueError("round_trip is only used with translator='model' (templates are read back exactly)")
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts={self.max_attempts}: must be at least 1")
        needed = predicate_count(max(self.depths), max(self.widths), max(self.distractors))
        if needed > MIN_PHRASES:
            raise ValueError(
                f"depth {max(self.depths)}, width {max(self.widths)} and {max(self.distractors)} distractors may "
                f"need {needed} predicates, but a topic is only guaranteed {MIN_PHRASES} phrases "
                "(depth + width + 1 + 4 × distractors must stay within that)"
            )

    @property
    def seed_values(self) -> tuple[int, ...]:
        """The task seeds."""
        return tuple(range(self.seed, self.seed + self.seeds))

    def logical_grid(self) -> list[tuple[int, int, int, str, int]]:
        """Every (depth, width, seed, label, distractors) of the grid: one logical task each."""
        return list(itertools.product(self.depths, self.widths, self.seed_values, self.labels, self.distractors))

    def size(self) -> int:
        """The number of tasks the grid asks for."""
        return len(self.logical_grid()) * len(self.topics)

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card)."""
        return asdict(self)


SCHEMA = SuiteSchema(
    "qmfol",
    QmfolConfig,
    loader=(
        selection(
            "padding_tokens", 0,
            Param("Neutral filler words appended after the premises (the length ablation of §4.2.2; only for tasks "
                  "without distractors)."),
        ),
        selection("dataset", None, DATASET),
        selection("revision", None, REVISION),
    ),
)  # fmt: skip
"""QMFOL's dataset parameters."""
