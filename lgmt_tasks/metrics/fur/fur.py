"""FUR, the false unreported rate (LGMT, Zhou et al., 2026, §4.5.4), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise.fur`, the function the Inspect scorer and the lm-eval aggregation
use; the adapter shared by LGMT's five rates is `lgmt_tasks.metrics.pairwise_rates`.
"""

from __future__ import annotations

import evaluate

from lgmt_tasks.metrics import pairwise_rates as base
from lgmt_tasks.scorers.pairwise import fur

_DESCRIPTION = """FUR (LGMT §4.5.4) is the share of metamorphic groups answered consistently but wrongly: no
violation (every follow-up answer equals the source answer) and a wrong source answer. These are errors a consistency
oracle cannot see, the blind spot of metamorphic testing. The denominator is the groups in which every answer parsed;
groups with an unparsed answer are counted by `unparsed_rate` instead. MVR + Acc_cons + FUR = 1 whenever a group
parsed."""

_KWARGS_DESCRIPTION = base.kwargs_description(
    "fur", "groups without violation and with a wrong source / parsed groups", "0.5"
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class FUR(base.PairwiseRate):
    """The false unreported rate of LGMT (§4.5.4)."""

    rate_name = "fur"
    rate_description = _DESCRIPTION
    rate_inputs = _KWARGS_DESCRIPTION
    rate_function = staticmethod(fur)
