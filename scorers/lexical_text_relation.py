"""LLMorph's free-text output relation (`output=text`), as its code runs it, and as its paper words it.

LLMorph compares free-text outputs by the cosine similarity of sentence embeddings. Its paper (§IV) gives "a
similarity threshold of 0.8, and a dissimilarity threshold of 0.4". Its code (`src/config/list_tasks.json` and
`src/relations/func_or.py` l.121–141 of `steven-b-cho/llmorph`) runs something else. For its free-text tasks
(question answering, relation extraction) equivalence relations become `ORBERTSimilarity(threshold=0.4)`, which
holds iff the similarity is at least 0.4 **or one cleaned text contains the other** (`ORSubsetBase.is_subset`), and
difference relations become `ORBERTNotSimilarity(threshold=0.8)`, which holds iff that fails at 0.8: similarity
below 0.8 and no containment. Both readings are offered:

- `code` (the default, what LLMorph's released code runs): equivalence iff s ≥ 0.4 or containment;
  difference iff s < 0.8 and no containment;
- `paper`: equivalence iff s ≥ 0.8; difference iff s < 0.4; no containment rule.

Written the same way for both, with the thresholds named by the relation they decide: equivalence holds iff
s ≥ `equivalent` (or containment, in code mode), difference holds iff s < `different` (and no containment).

Containment is LLMorph's plain substring test on the cleaned texts (so "true" is inside "untrue"), kept as it is.
One of LLMorph's bugs is not copied: its `clean_text` turns an empty or punctuation-only output into "", which is
contained in every text, so an empty answer "equals" any other. Here a text with nothing left after cleaning is
never compared (`text_violation` returns None): an unreadable output is never a satisfied relation.

Pure Python: nothing heavy is imported (the similarity itself comes from `lexical_similarity`).
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

ThresholdMode = Literal["code", "paper"]
"""Which reading of LLMorph's output relation: its code's, or its paper's."""

THRESHOLD_MODES: tuple[ThresholdMode, ...] = ("code", "paper")
"""Every mode, the default first."""

DEFAULT_THRESHOLD_MODE: ThresholdMode = "code"
"""LLMorph's released code, rather than its paper's wording."""

TEXT_RELATIONS: tuple[str, ...] = ("equivalence", "difference")
"""The relations decided on free text (LLMorph's `ORBERTSimilarity` and `ORBERTNotSimilarity`)."""

DEFAULT_THRESHOLDS: Mapping[str, tuple[float, float]] = MappingProxyType({"code": (0.4, 0.8), "paper": (0.8, 0.4)})
"""`(equivalent, different)` per mode: equivalence holds iff s ≥ equivalent, difference iff s < different.

code: `list_tasks.json` gives `ORBERTSimilarity` 0.4 and `ORBERTNotSimilarity` 0.8; paper: §IV's 0.8 and 0.4.
"""

_PUNCTUATION = frozenset(string.punctuation)


def clean_text(text: str) -> str:
    """LLMorph's `clean_text` (`func_or.py` l.8–12): lowercase, drop ASCII punctuation, collapse white space."""
    return " ".join("".join(ch for ch in text.lower() if ch not in _PUNCTUATION).split())


def contains_either(a: str, b: str) -> bool:
    """Whether one cleaned text contains the other (LLMorph's `is_subset`, `func_or.py` l.129–133).

    Unlike LLMorph's, never true for a text with nothing left after cleaning: "" is a substring of everything.
    """
    ca, cb = clean_text(a), clean_text(b)
    return bool(ca and cb) and (ca in cb or cb in ca)


def resolve_thresholds(
    mode: str = DEFAULT_THRESHOLD_MODE, equivalent: float | None = None, different: float | None = None
) -> tuple[float, float]:
    """The `(equivalent, different)` thresholds of a mode, with optional overrides.

    Raises:
        ValueError: On an unknown mode (naming the allowed ones) or a threshold outside [0, 1] (naming it).
    """
    if mode not in DEFAULT_THRESHOLDS:
        raise ValueError(f"thresholds={mode!r}: expected one of {', '.join(THRESHOLD_MODES)}")
    default_equivalent, default_different = DEFAULT_THRESHOLDS[mode]
    resolved = (
        default_equivalent if equivalent is None else float(equivalent),
        default_different if different is None else float(different),
    )
    for name, value in zip(("equivalent_threshold", "different_threshold"), resolved, strict=True):
        if not 0.0 <= value <= 1.0:  # also refuses NaN
            raise ValueError(f"{name}={value}: must be between 0 and 1")
    return resolved


def text_violation(
    expected: str,
    a: str | None,
    b: str | None,
    similarity: float,
    mode: str = DEFAULT_THRESHOLD_MODE,
    equivalent: float | None = None,
    different: float | None = None,
) -> bool | None:
    """Whether two free-text outputs violate the expected output relation.

    Args:
        expected: `equivalence` or `difference`.
        a: The source output (None or "": unreadable).
        b: The follow-up output (None or "": unreadable).
        similarity: The cosine similarity of their embeddings.
        mode: `code` or `paper` (see the module docstring).
        equivalent: The equivalence threshold (None: the mode's).
        different: The difference threshold (None: the mode's).

    Returns:
        True (violated), False (holds), or None when either text has nothing left after cleaning (not compared).

    Raises:
        ValueError: On an unknown relation or mode, a NaN similarity, or a threshold outside [0, 1].
    """
    if expected not in TEXT_RELATIONS:
        raise ValueError(f"expected={expected!r}: a text relation is 'equivalence' or 'difference'")
    if math.isnan(similarity):
        raise ValueError("similarity is NaN")
    eq, diff = resolve_thresholds(mode, equivalent, different)
    if a is None or b is None or not clean_text(a) or not clean_text(b):
        return None
    contained = mode == "code" and contains_either(a, b)
    if expected == "equivalence":
        return not (similarity >= eq or contained)  # ORBERTSimilarity.output_relation, l.136-137
    return not (similarity < diff and not contained)  # ORBERTNotSimilarity: `not` the above at its threshold, l.139-141
