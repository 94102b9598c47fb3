"""The `qmfol` Inspect task end to end on a scripted `mockllm/model`: exact accuracy, per-label F1, macro-F1, answer
distribution, unparsed rate and breakdowns; then time and tokens read back from the log, and the heatmap.

The dataset is 12 tasks (depth 3, width 2, no distractors, Food, seeds 0–3: four per label). The script answers by
(gold, seed), looked up from the prompt, so the answers do not depend on the order in which Inspect runs samples:

    gold True:    seeds 0 1 2 -> True,  seed 3 -> Unknown
    gold False:   seeds 0 1   -> False, seed 2 -> Unknown, seed 3 -> (no answer)
    gold Unknown: seeds 0 1   -> Unknown, seed 2 -> True, seed 3 -> False

Parsed confusion (11 answers): T→T 3, T→U 1; F→F 2, F→U 1; U→U 2, U→T 1, U→F 1. Hence answered True 4, gold True 4:
F1_True = 2·3/8; answered False 3, gold False 4 (the unanswered task is a miss): F1_False = 2·2/7 (over parsed
answers, gold False 3: 2·2/6); answered Unknown 4, gold Unknown 4: F1_Unknown = 2·2/8; accuracy 7/12 (the unparsed
answer is wrong), over parsed answers 7/11; unparsed 1/12.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.dataset import record_to_sample, values
from lgmt_tasks.qmfol.report import depth_width_table, qmfol_heatmaps, qmfol_samples
from lgmt_tasks.qmfol.task import qmfol
from lgmt_tasks.solvers.qmfol import filler, render_prompt

PLAN: dict[str, tuple[str | None, ...]] = {
    "True": ("True", "True", "True", "Unknown"),
    "False": ("False", "False", "Unknown", None),
    "Unknown": ("Unknown", "Unknown", "True", "False"),
}
EXPECTED: dict[str, float] = {
    "accuracy": 7 / 12,
    "accuracy_parsed": 7 / 11,
    "f1_True": 2 * 3 / 8,
    "f1_False": 2 * 2 / 7,
    "f1_Unknown": 2 * 2 / 8,
    "f1_False_parsed": 2 * 2 / 6,
    "unparsed_rate": 1 / 12,
    "dist_True_True": 3 / 4,
    "dist_True_False": 0.0,
    "dist_True_Unknown": 1 / 4,
    "dist_True_unparsed": 0.0,
    "dist_False_True": 0.0,
    "dist_False_False": 2 / 4,
    "dist_False_Unknown": 1 / 4,
    "dist_False_unparsed": 1 / 4,
    "dist_Unknown_True": 1 / 4,
    "dist_Unknown_False": 1 / 4,
    "dist_Unknown_Unknown": 2 / 4,
    "accuracy_d3_w2": 7 / 12,
    "accuracy_D0": 7 / 12,
    "accuracy_Food": 7 / 12,
    "accuracy_True": 3 / 4,
    "accuracy_False": 2 / 4,
    "accuracy_Unknown": 2 / 4,
    "unparsed_rate_True": 0.0,
    "unparsed_rate_False": 1 / 4,
    "unparsed_rate_Unknown": 0.0,
}
MACRO_F1 = (2 * 3 / 8 + 2 * 2 / 7 + 2 * 2 / 8) / 3
MACRO_F1_PARSED = (2 * 3 / 8 + 2 * 2 / 6 + 2 * 2 / 8) / 3


def completion(answer: str | None, seed: int) -> str:
    """Vary the answer format: strict JSON, a lenient statement, or a hedge that states nothing."""
    if answer is None:
        return "The premises could make it True or False; I cannot tell."
    if seed % 2 == 0:
        return f'Premise 1 applies, then premise 3.\n{{"label": "{answer}"}}'
    return f"Following the rules step by step, the answer is {answer}."


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> str:
    config = QmfolConfig(depths=(3,), widths=(2,), distractors=(0,), topics=("Food",), seeds=4)
    out = tmp_path_factory.mktemp("qmfol") / "repo"
    write_qmfol_repo(build_qmfol(config), out)
    return str(out)


class ScriptedModel:
    """Answers each prompt from `PLAN`; every call is counted, with a fixed usage (no tokenizer download)."""

    def __init__(self, dataset: str) -> None:
        self.script = {
            render_prompt(r["premises"], r["conclusion"]): completion(PLAN[r["label"]][r["seed"]], r["seed"])
            for r in load_dataset_repo(dataset)
        }
        self.calls = 0

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.calls += 1
        output = ModelOutput.from_content(model="mockllm/model", content=self.script[messages[-1].text])
        output.usage = ModelUsage(input_tokens=400, output_tokens=25, total_tokens=425)
        return output


@pytest.fixture(scope="module")
def log(dataset: str, tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    model = ScriptedModel(dataset)
    logs = tmp_path_factory.mktemp("logs")
    [result] = eval(
        qmfol(dataset=dataset),
        model=get_model("mockllm/model", custom_outputs=model),
        log_dir=str(logs),
        display="none",
    )
    assert result.status == "success", result.error
    assert model.calls == 12
    return result


def test_end_to_end_metrics_are_exact(log: EvalLog) -> None:
    assert log.results is not None
    [scores] = log.results.scores
    got = {name: m.value for name, m in scores.metrics.items()}
    assert {name: got[name] for name in EXPECTED} == EXPECTED
    assert got["macro_f1"] == MACRO_F1
    assert got["accuracy_stderr"] > 0
    assert got["macro_f1_parsed"] == MACRO_F1_PARSED
    assert got["accuracy_stderr"] > 0 and got["accuracy_parsed_stderr"] > 0
    f1_parsed = ("f1_True_parsed", "f1_Unknown_parsed", "macro_f1_parsed")
    others = ("macro_f1", "accuracy_stderr", "accuracy_parsed_stderr", "dist_Unknown_unparsed", *f1_parsed)
    assert sorted(got) == sorted([*EXPECTED, *others])


def test_log_keeps_the_task_and_the_parse(log: EvalLog) -> None:
    assert log.samples is not None and log.eval.task == "lgmt_tasks/qmfol"
    sample = next(s for s in log.samples if s.id == "Food_d3_w2_3_1_distract0")  # gold False, no answer
    assert sample.target == "False" and sample.metadata["construction"] == "False"
    assert sample.metadata["depth_width"] == "d3_w2" and sample.metadata["distractor_level"] == "D0"
    assert sample.scores is not None
    score = sample.scores["qmfol_scorer"]
    assert score.answer == "unparsed" and score.value["parsed"] == 0  # type: ignore[index]


def test_time_and_tokens_come_from_the_log(log: EvalLog, tmp_path: Path) -> None:
    path = log.location
    samples = qmfol_samples([path])
    assert len(samples) == 12 and set(samples["output_tokens"]) == {25} and set(samples["input_tokens"]) == {400}
    assert (samples["working_time"] > 0).all() and (samples["total_time"] >= samples["working_time"]).all()
    table = depth_width_table(samples)
    assert table[["depth", "width", "samples", "tokens"]].values.tolist() == [[3, 2, 12, 25.0]]
    assert table["accuracy"].tolist() == [7 / 12]  # the unanswered task is wrong
    [png] = qmfol_heatmaps([path], tmp_path)
    assert png.suffix == ".png" and png.stat().st_size > 1000 and png.read_bytes().startswith(b"\x89PNG")
    assert qmfol_heatmaps([path], tmp_path / "none") != []  # idempotent


def test_record_to_sample_and_padding(dataset: str) -> None:
    row = dict(load_dataset_repo(dataset)[0])
    sample = record_to_sample(row)
    assert sample.id == row["id"] and sample.target == row["label"]
    assert isinstance(sample.input, str) and f"Premise 1: {row['premises'][0]}\n" in sample.input
    assert sample.input.count("Premise ") == len(row["premises"]) and f"Conclusion: {row['conclusion']}" in sample.input
    padded = record_to_sample(row, padding_tokens=601)
    assert isinstance(padded.input, str) and filler(601) in padded.input
    assert len(filler(601).split()) == 601 and filler(4) == "Unimportant content. Unimportant content."
    task = qmfol(dataset=dataset, padding_tokens=50, label="True")
    assert len(task.dataset) == 4 and all("Unimportant content." in str(s.input) for s in task.dataset)


def test_padding_needs_tasks_without_distractors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match="distractors=0"):
        qmfol(depth=2, width=1, distractors=[0, 3], topic="Animal", padding_tokens=100)


def test_on_the_fly_build_and_filters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dataset: str) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    task = qmfol(depth="2,3", width=1, distractors=[0], topic=["Animal"], label="False", per_config=2)
    assert sorted(s.id for s in task.dataset) == [  # type: ignore[misc]
        f"Animal_d{d}_w1_{s}_1_distract0" for d in (2, 3) for s in (0, 1)
    ]
    assert len(qmfol(dataset=dataset, seed=2).dataset) == 3  # a dataset keeps every seed unless asked
    with pytest.raises(ValueError, match="no QMFOL tasks"):
        qmfol(dataset=dataset, depth=7)
    with pytest.raises(ValueError, match="expected among True, False, Unknown"):
        qmfol(dataset=dataset, label="Unknown1")


def test_multi_valued_parameters() -> None:
    assert values("depth", None, int) is None
    assert values("depth", 5, int) == (5,)
    assert values("depth", "5, 10 15", int) == (5, 10, 15)
    assert values("depth", [5, "10"], int) == (5, 10)
    assert values("topic", "Food", str) == ("Food",)
    with pytest.raises(ValueError, match="int"):
        values("depth", "five", int)
