"""Each suite's scorer name in the registry (`Suite.scorer`) is the name its scorer is registered and logged under.

The reports find a suite's dict score by that name (`sample.scores[name]`, `samples_df`'s `score_<name>` column).
"""

from __future__ import annotations

import importlib

import pytest
from inspect_ai._util.registry import is_registry_object, registry_info

from lgmt_tasks.suites import SUITES, suite
from tests.report.scripted import MODEL_A


@pytest.mark.parametrize("entry", SUITES, ids=lambda s: s.name)
def test_registry_names_a_scorer_of_the_suites_scorer_module(entry):
    module = importlib.import_module(f"lgmt_tasks.scorers.{entry.name}")
    registered = {
        registry_info(obj).name.split("/")[-1]  # logs key scores without the package prefix
        for obj in vars(module).values()
        if callable(obj) and is_registry_object(obj, "scorer") and obj.__module__ == module.__name__
    }
    assert entry.scorer in registered, registered


def test_a_real_log_keys_its_scores_by_the_registry_name(runs):
    log = runs["logs"][(MODEL_A, "zero_shot")]
    assert {name for sample in log.samples for name in (sample.scores or {})} == {suite("lgmt").scorer}
