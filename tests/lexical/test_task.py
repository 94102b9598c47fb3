"""End to end: the `lexical` Inspect task on `mockllm/model` with scripted answers, metrics asserted exactly.

The scripted run (`label_run`, see `helpers.PLAN`) puts known numbers of groups in every LLMorph confusion-matrix
cell, one unparsed follow-up and one discarded MR-152 follow-up (made at eval time by a scripted transformer).
"""

from __future__ import annotations

import math

import pytest

from lgmt_tasks.lexical.dataset import record_to_sample
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.scorers.pairwise import RATE_NAMES
from lgmt_tasks.solvers.prompts import render_user_prompt
from lgmt_tasks.vocabulary import RESPONSES_KEY, TRANSFORM_KEY
from tests.lexical.helpers import EXPECTED, metrics, negate


def test_metrics_and_confusion_matrix_are_exact(label_run):
    log, answerer, transformer = label_run
    values = metrics(log)
    assert {name: values[name] for name in EXPECTED} == pytest.approx(EXPECTED, abs=1e-12)
    expected_names = {*EXPECTED, *(f"{n}_stderr" for n in RATE_NAMES)}
    assert set(values) == expected_names
    # the four cells partition the compared groups; ② is FUR and ③ is HDR
    assert math.isclose(
        sum(values[c] for c in ("cm_pass_correct", "cm_pass_wrong", "cm_fail_correct", "cm_fail_wrong")), 1.0
    )
    assert values["cm_pass_wrong"] == values["fur"] and values["cm_fail_correct"] == values["hdr"]
    # three MR-152 conclusions were sent to the transformer; the discarded group never reached the model
    assert transformer.calls == 3
    assert sum(answerer.calls.values()) == 2 * 15 - 2


def test_log_shows_groups_transformations_and_cells(label_run):
    log, _, _ = label_run
    assert log.samples is not None
    by_key = {(s.metadata["mr"], s.metadata["source_id"]): s for s in log.samples}
    assert len(by_key) == 15
    negated = next(
        s
        for s in log.samples
        if s.metadata["mr"] == "MR-152" and s.scores and s.scores["lexical_consistency"].answer != "discarded"
    )
    transform = negated.store[TRANSFORM_KEY]
    assert transform["ok"] and transform["conclusion"] == negate(negated.metadata["conclusion"])
    assert [e.event for e in negated.events].count("model") == 3  # transformer, source, follow-up
    discarded = [s for s in log.samples if s.scores and s.scores["lexical_consistency"].answer == "discarded"]
    assert len(discarded) == 1 and RESPONSES_KEY not in discarded[0].store
    assert "conclusion unchanged" in (discarded[0].scores["lexical_consistency"].explanation or "")
    explanations = [s.scores["lexical_consistency"].explanation or "" for s in log.samples if s.scores]
    assert sum("③ MT oracle fails, source answer right" in e for e in explanations) == 3
    assert sum("Not compared" in e for e in explanations) == 1


def test_pending_rows_need_a_transformer(repo):
    with pytest.raises(ValueError, match="MR-152 are LLM-based: pass -T transformer_model"):
        lexical(dataset=repo, mr="MR-152", part="conclusion")
    task = lexical(dataset=repo, mr="MR-1", part="premises")  # function-based only: no transformer needed
    assert len(task.dataset) == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mr": "MR-999"}, "unknown lexical relation 'MR-999'"),
        ({"part": "context"}, "part='context'"),
        ({"output": "json"}, "output='json'"),
        ({"prompting": "cot"}, "prompting='cot': expected one of"),
        ({"source": "snli"}, "source='snli'"),
        ({"equivalent_threshold": 1.3}, "equivalent_threshold=1.3: must be between 0 and 1"),
        ({"thresholds": "mean"}, "thresholds='mean': expected one of code, paper"),
        ({"style": "neat"}, "style='neat': expected one of llmorph, clean"),
    ],
)
def test_task_arguments_are_checked(repo, kwargs, message):
    with pytest.raises(ValueError, match=message):
        lexical(dataset=repo, **kwargs)


def test_record_to_sample(build):
    row = next(dict(r) for r in build.dataset if r["mr"] == "MR-84")
    sample = record_to_sample(row)
    assert sample.id == row["id"] and sample.target == row["label"]
    assert sample.metadata is not None and sample.metadata["members"] == [
        render_user_prompt(row["premises"], row["conclusion"]),
        render_user_prompt(row["followup_premises"], row["followup_conclusion"]),
    ]
    assert sample.input == sample.metadata["members"][0]
    pending = record_to_sample(next(dict(r) for r in build.dataset if r["pending"]))
    assert pending.metadata is not None and len(pending.metadata["members"]) == 1


def test_the_registry_lists_the_task():
    import lgmt_tasks._registry as registry

    assert "lexical" in registry.__all__


def test_the_readme_documents_every_task_parameter():
    import inspect
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "lgmt_tasks" / "lexical" / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Tasks and parameters") :]
    table = section.split("| parameter | default | meaning |", 1)[1].split("\n\n", 1)[0]
    documented = [name for cell in re.findall(r"^\| ([^|]+) \|", table, re.M) for name in re.findall(r"`(\w+)`", cell)]
    assert documented == list(inspect.signature(lexical).parameters)


def test_the_model_under_test_decodes_at_temperature_0_unless_the_run_says_otherwise(label_run, repo):
    """`Task.config` holds temperature 0 (the paper's and the lm-eval configs' greedy decoding); Inspect merges a run's
    `--temperature` over it."""
    assert lexical(dataset=repo, mr="MR-1", part="premises").config.temperature == 0.0
    log, _, _ = label_run
    assert log.plan.config.temperature == 0.0
