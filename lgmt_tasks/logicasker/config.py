"""`LogicAskerConfig`: everything that determines a LogicAsker build, and the one list of its dataset parameters.

Each field carries its `Param` (`lgmt_tasks.builders.schema`): the `lgmt build logicasker` options, the card's
reproduce command, the task's and lm-eval's parameters and the README's parameter table are all derived from it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from lgmt_tasks.builders.schema import (
    DATASET,
    GENERATION_ATTEMPTS,
    REVISION,
    SEED,
    TIMEOUT_MS,
    SuiteSchema,
    param,
    selection,
)
from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS  # not `prover`: Z3 stays unloaded (see limits)
from lgmt_tasks.logicasker.catalogue import CATEGORIES, LOGICS, Skill, select

MAX_LENGTH = 7
"""The longest inference chain (LogicAsker's generator composes up to seven rule applications)."""

DEFAULT_PER_SKILL = 4
"""Tests per skill and length by default: two yes, two no (one contradiction and one unrelated, or two fallacies).

Small on purpose: 92 skills × 4 = 368 tests build on the fly in well under a minute. The paper used n = 10 per leaf.
"""


def parse_lengths(value: int | str | Sequence[int]) -> tuple[int, ...]:
    """Read chain lengths: `3`, `"1..7"`, `"1-7"`, `"1,3,5,7"` or a sequence of ints.

    Raises:
        ValueError: On anything else, or a length outside 1..MAX_LENGTH.
    """
    if isinstance(value, int):
        lengths: list[int] = [value]
    elif isinstance(value, str):
        lengths = []
        for part in (p.strip() for p in value.split(",") if p.strip()):
            span = re.fullmatch(r"(\d+)\s*(?:\.\.|-)\s*(\d+)", part)
            if span:
                lengths.extend(range(int(span.group(1)), int(span.group(2)) + 1))
            elif part.isdigit():
                lengths.append(int(part))
            else:
                raise ValueError(f"length={value!r}: expected e.g. 1, 1..7, 1-7 or 1,3,5,7")
    else:
        lengths = [int(v) for v in value]
    bad = [n for n in lengths if not 1 <= n <= MAX_LENGTH]
    if not lengths or bad:
        raise ValueError(f"length={value!r}: lengths must be between 1 and {MAX_LENGTH}")
    return tuple(sorted(set(lengths)))


def show_lengths(lengths: Sequence[int]) -> str:
    """Chain lengths as `parse_lengths` reads them back: `1..7` for a run, else `1,3,5`."""
    contiguous = list(lengths) == list(range(lengths[0], lengths[-1] + 1))
    return f"{lengths[0]}..{lengths[-1]}" if contiguous and len(lengths) > 1 else ",".join(map(str, lengths))


@dataclass(frozen=True)
class LogicAskerConfig:
    """Everything that determines a LogicAsker build (and so its cache key); see each field's `Param`."""

    logic: tuple[str, ...] = param(
        (),
        help="Logics to include (propositional, predicate); all when none given.",
        choices=LOGICS,
        many="repeat",
        task_default=None,
    )
    category: tuple[str, ...] = param(
        (), help="Rule categories to include (inference, equivalence, fallacy); all when none given.",
        choices=CATEGORIES, many="repeat", task_default=None,
    )  # fmt: skip
    rules: tuple[str, ...] = param(
        (), name="rule", help="Rules to include, by name, id or alias (e.g. 'modus ponens'); all when none given.",
        many="repeat", task_default=None,
    )  # fmt: skip
    lengths: tuple[int, ...] = param(
        (1,), name="length", help="Chain lengths: 3, 1..7 or 1,3,5,7.", many="comma", always=True,
        parse=parse_lengths, show=show_lengths, cli_type=str, task_default=None,
        why="A task or lm-eval build makes length 1 when none is given; with a `dataset`, every length.",
    )  # fmt: skip
    per_skill: int = param(DEFAULT_PER_SKILL, help="Tests per skill and length.", always=True)
    balanced: bool = param(
        True, help="Equal yes and no per skill and length; `--unbalanced` draws problem types uniformly (the paper).",
        flags=("--unbalanced",), switch=True, task=False,
    )  # fmt: skip
    attempts: int = param(30, GENERATION_ATTEMPTS)
    timeout_ms: int = param(DEFAULT_TIMEOUT_MS, TIMEOUT_MS)
    seed: int = param(0, SEED)

    def __post_init__(self) -> None:
        object.__setattr__(self, "logic", tuple(sorted(set(self.logic))))
        object.__setattr__(self, "category", tuple(sorted(set(self.category))))
        object.__setattr__(self, "lengths", parse_lengths(self.lengths))
        skills = select(self.logic or None, self.category or None, self.rules or None)  # validates every filter
        if self.rules:
            object.__setattr__(self, "rules", tuple(sorted({s.id for s in select(rule=self.rules)})))
        if not skills:
            raise ValueError(f"no skill matches logic={self.logic}, category={self.category}, rules={self.rules}")
        if self.per_skill < 1:
            raise ValueError(f"per_skill={self.per_skill}: must be at least 1")
        if self.attempts < 1:
            raise ValueError(f"attempts={self.attempts}: must be at least 1")

    def skills(self) -> tuple[Skill, ...]:
        """The selected skills, in catalogue order."""
        return select(self.logic or None, self.category or None, self.rules or None)

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card)."""
        return asdict(self)


SCHEMA = SuiteSchema(
    "logicasker",
    LogicAskerConfig,
    loader=(selection("dataset", None, DATASET), selection("revision", None, REVISION)),
)
"""LogicAsker's dataset parameters. With `dataset`, `logic`, `category`, `rule` and `length` select its rows."""
