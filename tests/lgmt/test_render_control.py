"""`-T control=render`, the style control: the source re-rendered from its FOL by the template realiser, end to end.

Real Inspect runs of `mr_c` on scripted models over a small FOLIO-style source written here (natural English, so the
rendered source reads differently from it): a model that answers by the logic has a render rate of 0; a model that
answers differently when the premises are template-styled has a render rate of 1 and, on MR-C (whose follow-ups keep
the source's natural premises), an MVR of 0. `control=true` keeps its behaviour (`tests/lgmt/test_control.py`).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

from lgmt_tasks.lgmt.control import CONTROL_TABLE, RENDER_TITLE, control_section, rendered_source
from lgmt_tasks.lgmt.english import case_lexicon
from lgmt_tasks.lgmt.relations.followup import LABEL_OBLIGATION, FollowUp
from lgmt_tasks.lgmt.report import suite_report
from lgmt_tasks.lgmt.task import mr_c
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.scorers.pairwise import CONTROL_KEYS, OUTCOME_KEYS
from lgmt_tasks.scorers.pairwise_metrics import CONTROL_METRICS, RENDER_METRICS
from lgmt_tasks.solvers.prompts import render_user_prompt
from lgmt_tasks.sources.case import Case
from lgmt_tasks.task_params import TaskParameterError
from lgmt_tasks.vocabulary import CONTROL_RESPONSE_KEY, RENDER_PROMPT_KEY, control_kind

LABELS = ("True", "False", "Unknown")

CASES = [
    (["All cats are mammals.", "Tom is a cat."], ["∀x (Cat(x) → Mammal(x))", "Cat(tom)"], "Tom is a mammal.",
     "Mammal(tom)", "True"),
    (["Every bird can fly.", "Polly is a bird."], ["∀x (Bird(x) → Fly(x))", "Bird(polly)"], "Polly cannot fly.",
     "¬Fly(polly)", "False"),
    (["Anyone who sings is happy.", "Ann sings."], ["∀x (Sing(x) → Happy(x))", "Sing(ann)"], "Ann is sad.",
     "Sad(ann)", "Unknown"),
    (["Dogs that bark are loud.", "Rex is a dog that barks."], ["∀x (Dog(x) ∧ Bark(x) → Loud(x))",
     "Dog(rex) ∧ Bark(rex)"], "Rex is loud.", "Loud(rex)", "True"),
]  # fmt: skip
"""Four FOLIO-style cases (natural English, every one with a universal premise), one of each label and more."""

TEMPLATE_MARK = "For all x,"
"""How the realiser begins a universal premise; the natural English of `CASES` never does."""


pytestmark = pytest.mark.usefixtures("fresh_caches")
"""Each test builds and evaluates with its own empty caches (`tests/lgmt/conftest.py`)."""


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "mini_folio.jsonl"
    records = [
        {"id": f"mini_{i}", "dataset": "folio", "premises": p, "premises_fol": pf, "conclusion": c,
         "conclusion_fol": cf, "label": label}
        for i, (p, pf, c, cf, label) in enumerate(CASES)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def wrong(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % 3]


class Scripted:
    """A mock model answering each user prompt by `answer(prompt, gold)`; gold from the task's groups (every member
    and the render control member have the source's proven label)."""

    def __init__(self, task: Task, answer: Callable[[str, str], str]) -> None:
        self.gold: dict[str, str] = {}
        for sample in task.dataset:
            metadata = sample.metadata or {}
            for prompt in [*metadata["members"], metadata.get(RENDER_PROMPT_KEY)]:
                if prompt:
                    self.gold[prompt] = str(sample.target)
        self.answer = answer
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, messages: list[ChatMessage], tools: Any, choice: Any, config: GenerateConfig) -> ModelOutput:
        prompt = next(m.text for m in messages if m.role == "user")
        with self.lock:
            self.calls[prompt] += 1
        out = ModelOutput.from_content("mockllm/model", json.dumps({"label": self.answer(prompt, self.gold[prompt])}))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
        return out

    def model(self) -> Any:
        return get_model("mockllm/model", custom_outputs=self)


def by_the_logic(prompt: str, gold: str) -> str:
    return gold


def put_off_by_templates(prompt: str, gold: str) -> str:
    """Right on natural premises, wrong when they are template-styled."""
    return wrong(gold) if TEMPLATE_MARK in prompt else gold


def run(task: Task, script: Scripted, tmp_path: Path, **kwargs: Any) -> tuple[EvalLog, dict[str, float]]:
    (log,) = eval(task, model=script.model(), log_dir=str(tmp_path / "logs"), display="none", **kwargs)
    assert log.status == "success", log.error
    assert log.results is not None and log.samples is not None
    return log, {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_the_render_member_is_the_source_re_rendered_by_the_follow_ups_realiser(source):
    task = mr_c(source="folio", source_path=source, per_mr="all", control="render")
    assert len(task.dataset) == 12
    for sample in task.dataset:
        metadata = sample.metadata or {}
        premises_fol = tuple(parse(text) for text in metadata["premises_fol"])
        conclusion_fol = parse(metadata["conclusion_fol"])
        case = Case(premises_fol, conclusion_fol, metadata["premises"], metadata["conclusion"])
        same = FollowUp(premises_fol, conclusion_fol, (None,) * len(premises_fol), True, "c", "c", "forward", "all",
                        "", LABEL_OBLIGATION)  # fmt: skip
        lexicon = case_lexicon(case, same)
        assert metadata["rendered_premises"] == [realize(f, lexicon) for f in premises_fol]
        assert metadata["rendered_conclusion"] == realize(conclusion_fol, lexicon)
        assert metadata[RENDER_PROMPT_KEY] == render_user_prompt(
            metadata["rendered_premises"], metadata["rendered_conclusion"]
        )
        assert metadata[RENDER_PROMPT_KEY] != metadata["members"][0]  # natural English, re-rendered: not the source
        assert TEMPLATE_MARK in metadata[RENDER_PROMPT_KEY] and TEMPLATE_MARK not in metadata["members"][0]
        assert len(metadata["members"]) == 2  # the control is not a member
    assert rendered_source(task.dataset[0].metadata or {}) == rendered_source(task.dataset[0].metadata or {})


def test_a_model_that_answers_by_the_logic_has_render_rate_0(source, tmp_path):
    task = mr_c(source="folio", source_path=source, per_mr="all", control="render")
    script = Scripted(task, by_the_logic)
    log, metrics = run(task, script, tmp_path)
    assert metrics["mvr"] == 0.0 and metrics["render_rate"] == 0.0 and metrics["render_excess_mvr"] == 0.0
    assert metrics["above_render"] == 0.0
    assert set(RENDER_METRICS) <= set(metrics) and not set(CONTROL_METRICS) & set(metrics)  # told apart by name
    for relation in ("MR-C1", "MR-C2", "MR-C3"):
        assert metrics[f"render_rate_{relation}"] == 0.0 and metrics[f"above_render_{relation}"] == 0.0
        assert metrics[f"render_excess_mvr_low_{relation}"] < 0.0 < metrics[f"render_excess_mvr_high_{relation}"]
    assert log.eval.scorers is not None and log.eval.scorers[0].options == {"control": "render"}
    assert log.eval.task_args["control"] == "render"
    for sample in log.samples or []:
        score = sample.scores["metamorphic_consistency"]
        assert list(score.value) == [*OUTCOME_KEYS, *CONTROL_KEYS]
        assert score.value["control_parsed"] == 1 and score.value["control_violation"] == 0
        assert score.metadata["control"] == "render" and score.metadata["control_answer"] == sample.target
        assert "Render control (the source re-rendered by the template realiser)" in score.explanation
        assert isinstance(sample.store[CONTROL_RESPONSE_KEY], str)
        assert len(sample.store["responses"]) == len(sample.metadata["members"])
    rendered = {sample.metadata[RENDER_PROMPT_KEY] for sample in log.samples or []}
    assert sum(script.calls[prompt] for prompt in rendered) == len(log.samples or [])  # one render call per group


def test_a_model_put_off_by_template_english_has_a_render_rate_above_0(source, tmp_path):
    task = mr_c(source="folio", source_path=source, per_mr="all", control="render")
    log, metrics = run(task, Scripted(task, put_off_by_templates), tmp_path)
    assert metrics["render_rate"] == 1.0 and metrics["mvr"] == 0.0  # MR-C keeps the natural premises
    assert metrics["render_excess_mvr"] == -1.0 and metrics["render_excess_mvr_high"] < 0.0
    assert metrics["above_render"] == 0.0
    for sample in log.samples or []:
        assert "RENDER VIOLATION" in sample.scores["metamorphic_consistency"].explanation
    table = suite_report([log.location]).tables[CONTROL_TABLE].set_index("relation")
    assert set(table["control"]) == {"render"}
    assert table.loc["all", "control_rate"] == 1.0 and table.loc["all", "mvr"] == 0.0
    assert table.loc["all", "excess_mvr"] == pytest.approx(metrics["render_excess_mvr"])
    assert table.loc["MR-C1", "low"] == pytest.approx(metrics["render_excess_mvr_low_MR-C1"])
    assert control_section([log.location]).startswith(RENDER_TITLE)


def test_repeat_is_true_and_none_is_false(tmp_path):
    assert [control_kind(v) for v in (True, False, None, "repeat", "render", "none", "TRUE", "false")] == [
        "repeat", "none", "none", "repeat", "render", "none", "repeat", "none",
    ]  # fmt: skip
    logs = []
    for control in (True, "repeat"):
        task = mr_c(control=control)
        log, metrics = run(task, Scripted(task, by_the_logic), tmp_path, limit=3)
        assert metrics["control_rate"] == 0.0 and not [name for name in metrics if "render" in name]
        assert all(RENDER_PROMPT_KEY not in (s.metadata or {}) for s in log.samples or [])
        logs.append(log)
    assert logs[0].eval.scorers[0].options == logs[1].eval.scorers[0].options == {"control": True}
    assert logs[0].plan.steps[0].params == logs[1].plan.steps[0].params
    task = mr_c(control="none")
    log, metrics = run(task, Scripted(task, by_the_logic), tmp_path, limit=3)
    assert not [name for name in metrics if "control" in name or "render" in name]
    assert log.eval.scorers[0].options == {}


@pytest.mark.parametrize("value", ["maybe", "renders", 2])
def test_a_bad_control_names_the_allowed_values(value):
    with pytest.raises(TaskParameterError, match="none, repeat, render"):
        mr_c(control=value)
    with pytest.raises(ValueError, match="none, repeat, render"):
        control_kind(value)
