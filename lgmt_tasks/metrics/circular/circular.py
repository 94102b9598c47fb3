"""Circular accuracy (DivLogicEval, Chung et al., 2025, §2.2) as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.divlogiceval_arithmetic` (`circular`, `accuracy`), the functions the Inspect
scorer and the lm-eval aggregations use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import evaluate

from lgmt_tasks.metrics.info import INDEX, ROTATIONS, module_info
from lgmt_tasks.scorers.divlogiceval_arithmetic import UNPARSED, accuracy, circular, mean

_CITATION = """@inproceedings{chung2025divlogiceval,
  title     = {DivLogicEval: A Framework for Benchmarking Logical Reasoning Evaluation in Large Language Models},
  author    = {Chung, Tsz Ting and Liu, Lemao and Yu, Mo and Yeung, Dit-Yan},
  booktitle = {Proceedings of the 2025 Conference on Empirical Methods in Natural Language Processing},
  year      = {2025}
}"""

_DESCRIPTION = """Circular scores a four-option question asked in its four circular rotations of the options: it is
correct only if every rotation is answered with the gold option (Liu et al., 2023; DivLogicEval §2.2). The module
also reports Accuracy, the share of questions whose first rotation (the original order) is answered correctly.
Unparsed answers (−1) count as wrong. Results are means over questions."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per question, the predicted ORIGINAL option index (0–3) for each of the four rotations, in rotation
        order (o1o2o3o4, o2o3o4o1, o3o4o1o2, o4o1o2o3); -1 for an unparsed answer.
    references: per question, the gold original option index (0–3).
    alpha: accepted and ignored, so that one call signature serves both DivLogicEval modules.
Returns:
    circular: the share of questions with all four rotations right (NaN for no questions).
    accuracy: the share of questions whose original order was answered right.
Examples:
    >>> cir = evaluate.load("path/to/lgmt_tasks/metrics/circular")
    >>> cir.compute(predictions=[[0, 0, 0, 0], [0, 0, 2, 3]], references=[0, 0])
    {'circular': 0.5, 'accuracy': 1.0}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Circular(evaluate.Metric):
    """Circular accuracy over circular rotations (DivLogicEval §2.2), with the original-order accuracy."""

    def _info(self) -> evaluate.MetricInfo:
        columns = {
            "predictions": ROTATIONS,
            "references": INDEX,
        }
        return module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, columns)

    def _compute(self, predictions: list[list[int]], references: list[int], alpha: float = 1.0) -> dict[str, Any]:
        rows = [
            ([int(p) if p is not None else UNPARSED for p in prediction], int(gold))
            for prediction, gold in zip(predictions, references, strict=True)
        ]
        return {
            "circular": mean([circular(p, g) for p, g in rows]),
            "accuracy": mean([accuracy(p, g) for p, g in rows]),
        }
