"""DivLogicEval prompts (Appendix I) and the rotation solver: the four circular rotations asked concurrently.

The prompt is the paper's (Appendix I): the instruction, then the content, the question and the four options, each
on its own line. Options are written `A. <text>` as in the paper's examples (Appendix H). Three-shot prompting
(§4.1) puts three solved examples, one per question type, between the instruction and the question, each followed
by its answer in the requested form (`Answer: C`); blocks are separated by blank lines. The `no_reasoning`
instruction (§3.1, NoLR of Table 4) adds the paper's sentence asking for an answer without logical reasoning to the
instruction line.

One Inspect sample is one instance with its four rotations (DESIGN decision 1): `state.metadata["members"]` holds
the four user prompts, rotation 0 (the original order) first. Each is a separate single-turn conversation with no
system prompt (the paper's prompt is the whole input). The raw completions go to `state.store[RESPONSES_KEY]`;
`state.messages` / `state.output` keep the original-order exchange, so `inspect view` shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, get_args

from inspect_ai.model import ChatMessage, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from lgmt_tasks.rotation import ROTATIONS, rotation_order
from lgmt_tasks.solvers.group import generate_members, members_of
from lgmt_tasks.vocabulary import OPTION_LETTERS

INSTRUCTION = "You need to answer in the form of 'Answer: <A/B/C/D>' without explanation."
"""The instruction of Appendix I (the paper typesets the quotes as ‘ ’; we use plain ones)."""

NO_REASONING = "Please try your best to answer correctly without performing any logical reasoning."
"""The NoLR sentence of §3.1 (Table 4), the paper's wording with a closing period; the authors' public code has no
NoLR run, so the paper's text is all there is."""

InstructionChoice = Literal["standard", "no_reasoning"]
INSTRUCTIONS: dict[str, str] = {"standard": INSTRUCTION, "no_reasoning": f"{INSTRUCTION} {NO_REASONING}"}
"""The instruction line of each `instruction` setting: Appendix I's, or Appendix I's followed by the NoLR sentence
(§3.1 says it is added to the prompt; it goes on the instruction line so the rest of the prompt is unchanged)."""

LETTERS = OPTION_LETTERS

ANSWER_PREFIX = "Answer:"
"""How an answer starts (the end of a log-likelihood context, and of each three-shot example)."""

SHOTS: tuple[int, ...] = (0, 3)
"""The prompting settings of §4.1: zero-shot and three-shot."""


def checked_choice(name: str, value: Any, allowed: Sequence[Any], note: str = "") -> Any:
    """Return `value` if it is one of `allowed`, else raise a ValueError naming the parameter and the valid values."""
    if value not in allowed:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(map(str, allowed))}{note}")
    return value


def check_shots(shots: int) -> int:
    """Return `shots` if it is 0 or 3 (§4.1), else raise a ValueError listing the valid values."""
    return int(checked_choice("shots", shots, SHOTS, " (three-shot: one example per question type, §4.1)"))


def check_instruction(instruction: str) -> str:
    """Return `instruction` if it is `standard` or `no_reasoning`, else raise a ValueError listing the valid values."""
    return str(checked_choice("instruction", instruction, get_args(InstructionChoice)))


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


def render_prompt(
    content: str,
    question: str,
    options: Sequence[str],
    shots: Sequence[Mapping[str, Any]] = (),
    instruction: str = "standard",
) -> str:
    """The user prompt of one rotation: instruction, solved examples (three-shot), the question block.

    Args:
        content: The passage.
        question: The question wording.
        options: The four options in the rotation's order.
        shots: Solved examples (dataset rows), shown in their original order with their answer.
        instruction: `standard` (Appendix I) or `no_reasoning` (Appendix I plus the NoLR sentence of §3.1).

    Returns:
        The prompt.

    Raises:
        ValueError: On an unknown instruction.
    """
    line = INSTRUCTIONS[check_instruction(instruction)]
    if not shots:
        return f"{line}\n{question_block(content, question, options)}"
    examples = [
        f"{question_block(s['content'], s['question'], s['options'])}\n{ANSWER_PREFIX} {LETTERS[int(s['answer'])]}"
        for s in shots
    ]
    return "\n\n".join([line, *examples, question_block(content, question, options)])


def rotation_prompts(
    row: Mapping[str, Any], shots: Sequence[Mapping[str, Any]] = (), instruction: str = "standard"
) -> list[str]:
    """The four prompts of an instance, rotation 0 (the original order) first.

    Args:
        row: A DivLogicEval row (`content`, `question`, `options`), in the form to show.
        shots: Solved examples for three-shot prompting (none for zero-shot).
        instruction: `standard` or `no_reasoning` (`render_prompt`).

    Returns:
        Four prompts; rotation r shows original option (r + k) mod 4 at position k.
    """
    options = list(row["options"])
    return [
        render_prompt(row["content"], row["question"], [options[i] for i in rotation_order(r)], shots, instruction)
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
