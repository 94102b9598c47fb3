"""lm-eval aggregations of our pure metric functions.

Aggregations. `aggregation` turns a pure metric function of `lgmt_tasks.scorers` (per-document outcome dicts in, a
`Rate` or a number out) into the named function a YAML `metric_list` points at (DESIGN decision 6: lm-eval and
Inspect compute every number with the same code).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from lgmt_tasks.scorers.pairwise import (
    RATE_NAMES,
    Rate,
    acc_cons,
    acc_cons_parsed,
    acc_static,
    acc_static_parsed,
    acc_static_per_case,
    fur,
    hdr,
    mvr,
    source_case_of,
    unparsed_rate,
)

Items = Sequence[Mapping[str, Any]]
"""What lm-eval hands an aggregation: the per-document values of one metric (our outcome dicts)."""

Aggregation = Callable[[Items], float]

logger = logging.getLogger(__name__)


class HasValue(Protocol):
    """A metric result with a `value` (`lgmt_tasks.scorers.pairwise.Rate`)."""

    @property
    def value(self) -> float: ...  # noqa: D102


def aggregation(
    name: str, compute: Callable[[Items], float | HasValue], doc: str, *, where: Mapping[str, Any] | None = None
) -> Aggregation:
    """Make the lm-eval aggregation `<name>_aggregation` of a pure metric function.

    Args:
        name: The aggregation's name without the `_aggregation` suffix (usually the metric's name).
        compute: The metric over per-document outcomes: a number, or a `Rate` (its `value` is reported).
        doc: The function's docstring (what the number is).
        where: If given, only the outcomes whose keys have these values are aggregated (e.g. one question type).

    Returns:
        The aggregation, named `<name>_aggregation`.
    """

    def aggregate(items: Items) -> float:
        if where is not None:
            items = [item for item in items if all(item.get(key) == value for key, value in where.items())]
        computed = compute(items)
        value = float(computed) if isinstance(computed, int | float) else float(computed.value)
        if math.isnan(value):  # lm-eval prints `nan` alone: say why, once per aggregation
            among = f" ({', '.join(f'{k}={v}' for k, v in where.items())})" if where else ""
            logger.warning(f"{name} is NaN: none of the {len(items)} documents{among} has a parsed answer")
        return value

    aggregate.__name__ = aggregate.__qualname__ = f"{name}_aggregation"
    aggregate.__doc__ = doc
    return aggregate


_RATES: dict[str, tuple[Callable[[Items], HasValue], str]] = {
    "mvr": (mvr, "Metamorphic violation rate: Σ violation / Σ parsed (see `pairwise.mvr`)."),
    "acc_static": (acc_static, "Static accuracy: Σ source_answered_correctly / groups (see `pairwise.acc_static`)."),
    "acc_cons": (acc_cons, "Consistent accuracy: Σ consistent_correct / groups (see `pairwise.acc_cons`)."),
    "acc_static_parsed": (
        acc_static_parsed,
        "Static accuracy over parsed groups: Σ source_correct / Σ parsed (see `pairwise.acc_static_parsed`).",
    ),
    "acc_cons_parsed": (
        acc_cons_parsed,
        "Consistent accuracy over parsed groups: Σ consistent_correct / Σ parsed (`pairwise.acc_cons_parsed`).",
    ),
    "hdr": (hdr, "Hidden defect rate: Σ hidden_defect / Σ parsed (see `pairwise.hdr`)."),
    "fur": (fur, "False unreported rate: Σ false_unreported / Σ parsed (see `pairwise.fur`)."),
    "unparsed_rate": (
        unparsed_rate,
        "Share of groups with an unparsed answer: Σ (1 − parsed) / groups (see `pairwise.unparsed_rate`).",
    ),
}

RATE_AGGREGATIONS: Mapping[str, Aggregation] = {name: aggregation(name, *_RATES[name]) for name in RATE_NAMES}
"""LGMT's pairwise rates (`RATE_NAMES`, in that order) as aggregations; LGMT's and lexical's utils bind them to the
module names their YAMLs point at."""


def static_accuracy_per_case(items: Items) -> Rate:
    """`pairwise.acc_static_per_case` over lm-eval outcome dicts, each group's case read from its dict.

    The same arithmetic and case key (`pairwise.source_case_of`) as the Inspect metric `acc_static_per_case`
    (`scorers/lgmt.py`), which reads the case from the sample metadata: one figure in both harnesses.

    Raises:
        ValueError: Naming the document, if an outcome dict has no `source_dataset` or `source_id`.
    """
    cases = [source_case_of(item, f"lm-eval document {i}") for i, item in enumerate(items)]
    return acc_static_per_case(items, cases)


ACC_STATIC_PER_CASE: Aggregation = aggregation(
    "acc_static_per_case",
    static_accuracy_per_case,
    "Static accuracy with each distinct source case counted once: the mean over cases of the share of its groups "
    "whose source answer is correct, an unparsed source answer being wrong (see `pairwise.acc_static_per_case`).",
)
"""LGMT's `acc_static_per_case` (its outcome dicts carry `pairwise.CASE_KEYS`, `task_configs/lgmt/utils.py`)."""


def rate_aggregation(rate: str, column: str, value: str, suffix: str) -> Aggregation:
    """The rate `rate` (a key of `RATE_AGGREGATIONS`) over the documents whose outcome has `column == value`.

    Named `<rate>_<suffix>_aggregation`: LGMT's pooled task reports e.g. `mvr_mr_e`, the violation rate of its MR-E
    groups, beside the pooled `mvr` (`task_configs/lgmt/utils.py`).
    """
    compute, doc = _RATES[rate]
    only = f"{doc} Only the documents with {column} {value}."
    return aggregation(f"{rate}_{suffix}", compute, only, where={column: value})
