"""Fixtures shared by the lm-eval task tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def built_dataset(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One small build of all 20 relations, as `lgmt build` writes it; every LGMT task reads its relations from it."""
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig

    out = tmp_path_factory.mktemp("lgmt") / "repo"
    write_lgmt_repo(build_lgmt(LgmtConfig(per_mr=1, seed=0)), out)
    return str(out)
