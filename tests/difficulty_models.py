"""Scripted mock models for the difficulty-source tests (QMFOL cells, LogicAsker depths): perfect, or wrong at depth 3.

Both sources carry a group's difficulty in its `source_id`, each read by its own `difficulty_of`; the models only
need the depth, so the caller passes how to read it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

LABELS = ("True", "False", "Unknown")
PERFECT, SHALLOW = "mockllm/perfect", "mockllm/shallow"
"""The model names: `PERFECT` answers every member's gold label; `SHALLOW` is wrong on the follow-ups at depth 3."""


def scripted(name: str, samples: list[Any], depth_of: Callable[[str], int | None]) -> Any:
    """A model answering by user prompt: each member's label, or (`SHALLOW`) a wrong one on depth-3 follow-ups.

    Args:
        name: `PERFECT` or `SHALLOW`.
        samples: The task's samples (their members' prompts and gold labels).
        depth_of: A group's depth from its `source_id`.
    """
    answers: dict[str, str] = {}
    for sample in samples:
        depth = depth_of(sample.metadata["source_id"])
        assert depth is not None
        source, *followups = sample.metadata["members"]
        answers[source] = sample.target
        for followup in followups:
            wrong = name == SHALLOW and depth == 3
            answers[followup] = LABELS[(LABELS.index(sample.target) + 1) % 3] if wrong else sample.target

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = next(m.text for m in messages if m.role == "user")
        out = ModelOutput.from_content(name, json.dumps({"label": answers[prompt]}))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model(name, custom_outputs=outputs, memoize=False)
