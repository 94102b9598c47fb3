"""Acc_static, static accuracy (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise` (`group_outcome`, `acc_static`, `unparsed_rate`), the functions the
Inspect scorer and the lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from lgmt_tasks.metrics.inputs import group_outcomes
from lgmt_tasks.scorers.pairwise import acc_static, unparsed_rate

_CITATION = """@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}"""

_DESCRIPTION = """Acc_static (LGMT §4.5.3) is the accuracy on the source cases alone, as a reference-based benchmark
would measure it: the share of groups whose source answer equals the gold label. The denominator is the groups in
which every answer parsed (the one Acc_cons and HDR share, so that Acc_static − Acc_cons = HDR exactly); groups with
an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the list of parsed answers to its follow-up cases (at least one), same values.
    references: per group, the gold label of the source case (proven to be every follow-up's label too).
    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
Returns:
    acc_static: correctly answered sources / parsed groups (NaN when no group parsed).
    acc_static_stderr: its delta-method standard error over groups (NaN for fewer than two groups).
    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> acc_static = evaluate.load("path/to/lgmt_tasks/metrics/acc_static")
    >>> acc_static.compute(predictions=["True", "True", "False", "Unknown", "unparsed"],
    ...     followup_predictions=[["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]],
    ...     references=["True", "True", "True", "False", "True"])["acc_static"]
    0.5
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AccStatic(evaluate.Metric):
    """The static accuracy of LGMT (§4.5.3)."""

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
        rate = acc_static(outcomes)
        return {
            "acc_static": rate.value,
            "acc_static_stderr": rate.stderr,
            "unparsed_rate": unparsed_rate(outcomes).value,
        }
