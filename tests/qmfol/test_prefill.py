"""`-T prefill=true` on the `qmfol` task: the model sees the answer opened with `{"label": "`, and its continuation is
parsed as the whole JSON; without prefill the conversation and the completion are untouched.

Three tasks (one per gold label). The scripted model continues an opening with `True"}` (gold True, right),
`Unknown"}` (gold False, wrong) and `maybe` (gold Unknown: `{"label": "maybe` states no label, unparsed).
"""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.task import qmfol
from lgmt_tasks.solvers.prefill import prefill_generate
from lgmt_tasks.solvers.qmfol import QMFOL_PREFILL, render_prompt

CONTINUATIONS = {"True": 'True"}', "False": 'Unknown"}', "Unknown": "maybe"}


class Continuer:
    """Answers each prompt with its gold label's continuation; records the roles of every conversation it sees."""

    def __init__(self, dataset: str) -> None:
        self.script = {
            render_prompt(r["premises"], r["conclusion"]): CONTINUATIONS[r["label"]] for r in load_dataset_repo(dataset)
        }
        self.seen: list[list[tuple[str, str]]] = []

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.seen.append([(m.role, m.text) for m in messages])
        prompt = next(m.text for m in messages if m.role == "user")
        output = ModelOutput.from_content(model="mockllm/model", content=self.script[prompt])
        output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)  # no tokenizer download
        return output


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> str:
    config = QmfolConfig(depths=(2,), widths=(1,), distractors=(0,), topics=("Animal",), seeds=1)
    out = tmp_path_factory.mktemp("qmfol") / "repo"
    write_qmfol_repo(build_qmfol(config), out)
    return str(out)


def run(dataset: str, tmp_path_factory: pytest.TempPathFactory, prefill: bool) -> tuple[EvalLog, Continuer]:
    model = Continuer(dataset)
    [log] = eval(
        qmfol(dataset=dataset, prefill=prefill),
        model=get_model("mockllm/model", custom_outputs=model),
        log_dir=str(tmp_path_factory.mktemp("logs")),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 3
    return log, model


def by_gold(log: EvalLog) -> dict[str, Any]:
    assert log.samples is not None
    return {str(s.target): s for s in log.samples}


def test_prefill_opens_the_answer_and_the_continuation_is_parsed_as_json(
    dataset: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    log, model = run(dataset, tmp_path_factory, prefill=True)
    assert QMFOL_PREFILL == '{"label": "'
    assert len(model.seen) == 3
    for conversation in model.seen:
        assert [role for role, _ in conversation] == ["user", "assistant"]
        assert conversation[-1][1] == QMFOL_PREFILL
    samples = by_gold(log)
    right = samples["True"]
    assert right.output.completion == '{"label": "True"}'
    assert [(m.role, m.text) for m in right.messages][1:] == [("assistant", QMFOL_PREFILL), ("assistant", 'True"}')]
    assert right.scores is not None and right.scores["qmfol_scorer"].metadata == {
        "parsed_how": "strict",
        "parse_detail": "JSON 'label': \"True\"",
    }
    assert samples["False"].output.completion == '{"label": "Unknown"}'
    assert samples["Unknown"].scores is not None and samples["Unknown"].scores["qmfol_scorer"].answer == "unparsed"
    assert log.results is not None
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics["accuracy"] == 1 / 3 and metrics["unparsed_rate"] == 1 / 3  # the unparsed answer is wrong
    assert metrics["dist_False_Unknown"] == 1.0


def test_without_prefill_nothing_is_added(dataset: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    log, model = run(dataset, tmp_path_factory, prefill=False)
    assert [[role for role, _ in conversation] for conversation in model.seen] == [["user"]] * 3
    samples = by_gold(log)
    for gold, sample in samples.items():
        assert sample.output.completion == CONTINUATIONS[gold]
        assert [m.role for m in sample.messages] == ["user", "assistant"]
    assert samples["True"].scores is not None
    assert samples["True"].scores["qmfol_scorer"].metadata["parsed_how"] == "lenient"  # type: ignore[index]


def test_prefill_generate_needs_an_opening() -> None:
    with pytest.raises(ValueError, match="non-empty opening"):
        prefill_generate("")
