"""Shared by the task tests: a mock model that needs no token counter (the offline cache is `tests/conftest.py`'s)."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model


def answering_model(answer: str) -> Model:
    """`mockllm/model` answering `answer` to every request, with usage set (so Inspect downloads no tokenizer)."""

    def outputs(*args: Any, **kwargs: Any) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", answer)
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model("mockllm/model", custom_outputs=outputs)
