"""Shared fixtures of the DivLogicEval tests: one default build and one small built repository per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.build import DivLogicEvalBuild, DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo

SMALL = DivLogicEvalConfig(per_type=2, seed=7)
"""The build the end-to-end runs evaluate: two instances per question type."""


@pytest.fixture(scope="session")
def default_build() -> DivLogicEvalBuild:
    """The default build (`lgmt build divlogiceval` with no options), built once."""
    return build_divlogiceval(DivLogicEvalConfig())


@pytest.fixture(scope="session")
def small_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small build written as `lgmt build` writes it."""
    out = tmp_path_factory.mktemp("divlogiceval") / "repo"
    write_divlogiceval_repo(build_divlogiceval(SMALL), out)
    return out


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """On-the-fly builds go to a temporary cache, never to the user's."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))
