"""The LLMorph relations we implement, by their Table II catalogue ids (Cho, Ruberto and Terragni, ICSME 2025).

A lexical relation transforms the *English* of a source case (its premises, its conclusion, or both, as separate
variants, as LLMorph does for multi-part inputs) and states what the model's outputs should then satisfy:
`equivalence` (the same answer) for every relation here except MR-152, whose expected output relation is
`difference`. Nothing is proven: that is the point of the baseline (LGMT §2.3.2 argues that such text-level
relations drift, so some of their "violations" are correct answers to a changed problem).

Two kinds of input transformation, as in LLMorph §IV:

- `function`: deterministic, seeded text functions (`lgmt_tasks.lexical.transforms`), no model needed;
- `llm`: a transformer model rewrites the text with an LLMorph-style prompt (`lgmt_tasks.lexical.llm`).

MR-49 ("no transformation") asks the same question twice: its violation rate is the model's own noise floor
(LLMorph's flakiness baseline), against which every other relation's rate is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

Kind = Literal["function", "llm"]
"""How a relation's follow-up is made: a seeded text function, or a transformer model."""

Expected = Literal["equivalence", "difference"]
"""The output relation a relation expects between the source answer and the follow-up answer."""

Part = Literal["premises", "conclusion", "both"]
"""Which part of the case a relation transforms (one variant each)."""

PARTS: tuple[str, ...] = get_args(Part)
"""The parts, in LLMorph's order: first component, second component, both."""

NO_PART = "none"
"""The `part` of MR-49's groups, which transform nothing."""


@dataclass(frozen=True)
class LexicalRelation:
    """One relation of the LLMorph catalogue.

    Attributes:
        id: Table II id, e.g. `MR-1`.
        name: Short name (Table II's input relation).
        kind: `function` or `llm`.
        expected: `equivalence` or `difference` (Table II's output relation).
        description: What our implementation does, in one sentence (for cards and `inspect view`).
        per_part: False only for MR-49, which has no part to transform and gives one variant.
    """

    id: str
    name: str
    kind: Kind
    expected: Expected
    description: str
    per_part: bool = True

    @property
    def parts(self) -> tuple[str, ...]:
        """The variants this relation is built in."""
        return PARTS if self.per_part else (NO_PART,)


_RELATIONS: tuple[LexicalRelation, ...] = (
    LexicalRelation(
        "MR-1",
        "replace characters",
        "function",
        "equivalence",
        "Replaces 10% of the letters with a different random letter of the same case.",
    ),
    LexicalRelation("MR-2", "delete characters", "function", "equivalence", "Deletes 10% of the letters."),
    LexicalRelation(
        "MR-3", "leet", "function", "equivalence", "Writes 10% of the letters a, e, i, o, s, t as 4, 3, 1, 0, 5, 7."
    ),
    LexicalRelation(
        "MR-4",
        "add random characters",
        "function",
        "equivalence",
        "Inserts a random lowercase letter after 10% of the letters.",
    ),
    LexicalRelation(
        "MR-5",
        "add spaces",
        "function",
        "equivalence",
        "Inserts a space inside words, after 10% of the letters that are followed by a letter.",
    ),
    LexicalRelation(
        "MR-6",
        "swap characters",
        "function",
        "equivalence",
        "Swaps 10% of the pairs of adjacent, different letters inside words.",
    ),
    LexicalRelation(
        "MR-7",
        "shuffle characters",
        "function",
        "equivalence",
        "Shuffles the inner letters of 10% of the words of four or more letters, keeping both ends.",
    ),
    LexicalRelation(
        "MR-8",
        "synonym substitution",
        "llm",
        "equivalence",
        "The transformer replaces words with synonyms, sentence by sentence.",
    ),
    LexicalRelation(
        "MR-19",
        "shuffle sentences",
        "function",
        "equivalence",
        "Reorders the sentences of the part (the premises; the sentences of the conclusion).",
    ),
    LexicalRelation(
        "MR-49",
        "no transformation",
        "function",
        "equivalence",
        "Asks the same question twice: the noise floor of every other relation.",
        per_part=False,
    ),
    LexicalRelation(
        "MR-51", "paraphrase", "llm", "equivalence", "The transformer paraphrases the text, sentence by sentence."
    ),
    LexicalRelation(
        "MR-84",
        "add an irrelevant sentence at the end",
        "function",
        "equivalence",
        "Appends a sentence that shares no word with the case (a new last premise, or a second "
        "sentence of the conclusion).",
    ),
    LexicalRelation("MR-102", "capitalisation", "function", "equivalence", "Writes the part in capital letters."),
    LexicalRelation(
        "MR-120",
        "back-translation",
        "llm",
        "equivalence",
        "The transformer translates the text into German and back into English, sentence by sentence.",
    ),
    LexicalRelation(
        "MR-126",
        "keyboard mistakes",
        "function",
        "equivalence",
        "Replaces letters of 10% of the words with a neighbouring key on a QWERTY keyboard.",
    ),
    LexicalRelation(
        "MR-128",
        "OCR errors",
        "function",
        "equivalence",
        "Replaces characters of 10% of the words with a character OCR confuses them with (l/1, O/0, m/rn, ...).",
    ),
    LexicalRelation(
        "MR-136",
        "active/passive voice",
        "llm",
        "equivalence",
        "The transformer turns active sentences passive and passive ones active.",
    ),
    LexicalRelation(
        "MR-152",
        "add negation",
        "llm",
        "difference",
        "The transformer negates one premise, the conclusion, or both; the answer is expected to differ.",
    ),
)

LEXICAL_RELATIONS: Mapping[str, LexicalRelation] = MappingProxyType({r.id: r for r in _RELATIONS})
"""Every implemented relation by id, in catalogue order (read-only)."""

FUNCTION_BASED: tuple[str, ...] = tuple(r.id for r in _RELATIONS if r.kind == "function")
"""The ids of the function-based relations (no model needed; the lm-eval task and the default build)."""

LLM_BASED: tuple[str, ...] = tuple(r.id for r in _RELATIONS if r.kind == "llm")
"""The ids of the relations that need a transformer model."""

NOISE_FLOOR = "MR-49"
"""The relation whose violation rate is the noise floor."""

MR_ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"function": FUNCTION_BASED, "llm": LLM_BASED, "all": tuple(LEXICAL_RELATIONS)}
)
"""Names for sets of relations accepted wherever relation ids are (`-T mr=function`)."""


def _items(spec: str | int | Sequence[str | int]) -> list[str]:
    raw: list[str | int] = [spec] if isinstance(spec, str | int) else list(spec)
    items: list[str] = []
    for value in raw:
        items.extend(part.strip() for part in str(value).split(",") if part.strip())
    return items


def normalise_mr(value: str) -> str:
    """Return the canonical id of one relation written as `MR-1`, `mr-1`, `MR1` or `1`.

    Raises:
        ValueError: If it names no implemented relation (the message lists the valid ids and aliases).
    """
    text = value.strip().upper().replace("_", "-")
    number = text.removeprefix("MR").lstrip("-")
    candidate = f"MR-{number}"
    if candidate not in LEXICAL_RELATIONS:
        raise ValueError(
            f"unknown lexical relation {value!r}; expected ids among {', '.join(LEXICAL_RELATIONS)} "
            f"or one of {', '.join(MR_ALIASES)}"
        )
    return candidate


def resolve_mrs(spec: str | int | Sequence[str | int]) -> tuple[str, ...]:
    """Resolve a relation selection to ids, in catalogue order, without duplicates.

    Args:
        spec: One id or several: a comma-separated string (`"MR-1,MR-84"`, `"1,84"`), a list, or an alias
            (`function`, `llm`, `all`); Inspect passes `-T mr=1` as an int, which is accepted too.

    Returns:
        The ids.

    Raises:
        ValueError: On an unknown id or an empty selection.
    """
    wanted: set[str] = set()
    for item in _items(spec):
        alias = MR_ALIASES.get(item.lower())
        wanted.update(alias if alias is not None else (normalise_mr(item),))
    if not wanted:
        raise ValueError(f"mr={spec!r}: select at least one relation (ids such as MR-1, or {', '.join(MR_ALIASES)})")
    return tuple(mr for mr in LEXICAL_RELATIONS if mr in wanted)


def resolve_parts(spec: str | Sequence[str]) -> tuple[str, ...]:
    """Resolve a part selection (`premises`, `conclusion`, `both`, comma-separated or a list, or `all`).

    Returns:
        The parts, in `PARTS` order.

    Raises:
        ValueError: On an unknown part or an empty selection.
    """
    items = [item.lower() for item in _items(spec)]
    if "all" in items:
        return PARTS
    unknown = sorted(set(items) - set(PARTS))
    if unknown or not items:
        raise ValueError(f"part={spec!r}: expected one or more of {', '.join(PARTS)} (or all)")
    return tuple(part for part in PARTS if part in items)


def variants(mrs: Sequence[str], parts: Sequence[str]) -> list[tuple[str, str]]:
    """The (relation, part) variants a selection builds; MR-49 always has the single part `none`."""
    out: list[tuple[str, str]] = []
    for mr in mrs:
        relation = LEXICAL_RELATIONS[mr]
        out.extend((mr, part) for part in (parts if relation.per_part else relation.parts))
    return out
