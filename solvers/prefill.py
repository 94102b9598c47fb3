"""Assistant prefill: open the model's turn with the start of the JSON answer the prompt asks for.

Small local models (our 135M `lgmt/smollm2`) rarely write the requested JSON on their own; they start with "Premise
1: ..." or "The conclusion follows...", and every answer ends up unparsed. With a prefill the conversation ends with
an assistant message holding the opening of the JSON (`{"label": "`), which providers that continue a trailing
assistant message (our `lgmt/smollm2`, Anthropic, vLLM/HF chat templates) extend rather than close; others may
ignore it. The completion then holds only the continuation (`True"}`), so the answer a parser sees is
opening + completion. No paper uses a prefill: it is an opt-in (`-T prefill=true`) for small models.

One mechanism for every suite: `open_answer` and `prefilled_response` are what `group_generate` (LGMT, lexical)
uses per member, and `prefill_generate` is the single-conversation solver (QMFOL) built on them.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

LABEL_OPENING = '{"label": "'
"""The opening of a `{"label": ...}` answer."""

REASONING_OPENING = '{"reasoning": "'
"""The opening of a `{"reasoning": ..., "label": ...}` answer (LGMT's chain-of-thought prompts)."""


def open_answer(messages: Sequence[ChatMessage], opening: str) -> list[ChatMessage]:
    """Return the conversation with the assistant turn opened by `opening` (unchanged if `opening` is empty).

    Args:
        messages: The conversation up to the user's question.
        opening: The start of the answer; "" for no prefill.

    Returns:
        A new list; `messages` is not modified.
    """
    return [*messages, ChatMessageAssistant(content=opening)] if opening else list(messages)


def prefilled_response(opening: str, output: ModelOutput) -> str:
    """The whole answer of a prefilled call: the opening the model continued, then its completion."""
    return opening + output.completion


@solver
def prefill_generate(opening: str) -> Solver:
    """Generate once with the assistant turn opened by `opening`; the output's completion includes the opening.

    For single-conversation tasks whose scorer reads `state.output.completion`. The messages keep what the model
    saw and said: the opening as an assistant message, then the model's continuation (as `group_generate` shows
    it); `state.output.completion` is opening + continuation, so the scorer parses the whole JSON.

    Args:
        opening: The start of the answer, e.g. `LABEL_OPENING`.

    Returns:
        The solver.

    Raises:
        ValueError: At construction, if `opening` is empty (use Inspect's `generate()` for no prefill).
    """
    if not opening:
        raise ValueError("prefill_generate needs a non-empty opening; use generate() for no prefill")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages = open_answer(state.messages, opening)
        state = await generate(state)
        state.output.completion = prefilled_response(opening, state.output)
        return state

    return solve
