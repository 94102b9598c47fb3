"""The DivLogicEval lm-eval tasks: indexing, requests, exact metrics with a scripted LM (generation and loglik)."""

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
from lgmt_tasks.rotation import rotation_order
from lgmt_tasks.solvers.divlogiceval import INSTRUCTION
from lgmt_tasks.task_configs.divlogiceval import _generate
from lgmt_tasks.task_configs.divlogiceval import utils as divlogiceval_utils

CONFIGS = Path(task_configs.__file__).parent
TASKS = {"lgmt_divlogiceval", "lgmt_divlogiceval_loglik"}
MAIN = ("acc", "circular", "partial_circular", "rotation_acc", "unparsed_rate")


def manager(dataset: Path, **metadata: Any) -> TaskManager:
    return TaskManager(
        include_path=str(CONFIGS / "divlogiceval"),
        include_defaults=False,
        metadata={"dataset": str(dataset), **metadata},
    )


# Per document position: the original option each rotation answers, relative to the gold ("g") or not (a wrong
# option "w"); None = an unreadable completion (generation only).
PLAN: dict[int, list[str | None]] = {
    0: ["g", "g", "g", "g"],  # ACC 1, CIR 1, PC 1
    1: ["w", "g", "g", "w"],  # ACC 0, c = 2, p = (1/2, 1/2): H = 1/2, PC = 1/4
    2: ["g", None, "g", "g"],  # ACC 1, c = 3 (generation); the log-likelihood variant reads None as the gold
}


class ScriptedLM(LM):
    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Instance] = []

    def _target(self, request: Instance, rotation: int, generation: bool) -> int | None:
        step = PLAN[request.doc_id % len(PLAN)][rotation]
        gold = int(request.doc["answer"])
        if step is None:
            return None if generation else gold
        return gold if step == "g" else (gold + 1) % 4

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        out = []
        for request in requests:
            target = self._target(request, request.idx, True)
            if target is None:
                out.append("Hmm.")
            else:
                out.append(f"Answer: {'ABCD'[rotation_order(request.idx).index(target)]}")
        return out

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        self.requests += requests
        out = []
        for request in requests:
            rotation, position = divmod(request.idx, 4)
            target = self._target(request, rotation, False)
            out.append((-0.5 if rotation_order(rotation)[position] == target else -4.0, False))
        return out

    def loglikelihood_rolling(self, requests: list[Instance], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError

    @property
    def tokenizer_name(self) -> str:
        return "scripted"

    def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
        text = "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in chat_history)
        return text + "<assistant>" if add_generation_prompt else text.removesuffix("</assistant>")


def test_task_manager_indexes_our_tasks():
    tm = TaskManager(include_path=str(CONFIGS / "divlogiceval"), include_defaults=False)
    assert set(tm.all_subtasks) == TASKS
    assert TASKS <= set(TaskManager(include_path=str(CONFIGS), include_defaults=False).all_tasks)


def test_generation_end_to_end_exact_metrics(small_repo):
    lm = ScriptedLM()
    results = simple_evaluate(
        model=lm, tasks=["lgmt_divlogiceval"], task_manager=manager(small_repo), limit=3, log_samples=True
    )
    values = results["results"]["lgmt_divlogiceval"]
    pc_3 = 3 / 4 * (1 + 3 / 4 * math.log(3 / 4, 4) + 1 / 4 * math.log(1 / 4, 4))
    assert values["acc,none"] == 2 / 3 and values["circular,none"] == 1 / 3
    assert values["partial_circular,none"] == pytest.approx((1 + 0.25 + pc_3) / 3, abs=1e-12)
    assert values["rotation_acc,none"] == pytest.approx((1 + 0.5 + 0.75) / 3)
    assert values["unparsed_rate,none"] == 1 / 12
    outcomes = [s["acc_parsed"] for s in results["samples"]["lgmt_divlogiceval"]]  # ACC over parsed rotation 0s
    parsed = [o for o in outcomes if o["original_parsed"]]
    assert values["acc_parsed,none"] == sum(o["acc"] for o in parsed) / len(parsed) >= values["acc,none"]
    assert len(lm.requests) == 3 * 4 and {r.request_type for r in lm.requests} == {"generate_until"}
    first = sorted((r for r in lm.requests if r.doc_id == 0), key=lambda r: r.idx)
    assert all(r.args[0].startswith(INSTRUCTION + "\n") and r.args[0].endswith("\n") for r in first)
    assert len({r.args[0] for r in first}) == 4  # one context per rotation
    assert first[0].args[1]["until"] == ["\n\n"]
    docs = [s["doc"] for s in results["samples"]["lgmt_divlogiceval"]]
    for question_type in ("3c1e", "3e1c", "missing"):  # per type: the mean over that type's documents
        accs = [[1, 0, 1][k] for k, doc in enumerate(docs) if doc["question_type"] == question_type]
        measured = values[f"acc_{question_type},none"]
        assert measured == sum(accs) / len(accs) if accs else math.isnan(measured)


def test_loglik_end_to_end_exact_metrics(small_repo):
    lm = ScriptedLM()
    results = simple_evaluate(model=lm, tasks=["lgmt_divlogiceval_loglik"], task_manager=manager(small_repo), limit=3)
    values = results["results"]["lgmt_divlogiceval_loglik"]
    assert values["acc,none"] == 2 / 3 and values["circular,none"] == 2 / 3
    assert values["partial_circular,none"] == pytest.approx((1 + 0.25 + 1) / 3, abs=1e-12)
    assert values["unparsed_rate,none"] == 0.0 and values["acc_parsed,none"] == values["acc,none"]
    assert len(lm.requests) == 3 * 16
    first = sorted((r for r in lm.requests if r.doc_id == 0), key=lambda r: r.idx)
    assert [r.args[1] for r in first[:4]] == [" A", " B", " C", " D"]
    assert all(r.args[0].endswith("\nAnswer:") for r in first)


def test_metadata_sets_shots_alpha_and_question_type(small_repo):
    tm = manager(small_repo, shots=3, alpha=0.5, question_type="3e1c")
    task = tm.load(["lgmt_divlogiceval"])["tasks"]["lgmt_divlogiceval"]
    assert task.alpha == 0.5 and task.shots == 3 and len(task.examples) == 3
    assert {d["question_type"] for d in task.eval_docs} == {"3e1c"}
    assert task.config.dataset_kwargs["question_type"] == "3e1c"
    assert task.doc_to_text(task.eval_docs[0]).count("\nAnswer: ") == 3
    with pytest.raises(ValueError, match="shots=2"):
        manager(small_repo, shots=2).load(["lgmt_divlogiceval"])


def test_a_mistyped_metadata_key_is_reported_with_the_valid_keys(small_repo, caplog):
    manager(small_repo, per_typ=1).load(["lgmt_divlogiceval"])
    assert "metadata key 'per_typ' is not a parameter of DivLogicEval (did you mean 'per_type'?)" in caplog.text
    assert (
        "DivLogicEval parameters: per_type, n, pool, dataset_seed, question_type, form, dataset, variant, "
        "dataset_revision, shots, alpha, instruction"
    ) in caplog.text


def test_chat_template_and_num_fewshot(small_repo):
    tm = manager(small_repo)
    task = tm.load(["lgmt_divlogiceval_loglik"])["tasks"]["lgmt_divlogiceval_loglik"]
    lm = ScriptedLM()
    contexts = task.fewshot_context(
        task.eval_docs[0],
        0,
        system_instruction="Be careful.",
        apply_chat_template=True,
        chat_template=lm.apply_chat_template,
    )
    assert contexts[0].startswith("<system>Be careful.</system><user>You need to answer")
    assert contexts[0].endswith("</user><assistant>Answer:")
    with pytest.raises(ValueError, match="shots"):
        task.fewshot_context(task.eval_docs[0], 3)


def test_process_results_reject_a_wrong_number_of_results():
    doc = {"id": "x", "answer": 0, "options": ["a", "b", "c", "d"], "question_type": "3c1e"}
    with pytest.raises(ValueError, match="3 results for 4 rotations"):
        divlogiceval_utils.process_generation_results(doc, ["a", "b", "c"])
    with pytest.raises(ValueError, match="4 results for 4 rotations \\(4 per rotation\\)"):
        divlogiceval_utils.process_loglik_results(doc, [(0.0, False)] * 4)
    letter_a = [(0.0, False), (-1.0, False), (-1.0, False), (-1.0, False)]
    out = divlogiceval_utils.process_loglik_results(doc, letter_a * 4)
    # always position A: original options 0, 1, 2, 3 over the rotations
    assert out["acc"]["acc"] == 1.0 and out["circular"]["rotation_acc"] == 0.25 and "acc_3c1e" in out


def test_generated_yamls_are_current() -> None:
    for name, text in _generate.render_all().items():
        assert (CONFIGS / "divlogiceval" / name).read_text(encoding="utf-8") == text, f"re-run _generate.py ({name})"


def test_every_per_type_metric_has_its_aggregation() -> None:
    """The per-type metrics come from the question types' one declaration; the YAML's names resolve to them."""
    from lgmt_tasks.divlogiceval.config import QUESTION_TYPES

    assert set(divlogiceval_utils.TYPE_AGGREGATIONS) == {
        f"{name}_{t}" for name in divlogiceval_utils.BREAKDOWN for t in QUESTION_TYPES
    }
    for name, aggregate in divlogiceval_utils.TYPE_AGGREGATIONS.items():
        assert getattr(divlogiceval_utils, f"{name}_aggregation") is aggregate


def test_load_docs_takes_the_schema_parameters_with_lm_evals_defaults(small_repo):
    from lgmt_tasks.divlogiceval.dataset import symbolic_formula

    assert divlogiceval_utils.loader_params({})["per_type"] == 300  # the task's default: the shipped build (#38)
    assert divlogiceval_utils.loader_params({"per_type": "5"})["per_type"] == 5  # coerced like a -T value
    docs = divlogiceval_utils.load_docs(dataset=str(small_repo), form="symbolic", question_type="3c1e")["test"]
    assert len(docs) > 0 and {d["question_type"] for d in docs} == {"3c1e"}
    for doc in docs:
        assert doc["options"] == [symbolic_formula(o) for o in doc["options_logic"]]
        assert doc["content_natural"] != doc["content"]
    with pytest.raises(ValueError, match="form='formal'"):
        divlogiceval_utils.load_docs(dataset=str(small_repo), form="formal")
