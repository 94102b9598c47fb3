"""Acc_cons, consistent accuracy (LGMT, Zhou et al., 2026, §4.5.3), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise` (`group_outcome`, `acc_cons`, `unparsed_rate`), the functions the
Inspect scorer and the lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from lgmt_tasks.metrics.inputs import group_outcomes
from lgmt_tasks.scorers.pairwise import acc_cons, unparsed_rate

_CITATION = """@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}"""

_DESCRIPTION = """Acc_cons (LGMT §4.5.3) is the share of metamorphic groups in which the source case and every
follow-up case are answered with the gold label (a relation proved that they all have it). It removes coincidental
correctness: a model right on the source but not on an equivalent rewording gets no credit. The denominator is the
groups in which every answer parsed; groups with an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the list of parsed answers to its follow-up cases (at least one), same values.
    references: per group, the gold label of the source case (proven to be every follow-up's label too).
    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
Returns:
    acc_cons: groups with every answer correct / parsed groups (NaN when no group parsed).
    acc_cons_stderr: its delta-method standard error over groups (NaN for fewer than two groups).
    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> acc_cons = evaluate.load("path/to/lgmt_tasks/metrics/acc_cons")
    >>> acc_cons.compute(predictions=["True", "True", "False", "Unknown", "unparsed"],
    ...     followup_predictions=[["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]],
    ...     references=["True", "True", "True", "False", "True"])["acc_cons"]
    0.25
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AccCons(evaluate.Metric):
    """The consistent accuracy of LGMT (§4.5.3)."""

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
        rate = acc_cons(outcomes)
        return {"acc_cons": rate.value, "acc_cons_stderr": rate.stderr, "unparsed_rate": unparsed_rate(outcomes).value}
