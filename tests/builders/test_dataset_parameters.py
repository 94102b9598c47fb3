"""`-T dataset=<folder>` with build parameters says once which of them change nothing, and a filtered build's
missing rules are one short line (issue 28).

Before: `-T per_skill=1 -T seed=5` with a dataset were ignored without a word, and a one-rule LogicAsker build read
by the `logicasker` task (every rule requested) logged one warning listing 91 rule names, which the console wrapped
into screens of text. Real builds on small parameters.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt
from lgmt_tasks.logicasker.dataset import load_logicasker
from lgmt_tasks.logicasker.task import logicasker

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _offline(offline_cache: Path) -> None:
    """Every test here builds into its own cache, offline (`tests/conftest.py`)."""


@pytest.fixture
def one_rule(tmp_path: Path) -> Path:
    """A LogicAsker build of one rule (modus ponens), two tests."""
    out = tmp_path / "one-rule"
    args = ["build", "logicasker", "--rule", "modus ponens", "--logic", "propositional", "--per-skill", "2"]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_build_parameters_given_with_a_dataset_are_named_once(one_rule: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        loaded = load_logicasker(rule="modus ponens", dataset=str(one_rule), per_skill=1, seed=5)
    assert len(loaded.rows) == 2  # the folder's rows, as built
    (warning,) = _warnings(caplog)
    assert "per_skill=1, seed=5 have no effect" in warning and str(one_rule) in warning
    assert loaded.metadata["ignored_parameters"] == {"per_skill": 1, "seed": 5}


def test_defaults_and_parameters_used_elsewhere_are_not_named(one_rule: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        load_logicasker(rule="modus ponens", dataset=str(one_rule), per_skill=4, seed=0)  # the defaults
        # The task passes this with demonstrations (their draw is seeded by `seed`, dataset or not).
        load_logicasker(rule="modus ponens", dataset=str(one_rule), seed=5, used_elsewhere=("seed",))
    assert _warnings(caplog) == []


def test_the_task_says_it_too(one_rule: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        logicasker(rule="modus ponens", dataset=str(one_rule), per_skill=1, seed=5)
    (warning,) = _warnings(caplog)
    assert "per_skill=1, seed=5" in warning


def test_an_lgmt_dataset_names_its_build_parameters(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        load_lgmt(MR_SETS["mr_c"], dataset=str(ROOT / "datasets" / "lgmt"), per_mr=5, seed=2, source="folio")
    (warning,) = _warnings(caplog)
    assert "source='folio', per_mr=5, seed=2 have no effect" in warning


def test_missing_rules_of_a_filtered_build_are_one_short_line(one_rule: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        loaded = load_logicasker(dataset=str(one_rule))  # every rule requested; the folder has one
    (warning,) = _warnings(caplog)
    missing = loaded.metadata["empty_strata"]
    assert len(missing) > 50
    assert f"and {len(missing) - 3} more" in warning and "empty_strata" in warning
    assert len(warning) < 400 and "\n" not in warning
