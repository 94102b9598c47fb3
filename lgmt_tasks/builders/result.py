"""`Build[Config]`: what every suite's builder returns, its rows, their statistics and the config that made them.

One generic class instead of five identical dataclasses (`LgmtBuild`, `QmfolBuild`, ...): the card writers, the
shipped-build manifest and the CLI summaries read the same three attributes of every suite's build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from lgmt_tasks.builders.stats import BuildStats

if TYPE_CHECKING:
    import datasets

ConfigT = TypeVar("ConfigT")


@dataclass
class Build(Generic[ConfigT]):
    """A finished build.

    Attributes:
        dataset: The rows (one split).
        stats: What was generated, dropped and why.
        config: The build config (a suite's `<Suite>Config`).
    """

    dataset: datasets.Dataset
    stats: BuildStats
    config: ConfigT
