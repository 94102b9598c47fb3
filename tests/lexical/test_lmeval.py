"""The lexical lm-eval tasks: indexing, generated YAMLs, and exact metrics with a scripted LM on a few documents."""

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
from lgmt_tasks.task_configs._label_groups import LABELS
from lgmt_tasks.task_configs._params import dataset_params
from lgmt_tasks.task_configs.lexical import _generate
from lgmt_tasks.task_configs.lexical import utils as lexical_utils
from tests.lexical.helpers import PLAN, WRONG_SOURCE, other

CONFIGS = Path(task_configs.__file__).parent


def manager(dataset: str, **metadata: Any) -> TaskManager:
    return TaskManager(
        include_path=str(CONFIGS / "lexical"), include_defaults=False, metadata={"dataset": dataset, **metadata}
    )


class ScriptedLM(LM):
    """Answers by document: sources right (wrong for gold True), follow-ups as `helpers.PLAN` says."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Instance] = []

    @staticmethod
    def answer(doc: dict[str, Any], member: int) -> str | None:
        gold = doc["label"]
        source = other(gold) if gold == WRONG_SOURCE else gold
        if member == 0:
            return source
        behaviour = PLAN[(doc["mr"], gold)]
        return {"same": source, "differ": other(source), "unparsed": None}[behaviour]

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        out = []
        for r in requests:
            label = self.answer(r.doc, r.idx)
            out.append("Either True or False." if label is None else f'{{"label": "{label}"}}')
        return out

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        self.requests += requests
        out = []
        for r in requests:
            member, j = divmod(r.idx, len(LABELS))
            label = self.answer(r.doc, member) or r.doc["label"]  # an argmax always answers
            out.append((-0.5 if label == LABELS[j] else -3.0, False))
        return out

    def loglikelihood_rolling(self, requests: list[Instance], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError

    @property
    def tokenizer_name(self) -> str:
        return "scripted"


def test_task_manager_indexes_the_two_tasks():
    tm = TaskManager(include_path=str(CONFIGS / "lexical"), include_defaults=False)
    assert set(tm.all_subtasks) == {"lgmt_lexical", "lgmt_lexical_loglik"}


def test_generated_yamls_are_current():
    for name, text in _generate.render_all().items():
        assert (CONFIGS / "lexical" / name).read_text(encoding="utf-8") == text, f"re-run _generate.py ({name})"


def test_generation_end_to_end_exact_metrics(repo):
    lm = ScriptedLM()
    results = simple_evaluate(model=lm, tasks=["lgmt_lexical"], task_manager=manager(repo), log_samples=True)
    values = {m: results["results"]["lgmt_lexical"][f"{m},none"] for m in lexical_utils.METRICS}
    # function-based groups of helpers.PLAN: MR-1 ③②①, MR-49 ①②①, MR-84 ① unparsed ③, MR-102 ③④①
    compared = 11  # of 12 groups; the unparsed one's source (gold True) is answered wrongly
    expected = {
        "mvr": 4 / compared,
        "acc_static": 8 / 12,
        "acc_cons": 5 / 12,
        "acc_static_parsed": 8 / compared,
        "acc_cons_parsed": 5 / compared,
        "hdr": 3 / compared,
        "fur": 2 / compared,
        "unparsed_rate": 1 / 12,
        "cm_pass_correct": 5 / compared,
        "cm_pass_wrong": 2 / compared,
        "cm_fail_correct": 3 / compared,
        "cm_fail_wrong": 1 / compared,
        "mvr_MR-1": 1 / 3,
        "mvr_MR-49": 0.0,
        "mvr_MR-84": 1 / 2,
        "mvr_MR-102": 2 / 3,
    }
    assert {k: values[k] for k in expected} == pytest.approx(expected)
    assert math.isnan(values["mvr_MR-126"])  # no document of that relation
    assert len(lm.requests) == 2 * 12
    assert {s["doc"]["mr"] for s in results["samples"]["lgmt_lexical"]} == {"MR-1", "MR-49", "MR-84", "MR-102"}


def test_loglik_end_to_end(repo):
    lm = ScriptedLM()
    results = simple_evaluate(
        model=lm, tasks=["lgmt_lexical_loglik"], task_manager=manager(repo, mr="MR-1,MR-49"), limit=4
    )
    values = results["results"]["lgmt_lexical_loglik"]
    assert values["unparsed_rate,none"] == 0.0
    assert len(lm.requests) == 4 * 2 * 3
    assert 0.0 <= values["mvr,none"] <= 1.0


def test_pending_llm_groups_are_refused(repo):
    with pytest.raises(ValueError, match="MR-152 have no follow-ups yet"):
        lexical_utils.load_docs(mr="MR-152", dataset=repo)


def test_dataset_params(caplog):
    params = dataset_params(lexical_utils.PARAMS, {"mr": "function", "per_mr": 20}, {"per_mr": 3, "pretrained": "x"})
    assert params == {**lexical_utils.SCHEMA.lm_eval_defaults(), "mr": "function", "per_mr": 3}
    assert not caplog.records  # `pretrained` is a model argument, which lm-eval merges into the metadata
    with pytest.raises(
        ValueError, match="'per_mrr' \\(did you mean 'per_mr'\\?\\); valid: source, source_path, mr, part, per_mr"
    ):
        dataset_params(lexical_utils.PARAMS, {"per_mrr": 3}, {})
    dataset_params(lexical_utils.PARAMS, {}, {"parts": "premises"})
    assert "metadata key 'parts' is not a parameter of lexical (did you mean 'part'?); it is ignored" in caplog.text


def test_lexical_uses_no_lgmt_config_module():
    for path in (CONFIGS / "lexical").iterdir():
        if path.suffix in (".py", ".yaml"):
            assert "task_configs.lgmt" not in path.read_text(encoding="utf-8"), path.name


def test_process_results_check_the_number_of_results():
    doc = {"id": "g", "label": "True", "mr": "MR-1", "expected": "equivalence"}
    with pytest.raises(ValueError, match="3 results for 2 members"):
        lexical_utils.process_generation_results(doc, ["a", "b", "c"])
    with pytest.raises(ValueError, match="2 results for 2 members"):
        lexical_utils.process_loglik_results(doc, [(0.0, False)] * 2)
    out = lexical_utils.process_generation_results(doc, ['{"label": "True"}', '{"label": "False"}'])
    assert set(out) == set(lexical_utils.METRICS)
    assert out["mvr_MR-1"]["violation"] == 1 and out["mvr_MR-2"]["parsed"] == 0
