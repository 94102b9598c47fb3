"""End to end: the `lexical` Inspect task on `mockllm/model` with scripted answers, metrics asserted exactly.

Three generated source cases (gold False, True, Unknown) are used by every variant. The model under test answers
each source the same way in every group (correctly for False and Unknown, wrongly for True), and each follow-up as
scripted in `PLAN`, so that every LLMorph confusion-matrix cell, an unparsed answer and a discarded LLM follow-up
(MR-152 made at eval time by a scripted transformer) occur a known number of times.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from lgmt_tasks.builders.lexical import LexicalBuild, LexicalConfig, build_lexical
from lgmt_tasks.builders.lexical_card import write_lexical_repo
from lgmt_tasks.scorers.pairwise import RATE_NAMES
from lgmt_tasks.solvers.group import RESPONSES_KEY
from lgmt_tasks.solvers.lexical import TRANSFORM_KEY
from lgmt_tasks.solvers.prompts import render_user_prompt
from lgmt_tasks.tasks.lexical import lexical, record_to_sample

LABELS = ("True", "False", "Unknown")
VARIANTS = {("MR-1", "premises"), ("MR-49", "none"), ("MR-84", "premises"), ("MR-102", "conclusion"),
            ("MR-152", "conclusion")}
WRONG_SOURCE = "True"  # the gold label whose source the model answers wrongly

# Follow-up behaviour per variant and source gold label: same (as the source), differ, unparsed, or fail (the
# transformer returns the text unchanged, so the group is discarded).
PLAN = {
    ("MR-1", "False"): "differ",  # ③
    ("MR-1", "True"): "same",  # ②
    ("MR-1", "Unknown"): "same",  # ①
    ("MR-49", "False"): "same",  # ①
    ("MR-49", "True"): "same",  # ②
    ("MR-49", "Unknown"): "same",  # ①
    ("MR-84", "False"): "same",  # ①
    ("MR-84", "True"): "unparsed",
    ("MR-84", "Unknown"): "differ",  # ③
    ("MR-102", "False"): "differ",  # ③
    ("MR-102", "True"): "differ",  # ④
    ("MR-102", "Unknown"): "same",  # ①
    ("MR-152", "False"): "differ",  # ① (difference expected: the relation holds)
    ("MR-152", "True"): "same",  # ④ (the answer did not change)
    ("MR-152", "Unknown"): "fail",  # discarded
}

COMPARED = 13
EXPECTED = {
    "mvr": 5 / COMPARED,
    "acc_static": 9 / COMPARED,
    "acc_cons": 6 / COMPARED,
    "hdr": 3 / COMPARED,
    "fur": 2 / COMPARED,
    "unparsed_rate": 2 / 15,
    "cm_pass_correct": 6 / COMPARED,
    "cm_pass_wrong": 2 / COMPARED,
    "cm_fail_correct": 3 / COMPARED,
    "cm_fail_wrong": 2 / COMPARED,
    "discarded_rate": 1 / 15,
    "mvr_MR-1": 1 / 3,
    "mvr_MR-49": 0.0,
    "mvr_MR-84": 1 / 2,
    "mvr_MR-102": 2 / 3,
    "mvr_MR-152": 1 / 2,
    "hdr_MR-1": 1 / 3,
    "hdr_MR-49": 0.0,
    "hdr_MR-84": 1 / 2,
    "hdr_MR-102": 1 / 3,
    "hdr_MR-152": 0.0,
    "mvr_premises": 2 / 5,
    "mvr_conclusion": 3 / 5,
    "mvr_none": 0.0,
}


def other(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % len(LABELS)]


def negate(text: str) -> str:
    return "It is not the case that " + text[0].lower() + text[1:]


def output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
    return out


@pytest.fixture(scope="module")
def cache_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect-cache")))
        yield


@pytest.fixture(scope="module")
def build() -> LexicalBuild:
    config = LexicalConfig(mrs=("MR-1", "MR-49", "MR-84", "MR-102", "MR-152"), parts=("premises", "conclusion"),
                           per_mr=3, generated_cases=12, seed=0)
    full = build_lexical(config)
    keep = full.dataset.filter(lambda r: (r["mr"], r["part"]) in VARIANTS)
    return LexicalBuild(keep, full.stats, config)


@pytest.fixture(scope="module")
def repo(build: LexicalBuild, tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(write_lexical_repo(build, tmp_path_factory.mktemp("lexical") / "repo"))


class Transformer:
    """Negates a sentence; returns the Unknown-gold source's conclusion unchanged (a failed transformation)."""

    def __init__(self, unchanged: str) -> None:
        self.unchanged = unchanged
        self.calls = 0

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.calls += 1
        text = messages[-1].text.split('"')[1]
        return output(f'"{text}"' if text == self.unchanged else negate(text))


class Answerer:
    """The model under test: answers each user prompt from a script built from the dataset rows."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.script: dict[str, str] = {}
        for row in rows:
            gold = row["label"]
            source_answer = other(gold) if gold == WRONG_SOURCE else gold
            source = render_user_prompt(row["premises"], row["conclusion"])
            self.script[source] = f'{{"reasoning": "By the premises.", "label": "{source_answer}"}}'
            conclusion = negate(row["conclusion"]) if row["pending"] else row["followup_conclusion"]
            followup = render_user_prompt(row["followup_premises"], conclusion)
            behaviour = PLAN[(row["mr"], gold)]
            if behaviour == "same":
                self.script[followup] = f"Step 1: ...\nThe answer is {source_answer}."
            elif behaviour == "differ":
                self.script[followup] = f'{{"label": "{other(source_answer)}"}}'
            elif behaviour == "unparsed":
                self.script[followup] = "It could be True or False."
        self.calls: Counter[str] = Counter()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        user = messages[-1].text
        self.calls[user] += 1
        return output(self.script[user])


def run(repo: str, tmp_path: Path, rows: list[dict[str, Any]], **task_args: Any) -> tuple[EvalLog, Answerer, Any]:
    unknown = next(r for r in rows if r["label"] == "Unknown")["conclusion"]
    transformer = Transformer(unknown)
    answerer = Answerer(rows)
    task = lexical(dataset=repo, mr="MR-1,MR-49,MR-84,MR-102,MR-152", part="premises,conclusion",
                   transformer_model=get_model("mockllm/model", custom_outputs=transformer), **task_args)
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=answerer), log_dir=str(tmp_path),
                 display="none")
    assert log.status == "success", log.error
    return log, answerer, transformer


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


@pytest.fixture(scope="module")
def label_run(repo: str, build: LexicalBuild, tmp_path_factory: pytest.TempPathFactory, cache_dirs: None):
    return run(repo, tmp_path_factory.mktemp("logs"), [dict(r) for r in build.dataset])


def test_metrics_and_confusion_matrix_are_exact(label_run):
    log, answerer, transformer = label_run
    values = metrics(log)
    assert {name: values[name] for name in EXPECTED} == pytest.approx(EXPECTED, abs=1e-12)
    expected_names = {*EXPECTED, *(f"{n}_stderr" for n in RATE_NAMES)}
    assert set(values) == expected_names
    # the four cells partition the compared groups; ② is FUR and ③ is HDR
    assert math.isclose(sum(values[c] for c in ("cm_pass_correct", "cm_pass_wrong", "cm_fail_correct",
                                               "cm_fail_wrong")), 1.0)
    assert values["cm_pass_wrong"] == values["fur"] and values["cm_fail_correct"] == values["hdr"]
    # three MR-152 conclusions were sent to the transformer; the discarded group never reached the model
    assert transformer.calls == 3
    assert sum(answerer.calls.values()) == 2 * 15 - 2


def test_log_shows_groups_transformations_and_cells(label_run):
    log, _, _ = label_run
    assert log.samples is not None
    by_key = {(s.metadata["mr"], s.metadata["source_id"]): s for s in log.samples}
    assert len(by_key) == 15
    negated = next(s for s in log.samples if s.metadata["mr"] == "MR-152" and s.scores
                   and s.scores["lexical_consistency"].answer != "discarded")
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
        ({"prompting": "cot"}, "prompting must be one of"),
        ({"source": "snli"}, "source='snli'"),
        ({"equivalent_threshold": 0.3}, "0 <= different <= equivalent <= 1"),
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
