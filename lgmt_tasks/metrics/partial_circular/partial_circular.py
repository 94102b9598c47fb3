"""PartialCircular (DivLogicEval, Chung et al., 2025, Eq. 2 and Appendix F) as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.divlogiceval_arithmetic.partial_circular`, the function the Inspect scorer and the
lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import evaluate

from lgmt_tasks.metrics.info import INDEX, ROTATIONS, module_info
from lgmt_tasks.scorers.divlogiceval_arithmetic import UNPARSED, mean, partial_circular

_CITATION = """@inproceedings{chung2025divlogiceval,
  title     = {DivLogicEval: A Framework for Benchmarking Logical Reasoning Evaluation in Large Language Models},
  author    = {Chung, Tsz Ting and Liu, Lemao and Yu, Mo and Yeung, Dit-Yan},
  booktitle = {Proceedings of the 2025 Conference on Empirical Methods in Natural Language Processing},
  year      = {2025}
}"""

_DESCRIPTION = """PartialCircular scores a four-option question asked in its four circular rotations of the options:
c/4 · [(1 − α) + α(1 + Σₒ p(o) log₄ p(o))], with c the number of rotations answered correctly and p the frequency
distribution of the predicted options (mapped back to the original order). At α = 1 (default) it is Eq. (2) of the
paper: correct but scattered answers earn little; four identical correct answers earn 1. At α = 0 it is c/4.
Unparsed answers (−1) count as wrong and form one outcome of p. The result is the mean over questions."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per question, the predicted ORIGINAL option index (0–3) for each of the four rotations, in rotation
        order (o1o2o3o4, o2o3o4o1, o3o4o1o2, o4o1o2o3); -1 for an unparsed answer.
    references: per question, the gold original option index (0–3).
    alpha: weight of the entropy penalty in [0, 1] (default 1.0, the paper's PartialCircular).
Returns:
    partial_circular: the mean PartialCircular over questions, in [0, 1] (NaN for no questions).
Examples:
    >>> pc = evaluate.load("path/to/lgmt_tasks/metrics/partial_circular")
    >>> pc.compute(predictions=[[0, 0, 2, 3]], references=[0])
    {'partial_circular': 0.125}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PartialCircular(evaluate.Metric):
    """PartialCircular over circular rotations (DivLogicEval Eq. 2 / PC_α)."""

    def _info(self) -> evaluate.MetricInfo:
        columns = {
            "predictions": ROTATIONS,
            "references": INDEX,
        }
        return module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, columns)

    def _compute(self, predictions: list[list[int]], references: list[int], alpha: float = 1.0) -> dict[str, Any]:
        values = [
            partial_circular([int(p) if p is not None else UNPARSED for p in prediction], int(gold), alpha)
            for prediction, gold in zip(predictions, references, strict=True)
        ]
        return {"partial_circular": mean(values)}
