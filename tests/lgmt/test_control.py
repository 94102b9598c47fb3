"""`-T control=true` end to end: real Inspect runs of the LGMT tasks on scripted models, with the noise floor.

Three models: a perfect one (deterministic, always right: no control violation, MVR 0), a noisy one (every call
draws its answer from a seeded RNG, so follow-ups and controls differ from the source equally often: the control rate
is near the flip rate and no relation is above it), and a noisy one that is also always wrong on one relation's
follow-ups (that relation, and only it, is above the control).
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import CachePolicy, ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.control import CONTROL_TABLE, SUGGESTION
from lgmt_tasks.lgmt.report import suite_report
from lgmt_tasks.lgmt.task import mr_c, mr_s
from lgmt_tasks.scorers.pairwise import CONTROL_KEYS, OUTCOME_KEYS
from lgmt_tasks.solvers.group import CONTROL_SCOPE, control_cache
from lgmt_tasks.vocabulary import CONTROL_RESPONSE_KEY as SOLVER_KEY

LABELS = ("True", "False", "Unknown")
FLIP = 0.3
"""The noisy models' chance of answering a call wrongly."""


pytestmark = pytest.mark.usefixtures("fresh_caches")
"""Each test builds and evaluates with its own empty caches (`tests/lgmt/conftest.py`)."""


def wrong(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % 3]


class Scripted:
    """A mock model answering each user prompt by `answer(prompt, gold, call)`; `call` counts that prompt's calls.

    Gold labels come from the task's dataset (every member of a group has the source's proven label). The n-th call
    of a prompt gets the same answer in every run, whatever order concurrency puts the calls in.
    """

    def __init__(self, task: Task, answer: Callable[[str, str, int], str]) -> None:
        self.gold: dict[str, str] = {}
        self.followup_of: dict[str, str] = {}
        for sample in task.dataset:
            metadata = sample.metadata or {}
            for member in metadata["members"]:
                self.gold[member] = str(sample.target)
            for member in metadata["members"][1:]:
                self.followup_of[member] = metadata["mr"]
        self.answer = answer
        self.calls: Counter[str] = Counter()
        self.seeds: Counter[int | None] = Counter()
        self.lock = threading.Lock()

    def __call__(self, messages: list[ChatMessage], tools: Any, choice: Any, config: GenerateConfig) -> ModelOutput:
        prompt = next(m.text for m in messages if m.role == "user")
        with self.lock:
            call = self.calls[prompt]
            self.calls[prompt] += 1
            self.seeds[config.seed] += 1
        out = ModelOutput.from_content(
            "mockllm/model", json.dumps({"label": self.answer(prompt, self.gold[prompt], call)})
        )
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    def model(self) -> Any:
        return get_model("mockllm/model", custom_outputs=self)


def draw(prompt: str, call: int) -> float:
    """A uniform number from an RNG seeded by the prompt and the call's index (no global state)."""
    seed = int.from_bytes(hashlib.sha256(f"{call}:{prompt}".encode()).digest()[:8], "big")
    return random.Random(seed).random()


def noisy(prompt: str, gold: str, call: int) -> str:
    return wrong(gold) if draw(prompt, call) < FLIP else gold


def run(task: Task, script: Scripted, tmp_path: Any, limit: int, **kwargs: Any) -> tuple[EvalLog, dict[str, float]]:
    (log,) = eval(task, model=script.model(), limit=limit, log_dir=str(tmp_path / "logs"), display="none", **kwargs)
    assert log.status == "success", log.error
    assert log.results is not None and log.samples is not None
    return log, {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_a_perfect_model_has_no_control_violation_and_no_violation(tmp_path):
    task = mr_c(control=True)
    script = Scripted(task, lambda prompt, gold, call: gold)
    log, metrics = run(task, script, tmp_path, limit=6)
    assert metrics["mvr"] == 0.0 and metrics["control_rate"] == 0.0 and metrics["excess_mvr"] == 0.0
    assert metrics["above_control"] == 0.0
    for relation in {s.metadata["mr"] for s in log.samples}:
        assert metrics[f"control_rate_{relation}"] == 0.0 and metrics[f"above_control_{relation}"] == 0.0
        assert metrics[f"excess_mvr_low_{relation}"] < 0.0 < metrics[f"excess_mvr_high_{relation}"]
    for sample in log.samples:
        score = sample.scores["metamorphic_consistency"]
        assert list(score.value) == [*OUTCOME_KEYS, *CONTROL_KEYS]
        assert score.value["control_violation"] == 0 and score.value["paired"] == 1
        assert sample.store[SOLVER_KEY] == sample.store["responses"][0]  # asked again, same answer
        assert len(sample.store["responses"]) == len(sample.metadata["members"])  # the control is not a member
        assert script.calls[sample.metadata["members"][0]] == 2  # the source prompt was asked twice


def test_a_noisy_model_has_a_control_rate_near_its_flip_rate_and_no_relation_above_it(tmp_path):
    task = mr_s(control=True)
    script = Scripted(task, noisy)
    log, metrics = run(task, script, tmp_path, limit=80)
    flips = 2 * FLIP * (1 - FLIP)  # two independent draws differ: one right and one wrong
    assert abs(metrics["control_rate"] - flips) < 4 * metrics["control_rate_stderr"]
    assert abs(metrics["mvr"] - flips) < 4 * metrics["mvr_stderr"]
    assert metrics["excess_mvr_low"] < 0.0 < metrics["excess_mvr_high"]
    assert metrics["above_control"] == 0.0
    assert metrics["above_control_MR-S1"] == 0.0 and metrics["above_control_MR-S2"] == 0.0


def test_a_model_wrong_on_one_relations_followups_is_above_control_there_only(tmp_path):
    """MR-S1's follow-ups get the label that is neither the gold nor the noisy model's wrong answer: they always
    differ from the source, whatever the source's draw."""
    task = mr_s(control=True)

    def answer(prompt: str, gold: str, call: int) -> str:
        return wrong(wrong(gold)) if script.followup_of.get(prompt) == "MR-S1" else noisy(prompt, gold, call)

    script = Scripted(task, answer)
    log, metrics = run(task, script, tmp_path, limit=80)
    assert metrics["mvr_MR-S1"] == 1.0
    assert metrics["above_control_MR-S1"] == 1.0 and metrics["excess_mvr_low_MR-S1"] > 0.0
    assert metrics["above_control_MR-S2"] == 0.0 and metrics["excess_mvr_low_MR-S2"] < 0.0
    table = suite_report([log.location]).tables[CONTROL_TABLE].set_index("relation")
    assert table.loc["MR-S1", "above_control"] == "yes" and table.loc["MR-S2", "above_control"] == "no"
    for relation in ("MR-S1", "MR-S2"):  # the report recomputes the logged interval from the per-group scores
        assert table.loc[relation, "low"] == pytest.approx(metrics[f"excess_mvr_low_{relation}"])
        assert table.loc[relation, "control_rate"] <= 1.0 and table.loc[relation, "pairs"] == 40
    assert table.loc["all", "excess_mvr"] == pytest.approx(metrics["excess_mvr"])
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", str(log.location), "--out", str(out)])
    assert result.exit_code == 0, result.output
    printed = result.output[result.output.index("Noise floor") :].split("\n\n")[0].splitlines()
    assert [line.split("|")[4].strip() for line in printed if "| MR-S" in line] == ["MR-S1", "MR-S2"]
    assert [line.split("|")[-2].strip() for line in printed if "| MR-S" in line] == ["yes", "no"]
    written = pd.read_csv(out / "lgmt" / f"{CONTROL_TABLE}.csv")
    assert list(written["above_control"]) == list(table.reset_index()["above_control"])


def test_without_control_the_run_is_what_it_was(tmp_path):
    task = mr_c()
    script = Scripted(task, noisy)
    log, metrics = run(task, script, tmp_path, limit=6)
    assert not [name for name in metrics if "control" in name]
    assert all(list(s.scores["metamorphic_consistency"].value) == list(OUTCOME_KEYS) for s in log.samples)
    assert all(SOLVER_KEY not in s.store for s in log.samples)
    assert sum(script.calls.values()) == sum(len(s.metadata["members"]) for s in log.samples)
    assert log.eval.scorers is not None and log.eval.scorers[0].options == {}  # the scorer as it was
    assert CONTROL_TABLE not in suite_report([log.location]).tables
    assert [s.metadata for s in mr_c(control=True).dataset][:6] == [s.metadata for s in task.dataset][:6]


def test_cached_runs_never_serve_the_control_the_sources_answer(tmp_path):
    """The n-th call of a prompt answers LABELS[n]: asked twice, a source differs from its control. A cached re-run
    answers from the cache (no call), and the control still has its own answer, not the source's."""
    task = mr_c(control=True)
    script = Scripted(task, lambda prompt, gold, call: LABELS[call % 3])
    _, first = run(task, script, tmp_path, limit=4, cache=True)
    calls = sum(script.calls.values())
    _, again = run(mr_c(control=True), script, tmp_path, limit=4, cache=True)
    assert sum(script.calls.values()) == calls  # all from the cache
    assert first["control_rate"] == again["control_rate"] == 1.0


def test_the_control_call_keeps_the_runs_seed(tmp_path):
    """Under a fixed seed the follow-ups share the source's random numbers, so the control must too (see group.py)."""
    task = mr_c(control=True)
    script = Scripted(task, lambda prompt, gold, call: gold)
    run(task, script, tmp_path, limit=3, seed=3)
    assert script.seeds == Counter({3: 3 * 3})  # source, follow-up and control of 3 groups, all with seed 3


def test_the_control_call_gets_its_own_cache_scope_and_keeps_the_runs_policy():
    policy = CachePolicy(expiry="2D", scopes={"mine": "x"})
    cache = control_cache(get_model("mockllm/model", config=GenerateConfig(cache=policy)))
    assert isinstance(cache, CachePolicy) and cache.expiry == "2D"
    assert cache.scopes == {"mine": "x", **CONTROL_SCOPE}
    assert control_cache(get_model("mockllm/model")) is False


def test_a_sampled_eval_without_control_suggests_it_once(tmp_path, caplog):
    task_warnings: list[str] = []
    script = Scripted(mr_c(), lambda prompt, gold, call: gold)
    with caplog.at_level(logging.WARNING, logger="lgmt_tasks.lgmt.control"):
        eval(mr_c(), model=script.model(), limit=1, temperature=0.7, log_dir=str(tmp_path), display="none")
        task_warnings = [r.getMessage() for r in caplog.records if r.name == "lgmt_tasks.lgmt.control"]
    assert task_warnings == []  # the task object was made before eval: no generation settings were active yet
    with caplog.at_level(logging.WARNING, logger="lgmt_tasks.lgmt.control"):
        eval("lgmt_tasks/mr_c", model=script.model(), limit=1, temperature=0.7, log_dir=str(tmp_path), display="none")
        eval("lgmt_tasks/mr_c", model=script.model(), limit=1, temperature=0.0, log_dir=str(tmp_path), display="none")
        eval(
            "lgmt_tasks/mr_c",
            model=script.model(),
            limit=1,
            temperature=0.7,
            task_args={"control": True},
            log_dir=str(tmp_path),
            display="none",
        )
    messages = [r.getMessage() for r in caplog.records if r.name == "lgmt_tasks.lgmt.control"]
    assert messages == [SUGGESTION.format(temperature=0.7)]
