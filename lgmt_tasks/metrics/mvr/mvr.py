"""MVR, the metamorphic oracle violation rate (LGMT, Zhou et al., 2026, §4.5.1), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise.mvr`, the function the Inspect scorer and the lm-eval aggregation
use; the adapter shared by LGMT's five rates is `lgmt_tasks.metrics.pairwise_rates`.
"""

from __future__ import annotations

import evaluate

from lgmt_tasks.metrics import pairwise_rates as base
from lgmt_tasks.scorers.pairwise import mvr

_DESCRIPTION = """MVR (LGMT §4.5.1) is the share of metamorphic groups in which the model's answers violate the
metamorphic relation: a source case and follow-ups that a relation proved to have the same label, where some
follow-up answer differs from the source answer. It needs no gold label. The denominator is the groups in which
every answer parsed; groups with an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = base.kwargs_description("mvr", "violating groups / parsed groups", "0.25", needs_gold=False)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MVR(base.PairwiseRate):
    """The metamorphic oracle violation rate of LGMT (§4.5.1)."""

    rate_name = "mvr"
    rate_description = _DESCRIPTION
    rate_inputs = _KWARGS_DESCRIPTION
    rate_function = staticmethod(mvr)
    needs_gold = False
