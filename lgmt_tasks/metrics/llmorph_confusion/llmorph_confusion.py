"""LLMorph's confusion matrix (Cho et al., 2025, Table VIII) of lexical groups as a Hugging Face `evaluate` metric.

The arithmetic is `lgmt_tasks.scorers.lexical_arithmetic` (`label_violation`, `lexical_outcome`, `confusion_matrix`)
and `lgmt_tasks.scorers.pairwise` (`mvr`, `unparsed_rate`), the functions the Inspect scorer of the lexical suite and
its lm-eval aggregations use; this module only adapts its inputs and outputs to `evaluate`. It covers label outputs
(`output=label`); text outputs need the sentence-embedding similarity of the Inspect task.
"""

from __future__ import annotations

from typing import Any

import evaluate

from lgmt_tasks.metrics.info import STRING, module_info
from lgmt_tasks.metrics.inputs import check_labels, read_answers, read_golds
from lgmt_tasks.scorers.lexical_arithmetic import EXPECTED, confusion_matrix, label_violation, lexical_outcome
from lgmt_tasks.scorers.pairwise import mvr, unparsed_rate

_CITATION = """@inproceedings{cho2025llmorph,
  title     = {Metamorphic Testing of Large Language Models for Natural Language Processing},
  author    = {Cho, Steven and Ruberto, Stefano and Terragni, Valerio},
  booktitle = {IEEE International Conference on Software Maintenance and Evolution (ICSME)},
  year      = {2025}
}"""

_DESCRIPTION = """LLMorph's confusion matrix (Table VIII) puts the metamorphic oracle next to the gold label, over the
groups (a source case and one follow-up made by a text-level relation) whose answers both parsed: ① the relation
holds and the source answer is right, ② it holds but the source answer is wrong (LGMT's FUR), ③ it is violated but
the source answer is right (LGMT's HDR), ④ it is violated and the source answer is wrong. The four shares sum to 1.
The relation holds, for `equivalence`, when the two answers are equal, for `difference` (MR-10, 25, 34, 152) when
they differ, and for `not_inverse` (MR-79, 80) when they are not True and False. MVR (violations / compared
groups) and the unparsed rate (groups with an unparsed answer / all groups) are reported too."""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the parsed answer to the follow-up case, same values.
    references: per group, the gold label of the source case.
    expected_relations: per group, the relation's expected output relation: `equivalence`, `difference` or
        `not_inverse`.
    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
Returns:
    cm_pass_correct, cm_pass_wrong, cm_fail_correct, cm_fail_wrong: cells ①–④ as shares of the compared groups (NaN
        when none was compared).
    mvr: violating groups / compared groups.
    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> cm = evaluate.load("path/to/lgmt_tasks/metrics/llmorph_confusion")
    >>> cm.compute(predictions=["True", "True", "False", "False", "unparsed"],
    ...     followup_predictions=["True", "False", "False", "True", "True"],
    ...     references=["True", "True", "True", "True", "True"],
    ...     expected_relations=["equivalence", "equivalence", "equivalence", "difference", "equivalence"])
    {'cm_pass_correct': 0.25, 'cm_pass_wrong': 0.5, 'cm_fail_correct': 0.25, 'cm_fail_wrong': 0.0, 'mvr': 0.25,
     'unparsed_rate': 0.2}
"""

RELATIONS: tuple[str, ...] = EXPECTED
"""The expected output relations of the lexical relations."""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class LLMorphConfusion(evaluate.Metric):
    """LLMorph's confusion matrix (Table VIII) of label-output lexical groups, with MVR and the unparsed rate."""

    def _info(self) -> evaluate.MetricInfo:
        columns = {
            "predictions": STRING,
            "followup_predictions": STRING,
            "references": STRING,
            "expected_relations": STRING,
        }
        return module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, columns)

    def _compute(
        self,
        predictions: list[str],
        followup_predictions: list[str],
        references: list[str],
        expected_relations: list[str],
        labels: list[str] | None = None,
    ) -> dict[str, Any]:
        allowed = check_labels(labels)
        sources = read_answers(predictions, "predictions", allowed)
        followups = read_answers(followup_predictions, "followup_predictions", allowed)
        golds = read_golds(references, "references", allowed)
        relations = read_golds(expected_relations, "expected_relations", RELATIONS)
        outcomes = [
            lexical_outcome(
                expected,
                gold,
                source,
                followup,
                None if source is None or followup is None else label_violation(expected, source, followup),
            )
            for source, followup, gold, expected in zip(sources, followups, golds, relations, strict=True)
        ]
        return {
            **confusion_matrix(outcomes),
            "mvr": mvr(outcomes).value,
            "unparsed_rate": unparsed_rate(outcomes).value,
        }
