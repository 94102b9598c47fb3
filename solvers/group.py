"""The group solver: ask the model once per member of a metamorphic group, all members concurrently.

One Inspect sample is one group (DESIGN decision 1): `state.metadata["members"]` holds the user prompts, source
first, then each follow-up. Each member is an independent conversation (system prompt + that user prompt), as in
the paper, where source and follow-up are fed to the model independently (§3.5).

Where the answers go:

- `state.store["responses"]` (key `RESPONSES_KEY`): the raw completions, one per member, in member order. The
  scorer reads them from there, and the log keeps them as the sample's `store`.
- `state.messages` / `state.output`: the source conversation and its output, so `inspect view` shows the source
  exchange in the Messages tab. Every member's model call (follow-ups included) is in the sample's events.
- With `control=True` (LGMT's `-T control=true`, or `control=repeat`): `state.store["control_response"]`
  (`CONTROL_RESPONSE_KEY`), the completion of the control member, the source conversation asked a second time,
  concurrently with the others. It is not a member (the dataset and `metadata["members"]` are unchanged, and
  `RESPONSES_KEY` keeps member order).
- With `control="render"` (LGMT's `-T control=render`, the style control): the same key holds the completion of the
  source re-rendered by the template realiser, whose user prompt the task put in `metadata["control_member"]`
  (`RENDER_PROMPT_KEY`); system prompt and prefill are the source's.

The control call is the source's call repeated with the run's own settings, with one exception (`control_cache`):
Inspect's `--cache` keys a cached answer on the messages, model, config and epoch, all identical for the control and
its source, so the cache (not the model) would answer the control with the source's answer. With caching on, the
control call gets its own cache scope (`scopes={"lgmt_member": "control"}`; the render control `"render"`, since
a source whose English is the realiser's own, such as a generated one, renders to the very same prompt): a re-run
is still served from the cache, but never with the source's answer. A fixed `--seed` is deliberately kept: a
seeded sampler (our `lgmt/smollm2`) then draws the follow-ups with the source's random numbers too, so the noise MVR
is exposed to is what the control measures (0 for a seeded local sampler, as under greedy decoding). A different
seed for the control alone would compare coupled follow-ups with an uncoupled control and overstate the floor: on
`lgmt/smollm2` at temperature 0.7 with `--seed 1`, seed + 1 made every control differ while no follow-up did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import collect

from lgmt_tasks.solvers.prefill import LABEL_OPENING, REASONING_OPENING, open_answer, prefilled_response
from lgmt_tasks.solvers.prompts import DEFAULT_PROMPTING, system_prompt
from lgmt_tasks.vocabulary import CONTROL_RESPONSE_KEY, RENDER_PROMPT_KEY, RESPONSES_KEY, control_kind

PREFILLS: dict[str, str] = {
    "zero_shot": LABEL_OPENING,
    "few_shot": LABEL_OPENING,
    "zero_shot_cot": REASONING_OPENING,
    "few_shot_cot": REASONING_OPENING,
}
"""Assistant prefill per prompting (with `prefill=True`): the opening of the JSON answer the prompt asks for
(the mechanism is `lgmt_tasks.solvers.prefill`)."""


def members_of(state: TaskState) -> list[str]:
    """Return the user prompts of a group, checked: a non-empty list of strings in `state.metadata["members"]`.

    Args:
        state: The sample's state.

    Returns:
        The prompts, source first.

    Raises:
        ValueError: Naming the sample, if `members` is missing or malformed (a dataset built for another solver).
    """
    members: Any = (state.metadata or {}).get("members")
    if not isinstance(members, list) or len(members) < 2 or not all(isinstance(m, str) for m in members):
        raise ValueError(
            f"Sample {state.sample_id}: metadata['members'] must be a list of at least two user prompts (source "
            f"first, then the follow-ups); got {members!r:.200}"
        )
    return members


CONTROL_SCOPE = {"lgmt_member": "control"}
"""The cache scope of the control call, so that Inspect's cache never serves it the source's answer."""

RENDER_SCOPE = {"lgmt_member": "render"}
"""The cache scope of the render control's call (`control="render"`)."""


def render_prompt(state: TaskState) -> str:
    """The user prompt of the render control member, checked: `state.metadata[RENDER_PROMPT_KEY]`.

    Raises:
        ValueError: Naming the sample, if the task did not write it (a dataset made without `-T control=render`).
    """
    prompt = (state.metadata or {}).get(RENDER_PROMPT_KEY)
    if not isinstance(prompt, str) or not prompt:
        raise ValueError(
            f"Sample {state.sample_id}: control='render' asks the prompt in metadata[{RENDER_PROMPT_KEY!r}] (the "
            "source re-rendered by the template realiser), which the LGMT task writes with -T control=render; got "
            f"{prompt!r:.200}"
        )
    return prompt


def control_cache(model: Model, scope: dict[str, str] = CONTROL_SCOPE) -> bool | CachePolicy:
    """The cache policy of the control call: the run's own, in a scope of its own so it never gets the source's entry.

    Args:
        model: The model asked (the active model: its config merged with the eval's, as Inspect resolves it).
        scope: The scope added to the policy's (`CONTROL_SCOPE`, or `RENDER_SCOPE` for the render control).

    Returns:
        False when caching is off; else the run's policy (`--cache` gives the default policy) with `scope` (the
        repeat control's `CONTROL_SCOPE` by default) added to its scopes.
    """
    cache = model.config.merge(active_generate_config()).cache
    if cache is None or cache is False:
        return False
    policy = cache if isinstance(cache, CachePolicy) else CachePolicy()
    return policy.model_copy(update={"scopes": {**policy.scopes, **scope}})


async def generate_members(
    state: TaskState,
    conversations: Sequence[list[ChatMessage]],
    opening: str = "",
    control: bool = False,
    control_conversation: list[ChatMessage] | None = None,
) -> TaskState:
    """Ask the model every member's conversation concurrently, store the answers, and show the first exchange.

    The one way every group solver (LGMT, lexical, DivLogicEval's rotations) hands its answers to the scorer.

    Args:
        state: The sample's state.
        conversations: One conversation per member, in member order (source, or the original order, first).
        opening: The assistant prefill that ends every conversation ("" for none); it is put back in front of each
            completion, so the stored answer is the whole reply.
        control: Also ask the first conversation a second time (`control_cache`), concurrently, and store its
            answer under `state.store[CONTROL_RESPONSE_KEY]`.
        control_conversation: With `control`, ask this conversation as the control member instead of the first
            one (the render control), in the cache scope `RENDER_SCOPE`.

    Returns:
        The state, with the answers under `state.store[RESPONSES_KEY]` (member order) and the first member's
        conversation and output in `state.messages` / `state.output`.
    """
    model = get_model()
    calls = [model.generate(messages) for messages in conversations]
    if control:
        if control_conversation is None:
            calls.append(model.generate(conversations[0], cache=control_cache(model)))
        else:
            calls.append(model.generate(control_conversation, cache=control_cache(model, RENDER_SCOPE)))
    outputs: list[ModelOutput] = await collect(*calls)
    if control:
        state.store.set(CONTROL_RESPONSE_KEY, prefilled_response(opening, outputs.pop()))
    state.store.set(RESPONSES_KEY, [prefilled_response(opening, output) for output in outputs])
    state.messages = [*conversations[0], outputs[0].message]
    state.output = outputs[0]
    return state


@solver
def group_generate(prompting: str = DEFAULT_PROMPTING, prefill: bool = False, control: bool | str = False) -> Solver:
    """Generate one answer per group member with the paper's system prompt, concurrently.

    Args:
        prompting: `zero_shot`, `zero_shot_cot` (the paper's default), `few_shot` or `few_shot_cot`; few-shot
            variants carry their demonstrations in the system prompt (Appendix C.1).
        prefill: Start the assistant turn with the opening of the requested JSON (`{"label": "` or
            `{"reasoning": "`), so that a small model answers in the format instead of chatting. Not in the paper;
            off by default. The stored response is prefill + completion, so the parser sees the whole JSON. Works
            with providers that continue a trailing assistant message (our `lgmt/smollm2`, Anthropic, vLLM/HF
            chat templates); others may ignore it.
        control: The control member, whose completion goes to `state.store[CONTROL_RESPONSE_KEY]`, not among the
            members' responses: `True` (or `"repeat"`) asks the source a second time, unchanged (the noise floor of
            `-T control=true`); `"render"` asks the prompt in `metadata[RENDER_PROMPT_KEY]`, the source re-rendered
            by the template realiser (the style control of `-T control=render`); `False` (or `"none"`) asks none.

    Returns:
        The solver. It stores the raw completions under `state.store[RESPONSES_KEY]` and leaves the source
        conversation in `state.messages` / `state.output`.

    Raises:
        ValueError: At construction, if `prompting` is not one of the four or `control` not a control
            (`vocabulary.control_kind`; the messages list the allowed values).
    """
    system = system_prompt(prompting)  # validates now, when the task is built, not at the first sample
    opening = PREFILLS[prompting] if prefill else ""
    kind = control_kind(control)

    def conversation(prompt: str) -> list[ChatMessage]:
        return open_answer([ChatMessageSystem(content=system), ChatMessageUser(content=prompt)], opening)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        conversations = [conversation(prompt) for prompt in members_of(state)]
        rendered = conversation(render_prompt(state)) if kind == "render" else None
        return await generate_members(
            state, conversations, opening, control=kind != "none", control_conversation=rendered
        )

    return solve
