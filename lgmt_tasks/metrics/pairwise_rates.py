"""The shared `evaluate` adapter of LGMT's five rates (MVR, Acc_static, Acc_cons, HDR, FUR).

The five module scripts (`lgmt_tasks/metrics/<rate>/<rate>.py`) differ only in their name, description and the pure
rate function of `lgmt_tasks.scorers.pairwise` they delegate to, so the inputs, features and `_compute` live here
once. A script subclasses `PairwiseRate` through this *module* (`from lgmt_tasks.metrics import pairwise_rates as
base`): `evaluate.load` takes the first `evaluate.Metric` subclass it finds in the script's namespace, and an
imported base class would be found before the script's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import datasets
import evaluate

from lgmt_tasks.metrics.info import STRING, module_info
from lgmt_tasks.metrics.inputs import group_outcomes
from lgmt_tasks.scorers.pairwise import Outcome, Rate, unparsed_rate

LGMT_CITATION = """@article{zhou2026lgmt,
  title   = {LGMT: Logic-Grounded Metamorphic Testing for Evaluating the Reasoning Reliability of LLMs},
  author  = {Zhou, Zenghui and Li, Man and Fang, Xiaoke and Zhou, Xinyi and Li, Weibin and Zheng, Zheng},
  year    = {2026}
}"""

EXAMPLE_PREDICTIONS = '["True", "True", "False", "Unknown", "unparsed"]'
EXAMPLE_FOLLOWUPS = '[["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]]'
EXAMPLE_REFERENCES = '["True", "True", "True", "False", "True"]'


def kwargs_description(
    name: str, returns: str, example: str, needs_gold: bool = True, parsed_twin: str | None = None
) -> str:
    """The `inputs_description` of a rate module: its arguments, what it returns and a worked example.

    Args:
        name: The rate's key in the result (`hdr`).
        returns: What the rate counts, as `numerator / denominator`.
        example: The rate's value on the shared example, as printed.
        needs_gold: Whether the rate reads `references` (MVR does not).
        parsed_twin: For the accuracies (over all groups), what their `<name>_parsed` twin counts.
    """
    references = (
        "    references: per group, the gold label of the source case (proven to be every follow-up's label too).\n"
        if needs_gold
        else "    references: not used (MVR needs no gold label).\n"
    )
    example_references = f",\n    ...     references={EXAMPLE_REFERENCES}" if needs_gold else ""
    twin_line = f"    {name}_parsed: {parsed_twin} (NaN when no group parsed).\n" if parsed_twin else ""
    return f"""
Args:
    predictions: per group, the parsed answer to the source case (`True`, `False`, `Unknown`), or the string
        `unparsed` for an answer the parser could not read.
    followup_predictions: per group, the list of parsed answers to its follow-up cases (at least one), same values.
{references}    labels: the allowed answer labels (default `["True", "False", "Unknown"]`).
Returns:
    {name}: {returns} ({"NaN for no groups" if parsed_twin else "NaN when no group parsed"}).
    {name}_stderr: its delta-method standard error over groups (NaN for fewer than two groups).
{twin_line}    unparsed_rate: groups with an unparsed answer / all groups.
Examples:
    >>> {name} = evaluate.load("path/to/lgmt_tasks/metrics/{name}")
    >>> {name}.compute(predictions={EXAMPLE_PREDICTIONS},
    ...     followup_predictions={EXAMPLE_FOLLOWUPS}{example_references})["{name}"]
    {example}
"""


class PairwiseRate(evaluate.Metric):
    """One LGMT rate over metamorphic groups; subclasses set the class attributes below.

    Attributes:
        rate_name: The result key (`hdr`).
        rate_description: The metric card's description.
        rate_inputs: The inputs description (`kwargs_description`).
        rate_function: The pure rate of `lgmt_tasks.scorers.pairwise` over group outcomes.
        parsed_function: For the accuracies, their twin over the parsed groups (returned as `<rate>_parsed`).
        needs_gold: Whether `references` is a column (False for MVR).
    """

    rate_name: ClassVar[str]
    rate_description: ClassVar[str]
    rate_inputs: ClassVar[str]
    rate_function: ClassVar[Callable[[Sequence[Outcome]], Rate]]
    parsed_function: ClassVar[Callable[[Sequence[Outcome]], Rate] | None] = None
    needs_gold: ClassVar[bool] = True

    def _info(self) -> evaluate.MetricInfo:
        columns: dict[str, Any] = {"predictions": STRING, "followup_predictions": datasets.Sequence(STRING)}
        if self.needs_gold:
            columns["references"] = STRING
        return module_info(self.rate_description, LGMT_CITATION, self.rate_inputs, columns)

    def _compute(
        self,
        predictions: list[str],
        followup_predictions: list[list[str]],
        references: list[str] | None = None,
        labels: list[str] | None = None,
    ) -> dict[str, Any]:
        outcomes = group_outcomes(predictions, followup_predictions, references if self.needs_gold else None, labels)
        rate = type(self).rate_function(outcomes)
        twin = type(self).parsed_function
        return {
            self.rate_name: rate.value,
            f"{self.rate_name}_stderr": rate.stderr,
            **({f"{self.rate_name}_parsed": twin(outcomes).value} if twin is not None else {}),
            "unparsed_rate": unparsed_rate(outcomes).value,
        }
