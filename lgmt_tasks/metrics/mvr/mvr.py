"""MVR, the metamorphic oracle violation rate (LGMT, Zhou et al., 2026, §4.5.1), as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.pairwise` (`group_outcome`, `mvr`, `unparsed_rate`), the functions the Inspect
scorer and the lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

from lgmt_tasks.metrics.inputs import group_outcomes
from lgmt_tasks.scorers.pairwise import mvr, unparsed_rate

_CITATION = """@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}"""

_DESCRIPTION = """MVR (LGMT §4.5.1) is the share of metamorphic groups in which the model's answers violate the
metamorphic relation: a source case and follow-ups that a relation proved to have the same label, where some
follow-up answer differs from the source answer. It needs no gold label. The denominator is the groups in which
every answer parsed; groups with an unparsed answer are counted by `unparsed_rate` instead."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the list of parsed answers to its follow-up cases (at least one), same values.
    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
    references: not used (MVR needs no gold label); accepted and ignored, so that one call serves all LGMT modules.
Returns:
    mvr: violating groups / parsed groups (NaN when no group parsed).
    mvr_stderr: its delta-method standard error over groups (NaN for fewer than two groups).
    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> mvr = evaluate.load("path/to/lgmt_tasks/metrics/mvr")
    >>> mvr.compute(predictions=["True", "True", "False", "Unknown", "unparsed"],
    ...     followup_predictions=[["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]])["mvr"]
    0.25
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MVR(evaluate.Metric):
    """The metamorphic oracle violation rate of LGMT (§4.5.1)."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Value("string"),
                    "followup_predictions": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://pypi.org/project/lgmt-tasks/"],
        )

    def _compute(
        self, predictions: list[str], followup_predictions: list[list[str]], labels: list[str] | None = None
    ) -> dict[str, Any]:
        outcomes = group_outcomes(predictions, followup_predictions, None, labels)
        rate = mvr(outcomes)
        return {"mvr": rate.value, "mvr_stderr": rate.stderr, "unparsed_rate": unparsed_rate(outcomes).value}
