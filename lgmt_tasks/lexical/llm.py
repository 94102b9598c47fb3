r"""The LLM-based input transformations of LLMorph (§IV): MR-8, MR-51, MR-120, MR-136, MR-152.

Any Inspect model can be the transformer. Prompts follow LLMorph's shape, a one-line instruction, the text in
quotes, then `Only output the changed text, nothing else.`, with two worked examples given as earlier turns of the
conversation (few-shot, as LLMorph does). Our examples are our own, written around the kind of sentence our
sources contain (quantified and conditional statements), and kept the same for every case.

Unit of transformation: one sentence per call. Premises are transformed one by one (LLMorph transforms sentence by
sentence too); the conclusion is one call. MR-152 (add negation) negates a single premise, drawn with the group's
seed, since negating every premise is not what the relation means. MR-120 (back-translation) makes two calls per
sentence: into German, then back into English.

What is accepted (LLMorph discards groups whose input relation does not hold; so do we, with the reason):
the output is cleaned (`clean_output`: white space, one layer of quotes, a leading "Here is ...:" line, then the
first line only); an empty output, an output much longer than its input (`MAX_GROWTH`, almost always a model
explaining itself), and a follow-up in which no transformed sentence changed are failures. Decoding is greedy
(temperature 0) so that a transformer that supports it gives the same follow-ups on every run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageUser,
    GenerateConfig,
    Model,
)

BACK_TRANSLATION_LANGUAGE = "German"
"""The pivot language of MR-120."""

MAX_GROWTH = 3.0
"""A transformed sentence longer than this many times its input (plus 40 characters) is rejected as chatter."""

TRANSFORMER_CONFIG = GenerateConfig(temperature=0.0, max_tokens=256)
"""Greedy decoding; a sentence never needs more than a few dozen tokens."""

_TAIL = "Only output the changed text, nothing else."


@dataclass(frozen=True)
class TransformPrompt:
    """One transformation step: an instruction with a `{text}` slot, and worked examples (input, output).

    Attributes:
        instruction: The user message, with the text to transform at `{text}`.
        examples: Few-shot demonstrations, given as earlier user/assistant turns.
    """

    instruction: str
    examples: tuple[tuple[str, str], ...]

    def messages(self, text: str) -> list[ChatMessage]:
        """The conversation sent to the transformer for `text`: the examples as turns, then the request."""
        turns: list[ChatMessage] = []
        for given, answer in self.examples:
            turns += [
                ChatMessageUser(content=self.instruction.format(text=given)),
                ChatMessageAssistant(content=answer),
            ]
        return [*turns, ChatMessageUser(content=self.instruction.format(text=text))]


PROMPTS: Mapping[str, tuple[TransformPrompt, ...]] = MappingProxyType(
    {
        "MR-8": (
            TransformPrompt(
                'Replace words in the following text with synonyms so that it means the same:\n"{text}"\n' + _TAIL,
                (
                    ("The old bridge is closed for repairs.", "The aged bridge is shut for repairs."),
                    (
                        "Every student who studies hard passes the exam.",
                        "Every pupil who studies diligently passes the test.",
                    ),
                ),
            ),
        ),
        "MR-51": (
            TransformPrompt(
                'Paraphrase the following text:\n"{text}"\n' + _TAIL,
                (
                    ("If it rains, the match is cancelled.", "The match is called off whenever it rains."),
                    ("No reptile is warm-blooded.", "Reptiles are never warm-blooded."),
                ),
            ),
        ),
        "MR-120": (
            TransformPrompt(
                f'Translate the following text into {BACK_TRANSLATION_LANGUAGE}:\n"{{text}}"\n'
                "Only output the translated text, nothing else.",
                (
                    ("The library opens at nine.", "Die Bibliothek öffnet um neun."),
                    (
                        "If a shop is closed, nobody works there.",
                        "Wenn ein Geschäft geschlossen ist, arbeitet dort niemand.",
                    ),
                ),
            ),
            TransformPrompt(
                'Translate the following text into English:\n"{text}"\nOnly output the translated text, nothing else.',
                (
                    ("Alle Katzen schlafen gern.", "All cats like to sleep."),
                    ("Es gibt einen Hund, der schwimmt.", "There is a dog that swims."),
                ),
            ),
        ),
        "MR-136": (
            TransformPrompt(
                "If the following text is in the active voice, rewrite it in the passive voice, and if it is in the "
                'passive voice, rewrite it in the active voice:\n"{text}"\n' + _TAIL,
                (
                    ("Maria painted the fence.", "The fence was painted by Maria."),
                    ("The letter was written by Tom.", "Tom wrote the letter."),
                ),
            ),
        ),
        "MR-152": (
            TransformPrompt(
                "Add a negation to the following text so that it means the opposite, changing as little as "
                'possible:\n"{text}"\n' + _TAIL,
                (
                    ("The museum is open on Mondays.", "The museum is not open on Mondays."),
                    ("Some birds can swim.", "No birds can swim."),
                ),
            ),
        ),
    }
)
"""The transformation steps of each LLM-based relation (MR-120 has two: there and back)."""

_QUOTES = (('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’"), ("`", "`"))


def clean_output(raw: str) -> str:
    """Reduce a transformer's completion to the transformed sentence.

    Drops surrounding white space, a first line that only introduces the answer (ends with `:`, e.g. "Here is the
    paraphrased text:"), everything after the first remaining line, and one layer of matching quotes.

    Args:
        raw: The completion.

    Returns:
        The sentence, possibly empty.
    """
    lines = [line.strip() for line in raw.strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        lines = lines[1:]
    text = lines[0] if lines else ""
    for left, right in _QUOTES:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            text = text[len(left) : -len(right)].strip()
            break
    return text


@dataclass(frozen=True)
class StepRecord:
    """One transformer call: what was sent, what came back, what was kept."""

    step: int
    input: str
    raw: str
    output: str


@dataclass
class LlmFollowUp:
    """The result of transforming one group's follow-up with a transformer.

    Attributes:
        ok: Whether a valid follow-up was produced.
        premises: The follow-up premises (the source's where nothing was transformed).
        conclusion: The follow-up conclusion.
        reason: Why it failed (empty when `ok`).
        calls: Every transformer call, in order (kept in the log and the build for inspection).
    """

    ok: bool
    premises: tuple[str, ...]
    conclusion: str
    reason: str = ""
    calls: list[StepRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for `state.store` and build statistics)."""
        return {
            "ok": self.ok,
            "premises": list(self.premises),
            "conclusion": self.conclusion,
            "reason": self.reason,
            "calls": [vars(call) for call in self.calls],
        }


class TransformFailed(Exception):
    """A sentence could not be transformed; the message is the reason counted in statistics."""


async def transform_sentence(
    model: Model, mr: str, text: str, cache: bool | CachePolicy = False, calls: list[StepRecord] | None = None
) -> str:
    """Transform one sentence with every step of a relation's prompt chain.

    Args:
        model: The transformer.
        mr: An LLM-based relation id (a key of `PROMPTS`).
        text: The sentence.
        cache: Inspect's model cache for these calls (the eval-time solver passes a policy that ignores epochs, so
            that every epoch sees the same follow-up).
        calls: If given, each call is appended here.

    Returns:
        The transformed sentence.

    Raises:
        TransformFailed: If a step returns an empty or overlong text.
        ValueError: If `mr` is not LLM-based.
    """
    if mr not in PROMPTS:
        raise ValueError(f"{mr} is not an LLM-based relation; expected one of {', '.join(PROMPTS)}")
    current = text
    for step, prompt in enumerate(PROMPTS[mr]):
        output = await model.generate(prompt.messages(current), config=TRANSFORMER_CONFIG, cache=cache)
        cleaned = clean_output(output.completion)
        if calls is not None:
            calls.append(StepRecord(step, current, output.completion, cleaned))
        if not cleaned:
            raise TransformFailed("empty transformer output")
        if len(cleaned) > MAX_GROWTH * len(current) + 40:
            raise TransformFailed("transformer output too long")
        current = cleaned
    return current


async def transform_followup(
    model: Model,
    mr: str,
    premises: Sequence[str],
    conclusion: str,
    changed_premises: Sequence[int],
    changed_conclusion: bool,
    cache: bool | CachePolicy = False,
) -> LlmFollowUp:
    """Make one group's follow-up: transform the planned premises and (if planned) the conclusion.

    Sentences are transformed one after the other (a group's calls are few; groups run concurrently).

    Args:
        model: The transformer.
        mr: An LLM-based relation id.
        premises: The source premises.
        conclusion: The source conclusion.
        changed_premises: Indices of the premises to transform (the builder's plan).
        changed_conclusion: Whether to transform the conclusion.
        cache: Inspect's model cache for the calls.

    Returns:
        The follow-up; `ok` is False (with the reason) if a call failed or nothing changed.
    """
    calls: list[StepRecord] = []
    new_premises = list(premises)
    new_conclusion = conclusion
    try:
        for index in changed_premises:
            new_premises[index] = await transform_sentence(model, mr, premises[index], cache, calls)
        if changed_conclusion:
            new_conclusion = await transform_sentence(model, mr, conclusion, cache, calls)
    except TransformFailed as exc:
        return LlmFollowUp(False, tuple(premises), conclusion, str(exc), calls)
    if changed_conclusion and new_conclusion == conclusion:
        return LlmFollowUp(False, tuple(premises), conclusion, "conclusion unchanged", calls)
    if changed_premises and all(new_premises[i] == premises[i] for i in changed_premises):
        return LlmFollowUp(False, tuple(premises), conclusion, "premises unchanged", calls)
    return LlmFollowUp(True, tuple(new_premises), new_conclusion, "", calls)


def plan_sites(mr: str, n_premises: int, part: str, rng_choice: int) -> tuple[tuple[int, ...], bool]:
    """Which sentences an LLM-based relation transforms in a part: (premise indices, whether the conclusion).

    Args:
        mr: An LLM-based relation id.
        n_premises: The number of premises of the case.
        part: `premises`, `conclusion` or `both`.
        rng_choice: A number drawn from the group's generator; MR-152 negates premise `rng_choice % n_premises`.

    Returns:
        The plan the builder writes into the row and the transformer carries out.
    """
    if part not in ("premises", "conclusion", "both"):
        raise ValueError(f"part={part!r}: expected premises, conclusion or both")
    premises: tuple[int, ...] = ()
    if part in ("premises", "both") and n_premises:
        premises = (rng_choice % n_premises,) if mr == "MR-152" else tuple(range(n_premises))
    return premises, part in ("conclusion", "both")
