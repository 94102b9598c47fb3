"""Macro-F1 and label-wise F1 (QMFOL, Zheng et al., 2026, §4) as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.qmfol_arithmetic` (`sample_outcome`, `f1_scores`, `accuracy`, `unparsed_rate`),
the functions the Inspect scorer and the lm-eval aggregations use; this module only adapts its inputs and outputs to
`evaluate`.
"""

from __future__ import annotations

from typing import Any

import evaluate

from lgmt_tasks.metrics.info import STRING, module_info
from lgmt_tasks.metrics.inputs import read_answers, read_golds
from lgmt_tasks.scorers.qmfol_arithmetic import (
    LABELS,
    accuracy,
    accuracy_parsed,
    f1_scores,
    sample_outcome,
    unparsed_rate,
)

_CITATION = """@article{zheng2026qmfol,
  title   = {QMFOL: Benchmarking Large Language Model Reasoning via Quantifiable Monadic First-Order Logic Test Case
             Generation},
  author  = {Zheng, Xinyi and Shi, Ling and Yu, Tianlong and Zhao, Yongxin and Goette, Lorenz and Wang, Kailong},
  journal = {arXiv preprint arXiv:2606.20227},
  year    = {2026}
}"""

_DESCRIPTION = """Macro-F1 (QMFOL §4) is the unweighted mean of the label-wise F1 scores of True, False and Unknown,
each the harmonic mean of that label's precision and recall with the other labels as negatives, so that each class
weighs the same however unbalanced the labels are. An unparsed answer is a miss (it lowers the recall of its gold
label), as the paper counts an unusable answer wrong; `macro_f1_parsed` (and `f1_<label>_parsed`) are the same over
parsed answers only, reported beside it with `unparsed_rate`. A label that is neither gold nor answered has no F1
(NaN) and is left out of the mean. Accuracy (correct / all tasks) and `accuracy_parsed` (correct / parsed answers)
are reported too."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per task, the parsed answer, `True`, `False` or `Unknown`, or the string `unparsed` for an answer
        the parser could not read.
    references: per task, the gold label, `True`, `False` or `Unknown`.
Returns:
    f1_True, f1_False, f1_Unknown: the label-wise F1 scores, an unparsed answer a miss (NaN for a label neither
        gold nor answered).
    macro_f1: the mean of the defined label-wise F1 scores.
    f1_True_parsed, ..., macro_f1_parsed: the same over parsed answers only.
    accuracy: correct answers / all tasks (an unparsed answer is wrong).
    accuracy_parsed: correct answers / parsed answers.
    unparsed_rate: unparsed answers / tasks.
Examples:
    >>> f1 = evaluate.load("path/to/lgmt_tasks/metrics/macro_f1")
    >>> f1.compute(predictions=["True", "False", "Unknown", "Unknown", "unparsed"],
    ...            references=["True", "False", "False", "Unknown", "True"])
    {'f1_True': 0.6666666666666666, 'f1_False': 0.6666666666666666, 'f1_Unknown': 0.6666666666666666,
     'macro_f1': 0.6666666666666666, 'f1_True_parsed': 1.0, 'f1_False_parsed': 0.6666666666666666,
     'f1_Unknown_parsed': 0.6666666666666666, 'macro_f1_parsed': 0.7777777777777777, 'accuracy': 0.6,
     'accuracy_parsed': 0.75, 'unparsed_rate': 0.2}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MacroF1(evaluate.Metric):
    """Macro-F1 and label-wise F1 of QMFOL (§4), with accuracy and the unparsed rate."""

    def _info(self) -> evaluate.MetricInfo:
        return module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, {"predictions": STRING, "references": STRING})

    def _compute(self, predictions: list[str], references: list[str]) -> dict[str, Any]:
        answers = read_answers(predictions, "predictions", LABELS)
        golds = read_golds(references, "references", LABELS)
        outcomes = [sample_outcome(gold, answer) for answer, gold in zip(answers, golds, strict=True)]
        return {
            **f1_scores(outcomes),
            "accuracy": accuracy(outcomes).value,
            "accuracy_parsed": accuracy_parsed(outcomes).value,
            "unparsed_rate": unparsed_rate(outcomes).value,
        }
