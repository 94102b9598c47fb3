"""Where our lm-eval tasks meet lm-eval's own handling of a run: the metadata lm-eval merges in, `--num_fewshot`,
and a generation prefill for small models.

The metadata tests go through lm-eval's real command-line configuration (`EvaluatorConfig.from_cli`, which merges
`--model_args` into `--metadata`), so the keys lm-eval injects are the ones a user's run has.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from lm_eval import simple_evaluate
from lm_eval._cli.harness import HarnessCLI
from lm_eval.api.instance import Instance
from lm_eval.api.model import LM
from lm_eval.config.evaluate_config import EvaluatorConfig
from lm_eval.tasks import TaskManager

import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.scorers.pairwise import RATE_NAMES
from lgmt_tasks.task_configs import _label_groups, _params
from lgmt_tasks.task_configs._label_groups import ANSWER_CUE, PREFILLS

CONFIGS = Path(task_configs.__file__).parent
REPO = CONFIGS.parent
LOGICASKER_DATASET = str(REPO / "datasets" / "logicasker")
"""The committed LogicAsker build (read, never written)."""

MULTI_REQUEST_SUITES = ("lgmt", "lexical", "divlogiceval")
"""The suites whose tasks are `MultiRequestTask`s (LogicAsker and QMFOL are plain lm-eval YAML tasks)."""


def cli_metadata(*argv: str) -> dict[str, Any]:
    """The task metadata of an `lm_eval run` command line: lm-eval's own parsing, `--model_args` merged in."""
    args = HarnessCLI()._parser.parse_args(["run", "--tasks", "lgmt_mr_e", *argv])
    return dict(EvaluatorConfig.from_cli(args).metadata)


def load(suite: str, task: str, metadata: dict[str, Any]) -> Any:
    manager = TaskManager(include_path=str(CONFIGS / suite), include_defaults=False, metadata=metadata)
    return manager.load([task])["tasks"][task]


def our_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == _params.__name__ and r.levelno == logging.WARNING]


class ContinuingLM(LM):
    """A model that continues every context with `completion` (and prefers `True`); records the requests."""

    def __init__(self, completion: str = 'True"}') -> None:
        super().__init__()
        self.completion = completion
        self.requests: list[Instance] = []

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        return [self.completion for _ in requests]

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        self.requests += requests
        return [(-0.5 if r.args[1] in ("True", " yes") else -3.0, False) for r in requests]

    def loglikelihood_rolling(self, requests: list[Instance], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError

    @property
    def tokenizer_name(self) -> str:
        return "continuing"

    def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
        text = "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in chat_history)
        return text + "<assistant>" if add_generation_prompt else text.removesuffix("</assistant>")


# --- metadata: unknown keys warn, injected keys do not ------------------------------------------------------------


def test_a_mistyped_key_warns_naming_the_key_the_task_and_the_valid_keys(built_dataset, caplog):
    metadata = cli_metadata(
        "--model", "hf", "--model_args", "pretrained=/models/x,dtype=float32,revision=main",
        "--metadata", json.dumps({"dataset": built_dataset, "per_rm": 3}),
    )  # fmt: skip
    assert metadata["pretrained"] == "/models/x" and metadata["per_rm"] == 3  # lm-eval's merge
    task = load("lgmt", "lgmt_mr_e", metadata)
    valid = (
        "LGMT parameters: relation_set, source, source_path, per_mr, followups, compose, names, direction, p4, p5, "
        "depth, width, dataset_seed, translator, dataset, dataset_revision, prompting, prefill"
    )
    # One warning only: not for the model arguments (pretrained, dtype, revision) nor lm-eval's version/config_source.
    assert our_warnings(caplog) == [
        f"lgmt_mr_e: metadata key 'per_rm' is not a parameter of LGMT (did you mean 'per_mr'?); it is ignored. {valid}"
    ]
    assert task.config.dataset_kwargs["per_mr"] == 200  # the default (the shipped build's): the typo changed nothing


def test_a_plain_yaml_task_is_named_too(caplog):
    task = load("logicasker", "lgmt_logicasker", {"dataset": LOGICASKER_DATASET, "per_skil": 1})
    assert len(task.eval_docs) > 0
    assert our_warnings(caplog) == [
        "lgmt_logicasker: metadata key 'per_skil' is not a parameter of LogicAsker (did you mean 'per_skill'?); it is "
        "ignored. LogicAsker parameters: logic, category, rule, length, per_skill, dataset_seed, dataset, "
        "dataset_revision"
    ]


def test_the_keys_lm_eval_injects_do_not_warn(built_dataset, caplog):
    metadata = cli_metadata(
        "--model", "hf", "--model_args", "pretrained=/models/x,dtype=float32,device=cpu,revision=main,batch_size=2",
        "--metadata", json.dumps({"dataset": built_dataset, "per_mr": 1, "prompting": "zero_shot"}),
    )  # fmt: skip
    task = load("lgmt", "lgmt_mr_e_loglik", metadata)
    assert {"version", "config_source", "pretrained", "dtype", "device", "revision"} <= set(task.config.metadata)
    assert our_warnings(caplog) == []
    assert task.config.dataset_kwargs["per_mr"] == 1


SEED_SCRIPT = textwrap.dedent(
    """
    import json, logging, sys
    from lm_eval._cli.harness import HarnessCLI
    from lm_eval.config.evaluate_config import EvaluatorConfig
    from lm_eval.tasks import TaskManager

    configs, dataset = sys.argv[1:]
    records = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())
    logging.getLogger("lgmt_tasks.task_configs._params").addHandler(handler)

    def run(model, model_args, metadata):
        argv = ["run", "--tasks", "lgmt_mr_e", "--model", model, "--model_args", model_args, "--metadata", metadata]
        cfg = EvaluatorConfig.from_cli(HarnessCLI()._parser.parse_args(argv))
        if model != "hf":  # lm-eval builds the model (so imports its class) before it loads the tasks
            from lm_eval.api.registry import get_model
            get_model(model)
        tm = TaskManager(include_path=configs, include_defaults=False, metadata=cfg.metadata)
        task = tm.load(["lgmt_mr_e"])["tasks"]["lgmt_mr_e"]
        out = {"seed": task.config.dataset_kwargs["seed"], "warnings": list(records)}
        records.clear()
        return out

    data = json.dumps({"dataset": dataset})
    print(json.dumps([
        run("hf", "pretrained=/models/x", json.dumps({"dataset": dataset, "seed": 5})),
        run("local-completions", "model=x,base_url=http://127.0.0.1:9/v1/completions,seed=7", data),
        run("local-completions", "model=x,base_url=http://127.0.0.1:9/v1/completions,seed=7",
            json.dumps({"dataset": dataset, "dataset_seed": 3})),
    ]))
    """
)


def test_a_models_seed_never_chooses_the_rows_and_dataset_seed_does(built_dataset):
    """In a fresh process, since which model classes are imported decides which keys are model arguments."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", SEED_SCRIPT, str(CONFIGS / "lgmt"), built_dataset],
        capture_output=True, text=True, env=env, cwd=REPO, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    by_hand, by_model, chosen = json.loads(done.stdout.strip().splitlines()[-1])
    # hf takes no seed: a metadata `seed` can only be the user's, and is pointed to `dataset_seed`
    assert by_hand["seed"] == 0
    assert len(by_hand["warnings"]) == 1
    assert by_hand["warnings"][0].startswith(
        "lgmt_mr_e: metadata key 'seed' is not a parameter of LGMT (the build's seed is 'dataset_seed': lm-eval "
        "merges the model arguments into the metadata, where 'seed' may be the model's); it is ignored."
    )
    # an API model's seed=7, merged into the metadata by lm-eval: the model's, silently; the rows stay seed 0
    assert by_model == {"seed": 0, "warnings": []}
    assert chosen == {"seed": 3, "warnings": []}


# --- --num_fewshot -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("suite", MULTI_REQUEST_SUITES)
def test_group_task_yamls_leave_num_fewshot_to_the_run(suite):
    """A YAML `num_fewshot: 0` would make lm-eval skip `--num_fewshot` with an info message: ours leave it out."""
    for path in sorted((CONFIGS / suite).glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        assert not [line for line in lines if line.startswith("num_fewshot:")], path.name


def test_num_fewshot_is_refused_with_what_to_use_instead(built_dataset):
    tm = TaskManager(include_path=str(CONFIGS / "lgmt"), include_defaults=False, metadata={"dataset": built_dataset})
    lm = ContinuingLM()
    with pytest.raises(ValueError, match=r"lgmt_mr_e: num_fewshot=2 \(--num_fewshot\) is not supported.*few_shot"):
        simple_evaluate(model=lm, tasks=["lgmt_mr_e"], task_manager=tm, limit=1, num_fewshot=2)
    assert lm.requests == []  # refused before any request
    for shots in (None, 0):
        results = simple_evaluate(model=lm, tasks=["lgmt_mr_e"], task_manager=tm, limit=1, num_fewshot=shots)
        assert results is not None and results["n-shot"]["lgmt_mr_e"] == 0


@pytest.mark.parametrize("suite", ["logicasker", "qmfol"])
def test_plain_yaml_tasks_refuse_num_fewshot_too(suite: str, slices: dict[str, Path]) -> None:
    """LogicAsker's and QMFOL's YAMLs leave `num_fewshot` out (a fixed 0 would make lm-eval ignore the flag); their
    task class refuses N > 0 before any request, saying what to use instead, and runs with 0 or none."""
    for path in sorted((CONFIGS / suite).glob("*.yaml")):
        assert not [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("num_fewshot:")]
    name = f"lgmt_{suite}"
    tm = TaskManager(
        include_path=str(CONFIGS / suite), include_defaults=False, metadata={"dataset": str(slices[suite])}
    )
    lm = ContinuingLM("Yes.")
    with pytest.raises(ValueError, match=rf"{name}: num_fewshot=3 \(--num_fewshot\) is not supported.*zero-shot"):
        simple_evaluate(model=lm, tasks=[name], task_manager=tm, limit=1, num_fewshot=3)
    assert lm.requests == []  # refused before any request
    results = simple_evaluate(model=lm, tasks=[name], task_manager=tm, limit=2, num_fewshot=0)
    assert results is not None and results["n-shot"][name] == 0


# --- prefill -------------------------------------------------------------------------------------------------------


def test_the_prefills_are_the_inspect_tasks():
    from lgmt_tasks.solvers.group import PREFILLS as INSPECT_PREFILLS

    assert dict(PREFILLS) == dict(INSPECT_PREFILLS)


@pytest.mark.parametrize("chat", [False, True])
def test_prefill_ends_every_context_with_the_json_opening_and_scores_opening_plus_completion(built_dataset, chat):
    metadata = {"dataset": built_dataset, "prompting": "zero_shot", "prefill": "true"}  # as `--metadata prefill=true`
    tm = TaskManager(include_path=str(CONFIGS / "lgmt"), include_defaults=False, metadata=metadata)
    lm = ContinuingLM()
    results = simple_evaluate(model=lm, tasks=["lgmt_mr_e"], task_manager=tm, limit=2, apply_chat_template=chat)
    assert results is not None
    contexts = [r.args[0] for r in lm.requests]
    assert len(contexts) == 4
    end = f"Output raw JSON only:</user><assistant>{ANSWER_CUE}" if chat else f"Output raw JSON only:\n{ANSWER_CUE}"
    assert all(context.endswith(end) for context in contexts)
    assert results["results"]["lgmt_mr_e"]["unparsed_rate,none"] == 0.0
    assert results["configs"]["lgmt_mr_e"]["metadata"]["prefill"] is True


def test_the_parser_reads_the_opening_put_back_before_the_continuation(built_dataset):
    # Only with the opening is this JSON with one label; alone it names two labels (unparsed).
    continuation = 'False", "note": "not True"}'
    for prefill, parsed in ((True, 1), (False, 0)):
        task = load("lgmt", "lgmt_mr_e", {"dataset": built_dataset, "prompting": "zero_shot", "prefill": prefill})
        doc = task.eval_docs[0]
        outcome = task.process_results(doc, [continuation, continuation])
        assert set(outcome) == {*RATE_NAMES, "acc_static_per_case"}
        assert outcome["mvr"]["parsed"] == parsed
    cot = load("lgmt", "lgmt_mr_e", {"dataset": built_dataset, "prefill": True})  # zero_shot_cot by default
    assert cot.answer_cue == '{"reasoning": "'
    assert cot.process_results(cot.eval_docs[0], ['a", "label": "False"}'] * 2)["mvr"]["parsed"] == 1


def test_prefill_changes_nothing_in_loglik_tasks_and_must_be_a_boolean(built_dataset):
    contexts = []
    for prefill in (False, True):
        task = load("lgmt", "lgmt_mr_e_loglik", {"dataset": built_dataset, "prefill": prefill})
        contexts.append(task.fewshot_context(task.eval_docs[0], 0))
        assert task.config.metadata["prefill"] is False  # recorded as what was evaluated
    assert contexts[0] == contexts[1]
    with pytest.raises(ValueError, match="prefill='maybe': expected true or false"):
        load("lgmt", "lgmt_mr_e", {"dataset": built_dataset, "prefill": "maybe"})


def test_prefill_reads_the_words_the_inspect_tasks_read():
    from lgmt_tasks.task_params import FALSE_WORDS, TRUE_WORDS

    assert (_label_groups.TRUE_WORDS, _label_groups.FALSE_WORDS) == (TRUE_WORDS, FALSE_WORDS)
    for word in (*TRUE_WORDS, *FALSE_WORDS):
        assert _label_groups.check_prefill(word.upper()) is (word in TRUE_WORDS)
    assert _label_groups.check_prefill(1) is True and _label_groups.check_prefill(False) is False


@pytest.mark.slow
def test_the_embedded_model_answers_in_json_only_with_the_prefill(built_dataset):
    """SmolLM2-135M-Instruct through lm-eval's `hf` model: without a prefill it writes prose (every answer
    unparsed, as the README says); with it, some answers parse. Two runs of 4 groups (all unparsed without the prefill,
    half parsed with it when measured): about 25 s on two cores."""
    pytest.importorskip("transformers")
    from lgmt_tasks.models.smollm2 import ensure_converted

    model_args = {"pretrained": str(ensure_converted()), "dtype": "float32", "device": "cpu"}
    unparsed = {}
    for prefill in (False, True):
        metadata = {"dataset": built_dataset, "prompting": "zero_shot", "prefill": prefill}
        tm = TaskManager(include_path=str(CONFIGS / "lgmt"), include_defaults=False, metadata=metadata)
        results = simple_evaluate(
            model="hf", model_args=model_args, tasks=["lgmt_mr_e"], task_manager=tm, limit=4,
            apply_chat_template=True, gen_kwargs={"max_gen_toks": 8}, batch_size=16,
        )  # fmt: skip
        assert results is not None
        unparsed[prefill] = results["results"]["lgmt_mr_e"]["unparsed_rate,none"]
    assert unparsed[True] < unparsed[False]
