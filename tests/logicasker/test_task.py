"""The LogicAsker Inspect task end to end with scripted replies: exact metrics, weakness report, demonstrations.

The scripted model (`mockllm/model` with a callable `custom_outputs`) answers by looking up the question it is sent,
so the replies do not depend on the order in which Inspect runs the samples:

- modus ponens: always right ("Answer: yes" / "The answer is no.");
- universal modus tollens: always "Yes." (right on its 4 yes tests, wrong on its 4 no tests);
- quantifier negation: always "No." (right on 4, wrong on 4);
- affirming the consequent: "I don't know" (never follows the instruction).

So 24 of 32 replies follow the instruction and 16 of those are right.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.cli import main
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logicasker.dataset import record_to_sample
from lgmt_tasks.logicasker.report import skill_accuracies, weakest_leaves
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.solvers.logicasker import DEMONSTRATIONS_TEMPLATE, with_demonstrations

NOW = "Now answer the following question:\n\n"


def reply_for(rule: str, gold: str) -> str:
    if rule == "modus ponens":
        return "Answer: yes" if gold == "yes" else "The answer is no."
    if rule == "universal modus tollens":
        return "Yes."
    if rule == "quantifier negation":
        return "No."
    return "I don't know"


def scripted(repo: Path, seen: list[str]) -> Callable[..., ModelOutput]:
    """A model that answers each question of `repo` by its rule (see the module docstring)."""
    by_question = {row["question"]: (row["rule"], row["answer"]) for row in load_dataset_repo(repo)}

    async def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        text = messages[-1].text
        seen.append(text)
        rule, gold = by_question[text.rsplit(NOW, 1)[-1]]
        output = ModelOutput.from_content(model="mockllm/model", content=reply_for(rule, gold))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return answer


def run(repo: Path, log_dir: Path, seen: list[str], **params: Any) -> EvalLog:
    [log] = eval(
        logicasker(dataset=str(repo), **params),
        model=get_model("mockllm/model", custom_outputs=scripted(repo, seen)),
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return log


@pytest.fixture(scope="module")
def zero_shot_log(small_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    return run(small_repo, tmp_path_factory.mktemp("logs"), [])


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [score] = log.results.scores
    return {name: m.value for name, m in score.metrics.items()}


def test_exact_metrics(zero_shot_log):
    values = metrics(zero_shot_log)
    assert values["response_accuracy"] == pytest.approx(16 / 24)
    assert values["instruction_following_rate"] == pytest.approx(24 / 32)
    assert values["response_accuracy_rule_modus_ponens"] == 1.0
    assert values["response_accuracy_rule_universal_modus_tollens"] == 0.5
    assert values["response_accuracy_rule_quantifier_negation"] == 0.5
    assert math.isnan(values["response_accuracy_rule_affirming_the_consequent"])
    assert values["response_accuracy_logic_propositional"] == 1.0
    assert values["response_accuracy_logic_predicate"] == 0.5
    assert values["response_accuracy_category_inference"] == pytest.approx(12 / 16)
    assert values["response_accuracy_category_equivalence"] == 0.5
    assert math.isnan(values["response_accuracy_category_fallacy"])
    assert values["response_accuracy_problem_type_valid"] == pytest.approx(8 / 12)
    assert values["response_accuracy_length_1"] == values["response_accuracy_length_2"] == pytest.approx(8 / 12)
    assert 0 < values["response_accuracy_stderr"] < 0.2


def test_samples_carry_the_rule_tree(zero_shot_log, small_repo):
    assert zero_shot_log.samples is not None and len(zero_shot_log.samples) == 32
    sample = zero_shot_log.samples[0]
    assert {"logic", "category", "rule", "skill", "problem_type", "length", "premises_fol"} <= set(sample.metadata)
    assert sample.input.startswith("Consider the following premises: ")
    assert sample.target in ("yes", "no")
    row = dict(load_dataset_repo(small_repo)[0])
    converted = record_to_sample(row)
    assert converted.id == row["id"] and converted.input == row["question"] and converted.target == row["answer"]


def test_weakness_identification(zero_shot_log):
    leaves = skill_accuracies([zero_shot_log], by="leaf")
    first = leaves[0]
    assert (first.rule, first.problem_type, first.correct, first.answered, first.tests) == (
        "quantifier negation",
        "valid",
        0,
        4,
        4,
    )
    assert first.accuracy == 0.0 and first.low == 0.0 and 0.45 < first.high < 0.5  # Wilson upper bound for 0/4
    assert [(r.rule, r.problem_type) for r in leaves[-2:]] == [
        ("affirming the consequent", "fallacy"),
        ("affirming the consequent", "valid"),
    ]  # nothing answered: listed last
    rules = skill_accuracies([zero_shot_log], by="rule")
    assert [(r.rule, r.accuracy) for r in rules[:2]] == [("quantifier negation", 0.5), ("universal modus tollens", 0.5)]
    assert [(s.name, t) for s, t in weakest_leaves([zero_shot_log])] == [
        ("quantifier negation", "valid"),
        ("modus ponens", "valid"),
        ("universal modus tollens", "contradiction"),
        ("universal modus tollens", "unrelated"),
    ]


def test_report_weakness_cli(zero_shot_log, tmp_path):
    result = CliRunner().invoke(main, ["report", "--weakness", zero_shot_log.location, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Weakest leaves")
    assert "| quantifier negation" in lines[4] and "| valid" in lines[4]
    assert "1 rules with no answer that followed the instruction are not ranked." in result.output
    assert (tmp_path / "weakness_leaves.csv").exists() and (tmp_path / "weakness.md").exists()


def test_weakness_demonstrations(zero_shot_log, small_repo, tmp_path):
    seen: list[str] = []
    log = run(small_repo, tmp_path, seen, demonstrations="weakness", weakness_log=zero_shot_log.location)
    assert metrics(log)["response_accuracy"] == pytest.approx(16 / 24)  # the scripted model ignores them
    demos = log.eval.metadata["demonstrations"] if log.eval.metadata else None
    assert demos is not None and len(demos) == 4
    assert [d.rsplit("\nAnswer: ", 1)[1] for d in demos] == [
        "yes. The conclusion follows by quantifier negation.",
        "yes. The conclusion follows by modus ponens.",
        "no. By universal modus tollens, the premises imply the opposite of this conclusion.",
        # The unrelated leaf: a length-1 universal modus tollens decides every literal in its own words, so it is
        # demonstrated by a contradiction, as the builder fills such a slot.
        "no. By universal modus tollens, the premises imply the opposite of this conclusion.",
    ]
    assert all(d.startswith("Consider the following premises: ") for d in demos)
    assert len(seen) == 32 and all(text.startswith(demos[0]) and NOW in text for text in seen)
    question = load_dataset_repo(small_repo)[0]["question"]
    assert with_demonstrations(demos, question) in seen
    assert DEMONSTRATIONS_TEMPLATE.count("{") == 2


def test_random_demonstrations_are_two_yes_two_no(small_repo, tmp_path):
    task = logicasker(dataset=str(small_repo), demonstrations="random", seed=5)
    demos = task.metadata["demonstrations"]
    assert sorted(d.rsplit("\nAnswer: ", 1)[1][:3] for d in demos) == ["no.", "no.", "yes", "yes"]
    assert logicasker(dataset=str(small_repo), demonstrations="random", seed=5).metadata["demonstrations"] == demos


def test_selection_and_errors(small_repo):
    task = logicasker(dataset=str(small_repo), logic="predicate", length="2")
    assert len(task.dataset) == 8 and {s.metadata["length"] for s in task.dataset} == {2}
    assert len(logicasker(dataset=str(small_repo), rule="modus_ponens").dataset) == 8
    with pytest.raises(ValueError, match="weakness_log"):
        logicasker(dataset=str(small_repo), demonstrations="weakness")
    with pytest.raises(ValueError, match="only used with demonstrations=weakness"):
        logicasker(dataset=str(small_repo), weakness_log="x.eval")
    with pytest.raises(ValueError, match="expected one of none, random, weakness"):
        logicasker(dataset=str(small_repo), demonstrations="weak")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no LogicAsker tests"):
        logicasker(dataset=str(small_repo), rule="resolution")
