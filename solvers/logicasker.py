"""The LogicAsker solver: the paper's question as the only user message, optionally after demonstrations.

The paper prompts with a blank system prompt and the question of Appendix G. With in-context demonstrations
(§3.4, Appendix E) the user message is the demonstrations, one per paragraph, then "Now answer the following
question:" and the question; `DEMONSTRATIONS_TEMPLATE` is that layout. The demonstrations are fixed when the task is
built (the same four for every sample, as in the paper's Table 6 experiment), and `inspect view` shows the full
message the model received.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.solver import Generate, Solver, TaskState, solver

DEMONSTRATIONS_TEMPLATE = "{demonstrations}\n\nNow answer the following question:\n\n{question}"
"""The user message with demonstrations (Appendix E); demonstrations are separated by blank lines."""


def with_demonstrations(demonstrations: Sequence[str], question: str) -> str:
    """Put demonstrations before a question, as in Appendix E (no demonstrations: the question alone).

    Args:
        demonstrations: Worked examples, each a question with its answer and explanation.
        question: The test's question.

    Returns:
        The user message.
    """
    if not demonstrations:
        return question
    return DEMONSTRATIONS_TEMPLATE.format(demonstrations="\n\n".join(demonstrations), question=question)


@solver
def logicasker_generate(demonstrations: Sequence[str] = ()) -> Solver:
    """Ask the question (after the demonstrations, if any) and generate one reply.

    Args:
        demonstrations: Worked examples to put before every question (empty: zero-shot, as in the paper).

    Returns:
        The solver.

    Raises:
        ValueError: At construction, if a demonstration is empty.
    """
    demos = tuple(demonstrations)
    if any(not d.strip() for d in demos):
        raise ValueError("demonstrations must be non-empty strings")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if demos:
            state.user_prompt.text = with_demonstrations(demos, state.user_prompt.text)
        return await generate(state)

    return solve
