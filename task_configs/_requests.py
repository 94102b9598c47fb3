"""Requests for a document that holds several prompts (a metamorphic group's members, a question's rotations).

lm-eval's `ConfigurableTask` makes one request per document; our group tasks make one per prompt (generation) or
one per prompt and answer continuation (log-likelihood), and read them back in `process_results` by `idx`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from lm_eval.api.instance import Instance
from lm_eval.api.task import ConfigurableTask


def group_requests(
    task: ConfigurableTask,
    doc: Mapping[str, Any],
    ctx: Any,
    continuations: Sequence[str],
    unit: str,
    **kwargs: Any,
) -> list[Instance]:
    """One generation per context, or one log-likelihood per (context, continuation).

    Request `idx` orders the results lm-eval hands to `process_results`: context `i` has `idx = i` (generation) or
    `idx = i * len(continuations) + j` for `continuations[j]` (log-likelihood).

    Args:
        task: The task (its `OUTPUT_TYPE` and `config.generation_kwargs` decide the request kind).
        doc: The document.
        ctx: The list of contexts from the task's `fewshot_context`.
        continuations: The answers scored by log-likelihood.
        unit: What one context is (`member`, `rotation`), for the error message.
        **kwargs: lm-eval's request metadata; `apply_chat_template` and `chat_template` were consumed by
            `fewshot_context` already and are dropped here.

    Raises:
        TypeError: If `ctx` is not a list of contexts.
    """
    kwargs.pop("apply_chat_template", None)
    kwargs.pop("chat_template", None)
    if not isinstance(ctx, list):
        raise TypeError(f"{task.config.task}: expected one context per {unit}, got {type(ctx).__name__}")
    if task.OUTPUT_TYPE == "generate_until":
        return [
            Instance(
                request_type="generate_until",
                doc=doc,
                arguments=(context, deepcopy(task.config.generation_kwargs)),
                idx=i,
                **kwargs,
            )
            for i, context in enumerate(ctx)
        ]
    return [
        Instance(
            request_type="loglikelihood",
            doc=doc,
            arguments=(context, continuation),
            idx=i * len(continuations) + j,
            **kwargs,
        )
        for i, context in enumerate(ctx)
        for j, continuation in enumerate(continuations)
    ]
