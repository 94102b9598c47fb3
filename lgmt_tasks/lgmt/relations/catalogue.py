"""Every relation by id, in the paper's order, and the relations of a category.

Its own module, re-exported by the package, so that a module of this package that defaults to every relation
(`survey`) imports the list without importing the package's `__init__`, which imports that module.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from lgmt_tasks.lgmt import CATEGORIES
from lgmt_tasks.lgmt.relations.base import Relation
from lgmt_tasks.lgmt.relations.conclusion import MR_C
from lgmt_tasks.lgmt.relations.equivalence import MR_E1, MR_E2
from lgmt_tasks.lgmt.relations.premises import MR_P
from lgmt_tasks.lgmt.relations.symbols import MR_S

RELATIONS: Mapping[str, Relation] = MappingProxyType({r.id: r for r in (*MR_E1, *MR_E2, *MR_S, *MR_P, *MR_C)})
"""Every relation by id, in the paper's order (read-only)."""


def relations_in(category: str) -> tuple[Relation, ...]:
    """Return the relations of a category ("MR-E", "MR-S", "MR-P", "MR-C") or sub-family ("MR-E1", "MR-E2")."""
    if category in CATEGORIES:
        return tuple(r for r in RELATIONS.values() if r.category == category)
    found = tuple(r for r in RELATIONS.values() if r.id.startswith(category + "."))
    if not found:
        raise ValueError(f"unknown category {category!r}: expected one of {CATEGORIES} or MR-E1 / MR-E2")
    return found


__all__ = ["RELATIONS", "relations_in"]
