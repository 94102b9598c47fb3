"""The lexical solver: make a pending LLM follow-up with the transform it is given, then ask the model as LGMT does.

Rows of function-based relations (and LLM rows built with `lgmt build lexical --transformer-model M`) arrive with
both members' prompts in `metadata["members"]`, and this solver is `group_generate` unchanged. A *pending* row (an
LLM-based relation built without a transformer) carries only the plan: which premises and whether the conclusion
to transform. For it the solver first awaits the transform (the task passes `lgmt_tasks.lexical.llm.pending_transform`:
the transformer model called with LLMorph-style prompts, through Inspect's model cache so that every epoch sees the
same follow-up), renders the follow-up's user prompt, and only then asks the model under test. The transform is
handed in by the task rather than imported here, so that solvers stay below the suites they serve.

If the transform fails (empty or overlong output, or nothing changed), the group is no test: the solver records
why under `state.store["lexical_transform"]` and does not ask the model; the scorer counts it in `discarded_rate`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from inspect_ai.solver import Generate, Solver, TaskState, solver

from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import DEFAULT_PROMPTING, render_user_prompt
from lgmt_tasks.vocabulary import TRANSFORM_KEY


class TransformedFollowUp(Protocol):
    """What a transform returns for one pending group (`lgmt_tasks.lexical.llm.LlmFollowUp` is one)."""

    @property
    def ok(self) -> bool:
        """Whether a valid follow-up was made."""

    @property
    def premises(self) -> tuple[str, ...]:
        """The follow-up premises."""

    @property
    def conclusion(self) -> str:
        """The follow-up conclusion."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data, kept in the sample's store."""


FollowUpTransform = Callable[[str, Mapping[str, Any]], Awaitable[TransformedFollowUp]]
"""Makes a pending group's follow-up from the sample's id and metadata (the plan)."""


def is_pending(metadata: dict[str, Any] | None) -> bool:
    """Whether a sample's follow-up still has to be made by the transformer."""
    return bool((metadata or {}).get("pending"))


@solver
def lexical_generate(
    prompting: str = DEFAULT_PROMPTING,
    transform: FollowUpTransform | None = None,
    prefill: bool = False,
) -> Solver:
    """Make pending follow-ups with `transform`, then ask the model once per member (as `group_generate`).

    Args:
        prompting: The LGMT prompting strategy (`zero_shot`, `zero_shot_cot`, `few_shot`, `few_shot_cot`).
        transform: Makes a pending row's follow-up (`lgmt_tasks.lexical.llm.pending_transform`); needed only for
            pending rows.
        prefill: Open the answers of the model under test with the JSON the prompting asks for, exactly as
            `group_generate(prompting, prefill=True)` does (transformer calls are never prefilled).

    Returns:
        The solver.

    Raises:
        ValueError: At construction, on an invalid `prompting`; when solving, on a pending row without a transformer.
    """
    inner = group_generate(prompting, prefill=prefill)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata
        if is_pending(metadata):
            if transform is None:
                raise ValueError(
                    f"Sample {state.sample_id}: relation {metadata.get('mr')} needs a transformer model "
                    "(-T transformer_model=...)"
                )
            result = await transform(str(state.sample_id), metadata)
            state.store.set(TRANSFORM_KEY, result.to_dict())
            if not result.ok:
                return state
            metadata["followup_premises"] = list(result.premises)
            metadata["followup_conclusion"] = result.conclusion
            metadata["members"] = [
                metadata["members"][0],
                render_user_prompt(list(result.premises), result.conclusion),
            ]
        return await inner(state, generate)

    return solve
