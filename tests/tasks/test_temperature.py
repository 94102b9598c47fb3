"""Each Inspect task decodes at its paper's temperature unless the run sets one (issue #38; each suite README)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

import lgmt_tasks._registry as entry_point

DATASETS = Path(__file__).resolve().parents[2] / "datasets"

PAPER_TEMPERATURE: dict[str, float | None] = {
    "mr_e": 0.0,  # LGMT §4 (all seven LGMT tasks share the config)
    "lexical": 0.0,  # as LGMT, which it is the baseline of
    "logicasker": 0.0,  # the authors' script/apis.py
    "qmfol": 1.0,  # QMFOL §4 Model Configuration
    "divlogiceval": None,  # paper silent, the authors' script defines no call: the provider's default
}


def recording_model(seen: list[float | None]) -> Any:
    def reply(_input: Any, _tools: Any, _choice: Any, config: GenerateConfig) -> ModelOutput:
        seen.append(config.temperature)
        output = ModelOutput.from_content("mockllm/model", "Answer: yes")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=reply)


@pytest.mark.parametrize(("task", "expected"), PAPER_TEMPERATURE.items())
def test_the_model_is_called_at_the_papers_temperature_and_the_run_overrides_it(
    task: str, expected: float | None, tmp_path: Path
) -> None:
    suite = "lgmt" if task == "mr_e" else task
    made = getattr(entry_point, task)(dataset=str(DATASETS / suite))
    assert made.config.temperature == expected
    seen: list[float | None] = []
    [log] = eval(made, model=recording_model(seen), limit=1, log_dir=str(tmp_path / "a"), display="none")
    assert log.status == "success" and seen and set(seen) == {expected}
    seen.clear()
    made = getattr(entry_point, task)(dataset=str(DATASETS / suite))
    [log] = eval(
        made, model=recording_model(seen), limit=1, temperature=0.3, log_dir=str(tmp_path / "b"), display="none"
    )
    assert log.status == "success" and set(seen) == {0.3}
