"""Acc_cons, the consistent accuracy (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise.acc_cons`, the function the Inspect scorer and the lm-eval aggregation
use; the adapter shared by LGMT's five rates is `lgmt_tasks.metrics.pairwise_rates`.
"""

from __future__ import annotations

import evaluate

from lgmt_tasks.metrics import pairwise_rates as base
from lgmt_tasks.scorers.pairwise import acc_cons, acc_cons_parsed

_DESCRIPTION = """Acc_cons (LGMT §4.5.3) is the share of metamorphic groups in which the source case and every
follow-up case are answered with the gold label (a relation proved that they all have it). It removes coincidental
correctness: a model right on the source but not on an equivalent rewording gets no credit. The denominator is every
group: an answer that did not parse is not correct, as the paper counts it. `acc_cons_parsed` is the same share among
the groups in which every answer parsed; read it with `unparsed_rate`."""

_KWARGS_DESCRIPTION = base.kwargs_description(
    "acc_cons",
    "groups with every answer correct / groups",
    "0.2",
    parsed_twin="groups with every answer correct / parsed groups",
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AccCons(base.PairwiseRate):
    """The consistent accuracy of LGMT (§4.5.3)."""

    rate_name = "acc_cons"
    rate_description = _DESCRIPTION
    rate_inputs = _KWARGS_DESCRIPTION
    rate_function = staticmethod(acc_cons)
    parsed_function = staticmethod(acc_cons_parsed)
