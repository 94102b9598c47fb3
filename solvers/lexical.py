"""The lexical solver: make a pending LLM follow-up with the transformer, then ask the model as LGMT does.

Rows of function-based relations (and LLM rows built with `lgmt build lexical --transformer-model M`) arrive with
both members' prompts in `metadata["members"]`, and this solver is `group_generate` unchanged. A *pending* row (an
LLM-based relation built without a transformer) carries only the plan: which premises and whether the conclusion
to transform. For it the solver first calls the transformer model (any Inspect model) with the LLMorph-style prompts
of `lgmt_tasks.lexical.llm`, renders the follow-up's user prompt, and only then asks the model under test.

Transformer calls are ordinary Inspect model calls: they appear in the sample's transcript, and they go through
Inspect's model cache with a policy that ignores the epoch (`per_epoch=False`, no expiry), so that every epoch of a
run, and every later run with the same transformer, sees the same follow-up. Without that, `--epochs N` would mix
the transformer's randomness into the flakiness it is meant to measure (LLMorph re-ran "exactly the same groups").

If the transformer fails (empty or overlong output, or nothing changed), the group is no test: the solver records
why under `state.store["lexical_transform"]` and does not ask the model; the scorer counts it in `discarded_rate`.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import CachePolicy, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from lgmt_tasks.lexical.llm import transform_followup, transform_seed
from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import DEFAULT_PROMPTING, render_user_prompt
from lgmt_tasks.vocabulary import TRANSFORM_KEY

TRANSFORMER_CACHE = CachePolicy(expiry=None, per_epoch=False, scopes={"purpose": "lgmt-lexical-transformer"})
"""The cache policy of transformer calls: the same follow-up in every epoch and every run."""


def is_pending(metadata: dict[str, Any] | None) -> bool:
    """Whether a sample's follow-up still has to be made by the transformer."""
    return bool((metadata or {}).get("pending"))


@solver
def lexical_generate(
    prompting: str = DEFAULT_PROMPTING,
    transformer: str | Model | None = None,
    cache: bool = True,
    prefill: bool = False,
) -> Solver:
    """Make pending follow-ups with the transformer, then ask the model once per member (as `group_generate`).

    Args:
        prompting: The LGMT prompting strategy (`zero_shot`, `zero_shot_cot`, `few_shot`, `few_shot_cot`).
        transformer: The transformer model (an Inspect model name or a `Model`); needed only for pending rows.
        cache: Cache transformer calls across epochs and runs (see the module docstring); False re-transforms.
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
            if transformer is None:
                raise ValueError(
                    f"Sample {state.sample_id}: relation {metadata.get('mr')} needs a transformer model "
                    "(-T transformer_model=...)"
                )
            result = await transform_followup(
                get_model(transformer),
                str(metadata["mr"]),
                list(metadata["premises"]),
                str(metadata["conclusion"]),
                list(metadata["changed_premises"]),
                bool(metadata["changed_conclusion"]),
                cache=TRANSFORMER_CACHE if cache else False,
                seed=transform_seed(str(state.sample_id)),
            )
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
