"""Response accuracy (LogicAsker, Wan et al., 2024, §3.3) as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.logicasker_arithmetic` (`yes_no_outcome`, `summarize`), the functions the Inspect
scorer and the lm-eval aggregation use; this module only adapts its inputs and outputs to `evaluate`.
"""

from __future__ import annotations

from typing import Any

import evaluate

from lgmt_tasks.metrics.info import STRING, module_info
from lgmt_tasks.metrics.inputs import read_answers, read_golds
from lgmt_tasks.scorers.answers import YES_NO_LABELS
from lgmt_tasks.scorers.logicasker_arithmetic import summarize, yes_no_outcome

_CITATION = """@inproceedings{wan2024logicasker,
  title     = {{LogicAsker}: Evaluating and Improving the Logical Reasoning Ability of Large Language Models},
  author    = {Wan, Yuxuan and Wang, Wenxuan and Yang, Yiliu and Yuan, Youliang and Huang, Jen-tse and He, Pinjia
               and Jiao, Wenxiang and Lyu, Michael R.},
  booktitle = {Proceedings of the 2024 Conference on Empirical Methods in Natural Language Processing},
  year      = {2024}
}"""

_DESCRIPTION = """Response accuracy (LogicAsker §3.3) is N_correct / N_satisfy: the share of correct answers among the
answers that follow the instruction (answer yes or no). Replies that do not (no yes or no could be read) are left
out of it and counted by the instruction-following rate N_satisfy / N. Accuracy, N_correct / N, counts them as wrong:
it is the headline figure, reported first so that a model cannot look accurate by refusing."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per test, the parsed answer, `yes` or `no`, or the string `unparsed` for a reply that did not
        follow the instruction (no yes or no could be read).
    references: per test, the proven answer, `yes` or `no`.
Returns:
    accuracy: correct answers / tests (a reply that did not follow the instruction is wrong).
    accuracy_stderr: its standard error.
    response_accuracy: correct answers / answers that follow the instruction (NaN when none does).
    response_accuracy_stderr: its delta-method standard error over tests (NaN for fewer than two tests).
    instruction_following_rate: answers that follow the instruction / tests.
    instruction_following_rate_stderr: its standard error.
Examples:
    >>> ra = evaluate.load("path/to/lgmt_tasks/metrics/response_accuracy")
    >>> ra.compute(predictions=["yes", "no", "no", "unparsed"], references=["yes", "yes", "no", "no"])
    {'accuracy': 0.5, 'accuracy_stderr': 0.28867513459481287, 'response_accuracy': 0.6666666666666666,
     'response_accuracy_stderr': 0.31426968052735443, 'instruction_following_rate': 0.75,
     'instruction_following_rate_stderr': 0.25}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ResponseAccuracy(evaluate.Metric):
    """Response accuracy of LogicAsker (§3.3), with the instruction-following rate."""

    def _info(self) -> evaluate.MetricInfo:
        return module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, {"predictions": STRING, "references": STRING})

    def _compute(self, predictions: list[str], references: list[str]) -> dict[str, Any]:
        answers = read_answers(predictions, "predictions", YES_NO_LABELS)
        golds = read_golds(references, "references", YES_NO_LABELS)
        return summarize([yes_no_outcome(gold, answer) for answer, gold in zip(answers, golds, strict=True)])
