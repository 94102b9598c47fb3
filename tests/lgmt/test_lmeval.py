"""The LGMT lm-eval tasks: indexing, prompts, requests, exact metrics with a scripted LM, and (slow) a real model."""

from __future__ import annotations

import hashlib
import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lm_eval import simple_evaluate
from lm_eval.api.instance import Instance
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.scorers.pairwise import RATE_NAMES
from lgmt_tasks.solvers.prompts import render_user_prompt, system_prompt
from lgmt_tasks.suites import suite
from lgmt_tasks.task_configs import _label_groups
from lgmt_tasks.task_configs._label_groups import ANSWER_CUE, LABELS
from lgmt_tasks.task_configs._params import dataset_params
from lgmt_tasks.task_configs.lgmt import _generate
from lgmt_tasks.task_configs.lgmt import utils as lgmt_utils

CONFIGS = Path(task_configs.__file__).parent
RELATION_SETS = ("mr_e", "mr_s", "mr_p", "mr_c")
TASKS = {f"lgmt_{rs}" for rs in RELATION_SETS} | {f"lgmt_{rs}_loglik" for rs in RELATION_SETS}
POOLED = {"lgmt", "lgmt_loglik"}
"""The headline tasks over all 20 relations (lm-eval groups until task version 5-B, issue #41)."""
TAGS = {"lgmt_categories", "lgmt_categories_loglik"}


# --- fixtures and the scripted LM ------------------------------------------------------------------------------


# `built_dataset` (one small build of all 20 relations) is in conftest.py (as in tests/task_configs/conftest.py).


def manager(dataset: str, **metadata: Any) -> TaskManager:
    return TaskManager(include_path=str(CONFIGS), include_defaults=False, metadata={"dataset": dataset, **metadata})


def other(label: str) -> str:
    """A wrong label, deterministically."""
    return LABELS[(LABELS.index(label) + 1) % len(LABELS)]


# Per document (by position): the answer of each member, from the gold label; None = no parsable answer.
PLAN: dict[int, Callable[[str], tuple[str | None, str | None]]] = {
    0: lambda gold: (gold, gold),  # consistent and correct
    1: lambda gold: (gold, other(gold)),  # violation, source correct: a hidden defect
    2: lambda gold: (other(gold), other(gold)),  # consistent but wrong: false unreported
    3: lambda gold: (other(gold), gold),  # violation, source wrong
    4: lambda gold: (None, gold),  # source unparsed: the group leaves every denominator but unparsed_rate's
}


class ScriptedLM(LM):
    """Answers from `PLAN` by document position; records every request it receives."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Instance] = []

    def _answer(self, request: Instance, member: int) -> str | None:
        plan = PLAN[request.doc_id % len(PLAN)]
        return plan(request.doc["label"])[member]

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        out = []
        for request in requests:
            label = self._answer(request, request.idx)
            if label is None:
                out.append("I cannot decide; it could be True or False.")
            elif request.idx == 0:
                out.append(f'{{"reasoning": "Step 1: scripted.", "label": "{label}"}}')
            else:
                out.append(f"Let me think.\nThe answer is {label}.")  # read by the lenient stage
        return out

    def loglikelihood(self, requests: list[Instance], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        self.requests += requests
        out = []
        for request in requests:
            member, j = divmod(request.idx, len(LABELS))
            out.append((-0.5 if self._answer(request, member) == LABELS[j] else -3.0, False))
        return out

    def loglikelihood_rolling(self, requests: list[Instance], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError

    @property
    def tokenizer_name(self) -> str:
        return "scripted"

    def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
        text = "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in chat_history)
        if not add_generation_prompt:  # continue the final (assistant) message
            return text.removesuffix("</assistant>")
        return text + "<assistant>"


def metrics_of(results: dict[str, Any], name: str) -> dict[str, float]:
    return {metric: results["results"][name][f"{metric},none"] for metric in RATE_NAMES}


# --- indexing and packaging ------------------------------------------------------------------------------------


def test_task_manager_indexes_exactly_our_tasks():
    assert TASKS | POOLED == set(suite("lgmt").lm_eval_tasks)  # the registry's names, unchanged
    tm = TaskManager(include_path=str(CONFIGS / "lgmt"), include_defaults=False)
    assert set(tm.all_subtasks) == TASKS | POOLED
    assert tm.all_groups == []  # a group's value is a weighted mean of task values, not a pooled rate (issue #41)
    assert set(tm.all_tags) == TAGS
    whole = TaskManager(include_path=str(CONFIGS), include_defaults=False)  # what `lgmt lm-eval-path` points at
    assert TASKS | POOLED <= set(whole.all_tasks)


def test_lm_eval_path_points_at_the_configs():
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    result = CliRunner().invoke(main, ["lm-eval-path"])
    assert result.exit_code == 0
    folder = Path(result.output.strip())
    assert folder == CONFIGS
    assert {p.stem for p in (folder / "lgmt").glob("lgmt*.yaml")} == TASKS | POOLED


def test_generated_yamls_are_current():
    for name, text in _generate.render_all().items():
        assert (CONFIGS / "lgmt" / name).read_text(encoding="utf-8") == text, f"re-run _generate.py ({name})"


def test_task_yamls_name_the_relation_set_under_its_new_key():
    for relation_set in RELATION_SETS:
        for suffix in ("", "_loglik"):
            text = (CONFIGS / "lgmt" / f"lgmt_{relation_set}{suffix}.yaml").read_text(encoding="utf-8")
            assert f"\n  relation_set: {relation_set}\n" in text and "suite:" not in text


# --- pure helpers ------------------------------------------------------------------------------------------------


def test_member_prompts_match_the_inspect_task(built_dataset):
    from lgmt_tasks.hub.repo import load_dataset_repo
    from lgmt_tasks.lgmt.dataset import record_to_sample

    rows = load_dataset_repo(built_dataset)
    for row in rows.select(range(5)):
        assert _label_groups.member_prompts(row) == record_to_sample(dict(row)).metadata["members"]


def test_member_prompts_include_extra_followups():
    doc = {
        "premises": ["A."],
        "conclusion": "B.",
        "followup_premises": ["A!"],
        "followup_conclusion": "B!",
        "extra_followups": [{"premises": ["C."], "conclusion": "D."}],
    }
    assert _label_groups.member_prompts(doc) == [
        render_user_prompt(["A."], "B."),
        render_user_prompt(["A!"], "B!"),
        render_user_prompt(["C."], "D."),
    ]


def test_interleave_by_relation_is_round_robin():
    import datasets

    rows = datasets.Dataset.from_dict({"mr": ["E1", "E1", "E1", "E2", "S1+C3", "S1"], "n": [0, 1, 2, 3, 4, 5]})
    assert lgmt_utils.interleave_by_relation(rows)["n"] == [0, 3, 4, 1, 5, 2]


DEFAULTS = lgmt_utils.SCHEMA.lm_eval_defaults()
"""Every dataset parameter reaches the loader: the run's value, else the schema's lm-eval default."""


def test_dataset_params_metadata_overrides_but_cannot_change_the_relation_set(caplog):
    params = dataset_params(
        lgmt_utils.PARAMS,
        {"relation_set": "mr_e", "per_mr": 20, "seed": 0},
        {"per_mr": 3, "relation_set": "mr_s", "pretrained": "x", "revision": "main", "version": "1-A"},
    )
    assert params == {**DEFAULTS, "relation_set": "mr_e", "per_mr": 3, "seed": 0}
    assert "metadata relation_set='mr_s' is ignored: the task fixes relation_set='mr_e'" in caplog.text
    with pytest.raises(ValueError, match="no 'relation_set'"):
        dataset_params(lgmt_utils.PARAMS, {"per_mr": 3}, {})
    # a YAML that leaves the relation set out takes it from the metadata
    assert dataset_params(lgmt_utils.PARAMS, {"per_mr": 3}, {"relation_set": "mr_c"}) == {
        **DEFAULTS,
        "relation_set": "mr_c",
        "per_mr": 3,
    }
    with pytest.raises(
        ValueError, match=re.escape("unknown key(s) 'per_mrr' (did you mean 'per_mr'?); valid: relation_set")
    ):
        dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_e", "per_mrr": 3}, {})


def test_suite_is_the_deprecated_name_of_relation_set(caplog):
    with pytest.warns(DeprecationWarning, match="'suite' is deprecated, use 'relation_set'"):
        params = dataset_params(lgmt_utils.PARAMS, {"suite": "mr_s", "per_mr": 2}, {})
    assert params == {**DEFAULTS, "relation_set": "mr_s", "per_mr": 2}
    assert "LGMT dataset_kwargs: 'suite' is deprecated, use 'relation_set'" in caplog.text  # also logged
    with pytest.warns(DeprecationWarning, match="relation_set"):  # in the metadata, for a YAML without one
        assert dataset_params(lgmt_utils.PARAMS, {}, {"suite": "mr_p"}) == {**DEFAULTS, "relation_set": "mr_p"}
    both = {"suite": "mr_s", "relation_set": "mr_s"}
    with pytest.raises(ValueError, match="LGMT dataset_kwargs: both 'suite' and 'relation_set' are given"):
        dataset_params(lgmt_utils.PARAMS, both, {})
    with pytest.raises(ValueError, match="LGMT metadata: both 'suite' and 'relation_set' are given"):
        dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_e"}, both)


def test_load_docs_reads_suite_with_a_warning(built_dataset):
    with pytest.warns(DeprecationWarning, match="relation_set"):
        old = lgmt_utils.load_docs(suite="mr_s", dataset=built_dataset)["test"]
    new = lgmt_utils.load_docs(relation_set="mr_s", dataset=built_dataset)["test"]
    assert old["id"] == new["id"] and {doc["category"] for doc in new} == {"MR-S"}
    with pytest.raises(ValueError, match="both 'suite' and 'relation_set'"):
        lgmt_utils.load_docs(suite="mr_s", relation_set="mr_s", dataset=built_dataset)
    with pytest.raises(ValueError, match="relation_set='mr_x': expected one of mr_e"):
        lgmt_utils.load_docs(relation_set="mr_x", dataset=built_dataset)


def old_style_yaml(folder: Path, dataset_kwargs: str) -> TaskManager:
    """A user's YAML written against the previous release (`dataset_kwargs.suite`)."""
    shutil.copy(CONFIGS / "lgmt" / "_lgmt_generate.yaml", folder / "_lgmt_generate.yaml")
    (folder / "lgmt_old_style.yaml").write_text(
        f"include: _lgmt_generate.yaml\ntask: lgmt_old_style\ndataset_kwargs:\n{dataset_kwargs}", encoding="utf-8"
    )
    return TaskManager(include_path=str(folder), include_defaults=False)


def test_an_old_style_yaml_with_suite_still_loads(built_dataset, tmp_path):
    tm = old_style_yaml(tmp_path, f"  suite: mr_s\n  per_mr: 20\n  dataset: {built_dataset}\n")
    with pytest.warns(DeprecationWarning, match="'suite' is deprecated, use 'relation_set'"):
        task = tm.load(["lgmt_old_style"])["tasks"]["lgmt_old_style"]
    assert task.config.dataset_kwargs == {**DEFAULTS, "relation_set": "mr_s", "per_mr": 20, "dataset": built_dataset}
    assert {doc["category"] for doc in task.eval_docs} == {"MR-S"}
    both = old_style_yaml(tmp_path, f"  suite: mr_s\n  relation_set: mr_e\n  dataset: {built_dataset}\n")
    with pytest.raises(ValueError, match="both 'suite' and 'relation_set'"):
        both.load(["lgmt_old_style"])


@pytest.mark.parametrize(
    ("prompting", "output_type", "ok"),
    [
        ("zero_shot_cot", "generate_until", True),
        ("few_shot", "generate_until", True),
        ("zero_shot", "loglikelihood", True),
        ("few_shot", "loglikelihood", True),
        ("zero_shot_cot", "loglikelihood", False),
        ("cot", "generate_until", False),
    ],
)
def test_check_prompting(prompting, output_type, ok):
    if ok:
        assert _label_groups.check_prompting(prompting, output_type) == prompting
    else:
        with pytest.raises(ValueError, match="expected one of"):
            _label_groups.check_prompting(prompting, output_type)


def test_argmax_label_breaks_ties_in_label_order():
    assert lgmt_utils.argmax_label([-2.0, -1.0, -3.0]) == "False"
    assert lgmt_utils.argmax_label([-1.0, -1.0, -1.0]) == "True"
    assert lgmt_utils.argmax_label([-9.0, -1.0, -1.0]) == "False"


def test_process_results_reject_a_wrong_number_of_results():
    doc = {"id": "g1", "label": "True", "extra_followups": []}
    with pytest.raises(ValueError, match="'g1': 3 results for 2 members"):
        lgmt_utils.process_generation_results(doc, ["a", "b", "c"])
    with pytest.raises(ValueError, match="2 results for 2 members \\(3 per member\\)"):
        lgmt_utils.process_loglik_results(doc, [(0.0, False)] * 2)


def test_process_results_give_the_group_outcome_to_every_metric():
    doc = {"id": "g1", "label": "True", "extra_followups": []}
    out = lgmt_utils.process_generation_results(doc, ['{"label": "True"}', '{"label": "False"}'])
    assert set(out) == {*RATE_NAMES, "acc_static_per_case"} == set(lgmt_utils.METRICS)
    assert out["mvr"]["violation"] == 1 and out["mvr"]["hidden_defect"] == 1 and out["mvr"]["parsed"] == 1


# --- task construction --------------------------------------------------------------------------------------------


def test_tasks_load_with_parameters_from_metadata(built_dataset):
    loaded = manager(built_dataset, prompting="zero_shot").load(["lgmt_mr_e", "lgmt_mr_s_loglik"])
    gen, loglik = loaded["tasks"]["lgmt_mr_e"], loaded["tasks"]["lgmt_mr_s_loglik"]
    assert gen.config.dataset_kwargs["dataset"] == built_dataset  # the effective parameters are recorded
    assert gen.config.metadata["prompting"] == "zero_shot"
    assert {doc["category"] for doc in gen.eval_docs} == {"MR-E"}
    assert {doc["category"] for doc in loglik.eval_docs} == {"MR-S"}
    assert gen.doc_to_text(gen.eval_docs[0]).startswith(system_prompt("zero_shot") + "\n\nPremises:\n")
    assert (
        gen.config.dataset_kwargs["relation_set"] == "mr_e" and loglik.config.dataset_kwargs["relation_set"] == "mr_s"
    )


def test_every_task_evaluates_the_rows_of_its_relation_set(built_dataset):
    from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt_rows

    loaded = manager(built_dataset).load(sorted(TASKS))["tasks"]
    for relation_set in RELATION_SETS:
        expected = lgmt_utils.interleave_by_relation(load_lgmt_rows(MR_SETS[relation_set], dataset=built_dataset))
        for name in (f"lgmt_{relation_set}", f"lgmt_{relation_set}_loglik"):
            assert loaded[name].eval_docs["id"] == expected["id"]


def test_default_prompting_per_variant(built_dataset):
    loaded = manager(built_dataset).load(["lgmt_mr_c", "lgmt_mr_c_loglik"])
    assert loaded["tasks"]["lgmt_mr_c"].prompting == "zero_shot_cot"
    assert loaded["tasks"]["lgmt_mr_c_loglik"].prompting == "zero_shot"


def test_loglik_rejects_a_chain_of_thought_prompt(built_dataset):
    with pytest.raises(ValueError, match="zero_shot_cot"):
        manager(built_dataset, prompting="zero_shot_cot").load(["lgmt_mr_p_loglik"])


# --- end to end with the scripted LM: exact metrics ------------------------------------------------------------


def test_generation_end_to_end_exact_metrics(built_dataset):
    lm = ScriptedLM()
    results = simple_evaluate(
        model=lm, tasks=["lgmt_mr_e"], task_manager=manager(built_dataset), limit=5, log_samples=True
    )
    # docs 0–3 parse: violations in 1 and 3; sources correct in 0 and 1; doc 4's source is unparsed.
    # The accuracies count doc 4 as wrong; their `_parsed` twins leave it out.
    assert metrics_of(results, "lgmt_mr_e") == {
        "mvr": 0.5,
        "acc_static": 0.4,
        "acc_cons": 0.2,
        "hdr": 0.25,
        "fur": 0.25,
        "unparsed_rate": 0.2,
        "acc_static_parsed": 0.5,
        "acc_cons_parsed": 0.25,
    }
    assert len(lm.requests) == 10 and {r.request_type for r in lm.requests} == {"generate_until"}
    first = [r for r in lm.requests if r.doc_id == 0]
    assert sorted(r.idx for r in first) == [0, 1]
    context, gen_kwargs = first[0].args
    assert context.startswith(system_prompt("zero_shot_cot")) and context.endswith("Output raw JSON only:\n")
    assert gen_kwargs["until"] == ["\nPremises:"] and gen_kwargs["do_sample"] is False
    samples = results["samples"]["lgmt_mr_e"]
    assert [s["mvr"]["violation"] for s in samples] == [0, 1, 0, 1, 0]


def test_loglik_end_to_end_exact_metrics(built_dataset):
    lm = ScriptedLM()
    results = simple_evaluate(model=lm, tasks=["lgmt_mr_p_loglik"], task_manager=manager(built_dataset), limit=4)
    assert metrics_of(results, "lgmt_mr_p_loglik") == {
        "mvr": 0.5,
        "acc_static": 0.5,
        "acc_cons": 0.25,
        "hdr": 0.25,
        "fur": 0.25,
        "unparsed_rate": 0.0,
        "acc_static_parsed": 0.5,
        "acc_cons_parsed": 0.25,
    }
    assert len(lm.requests) == 4 * 2 * 3
    first = sorted((r for r in lm.requests if r.doc_id == 0), key=lambda r: r.idx)
    assert [r.args[1] for r in first] == [*LABELS, *LABELS]
    assert all(r.args[0].endswith("Output raw JSON only:\n" + ANSWER_CUE) for r in first)
    assert first[0].args[0] == first[2].args[0] != first[3].args[0]  # one context per member


def test_the_category_tag_runs_the_four_tasks_as_separate_rows(built_dataset):
    tm = manager(built_dataset)
    results = simple_evaluate(model=ScriptedLM(), tasks=["lgmt_categories"], task_manager=tm, limit=2)
    assert set(results["results"]) == {f"lgmt_{rs}" for rs in RELATION_SETS}  # no combined row


def test_pooled_tasks_report_one_number_per_metric(built_dataset):
    lm = ScriptedLM()
    results = simple_evaluate(model=lm, tasks=["lgmt", "lgmt_loglik"], task_manager=manager(built_dataset), limit=10)
    # Docs 0-9 in PLAN order, twice: two consistent-correct groups, two hidden defects, two false unreported, two
    # violations with a wrong source, and two unparsed sources (log-likelihood answers always parse).
    assert metrics_of(results, "lgmt") == {
        "mvr": 4 / 8,
        "acc_static": 4 / 10,
        "acc_cons": 2 / 10,
        "hdr": 2 / 8,
        "fur": 2 / 8,
        "unparsed_rate": 2 / 10,
        "acc_static_parsed": 4 / 8,
        "acc_cons_parsed": 2 / 8,
    }
    # Log-likelihood answers always parse: the unparsed sources of docs 4 and 9 score every label alike, so their
    # answer is the first label, True, a violation where the gold label (the follow-up's answer) is not True.
    docs = lgmt_utils.load_docs("lgmt", dataset=built_dataset)["test"]
    flips = sum(docs[i]["label"] != "True" for i in (4, 9))
    loglik = metrics_of(results, "lgmt_loglik")
    assert loglik["unparsed_rate"] == 0.0 and loglik["mvr"] == (4 + flips) / 10


# --- the pooled headline against the Inspect task ------------------------------------------------------------------


def scripted_label(prompt: str) -> str:
    """A label that depends on the prompt alone (so lm-eval and Inspect get the same answer to the same member)."""
    return LABELS[hashlib.sha256(prompt.encode()).digest()[0] % len(LABELS)]


def mr_c_followups(rows: list[dict[str, Any]]) -> set[str]:
    """The follow-up prompts of the MR-C groups: the scripted model answers them in prose (unparsed)."""
    return {p for row in rows if row["category"] == "MR-C" for p in _label_groups.member_prompts(row)[1:]}


def scripted_reply(prompt: str, unparsed: set[str]) -> str:
    return "It depends on the reading." if prompt in unparsed else f'{{"label": "{scripted_label(prompt)}"}}'


class PromptScriptedLM(ScriptedLM):
    """Answers each member by its user prompt: `scripted_reply` (the MR-C follow-ups unparsed)."""

    def __init__(self, unparsed: set[str]) -> None:
        super().__init__()
        self.unparsed = unparsed

    def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
        self.requests += requests
        return [scripted_reply(_label_groups.member_prompts(r.doc)[r.idx], self.unparsed) for r in requests]


def pooled_counts(rows: list[dict[str, Any]], unparsed: set[str]) -> dict[str, Any]:
    """Violations, parsed groups and groups, counted by hand from the scripted answers (not by our scorer)."""
    counts = {"groups": 0, "parsed": 0, "violations": 0, "by_category": {}}
    for row in rows:
        prompts = _label_groups.member_prompts(row)
        answers = [None if p in unparsed else scripted_label(p) for p in prompts]
        parsed = all(a is not None for a in answers)
        violated = parsed and any(a != answers[0] for a in answers[1:])
        category = counts["by_category"].setdefault(row["category"], {"groups": 0, "parsed": 0, "violations": 0})
        for tally in (counts, category):
            tally["groups"] += 1
            tally["parsed"] += parsed
            tally["violations"] += violated
    return counts


def test_the_pooled_headline_is_the_pooled_count_with_one_category_all_unparsed(built_dataset, tmp_path):
    """Issue #41: MR-C is all unparsed, the others have known violations; lm-eval's `lgmt` reports the pooled
    rates (never NaN while any group parsed) and the Inspect task `lgmt` reports the same on the same rows."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from lgmt_tasks.lgmt.task import lgmt

    rows = [dict(r) for r in lgmt_utils.load_docs("lgmt", dataset=built_dataset)["test"]]
    unparsed = mr_c_followups(rows)
    others = {p for row in rows if row["category"] != "MR-C" for p in _label_groups.member_prompts(row)}
    assert unparsed and not unparsed & others  # precondition: an MR-C follow-up is asked nowhere else
    counts = pooled_counts(rows, unparsed)
    assert counts["by_category"]["MR-C"]["parsed"] == 0 and 0 < counts["violations"] < counts["parsed"]

    results = simple_evaluate(
        model=PromptScriptedLM(unparsed), tasks=["lgmt"], task_manager=manager(built_dataset, prompting="zero_shot")
    )
    headline = results["results"]["lgmt"]
    assert results["n-samples"]["lgmt"]["effective"] == len(rows) == counts["groups"]
    assert headline["mvr,none"] == counts["violations"] / counts["parsed"]
    assert math.isclose(headline["unparsed_rate,none"], (counts["groups"] - counts["parsed"]) / counts["groups"])
    for category, tally in counts["by_category"].items():
        suffix = category.lower().replace("-", "_")
        share = (tally["groups"] - tally["parsed"]) / tally["groups"]
        assert math.isclose(headline[f"unparsed_rate_{suffix},none"], share)
        if tally["parsed"]:
            assert headline[f"mvr_{suffix},none"] == tally["violations"] / tally["parsed"]
        else:
            assert math.isnan(headline[f"mvr_{suffix},none"])  # MR-C alone: no parsed group, said in a warning
    for metric in RATE_NAMES:
        assert not math.isnan(headline[f"{metric},none"]), metric

    def reply(messages: list[Any], *_: Any) -> ModelOutput:
        prompt = next(m.text for m in messages if m.role == "user")
        output = ModelOutput.from_content("mockllm/model", scripted_reply(prompt, unparsed))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    [log] = inspect_eval(
        lgmt(dataset=built_dataset, prompting="zero_shot"),
        model=get_model("mockllm/model", custom_outputs=reply),
        display="none",
        log_dir=str(tmp_path),
    )
    assert log.status == "success" and log.results is not None
    inspect_metrics = {name: m.value for score in log.results.scores for name, m in score.metrics.items()}
    for metric in (*RATE_NAMES, "acc_static_per_case"):  # #38: lm-eval reports the per-case accuracy too
        assert math.isclose(inspect_metrics[metric], headline[f"{metric},none"]), metric
    # counted by hand: each distinct source case once, its accuracy the mean over its groups (scripted by prompt)
    by_case: dict[tuple[str, str], list[bool]] = {}
    for row in rows:
        source = _label_groups.member_prompts(row)[0]
        by_case.setdefault((row["source_dataset"], row["source_id"]), []).append(scripted_label(source) == row["label"])
    per_case = sum(sum(right) / len(right) for right in by_case.values()) / len(by_case)
    assert len(by_case) < len(rows)  # some case is the source of several groups: the two accuracies differ in kind
    assert math.isclose(headline["acc_static_per_case,none"], per_case)


def test_a_nan_rate_is_logged_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    outcome = {"parsed": 0, "violation": 0, "category": "MR-C"}
    with caplog.at_level("WARNING"):
        assert math.isnan(lgmt_utils.mvr_mr_c_aggregation([outcome, outcome]))
        assert lgmt_utils.mvr_mr_e_aggregation([outcome]) != lgmt_utils.mvr_mr_e_aggregation([outcome])  # NaN
    assert "mvr_mr_c is NaN: none of the 2 documents (category=MR-C) has a parsed answer" in caplog.text
    assert "mvr_mr_e is NaN: none of the 0 documents (category=MR-E)" in caplog.text


def test_chat_template_and_system_instruction(built_dataset):
    lm = ScriptedLM()
    simple_evaluate(
        model=lm,
        tasks=["lgmt_mr_c", "lgmt_mr_c_loglik"],
        task_manager=manager(built_dataset),
        limit=1,
        apply_chat_template=True,
        system_instruction="Be careful.",
    )
    by_type = {r.request_type: r.args[0] for r in lm.requests if r.idx == 0}
    system = f"<system>Be careful.\n\n{system_prompt('zero_shot_cot')}</system><user>Premises:\n"
    assert by_type["generate_until"].startswith(system)
    assert by_type["generate_until"].endswith("Output raw JSON only:</user><assistant>")
    assert by_type["loglikelihood"].startswith(f"<system>Be careful.\n\n{system_prompt('zero_shot')}</system>")
    assert by_type["loglikelihood"].endswith(f"</user><assistant>{ANSWER_CUE}")


def test_num_fewshot_is_refused(built_dataset):
    tm = manager(built_dataset)
    task = tm.load(["lgmt_mr_s"])["tasks"]["lgmt_mr_s"]
    with pytest.raises(ValueError, match="few_shot"):
        task.fewshot_context(task.eval_docs[0], num_fewshot=2)


# --- a real model, offline ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_real_model_generation_and_loglik(built_dataset):
    """SmolLM2-135M-Instruct (the embedded model, converted to float32) through lm-eval's own `hf` model.

    Two groups per variant (4 generations, 12 label log-likelihoods over 4 contexts): about a minute on two idle
    cores, most of it importing, loading the model and building the dataset.
    """
    pytest.importorskip("transformers")
    from lgmt_tasks.models.smollm2 import ensure_converted

    folder = ensure_converted()
    results = simple_evaluate(
        model="hf",
        model_args={"pretrained": str(folder), "dtype": "float32", "device": "cpu"},
        tasks=["lgmt_mr_e", "lgmt_mr_e_loglik"],
        task_manager=manager(built_dataset, prompting="zero_shot"),
        limit=2,
        apply_chat_template=True,
        gen_kwargs={"max_gen_toks": 32},
        batch_size=4,
    )
    for name in ("lgmt_mr_e", "lgmt_mr_e_loglik"):
        assert results["n-samples"][name]["effective"] == 2
        values = metrics_of(results, name)
        assert 0.0 <= values["unparsed_rate"] <= 1.0
        for metric in RATE_NAMES:  # NaN only when no group parsed, and never an accuracy over all groups
            over_all_groups = metric in ("unparsed_rate", "acc_static", "acc_cons")
            assert math.isnan(values[metric]) == (values["unparsed_rate"] == 1.0 and not over_all_groups)
    assert metrics_of(results, "lgmt_mr_e_loglik")["unparsed_rate"] == 0.0
