"""The LogicAsker lm-eval tasks: indexing, the generated base config, and exact metrics with a scripted LM."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from lm_eval import simple_evaluate
from lm_eval.api.instance import Instance
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.task_configs.logicasker import _generate
from lgmt_tasks.task_configs.logicasker import utils as logicasker_utils
from tests.logicasker.test_task import reply_for

CONFIGS = Path(task_configs.__file__).parent
TASKS = ("lgmt_logicasker", "lgmt_logicasker_loglik")


class ScriptedLM(LM):
    """Replies like the Inspect test's model (by rule); log-likelihood prefers the gold answer for two rules."""

    def __init__(self, repo: Path) -> None:
        super().__init__()
        self.rows = {row["question"]: row for row in load_dataset_repo(repo)}
        self.requests: list[Instance] = []

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        return [reply_for(r.doc["rule"], r.doc["answer"]) for r in requests]

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        self.requests += requests
        out = []
        for r in requests:
            context, continuation = r.args
            row = self.rows[context.removesuffix(logicasker_utils.ANSWER_CUE)]
            right = row["rule"] in ("modus ponens", "quantifier negation")
            preferred = row["answer"] if right else "no"
            out.append((-0.5 if continuation == f" {preferred}" else -2.0, False))
        return out

    def loglikelihood_rolling(self, requests: list[Instance], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError


def manager(repo: Path) -> TaskManager:
    folder = str(CONFIGS / "logicasker")
    return TaskManager(include_path=folder, include_defaults=False, metadata={"dataset": str(repo)})


def test_tasks_are_indexed_and_the_base_config_is_current():
    tm = TaskManager(include_path=str(CONFIGS / "logicasker"), include_defaults=False)
    assert set(tm.all_subtasks) == set(TASKS)
    assert (CONFIGS / "logicasker" / _generate.BASE).read_text(encoding="utf-8") == _generate.base_yaml(), (
        "re-run task_configs/logicasker/_generate.py"
    )


def results_of(repo: Path, task: str) -> tuple[dict[str, Any], ScriptedLM]:
    lm = ScriptedLM(repo)
    results = simple_evaluate(model=lm, tasks=[task], task_manager=manager(repo))
    assert results is not None
    return {k.removesuffix(",none"): v for k, v in results["results"][task].items()}, lm


def test_generation_exact_metrics(small_repo):
    values, lm = results_of(small_repo, "lgmt_logicasker")
    assert len(lm.requests) == 32 and {r.request_type for r in lm.requests} == {"generate_until"}
    context, kwargs = lm.requests[0].args
    assert context.startswith("Consider the following premises: ") and context.endswith(".")
    assert kwargs["do_sample"] is False
    assert values["response_accuracy"] == pytest.approx(16 / 24)  # the same figures as the Inspect task
    assert values["instruction_following_rate"] == pytest.approx(24 / 32)
    assert values["response_accuracy_rule_universal_modus_tollens"] == 0.5
    assert math.isnan(values["response_accuracy_rule_affirming_the_consequent"])
    assert values["response_accuracy_logic_propositional"] == 1.0


def test_loglik_exact_metrics(small_repo):
    values, lm = results_of(small_repo, "lgmt_logicasker_loglik")
    assert len(lm.requests) == 64 and {r.args[1] for r in lm.requests} == {" yes", " no"}
    assert all(r.args[0].endswith("\nAnswer:") for r in lm.requests)
    assert values["instruction_following_rate"] == 1.0
    assert values["response_accuracy"] == pytest.approx(24 / 32)  # 8 + 8 right, and the 4 + 4 no-tests of the rest
    assert values["response_accuracy_rule_modus_ponens"] == 1.0
    assert values["response_accuracy_rule_affirming_the_consequent"] == 0.5


def test_pure_helpers():
    doc = {"id": "t", "logic": "predicate", "category": "equivalence", "problem_type": "valid", "length": 3,
           "rule": "quantifier negation", "answer": "yes", "question": "Q?"}  # fmt: skip
    assert logicasker_utils.doc_to_target_index(doc) == 0
    out = logicasker_utils.process_loglik_results(doc, [(-1.0, False), (-1.0, False)])  # a tie goes to yes
    assert out["response_accuracy_rule_quantifier_negation"] == {"correct": 1, "answered": 1}
    assert set(out) == {
        "accuracy", "response_accuracy", "instruction_following_rate", "response_accuracy_logic_predicate",
        "response_accuracy_category_equivalence", "response_accuracy_problem_type_valid",
        "response_accuracy_length_3", "response_accuracy_rule_quantifier_negation",
    }  # fmt: skip
    assert set(out) <= {"accuracy", "response_accuracy", "instruction_following_rate", *_generate.breakdown_metrics()}
    with pytest.raises(ValueError, match="one completion"):
        logicasker_utils.process_generation_results(doc, ["a", "b"])
