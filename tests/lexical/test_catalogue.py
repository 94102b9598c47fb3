"""The LLMorph catalogue: ids, kinds, expected relations, parts, source filters, and how `-T mr=` / `-T part=` are
read; checked against LLMorph's own `list_relations.json` where its snapshot is at hand."""

from __future__ import annotations

import pytest

from lgmt_tasks.lexical.catalogue import (
    FUNCTION_BASED,
    LEXICAL_RELATIONS,
    LLM_BASED,
    NOISE_FLOOR,
    NOT_APPLICABLE,
    PARTS,
    normalise_mr,
    resolve_mrs,
    resolve_parts,
    variants,
)

LLMORPH_IDS = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19, 25, 34, 49, 51, 57, 77, 78, 79, 80, 84, 102, 120, 126, 127, 128, 136, 137,
    141, 142, 149, 150, 151, 152, 154, 155,
}  # fmt: skip
"""The 36 relations LLMorph's code implements (`src/config/list_relations.json`, every task)."""


def test_every_llmorph_relation_is_implemented_or_declared_not_applicable():
    implemented = {int(mr.removeprefix("MR-")) for mr in LEXICAL_RELATIONS}
    declined = {int(mr.removeprefix("MR-")) for mr in NOT_APPLICABLE}
    assert implemented | declined == LLMORPH_IDS and not implemented & declined
    assert all(r.reason for r in NOT_APPLICABLE.values())
    # LLMorph's 28 NLI relations ("general" minus its inference exceptions MR-19 and MR-149, plus MR-77..80), and
    # MR-19 on the premises, which we keep (a premise set's order is logically irrelevant: proven per group)
    nli = LLMORPH_IDS - {19, 57, 141, 142, 149, 150, 151, 154}
    assert len(nli) == 28 and implemented == nli | {19}


def test_kinds_outputs_parts_and_source_filters_follow_llmorph_nli():
    assert FUNCTION_BASED == (
        "MR-1", "MR-2", "MR-3", "MR-4", "MR-5", "MR-6", "MR-7", "MR-19", "MR-49", "MR-84", "MR-102", "MR-126", "MR-128"
    )  # fmt: skip
    assert set(LLM_BASED) == set(LEXICAL_RELATIONS) - set(FUNCTION_BASED)
    by_expected = {
        e: [mr for mr, r in LEXICAL_RELATIONS.items() if r.expected == e] for e in ("difference", "not_inverse")
    }
    assert by_expected == {"difference": ["MR-10", "MR-25", "MR-34", "MR-152"], "not_inverse": ["MR-79", "MR-80"]}
    assert NOISE_FLOOR == "MR-49" and LEXICAL_RELATIONS["MR-49"].parts == ("none",)
    assert LEXICAL_RELATIONS["MR-1"].parts == PARTS == ("premises", "conclusion", "both")
    premises_only = {mr for mr, r in LEXICAL_RELATIONS.items() if r.parts == ("premises",)}
    assert premises_only == {"MR-9", "MR-19", "MR-77", "MR-80", "MR-84"}  # LLMorph: transform_indices [[0]]
    assert {mr for mr, r in LEXICAL_RELATIONS.items() if r.parts == ("conclusion",)} == {"MR-78", "MR-79"}
    assert LEXICAL_RELATIONS["MR-10"].parts == ("premises", "conclusion")  # LLMorph: [[0], [1]]
    assert {mr for mr, r in LEXICAL_RELATIONS.items() if r.sources == "decided"} == {"MR-10", "MR-25", "MR-34"}
    assert {mr for mr, r in LEXICAL_RELATIONS.items() if r.sources == "true"} == {"MR-77", "MR-78", "MR-79", "MR-80"}


def test_not_applicable_ids_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="MR-149.*not applicable to entailment.*inference"):
        resolve_mrs("MR-149")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("MR-1", ("MR-1",)),
        ("mr-84, MR1", ("MR-1", "MR-84")),
        ("1,84", ("MR-1", "MR-84")),
        (126, ("MR-126",)),
        (["MR-152", "8"], ("MR-8", "MR-152")),
        ("function", FUNCTION_BASED),
        ("llm,MR-49", tuple(mr for mr in LEXICAL_RELATIONS if mr in LLM_BASED or mr == "MR-49")),
        ("ALL", tuple(LEXICAL_RELATIONS)),
    ],
)
def test_resolve_mrs(spec, expected):
    assert resolve_mrs(spec) == expected


@pytest.mark.parametrize("spec", ["MR-11", "", "MR-1,banana", []])
def test_resolve_mrs_rejects(spec):
    with pytest.raises(ValueError, match="MR-1"):
        resolve_mrs(spec)


def test_normalise_mr_lists_the_choices():
    with pytest.raises(ValueError, match="expected ids among MR-1, MR-2.*or one of function, llm, all"):
        normalise_mr("MR-11")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("premises", ("premises",)),
        ("both,Premises", ("premises", "both")),
        (["conclusion"], ("conclusion",)),
        ("all", PARTS),
    ],
)
def test_resolve_parts(spec, expected):
    assert resolve_parts(spec) == expected


@pytest.mark.parametrize("spec", ["context", "", "none"])
def test_resolve_parts_rejects(spec):
    with pytest.raises(ValueError, match="expected one or more of premises, conclusion, both"):
        resolve_parts(spec)


def test_variants_give_mr49_one_part_and_each_relation_its_own_parts():
    assert variants(("MR-1", "MR-49"), ("premises", "both")) == [
        ("MR-1", "premises"),
        ("MR-1", "both"),
        ("MR-49", "none"),
    ]
    assert variants(("MR-84", "MR-78", "MR-10"), PARTS) == [
        ("MR-10", "premises"),
        ("MR-10", "conclusion"),
        ("MR-84", "premises"),
        ("MR-78", "conclusion"),
    ] or variants(("MR-84", "MR-78", "MR-10"), PARTS) == [
        ("MR-84", "premises"),
        ("MR-78", "conclusion"),
        ("MR-10", "premises"),
        ("MR-10", "conclusion"),
    ]
    assert variants(("MR-78",), ("premises",)) == []
