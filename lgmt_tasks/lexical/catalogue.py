"""LLMorph's catalogue (Cho, Ruberto and Terragni, ICSME 2025, Table II) as it applies to entailment problems.

LLMorph's code implements 36 relations (`src/config/list_relations.json` of `steven-b-cho/llmorph`); 28 of them run
on its natural-language-inference task (the "general" relations minus the two it excepts for `inference`, MR-19 and
MR-149, plus the four NLI-only ones, MR-77 to MR-80). Our problems are entailment problems (premises ⊢? conclusion,
labels True / False / Unknown = NLI's entailment / contradiction / neutral), so those 28 are implemented, each on the
parts LLMorph transforms for NLI (its `transform_indices`: premise, hypothesis, both, unless overridden), plus MR-19
on the premises (see below). Every other id is listed in `NOT_APPLICABLE` with the reason.

What a relation states about the follow-up's answer (`expected`):

- `equivalence`: the same answer as the source;
- `difference`: a different answer (MR-10, MR-25, MR-34, MR-152);
- `not_inverse`: not the opposite answer, i.e. not {True, False} (MR-79, MR-80: LLMorph's `ORNotInverse`).

Which sources a relation is tested on (`sources`), as LLMorph's source-output checks (`func_vso`) do for NLI, but on
the proven gold label rather than the model's answer, so that the set of groups does not depend on the model:
difference relations are tested only where a change is possible (LLMorph drops `neutral` sources: we drop Unknown
ones), MR-77 to MR-80 only on True (`entailment`) sources. Where a transformation has a logical reading (negating a
premise or the conclusion, reordering the premises, adding an unrelated premise) the builder goes further and proves
the follow-up's label (`lgmt_tasks.lexical.expectations`).

Two kinds of input transformation, as in LLMorph §IV: `function` (seeded text functions,
`lgmt_tasks.lexical.transforms`, no model) and `llm` (a transformer model rewrites the text with LLMorph's prompts,
`lgmt_tasks.lexical.llm`). MR-49 ("no transformation") asks the same question twice: its violation rate is the
model's own noise floor, against which every other relation's rate is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

Kind = Literal["function", "llm"]
"""How a relation's follow-up is made: a seeded text function, or a transformer model."""

Expected = Literal["equivalence", "difference", "not_inverse"]
"""The output relation a relation expects between the source answer and the follow-up answer."""

EXPECTED: tuple[str, ...] = get_args(Expected)
"""Every output relation, in that order."""

SourceFilter = Literal["any", "decided", "true"]
"""Which gold labels of the source a relation is tested on: all, True or False only, True only."""

SOURCE_LABELS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "any": frozenset({"True", "False", "Unknown"}),
        "decided": frozenset({"True", "False"}),
        "true": frozenset({"True"}),
    }
)
"""The gold labels each source filter keeps."""

Part = Literal["premises", "conclusion", "both"]
"""Which part of the case a relation transforms (one variant each)."""

PARTS: tuple[str, ...] = get_args(Part)
"""The parts, in LLMorph's order: first component, second component, both."""

NO_PART = "none"
"""The `part` of MR-49's groups, which transform nothing."""

STYLES: tuple[str, ...] = ("llmorph", "clean")
"""How the function-based relations are computed: LLMorph's algorithms, or ours (`lgmt_tasks.lexical.transforms`)."""

DEFAULT_STYLE = "llmorph"
"""The default style: LLMorph's, so that our rates mean what its rates mean."""


@dataclass(frozen=True)
class LexicalRelation:
    """One relation of the LLMorph catalogue, as we run it on entailment problems.

    Attributes:
        id: Table II id, e.g. `MR-1`.
        name: Short name (Table II's input relation).
        kind: `function` or `llm`.
        expected: `equivalence`, `difference` or `not_inverse` (Table II's output relation).
        description: What our implementation does, in one sentence (for cards and `inspect view`).
        parts: The parts it transforms, one variant each (LLMorph's NLI `transform_indices`).
        sources: The gold labels of the sources it is tested on (`SOURCE_LABELS`).
    """

    id: str
    name: str
    kind: Kind
    expected: Expected
    description: str
    parts: tuple[str, ...] = PARTS
    sources: SourceFilter = "any"


@dataclass(frozen=True)
class InapplicableRelation:
    """A relation of LLMorph's catalogue that we do not run, and why."""

    id: str
    name: str
    reason: str


def _rel(
    id: str,
    name: str,
    kind: Kind,
    description: str,
    expected: Expected = "equivalence",
    parts: tuple[str, ...] = PARTS,
    sources: SourceFilter = "any",
) -> LexicalRelation:
    return LexicalRelation(id, name, kind, expected, description, parts, sources)


_PREMISES = ("premises",)
_CONCLUSION = ("conclusion",)

_RELATIONS: tuple[LexicalRelation, ...] = (
    _rel("MR-1", "replace characters", "function", "Replaces 10% of the letters with a random lowercase letter."),
    _rel("MR-2", "delete characters", "function", "Deletes 10% of the letters."),
    _rel("MR-3", "leet", "function", "Writes the letters a, e, i, o, t among 10% of the letters as 4, 3, 1, 0, 7."),
    _rel("MR-4", "add random characters", "function", "Inserts a random lowercase letter after 10% of the letters."),
    _rel("MR-5", "add spaces", "function", "Inserts a space after 10% of the letters."),
    _rel("MR-6", "swap characters", "function", "Swaps 10% of the letters with the character that follows."),
    _rel(
        "MR-7",
        "shuffle characters",
        "function",
        "Shuffles the inner letters of 10% of the words of four or more characters, keeping both ends.",
    ),
    _rel(
        "MR-8",
        "synonym substitution",
        "llm",
        "The transformer lists the keywords, gives a synonym for each in context, then replaces them.",
    ),
    _rel("MR-9", "word insertion", "llm", "The transformer inserts random words or phrases.", parts=_PREMISES),
    _rel(
        "MR-10",
        "antonym substitution",
        "llm",
        "The transformer lists the keywords, gives an antonym for each in context, then replaces them.",
        expected="difference",
        parts=("premises", "conclusion"),
        sources="decided",
    ),
    _rel(
        "MR-19",
        "shuffle sentences",
        "function",
        "Reorders the premises (a set: the label is unchanged, proven).",
        parts=_PREMISES,
    ),
    _rel(
        "MR-25",
        "random keyword replacement",
        "llm",
        "The transformer lists the keywords; each is replaced by a random word (seeded).",
        expected="difference",
        sources="decided",
    ),
    _rel(
        "MR-34",
        "remove keywords",
        "llm",
        "The transformer lists the keywords, then removes them, sentence by sentence.",
        expected="difference",
        sources="decided",
    ),
    _rel(
        "MR-49",
        "no transformation",
        "function",
        "Asks the same question twice: the noise floor of every other relation.",
        parts=(NO_PART,),
    ),
    _rel("MR-51", "paraphrase", "llm", "The transformer paraphrases the text."),
    _rel(
        "MR-77",
        "add a premise generated from the hypothesis",
        "llm",
        "The transformer writes a premise from the conclusion; it is added to the premises.",
        parts=_PREMISES,
        sources="true",
    ),
    _rel(
        "MR-78",
        "add a hypothesis generated from the premises",
        "llm",
        "The transformer writes a hypothesis from the premises; it is appended to the conclusion.",
        parts=_CONCLUSION,
        sources="true",
    ),
    _rel(
        "MR-79",
        "hypothesis generated from the hypothesis",
        "llm",
        "The transformer writes a hypothesis from the conclusion; it replaces the conclusion.",
        expected="not_inverse",
        parts=_CONCLUSION,
        sources="true",
    ),
    _rel(
        "MR-80",
        "premise generated from the premises",
        "llm",
        "The transformer writes a hypothesis from the premises; it replaces the premises.",
        expected="not_inverse",
        parts=_PREMISES,
        sources="true",
    ),
    _rel(
        "MR-84",
        "add an irrelevant sentence",
        "function",
        "Adds a premise that shares no word with the case (the label is unchanged, proven).",
        parts=_PREMISES,
    ),
    _rel("MR-102", "capitalisation", "function", "Writes the part in capital letters."),
    _rel(
        "MR-120",
        "back-translation",
        "llm",
        "The transformer translates the text into German and back into English.",
    ),
    _rel("MR-126", "keyboard mistakes", "function", "nlpaug's keyboard noise with LLMorph's rates (10%)."),
    _rel("MR-127", "misspelling", "llm", "The transformer misspells the text."),
    _rel("MR-128", "OCR errors", "function", "nlpaug's OCR noise with LLMorph's rates (10%)."),
    _rel(
        "MR-136",
        "active/passive voice",
        "llm",
        "The transformer turns active sentences passive and passive ones active.",
    ),
    _rel(
        "MR-137",
        "same-category substitution",
        "llm",
        "The transformer lists the keywords of the case and gives each a word of the same category; they are replaced.",
    ),
    _rel(
        "MR-152",
        "add negation",
        "llm",
        "The transformer negates one premise, the conclusion, or both; the builder proves the label changes.",
        expected="difference",
    ),
    _rel("MR-155", "tense change", "llm", "The transformer rewrites the text in a different tense."),
)

_INAPPLICABLE: tuple[InapplicableRelation, ...] = (
    InapplicableRelation(
        "MR-57",
        "declarative to interrogative",
        "LLMorph runs it on relation extraction only; a premise turned into a question no longer asserts anything, "
        "so the entailment problem itself changes.",
    ),
    InapplicableRelation(
        "MR-141",
        "swap symmetric entities",
        "Relation extraction only: it permutes the two entity inputs of a relation query, which an entailment "
        "problem does not have.",
    ),
    InapplicableRelation(
        "MR-142",
        "swap asymmetric entities",
        "Relation extraction only (entity inputs, expected output: the opposite relation).",
    ),
    InapplicableRelation(
        "MR-149",
        "singular/plural",
        "LLMorph excepts it for inference (`exceptions: [inference]`): 'a cat' and 'cats' quantify differently, "
        "so the logical problem changes.",
    ),
    InapplicableRelation(
        "MR-150",
        "replace '.' with '!'",
        "Continuous sentiment only: its output relation is 'stronger sentiment score', which a label has not.",
    ),
    InapplicableRelation(
        "MR-151",
        "add emphasis words",
        "Continuous sentiment only (output relation 'stronger').",
    ),
    InapplicableRelation(
        "MR-154",
        "capitalise key words",
        "Continuous sentiment only (output relation 'stronger').",
    ),
)

NOT_APPLICABLE: Mapping[str, InapplicableRelation] = MappingProxyType({r.id: r for r in _INAPPLICABLE})
"""LLMorph's relations that we do not run, by id, with the reason (with `LEXICAL_RELATIONS`: all 36 ids)."""

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
        ValueError: If it names no implemented relation (the message lists the valid ids and aliases, or says why
            an LLMorph relation is not applicable).
    """
    text = value.strip().upper().replace("_", "-")
    number = text.removeprefix("MR").lstrip("-")
    candidate = f"MR-{number}"
    if candidate in NOT_APPLICABLE:
        raise ValueError(
            f"lexical relation {value!r} is not applicable to entailment: {NOT_APPLICABLE[candidate].reason}"
        )
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
    """The (relation, part) variants a selection builds: the selected parts a relation applies to, in `PARTS` order.

    MR-49 always has the single part `none`; a relation whose parts are all unselected (MR-78 with part=premises)
    builds nothing.
    """
    out: list[tuple[str, str]] = []
    for mr in mrs:
        relation = LEXICAL_RELATIONS[mr]
        if relation.parts == (NO_PART,):
            out.append((mr, NO_PART))
        else:
            out.extend((mr, part) for part in relation.parts if part in parts)
    return out
