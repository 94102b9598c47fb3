"""The committed default LGMT build (`datasets/lgmt`) is the paper's reading of every law (issue #25).

Built with the defaults (`direction=paper`), every group's `variant` is `paper`, and MR-E1.3 lifts a fresh variable
where the bound one is reused on the other side, so no follow-up nests a quantifier inside one of the same name
(the 3-B build had 36 of 119 such MR-E1.3 groups).
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.syntax import Exists, Forall, Formula

ROWS = Path(__file__).resolve().parents[2] / "datasets" / "lgmt" / "data" / "default" / "test.jsonl.gz"


def _children(formula: Formula) -> Iterator[Formula]:
    for field in dataclasses.fields(formula):
        value = getattr(formula, field.name)
        for item in value if isinstance(value, tuple) else (value,):
            if dataclasses.is_dataclass(item) and not isinstance(item, type):
                yield item


def _shadows(formula: Formula, bound: frozenset[str] = frozenset()) -> bool:
    """Whether a quantifier binds a variable an enclosing quantifier already binds."""
    if isinstance(formula, (Forall, Exists)):
        if formula.var in bound:
            return True
        bound = bound | {formula.var}
    return any(_shadows(child, bound) for child in _children(formula))


def _rows() -> list[dict]:
    with gzip.open(ROWS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_every_shipped_group_is_the_papers_reading() -> None:
    rows = _rows()
    assert rows and {row["variant"] for row in rows} == {"paper"}
    assert {row["law"] for row in rows if row["mr"] == "MR-P4"} == {"premise fusion (add)"}


def test_no_shipped_quantifier_lifting_nests_a_variable_in_itself() -> None:
    lifted = [row for row in _rows() if row["mr"] == "MR-E1.3"]
    assert lifted
    assert not [row["id"] for row in lifted if any(_shadows(parse(f)) for f in row["followup_premises_fol"])]
    assert _shadows(parse("∀x (P(x) ∧ ∃x Q(x))"))  # the check itself sees the 3-B shape


def test_the_readmes_quote_the_shipped_group_count() -> None:
    """The root README's table of committed datasets and the LGMT README say how many groups `datasets/lgmt` has."""
    root = ROWS.parents[4]
    count = f"{len(_rows()):,}"
    assert f"| `datasets/lgmt` | {count} groups |" in (root / "README.md").read_text(encoding="utf-8")
    lgmt_readme = (root / "lgmt_tasks" / "lgmt" / "README.md").read_text(encoding="utf-8")
    assert f"The committed default build, `datasets/lgmt`, has {count} groups." in lgmt_readme
