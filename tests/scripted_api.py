"""A scripted Inspect model API for tests that need a model Inspect can re-create by name.

`mockllm/model` answers from a fixed list; some tests need a model whose answer depends on the prompt and that
Inspect can build again from a log (`eval_retry`, `lgmt shrink` re-asking a log's model): that needs a registered
model API. `register_scripted_api` registers one under a name, answering each call with `respond(user prompt)` (which
may raise, to script a failure) and recording every prompt it was asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo


def register_scripted_api(name: str, respond: Callable[[str], str], calls: list[str]) -> None:
    """Register the model API `name` (models `name/<anything>`): the reply to a call is `respond(user prompt)`.

    Args:
        name: The provider name to register.
        respond: The completion for a user prompt (may raise, as a failing connection would).
        calls: Every prompt asked is appended here, in order, before `respond` is called.
    """

    @modelapi(name=name)
    def _api() -> type[ModelAPI]:
        class Scripted(ModelAPI):
            def __init__(
                self,
                model_name: str,
                base_url: str | None = None,
                api_key: str | None = None,
                config: GenerateConfig = GenerateConfig(),  # noqa: B008
                **model_args: Any,
            ) -> None:
                super().__init__(model_name, base_url, api_key, [], config)

            async def generate(
                self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
            ) -> ModelOutput:
                prompt = next(m.text for m in input if m.role == "user")
                calls.append(prompt)
                output = ModelOutput.from_content(self.model_name, respond(prompt))
                output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
                return output

        return Scripted
