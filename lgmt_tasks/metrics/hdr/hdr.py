"""HDR, the hidden defect rate (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise.hdr`, the function the Inspect scorer and the lm-eval aggregation
use; the adapter shared by LGMT's five rates is `lgmt_tasks.metrics.pairwise_rates`.
"""

from __future__ import annotations

import evaluate

from lgmt_tasks.metrics import pairwise_rates as base
from lgmt_tasks.scorers.pairwise import hdr

_DESCRIPTION = """HDR (LGMT §4.5.3) is the share of metamorphic groups whose source case is answered correctly but
whose answers violate the relation (some follow-up answer differs from the source answer): the defects static
accuracy misses. It equals Acc_static − Acc_cons exactly. The denominator is the groups in which every answer parsed;
groups with an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = base.kwargs_description(
    "hdr", "groups with a correct source and a violation / parsed groups", "0.25"
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class HDR(base.PairwiseRate):
    """The hidden defect rate of LGMT (§4.5.3)."""

    rate_name = "hdr"
    rate_description = _DESCRIPTION
    rate_inputs = _KWARGS_DESCRIPTION
    rate_function = staticmethod(hdr)
