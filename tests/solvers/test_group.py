"""The group solver: prompting checked at construction, one concurrent call per member, answers in the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import system_prompt
from lgmt_tasks.vocabulary import RESPONSES_KEY


def test_prompting_is_checked_at_construction() -> None:
    with pytest.raises(ValueError, match="prompting must be one of zero_shot, zero_shot_cot, few_shot, few_shot_cot"):
        group_generate("chain_of_thought")


class SlowEcho:
    """Echoes the user prompt after a pause, recording how many calls overlap."""

    def __init__(self) -> None:
        self.active = 0
        self.max_active = 0
        self.systems: list[str] = []

    async def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.systems.append(messages[0].text)
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        await anyio.sleep(0.05)
        self.active -= 1
        output = ModelOutput.from_content(model="mockllm/model", content=f"echo: {messages[-1].text}")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def test_members_are_asked_concurrently_and_stored_in_order(tmp_path: Path) -> None:
    members = ["source prompt", "follow-up 1", "follow-up 2"]
    sample = Sample(id="s", input=members[0], target="True", metadata={"members": members})
    model = SlowEcho()
    [log] = eval(
        Task(dataset=[sample], solver=group_generate("zero_shot")),
        model=get_model("mockllm/model", custom_outputs=model),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.samples is not None
    [result] = log.samples
    assert result.store[RESPONSES_KEY] == [f"echo: {m}" for m in members]
    assert [m.text for m in result.messages] == [system_prompt("zero_shot"), "source prompt", "echo: source prompt"]
    assert result.output.completion == "echo: source prompt"
    assert model.max_active == 3
    assert model.systems == [system_prompt("zero_shot")] * 3


@pytest.mark.parametrize("metadata", [{}, {"members": ["only the source"]}, {"members": "not a list"}])
def test_malformed_members_fail_the_sample_naming_it(tmp_path: Path, metadata: dict[str, Any]) -> None:
    sample = Sample(id="broken", input="x", target="True", metadata=metadata)
    [log] = eval(
        Task(dataset=[sample], solver=group_generate()),
        model=get_model("mockllm/model"),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "error"
    assert log.error is not None and "Sample broken: metadata['members']" in log.error.message
