"""Framework-light text helpers for the local provider: Inspect messages to chat-template dicts, stop sequences.

Kept free of torch so that they are unit-tested without loading a model.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ChatMessage

_ROLES = {"system": "system", "user": "user", "assistant": "assistant", "tool": "user"}
"""Inspect role → chat-template role. SmolLM2's template has no tool role; a tool result reads as a user turn."""


def chat_messages_to_dicts(messages: Sequence[ChatMessage]) -> list[dict[str, str]]:
    """Convert Inspect chat messages into the `{"role", "content"}` dicts a Hugging Face chat template expects.

    Only the text of each message is kept (`ChatMessage.text`): the embedded model reads no images or tool schemas.

    Args:
        messages: Inspect's conversation, system messages included.

    Returns:
        One dict per message, in order.
    """
    return [{"role": _ROLES[message.role], "content": message.text} for message in messages]


def cut_at_stop(text: str, stop_seqs: Sequence[str]) -> int | None:
    """Position of the earliest stop sequence in `text`, or None.

    As in the OpenAI API, the stop sequence itself is not part of the answer, so the caller cuts at this position.

    Args:
        text: Decoded completion.
        stop_seqs: Stop strings (empty strings are ignored).

    Returns:
        The index to cut at, or None if no stop sequence occurs.
    """
    hits = [i for i in (text.find(s) for s in stop_seqs if s) if i >= 0]
    return min(hits) if hits else None
