"""Multiplicity: Holm's step-down adjustment of a family of p-values, shared by every test over many relations.

`lgmt report --compare` adjusts its McNemar tests across the relations of a pair of runs, the leaderboard its ties
with the best run, and the control metrics (`-T control`) their per-relation `above_control` verdicts. Pure
arithmetic with no framework imports (DESIGN decision 6), so the scorers and the reports share one definition.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values of one family of tests, in the order given.

    Holm's step-down: sort the m p-values ascending, multiply the i-th smallest (i from 0) by m − i, take the running
    maximum so that the adjusted values keep the order of the raw ones, and cap at 1. Rejecting where the adjusted
    value is below alpha controls the family-wise error rate at alpha under any dependence between the tests,
    which suits relations answered by the same model. A NaN p-value (a test with no data) stays NaN and is not
    counted in m.
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    m = len(tested)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, index) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = running
    return adjusted
