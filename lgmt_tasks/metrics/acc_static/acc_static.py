"""Acc_static, the static accuracy (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise.acc_static`, the function the Inspect scorer and the lm-eval aggregation
use; the adapter shared by LGMT's five rates is `lgmt_tasks.metrics.pairwise_rates`.
"""

from __future__ import annotations

import evaluate

from lgmt_tasks.metrics import pairwise_rates as base
from lgmt_tasks.scorers.pairwise import acc_static, acc_static_parsed

_DESCRIPTION = """Acc_static (LGMT §4.5.3) is the accuracy on the source cases alone, as a reference-based benchmark
would measure it: the share of groups whose source answer equals the gold label. The denominator is every group: a
source answer that did not parse is wrong, as the paper counts it. `acc_static_parsed` is the same share among the
groups in which every answer parsed (the denominator Acc_cons_parsed and HDR share, so that
Acc_static_parsed − Acc_cons_parsed = HDR exactly); read it with `unparsed_rate`."""

_KWARGS_DESCRIPTION = base.kwargs_description(
    "acc_static",
    "correctly answered sources / groups",
    "0.4",
    parsed_twin="correctly answered sources / parsed groups",
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AccStatic(base.PairwiseRate):
    """The static accuracy of LGMT (§4.5.3)."""

    rate_name = "acc_static"
    rate_description = _DESCRIPTION
    rate_inputs = _KWARGS_DESCRIPTION
    rate_function = staticmethod(acc_static)
    parsed_function = staticmethod(acc_static_parsed)
