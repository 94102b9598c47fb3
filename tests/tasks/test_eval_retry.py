"""An interrupted Inspect eval resumes with `eval_retry` without losing or duplicating groups.

A scripted model (registered here as a model API, so that `eval_retry` can re-create it from the log by name)
raises on the prompts of some groups the first time it sees them, so the first run ends in error with those
groups unscored; `eval_retry` then runs what is missing. Every group must then be in the log exactly once, with a
score, and the metrics must equal those of a clean run. The answers depend only on the prompt, so they do not
depend on the order or concurrency in which groups are asked.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from inspect_ai import eval, eval_retry

from tests.scripted_api import register_scripted_api

TASK = "lgmt_tasks/mr_e"
TASK_ARGS = {"per_mr": 1, "seed": 4, "prompting": "zero_shot"}
FAIL_ONCE: set[str] = set()
"""Prompts that raise on their first call (filled by the test; a prompt is removed once it has failed)."""
CALLS: list[str] = []
"""Every prompt the model was asked, in order."""


def _answer(prompt: str) -> str:
    digest = hashlib.sha256(prompt.encode()).digest()[0]
    return json.dumps({"label": ("True", "False", "Unknown")[digest % 3]})


def _respond(prompt: str) -> str:
    """The answer by a hash of the prompt; a prompt in `FAIL_ONCE` raises the first time."""
    if prompt in FAIL_ONCE:
        FAIL_ONCE.discard(prompt)
        raise RuntimeError("scripted failure (connection dropped)")
    return _answer(prompt)


register_scripted_api("lgmt_faults", _respond, CALLS)


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    FAIL_ONCE.clear()
    CALLS.clear()


def _metrics(log) -> dict[str, float]:
    return {name: m.value for score in log.results.scores for name, m in score.metrics.items()}


def test_eval_retry_scores_every_group_once_and_matches_a_clean_run(tmp_path):
    (clean,) = eval(
        TASK,
        task_args=TASK_ARGS,
        model="lgmt_faults/model",
        log_dir=str(tmp_path / "clean"),
        display="none",
        max_retries=0,
    )
    assert clean.status == "success"
    ids = sorted(str(s.id) for s in clean.samples)
    assert len(ids) >= 6
    # Fail the follow-up prompt of every third group: the group's other member may already have been answered.
    for sample in clean.samples[::3]:
        FAIL_ONCE.add(sample.metadata["members"][-1])
    failing = len(FAIL_ONCE)

    prompt_group = {m: str(s.id) for s in clean.samples for m in s.metadata["members"]}

    # The first run stops at the first failure (Inspect's default `fail_on_error`), as an interrupted run does.
    (log,) = eval(
        TASK,
        task_args=TASK_ARGS,
        model="lgmt_faults/model",
        log_dir=str(tmp_path / "run"),
        display="none",
        max_retries=0,
    )
    assert log.status == "error"
    retries = 0
    while log.status != "success":
        done = {str(s.id) for s in log.samples if s.error is None and s.scores}
        CALLS.clear()
        (log,) = eval_retry(log, log_dir=str(tmp_path / "run"), display="none", max_retries=0)
        retries += 1
        assert CALLS and not {prompt_group[p] for p in CALLS} & done  # finished groups are never asked again
        assert retries <= failing
    retried = log
    assert not FAIL_ONCE  # every scripted failure fired
    seen = [str(s.id) for s in retried.samples]
    assert sorted(seen) == ids  # no group lost, none duplicated
    assert all(s.error is None and s.scores for s in retried.samples)
    clean_scores = {str(s.id): s.scores for s in clean.samples}
    for sample in retried.samples:
        assert {k: v.value for k, v in sample.scores.items()} == {
            k: v.value for k, v in clean_scores[str(sample.id)].items()
        }
    assert _metrics(retried) == pytest.approx(_metrics(clean))
