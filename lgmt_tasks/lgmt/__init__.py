"""LGMT: logic-grounded metamorphic testing (Zhou et al., 2026). Documentation: `README.md` beside this file.

`RELATION_IDS` and `CATEGORIES` are the suite's public vocabulary, for its own modules and for other suites (the
lexical baseline's side-by-side report orders LGMT's relations by it) without importing the relations themselves; a
test ties the ids to `relations.RELATIONS`.
"""

RELATION_IDS: tuple[str, ...] = (
    "MR-E1.1",
    "MR-E1.2",
    "MR-E1.3",
    "MR-E1.4",
    "MR-E1.5",
    "MR-E1.6",
    "MR-E2.1",
    "MR-E2.2",
    "MR-E2.3",
    "MR-E2.4",
    "MR-S1",
    "MR-S2",
    "MR-P1",
    "MR-P2",
    "MR-P3",
    "MR-P4",
    "MR-P5",
    "MR-C1",
    "MR-C2",
    "MR-C3",
)
"""The 20 relation ids in the paper's order (§3.3)."""

CATEGORIES: tuple[str, ...] = tuple(dict.fromkeys(relation_id[:4] for relation_id in RELATION_IDS))
"""The four relation categories in the paper's order (§3.3, Table 7), the prefix of every relation id: `MR-E`
(equivalence), `MR-S` (symbols), `MR-P` (premises), `MR-C` (conclusion)."""
