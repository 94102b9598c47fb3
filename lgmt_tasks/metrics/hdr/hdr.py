"""HDR, the hidden defect rate (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise` (`group_outcome`, `hdr`, `unparsed_rate`), the functions the
Inspect scorer and the lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from lgmt_tasks.metrics.inputs import group_outcomes
from lgmt_tasks.scorers.pairwise import hdr, unparsed_rate

_CITATION = """@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}"""

_DESCRIPTION = """HDR (LGMT §4.5.3) is the share of metamorphic groups whose source case is answered correctly but
whose answers violate the relation (some follow-up answer differs from the source answer): the defects static
accuracy misses. It equals Acc_static − Acc_cons exactly. The denominator is the groups in which every answer parsed;
groups with an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the list of parsed answers to its follow-up cases (at least one), same values.
    references: per group, the gold label of the source case (proven to be every follow-up's label too).
    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
Returns:
    hdr: groups with a correct source and a violation / parsed groups (NaN when no group parsed).
    hdr_stderr: its delta-method standard error over groups (NaN for fewer than two groups).
    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> hdr = evaluate.load("path/to/lgmt_tasks/metrics/hdr")
    >>> hdr.compute(predictions=["True", "True", "False", "Unknown", "unparsed"],
    ...     followup_predictions=[["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]],
    ...     references=["True", "True", "True", "False", "True"])["hdr"]
    0.25
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class HDR(evaluate.Metric):
    """The hidden defect rate of LGMT (§4.5.3)."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Value("string"),
                    "followup_predictions": datasets.Sequence(datasets.Value("string")),
                    "references": datasets.Value("string"),
                }
            ),
            reference_urls=["https://pypi.org/project/lgmt-tasks/"],
        )

    def _compute(
        self,
        predictions: list[str],
        followup_predictions: list[list[str]],
        references: list[str],
        labels: list[str] | None = None,
    ) -> dict[str, Any]:
        outcomes = group_outcomes(predictions, followup_predictions, references, labels)
        rate = hdr(outcomes)
        return {"hdr": rate.value, "hdr_stderr": rate.stderr, "unparsed_rate": unparsed_rate(outcomes).value}
