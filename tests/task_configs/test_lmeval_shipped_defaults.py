"""Issue #38: no lm-eval task builds on first use without a word; every default is a shipped build.

The lm-eval defaults used to be smaller than the shipped builds (LGMT and lexical 20 groups per relation, DivLogicEval
20 instances per question type), so a default run built on first use (DivLogicEval: minutes) before lm-eval showed
anything. The defaults are now the shipped builds' (`lgmt_tasks.builders.shipped`), and a build that is not shipped
is announced before it starts (`lgmt_tasks.builders.load.build_notice`), naming the lm-eval task.

Nothing here builds: `read_build` is replaced by a spy that records the build each task asks for and stops, and the
decision is `build_notice`'s (the one `read_build` passes to the cache); the notice's wiring is checked with a
`write` that stops at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lm_eval.tasks import TaskManager

import lgmt_tasks.builders.load as load
import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.builders.cache import entry_folder
from lgmt_tasks.builders.load import BuildRecipe, build_notice, building_for
from lgmt_tasks.builders.shipped import BUILD_MINUTES
from lgmt_tasks.suites import SUITE_NAMES, suite

CONFIGS = Path(task_configs.__file__).parent
TASKS = [(name, task) for name in SUITE_NAMES for task in suite(name).lm_eval_tasks]


class Stop(Exception):
    """Raised by the spies: the build a task asked for is recorded, nothing is read or built."""


@pytest.fixture(autouse=True)
def _empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def asked_build(suite_name: str, task: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, BuildRecipe, str]:
    """The build (suite, recipe) an lm-eval task asks for with its defaults, and whom `building_for` names."""
    asked: list[tuple[str, BuildRecipe, str]] = []

    def spy(suite_asked: str, spec: BuildRecipe) -> Any:
        asked.append((suite_asked, spec, load.BUILD_FOR.get()))
        raise Stop

    monkeypatch.setattr(load, "read_build", spy)
    manager = TaskManager(include_path=str(CONFIGS / suite_name), include_defaults=False)
    with pytest.raises(Stop):
        manager.load([task])
    assert len(asked) == 1
    return asked[0]


@pytest.mark.parametrize(("suite_name", "task"), TASKS)
def test_every_lm_eval_default_is_shipped_or_announced(
    suite_name: str, task: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked_suite, spec, named = asked_build(suite_name, task, monkeypatch)
    assert asked_suite == suite_name
    assert named == f"lm-eval task {task}"  # a notice would name the task
    notice = build_notice(asked_suite, spec, named)
    assert notice is None or (f"for lm-eval task {task}: not a shipped build" in notice), notice
    # the choice made for #38: every default is a shipped build (or a part of one), so none builds at all
    assert notice is None, f"{task}'s default parameters are no shipped build: {notice}"


def test_a_build_that_is_not_shipped_is_announced_before_it_starts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lgmt_tasks.divlogiceval.build import BUILD_REVISION
    from lgmt_tasks.divlogiceval.config import DivLogicEvalConfig

    said: list[str] = []

    def write(folder: Path) -> None:  # the builder: what stderr holds when the build starts
        said.append(capsys.readouterr().err)
        raise Stop

    spec = BuildRecipe(DivLogicEvalConfig(per_type=20).key(), write, BUILD_REVISION)
    with building_for("lm-eval task lgmt_divlogiceval"), pytest.raises(Stop):
        load.read_build("divlogiceval", spec)
    folder = entry_folder("divlogiceval", spec.key, BUILD_REVISION)
    assert said == [
        "lgmt_tasks: building divlogiceval dataset (per_type=20) for lm-eval task lgmt_divlogiceval: not a shipped "
        f"build (the shipped one has per_type=300; it took up to {BUILD_MINUTES['divlogiceval']} min on 2 cores); "
        f"cached afterwards in {folder}...\n"
    ]
    assert not folder.exists()  # the stopped build left nothing
    # the shipped default is read, not built: no notice
    default = BuildRecipe(DivLogicEvalConfig().key(), write, BUILD_REVISION)
    assert build_notice("divlogiceval", default) is None


def test_the_notice_names_what_makes_the_build_not_a_shipped_part() -> None:
    from lgmt_tasks.lgmt.build import BUILD_REVISION
    from lgmt_tasks.lgmt.config import LgmtConfig
    from lgmt_tasks.lgmt.dataset import MR_SETS

    part = LgmtConfig(mrs=tuple(MR_SETS["mr_s"]))
    assert build_notice("lgmt", BuildRecipe(part.key(), print, BUILD_REVISION)) is None  # a part of the shipped one
    smaller = LgmtConfig(mrs=tuple(MR_SETS["mr_s"]), per_mr=5)
    notice = build_notice("lgmt", BuildRecipe(smaller.key(), print, BUILD_REVISION), "")
    assert notice is not None and notice.startswith("building lgmt dataset (per_mr=5): not a shipped build")
    assert "(the shipped one has per_mr=200;" in notice  # the relations are a shipped part: not named
    other_version = build_notice("lgmt", BuildRecipe(LgmtConfig().key(), print, "another revision"))
    assert other_version is not None and "(the shipped parameters)" in other_version
    assert "the shipped one was made by another package or builder version" in other_version
