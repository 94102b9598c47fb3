"""Parallel builds: `num_proc=2` gives byte-identical repositories and identical statistics to `num_proc=1`.

One small config per suite, each built in this process and in two worker processes, written with the suite's own
repository writer; every file of the two folders (data files, card, statistics) must hash the same. The configs are
small but cut into several units of work each (relations, skills, runs of instances, basic tasks, runs of source
cases), so a unit merged out of order, or a seed drawn from a shared generator, would change the bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.parallel import check_num_proc, split
from lgmt_tasks.cli.build import build
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

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
FOLIO = DATA / "folio" / "folio_v2_validation.jsonl"

Suite = tuple[Callable[..., Any], Any, Callable[[Any, Path], Path]]

SUITES: dict[str, Suite] = {
    # generated source (cases drawn in runs of indices), four relations of different categories
    "lgmt": (
        build_lgmt,
        LgmtConfig(mrs=("MR-E1.1", "MR-E2.1", "MR-S1", "MR-P1", "MR-C1"), per_mr=3, generated_cases=24, seed=5),
        write_lgmt_repo,
    ),
    # predicate-logic inference skills at two lengths: one unit per skill
    "logicasker": (
        build_logicasker,
        LogicAskerConfig(logic=("predicate",), category=("inference",), lengths=(1, 2), per_skill=2, seed=2),
        write_logicasker_repo,
    ),
    # three question types, several runs of instances each
    "divlogiceval": (build_divlogiceval, DivLogicEvalConfig(per_type=5, seed=4), write_divlogiceval_repo),
    # four basic tasks (two seeds × two labels), two distractor counts, two topics
    "qmfol": (
        build_qmfol,
        QmfolConfig(
            depths=(3,),
            widths=(4,),
            distractors=(0, 5),
            labels=("True", "Unknown"),
            topics=("Food", "Animal"),
            seeds=2,
            seed=1,
        ),
        write_qmfol_repo,
    ),
    # a file source (FOLIO): its cases are proven in runs
    "lexical": (
        build_lexical,
        LexicalConfig(source="folio", source_path=str(FOLIO), mrs=("MR-1", "MR-19"), per_mr=4, seed=6),
        write_lexical_repo,
    ),
}


def fingerprint(folder: Path) -> dict[str, str]:
    """sha256 of every file of a written repository, by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("suite", list(SUITES))
def test_two_processes_build_the_same_bytes(suite: str, tmp_path: Path) -> None:
    if suite == "lexical" and not FOLIO.exists():
        pytest.skip(f"source data not found: {FOLIO}")
    builder, config, write = SUITES[suite]
    serial, parallel = builder(config, num_proc=1), builder(config, num_proc=2)
    assert len(serial.dataset) > 0
    assert serial.stats.to_dict() == parallel.stats.to_dict()
    assert serial.dataset.to_list() == parallel.dataset.to_list()
    assert serial.dataset._fingerprint == parallel.dataset._fingerprint
    one, two = fingerprint(write(serial, tmp_path / "one")), fingerprint(write(parallel, tmp_path / "two"))
    assert any(name.startswith("data/") for name in one)
    assert one == two


def test_num_proc_is_checked() -> None:
    assert check_num_proc(3) == 3
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="num_proc"):
            check_num_proc(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_proc=0"):
        build_divlogiceval(DivLogicEvalConfig(per_type=1), num_proc=0)


def test_split_keeps_order_and_covers_everything() -> None:
    items = list(range(11))
    for parts in (1, 2, 4, 11, 20):
        runs = split(items, parts)
        assert [x for run in runs for x in run] == items
        assert len(runs) == min(parts, len(items))
        assert max(map(len, runs)) - min(map(len, runs)) <= 1
    assert split([], 4) == []


@pytest.mark.parametrize("suite", list(SUITES))
def test_every_build_command_takes_num_proc(suite: str) -> None:
    result = CliRunner().invoke(build, [suite, "--help"])
    assert result.exit_code == 0, result.output
    assert "--num-proc" in result.output
