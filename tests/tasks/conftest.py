"""Shared by the task tests: an isolated build cache, offline, and a mock model that needs no token counter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model


@pytest.fixture
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh build cache under `tmp_path`, with the Hub and `datasets` offline."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    return tmp_path / "cache"


def answering_model(answer: str) -> Model:
    """`mockllm/model` answering `answer` to every request, with usage set (so Inspect downloads no tokenizer)."""

    def outputs(*args: Any, **kwargs: Any) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", answer)
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model("mockllm/model", custom_outputs=outputs)
