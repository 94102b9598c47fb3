"""Stable, content-derived identifiers (STYLE: never derived from position)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

SEPARATOR = "\x1f"  # ASCII unit separator: cannot occur in our text fields by accident


def content_id(prefix: str, parts: Iterable[object], length: int = 12) -> str:
    """`prefix-<hash>` where the hash covers every part, joined by a separator.

    Args:
        prefix: Human-readable prefix (for example the relation id).
        parts: Fields that define the item; lists are joined recursively.
        length: Hex digits of the hash to keep.
    """
    h = hashlib.sha256()
    for part in parts:
        h.update(_flatten(part).encode("utf-8"))
        h.update(SEPARATOR.encode())
    return f"{prefix}-{h.hexdigest()[:length]}"


def _flatten(part: object) -> str:
    if isinstance(part, (list, tuple)):
        return "[" + SEPARATOR.join(_flatten(p) for p in part) + "]"
    return str(part)


def derived_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed for one item, derived from the build seed and the item's identity.

    Deriving per-item seeds (rather than drawing from one shared generator) makes every item independent of
    processing order, so a parallel build gives the same bytes as a serial one.
    """
    digest = hashlib.sha256(SEPARATOR.join(map(str, (seed, *parts))).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")
