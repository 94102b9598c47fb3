"""Builds shared by the LogicAsker tests (built once per session: building proves every answer, which takes time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgmt_tasks.logicasker.build import LogicAskerBuild, build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.config import LogicAskerConfig

SMALL_RULES = ("modus ponens", "universal modus tollens", "affirming the consequent", "quantifier negation")
"""Two propositional and two predicate skills, one of them a fallacy: the scripted end-to-end runs use these."""


@pytest.fixture(scope="session")
def default_build() -> LogicAskerBuild:
    """The default build (every skill, length 1, four tests per skill): what the task builds with no parameters."""
    return build_logicasker(LogicAskerConfig())


@pytest.fixture(scope="session")
def small_config() -> LogicAskerConfig:
    return LogicAskerConfig(rules=SMALL_RULES, lengths=(1, 2), per_skill=4, seed=3)


@pytest.fixture(scope="session")
def small_repo(tmp_path_factory: pytest.TempPathFactory, small_config: LogicAskerConfig) -> Path:
    """A small build written as `lgmt build logicasker` writes it: 4 skills × 2 lengths × 4 tests = 32 rows."""
    out = tmp_path_factory.mktemp("logicasker") / "repo"
    write_logicasker_repo(build_logicasker(small_config), out)
    return out
