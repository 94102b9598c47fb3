"""Confidence intervals of proportions, shared by every suite's reports (and by sample-size planning).

Pure arithmetic with no framework imports, so reports, lm-eval aggregations and `evaluate` modules can all use it.
"""

from __future__ import annotations

import math


def wilson_interval(successes: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); (NaN, NaN) when n is 0.

    Args:
        successes: Number of successes (may be fractional after epoch reduction).
        n: Number of trials.
        z: Normal quantile of the confidence level.

    Returns:
        The lower and upper bounds.
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
