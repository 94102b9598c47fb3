"""Small builds of every suite with its default options (only the size is reduced), written once per session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.divlogiceval.card import write_divlogiceval_repo
from lgmt_tasks.lexical.build import LexicalConfig, build_lexical
from lgmt_tasks.lexical.card import write_lexical_repo
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.card import write_lgmt_repo
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.logicasker.build import build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.config import QmfolConfig

BUILDS: dict[str, Callable[[Path], object]] = {
    # every relation, as `lgmt build lgmt`, with fewer source cases and groups
    "lgmt": lambda out: write_lgmt_repo(build_lgmt(LgmtConfig(per_mr=1, generated_cases=40)), out),
    # every skill at length 1, as `lgmt build logicasker`, one test per skill instead of four
    "logicasker": lambda out: write_logicasker_repo(build_logicasker(LogicAskerConfig(per_skill=1)), out),
    # every question type, as `lgmt build divlogiceval`, four instances per type instead of twenty
    "divlogiceval": lambda out: write_divlogiceval_repo(build_divlogiceval(DivLogicEvalConfig(per_type=4)), out),
    # the paper's extreme depths, widths and distractor levels, every label, one topic and one seed
    "qmfol": lambda out: write_qmfol_repo(
        build_qmfol(QmfolConfig(depths=(5, 20), widths=(5, 20), distractors=(0, 20), topics=("Food",), seeds=1)),
        out,
    ),
    # the default function-based relations and parts, one group per variant
    "lexical": lambda out: write_lexical_repo(build_lexical(LexicalConfig(per_mr=1, generated_cases=12)), out),
}
SUITES = tuple(BUILDS)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every suite's small default build, as `lgmt build` writes it."""
    root = tmp_path_factory.mktemp("verify-builds")
    out: dict[str, Path] = {}
    for suite, write in BUILDS.items():
        write(root / suite)
        out[suite] = root / suite
    return out


@pytest.fixture(autouse=True)
def _private_caches(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dataset caches go to a temporary folder, never to the user's; nothing touches the network."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "lgmt-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
