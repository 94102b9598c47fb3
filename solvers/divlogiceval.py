"""DivLogicEval prompts (Appendix I) and the rotation solver: the four circular rotations asked concurrently.

The prompt is the paper's (Appendix I): the instruction, then the content, the question and the four options, each
on its own line. Options are written `A. <text>` as in the paper's examples (Appendix H). Three-shot prompting
(§4.1) puts three solved examples, one per question type, between the instruction and the question, each followed
by its answer in the requested form (`Answer: C`); blocks are separated by blank lines.

One Inspect sample is one instance with its four rotations (DESIGN decision 1): `state.metadata["members"]` holds
the four user prompts, rotation 0 (the original order) first. Each is a separate single-turn conversation with no
system prompt (the paper's prompt is the whole input). The raw completions go to `state.store[RESPONSES_KEY]`;
`state.messages` / `state.output` keep the original-order exchange, so `inspect view` shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from lgmt_tasks.divlogiceval.rotation import ROTATIONS, rotation_order
from lgmt_tasks.solvers.group import generate_members, members_of
from lgmt_tasks.vocabulary import OPTION_LETTERS

INSTRUCTION = "You need to answer in the form of 'Answer: <A/B/C/D>' without explanation."
"""The instruction of Appendix I (the paper typesets the quotes as ‘ ’; we use plain ones)."""

LETTERS = OPTION_LETTERS

ANSWER_PREFIX = "Answer:"
"""How an answer starts (the end of a log-likelihood context, and of each three-shot example)."""

SHOTS: tuple[int, ...] = (0, 3)
"""The prompting settings of §4.1: zero-shot and three-shot."""


def check_shots(shots: int) -> int:
    """Return `shots` if it is 0 or 3 (§4.1), else raise a ValueError listing the valid values."""
    if shots not in SHOTS:
        raise ValueError(f"shots={shots!r}: expected 0 or 3 (three-shot: one example per question type, §4.1)")
    return shots


def question_block(content: str, question: str, options: Sequence[str]) -> str:
    """The content, the question and the lettered options, one per line (Appendix I).

    Args:
        content: The passage.
        question: The question wording.
        options: The four options, in the order to show them.

    Returns:
        The block.

    Raises:
        ValueError: If there are not four options.
    """
    if len(options) != len(LETTERS):
        raise ValueError(f"expected {len(LETTERS)} options, got {len(options)}")
    return "\n".join([content, question, *(f"{letter}. {text}" for letter, text in zip(LETTERS, options))])


def render_prompt(content: str, question: str, options: Sequence[str], shots: Sequence[Mapping[str, Any]] = ()) -> str:
    """The user prompt of one rotation: instruction, solved examples (three-shot), the question block.

    Args:
        content: The passage.
        question: The question wording.
        options: The four options in the rotation's order.
        shots: Solved examples (dataset rows), shown in their original order with their answer.

    Returns:
        The prompt.
    """
    if not shots:
        return f"{INSTRUCTION}\n{question_block(content, question, options)}"
    examples = [
        f"{question_block(s['content'], s['question'], s['options'])}\n{ANSWER_PREFIX} {LETTERS[int(s['answer'])]}"
        for s in shots
    ]
    return "\n\n".join([INSTRUCTION, *examples, question_block(content, question, options)])


def rotation_prompts(row: Mapping[str, Any], shots: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """The four prompts of an instance, rotation 0 (the original order) first.

    Args:
        row: A DivLogicEval row (`content`, `question`, `options`).
        shots: Solved examples for three-shot prompting (none for zero-shot).

    Returns:
        Four prompts; rotation r shows original option (r + k) mod 4 at position k.
    """
    options = list(row["options"])
    return [
        render_prompt(row["content"], row["question"], [options[i] for i in rotation_order(r)], shots)
        for r in range(ROTATIONS)
    ]


@solver
def rotations_generate() -> Solver:
    """Ask the model every rotation of an instance, concurrently, each as its own one-message conversation.

    Returns:
        The solver. It stores the four raw completions (rotation order) under `state.store[RESPONSES_KEY]` and
        leaves the original-order exchange in `state.messages` / `state.output`.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        members = members_of(state)
        if len(members) != ROTATIONS:
            raise ValueError(f"Sample {state.sample_id}: expected {ROTATIONS} rotation prompts, got {len(members)}")
        conversations: list[list[ChatMessage]] = [[ChatMessageUser(content=prompt)] for prompt in members]
        return await generate_members(state, conversations)

    return solve
