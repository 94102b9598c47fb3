"""Shared fixtures of the lexical tests: a small build with three source cases, and one scripted Inspect run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lgmt_tasks.lexical.build import LexicalBuild, LexicalConfig, build_lexical
from lgmt_tasks.lexical.card import write_lexical_repo
from tests.lexical.helpers import VARIANTS, run


@pytest.fixture(scope="session")
def cache_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect-cache")))
        yield


@pytest.fixture(scope="session")
def build() -> LexicalBuild:
    config = LexicalConfig(
        mrs=("MR-1", "MR-49", "MR-84", "MR-102", "MR-152"),
        parts=("premises", "conclusion"),
        per_mr=3,
        generated_cases=12,
        seed=0,
    )
    full = build_lexical(config)
    keep = full.dataset.select(
        [i for i, k in enumerate(zip(full.dataset["mr"], full.dataset["part"])) if k in VARIANTS]
    )
    return LexicalBuild(keep, full.stats, config)


@pytest.fixture(scope="session")
def repo(build: LexicalBuild, tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(write_lexical_repo(build, tmp_path_factory.mktemp("lexical") / "repo"))


@pytest.fixture(scope="session")
def label_run(repo: str, build: LexicalBuild, tmp_path_factory: pytest.TempPathFactory, cache_dirs: None):
    return run(repo, tmp_path_factory.mktemp("logs"), [dict(r) for r in build.dataset])
