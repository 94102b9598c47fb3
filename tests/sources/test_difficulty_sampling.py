"""The candidate order over the difficulty grid: every cell alike, with every relation and every label (issue #28).

At `per_mr=8` over QMFOL's 4 cells the order used to take the first 8 of the 12 (cell, label) strata in one fixed
order for every relation, so the cells got 3, 3, 2 and 0 groups of each relation (48, 58, 32 and 6 over a build,
once drops shuffled them a little) and the last strata's labels were missing from their cells.
"""

from __future__ import annotations

from collections import Counter

import pytest

from lgmt_tasks.logic.parse import parse
from lgmt_tasks.sources import logicasker
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.pipeline import ordered_candidates
from lgmt_tasks.sources.qmfol import cell_id, difficulty_of

LABELS = ("True", "False", "Unknown")
RELATIONS = [f"MR-X{i}" for i in range(1, 21)]


def pool(cells: list[tuple[int, int]], per_stratum: int = 6) -> list[Case]:
    """QMFOL-like cases: `per_stratum` of every (cell, label)."""
    formula = parse("P(a)")
    return [
        Case((formula,), formula, label=label, source_dataset="qmfol", source_id=f"{cell_id(*cell)}/t{i}-{label}")
        for cell in cells
        for label in LABELS
        for i in range(per_stratum)
    ]


@pytest.mark.parametrize("per_mr", [8, 12])
def test_every_cell_gets_the_same_number_of_each_relation(per_mr):
    cells = [(1, 1), (1, 2), (3, 1), (3, 2)]
    cases = pool(cells)
    totals: Counter[tuple[int, int] | None] = Counter()
    labels: Counter[tuple[tuple[int, int] | None, str | None]] = Counter()
    for relation in RELATIONS:
        taken = ordered_candidates(cases, relation, seed=0)[:per_mr]
        per_cell = Counter(difficulty_of(c.source_id) for c in taken)
        assert set(per_cell.values()) == {per_mr // 4}, (relation, per_cell)  # 2 (or 3) of each relation per cell
        totals.update(per_cell)
        labels.update((difficulty_of(c.source_id), c.label) for c in taken)
    assert set(totals.values()) == {per_mr // 4 * len(RELATIONS)}
    # every label in every cell, in about equal shares (one cell used to have no Unknown at all)
    share = per_mr // 4 * len(RELATIONS) / 3
    assert all(0.6 * share <= labels[(cell, label)] <= 1.4 * share for cell in cells for label in LABELS), labels


def test_a_grid_that_does_not_divide_per_mr_spreads_the_remainder_over_the_cells():
    cells = [(d, w) for d in (1, 2, 3) for w in (1, 2)]  # the default grid: 6 cells, per_mr=8
    cases = pool(cells)
    totals: Counter[tuple[int, int] | None] = Counter()
    for relation in RELATIONS:
        per_cell = Counter(difficulty_of(c.source_id) for c in ordered_candidates(cases, relation, seed=0)[:8])
        assert sorted(per_cell.values()) == [1, 1, 1, 1, 2, 2]
        totals.update(per_cell)
    assert len(totals) == 6 and max(totals.values()) - min(totals.values()) <= 10, totals  # 160 / 6 ≈ 27 each


def test_logicasker_depths_are_stratified_alike_and_other_sources_keep_their_order():
    formula = parse("P(a)")
    chains = [
        Case((formula,), formula, label=label, source_dataset=logicasker.SOURCE, source_id=f"d{d}/rule-{i}-{label}")
        for d in (1, 2, 3)
        for label in LABELS
        for i in range(4)
    ]
    for relation in RELATIONS[:5]:
        taken = ordered_candidates(chains, relation, seed=1)[:6]
        assert Counter(logicasker.difficulty_of(c.source_id) for c in taken) == Counter({1: 2, 2: 2, 3: 2})
    plain = [
        Case((formula,), formula, label=label, source_dataset="folio", source_id=f"{label}{i}")
        for label in LABELS
        for i in range(3)
    ]
    first = ordered_candidates(plain, "MR-C1", seed=0)
    assert [c.label for c in first[:3]] == sorted(LABELS)  # labels round-robin in sorted order, as before
