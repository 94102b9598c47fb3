"""The LLMorph catalogue: ids, kinds, expected relations, and how `-T mr=` / `-T part=` are read."""

from __future__ import annotations

import pytest

from lgmt_tasks.lexical.catalogue import (
    FUNCTION_BASED,
    LEXICAL_RELATIONS,
    LLM_BASED,
    NOISE_FLOOR,
    PARTS,
    normalise_mr,
    resolve_mrs,
    resolve_parts,
    variants,
)


def test_the_catalogue_has_the_issue_relations_by_table_ii_id():
    assert FUNCTION_BASED == (
        "MR-1", "MR-2", "MR-3", "MR-4", "MR-5", "MR-6", "MR-7", "MR-19", "MR-49", "MR-84", "MR-102", "MR-126", "MR-128"
    )  # fmt: skip
    assert LLM_BASED == ("MR-8", "MR-51", "MR-120", "MR-136", "MR-152")
    assert [mr for mr, r in LEXICAL_RELATIONS.items() if r.expected == "difference"] == ["MR-152"]
    assert NOISE_FLOOR == "MR-49" and LEXICAL_RELATIONS["MR-49"].parts == ("none",)
    assert LEXICAL_RELATIONS["MR-1"].parts == PARTS == ("premises", "conclusion", "both")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("MR-1", ("MR-1",)),
        ("mr-84, MR1", ("MR-1", "MR-84")),
        ("1,84", ("MR-1", "MR-84")),
        (126, ("MR-126",)),
        (["MR-152", "8"], ("MR-8", "MR-152")),
        ("function", FUNCTION_BASED),
        ("llm,MR-49", ("MR-8", "MR-49", "MR-51", "MR-120", "MR-136", "MR-152")),
        ("ALL", tuple(LEXICAL_RELATIONS)),
    ],
)
def test_resolve_mrs(spec, expected):
    assert resolve_mrs(spec) == expected


@pytest.mark.parametrize("spec", ["MR-9", "", "MR-1,banana", []])
def test_resolve_mrs_rejects(spec):
    with pytest.raises(ValueError, match="MR-1"):
        resolve_mrs(spec)


def test_normalise_mr_lists_the_choices():
    with pytest.raises(ValueError, match="expected ids among MR-1, MR-2.*or one of function, llm, all"):
        normalise_mr("MR-10")


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


def test_variants_give_mr49_one_part():
    assert variants(("MR-1", "MR-49"), ("premises", "both")) == [
        ("MR-1", "premises"),
        ("MR-1", "both"),
        ("MR-49", "none"),
    ]
