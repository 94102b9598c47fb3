r"""lm-evaluation-harness side of DivLogicEval: data, the rotation task class, per-document scoring, aggregations.

The YAMLs in `task_configs/divlogiceval/` point here with dotted `!function lgmt_tasks.task_configs...` paths. One
lm-eval *document* is one instance with its four circular rotations, as one Inspect `Sample` is (DESIGN decision 1),
so an instance stays whole under `--limit`.

Requests. `DivLogicEvalTask` (a `MultiRequestTask` of `task_configs/_requests.py`: lm-eval has no task type for a
group of requests) builds the Appendix I prompt of every rotation (rotation r shows original option
(r + k) mod 4 at position k; rotation 0 is the original order) and asks:

- `lgmt_divlogiceval` (generation): one `generate_until` request per rotation; each completion is read by the same
  reader as the Inspect scorer (`read_choice`: the letter parser, then the option text, else unparsed);
- `lgmt_divlogiceval_loglik`: four `loglikelihood` requests per rotation, the context ending with `Answer:` and the
  continuations ` A`, ` B`, ` C`, ` D`; the rotation's answer is the letter with the highest log-likelihood (ties: the
  first letter), so nothing is ever unparsed.

Each rotation's answer is mapped back to the original option; `process_results` turns the four predictions into the
instance's outcome (`instance_outcome`: ACC, Circular, PartialCircular, c/4, unparsed share).

Prompt layout: plain text `<prompt>\n` (+ `Answer:` for log-likelihood); with `--apply_chat_template`, one user
message (+ an assistant turn opened with `Answer:` for log-likelihood); `--system_instruction` becomes a system
message (chat) or a paragraph before the prompt (plain text).

Parameters (YAML `metadata` / `dataset_kwargs`; override with `--metadata '{"shots": 3, "alpha": 0.5}'`):
`shots` (0 or 3), `alpha` (PC_α, default 1), `instruction` (`standard`, or `no_reasoning`: the NoLR sentence of
§3.1 added), and the dataset parameters `question_type` (`3c1e`, `3e1c`, `missing`, `all`), `form` (`natural`, or
`symbolic`: s-DivLogicEval, the documents' content and options replaced by formulas), `per_type` (default 300, the
shipped build's, as in the Inspect task), `seed` (in the metadata `dataset_seed`: lm-eval merges model arguments such as
vLLM's `seed` into it), `n`, `pool`, `dataset` / `dataset_revision` (a folder written by `lgmt build divlogiceval`, a
Hub id, or the authors' released data) and `variant` (`polished` or `unpolished`, the released file); the dataset
parameters and their defaults are `divlogiceval.config.SCHEMA`'s. `--metadata` wins over the YAML; the effective
values are written back into the task config so the results file shows them; a metadata key that is no parameter is
reported in a logged warning with the valid keys (`_params.dataset_params`).

Metrics: `acc`, `circular`, `partial_circular`, `rotation_acc`, `unparsed_rate` (means over instances, computed by
`lgmt_tasks.scorers.divlogiceval_arithmetic`, DESIGN decision 6), and `acc_<type>`, `circular_<type>`,
`partial_circular_<type>` per question type (each document's outcome carries its type, which those aggregations
select on; a type absent from the run gives NaN). lm-eval
computes no standard error for custom aggregations (`N/A`); `divlogiceval_arithmetic.summarize` gives them from the
samples of `--log_samples`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import datasets

from lgmt_tasks.divlogiceval.config import QUESTION_TYPES, SCHEMA
from lgmt_tasks.divlogiceval.dataset import load_divlogiceval, load_divlogiceval_rows, shot_rows, shown_row
from lgmt_tasks.rotation import to_original
from lgmt_tasks.scorers.divlogiceval import predictions_of
from lgmt_tasks.scorers.divlogiceval_arithmetic import (
    METRIC_NAMES,
    ROTATIONS,
    acc_parsed,
    check_alpha,
    instance_outcome,
    mean,
    metric_values,
)
from lgmt_tasks.solvers.divlogiceval import ANSWER_PREFIX, LETTERS, check_instruction, check_shots, rotation_prompts
from lgmt_tasks.task_configs._aggregation import Aggregation, aggregation
from lgmt_tasks.task_configs._params import Parameters, with_defaults
from lgmt_tasks.task_configs._requests import MultiRequestTask, argmax, choices, completions

CONTINUATIONS: tuple[str, ...] = tuple(f" {letter}" for letter in LETTERS)
"""The scored continuations of a log-likelihood context ending in `Answer:`."""

PARAMS = Parameters.of(SCHEMA, "DivLogicEval", task=("shots", "alpha", "instruction"))
"""The parameters: `--metadata` may override the dataset parameters (`divlogiceval.config.SCHEMA`, with its
defaults: the shipped build), `shots`, `alpha` and `instruction`."""

BREAKDOWN: tuple[str, ...] = ("acc", "circular", "partial_circular")
"""Metrics reported per question type as `<metric>_<type>`."""


# ------------------------------------------------------------------------------------------------------- data


def loader_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """`load_divlogiceval`'s keyword arguments: `params` (from `dataset_params`) over the schema's lm-eval defaults.

    Raises:
        ValueError: On a value the loader's annotation refuses (naming it).
    """
    return with_defaults(SCHEMA, params, load_divlogiceval, "DivLogicEval lm-eval")


def load_docs(**params: Any) -> datasets.DatasetDict:
    """Load (building and caching if needed) the DivLogicEval instances as an lm-eval dataset.

    Args:
        **params: The dataset parameters of `divlogiceval.config.SCHEMA` (`dataset_params` passes exactly those),
            over its lm-eval defaults. With `form="symbolic"` each document's `content` and `options` are the
            formulas (`shown_row`), so prompts and answer reading both use what the model is shown.

    Returns:
        A `DatasetDict` with one split, `test`.

    Raises:
        ValueError: On an invalid parameter (naming it and the valid values).
    """
    return datasets.DatasetDict({"test": load_divlogiceval_rows(**loader_params(params))})


# ------------------------------------------------------------------------------------------------------- task


class DivLogicEvalTask(MultiRequestTask):
    """The DivLogicEval task: one document holds four rotations, one request per rotation (four for log-likelihood).

    Configured by the YAMLs in `task_configs/divlogiceval/`; see the module docstring.
    """

    PARAMS = PARAMS
    UNIT = "rotation"
    CONTINUATIONS = CONTINUATIONS
    FEWSHOT_HINT = "use --metadata '{\"shots\": 3}' (one solved example per question type, §4.1)"

    shots: int
    alpha: float
    instruction: str
    """`standard` (Appendix I) or `no_reasoning` (§3.1's NoLR sentence added)."""
    examples: list[dict[str, Any]]
    """The solved examples of three-shot prompting (empty for zero-shot)."""

    def configure(self, output_type: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """Read `shots` (0 or 3), `alpha` (PC_α) and `instruction` (`standard` or `no_reasoning`).

        Raises:
            ValueError: On invalid `shots` / `alpha` / `instruction`.
        """
        self.shots = check_shots(int(metadata.get("shots", 0)))
        self.alpha = check_alpha(float(metadata.get("alpha", 1.0)))
        self.instruction = check_instruction(str(metadata.get("instruction", "standard")))
        self.examples = []
        self.answer_cue = ANSWER_PREFIX if output_type == "loglikelihood" else ""
        return {"shots": self.shots, "alpha": self.alpha, "instruction": self.instruction}

    def after_download(self, params: Mapping[str, Any]) -> None:
        """For three-shot prompting, the examples in the documents' form (never one of the evaluated instances)."""
        if self.shots:
            args = loader_params(params)
            examples = shot_rows(
                exclude_ids=self.dataset["test"]["id"],
                **{key: args[key] for key in ("per_type", "seed", "n", "pool", "dataset", "revision")},
            )
            self.examples = [shown_row(e, args["form"]) for e in examples]

    def unit_prompts(self, doc: Mapping[str, Any]) -> list[str]:
        """The Appendix I prompt of every rotation, rotation 0 (the original order) first."""
        return rotation_prompts(doc, self.examples, self.instruction)

    def doc_to_target(self, doc: Mapping[str, Any], doc_to_target: Any = None) -> str:
        """The gold letter in the original order."""
        return LETTERS[int(doc["answer"])]

    def process_results(self, doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, dict[str, Any]]:
        """Score one instance with the task's alpha (the YAML's `process_results` is this at alpha = 1)."""
        if self.OUTPUT_TYPE == "generate_until":
            return process_generation_results(doc, results, self.alpha)
        return process_loglik_results(doc, results, self.alpha)


# ----------------------------------------------------------------------------------------- results, metrics


def _per_metric(doc: Mapping[str, Any], predictions: Sequence[int], alpha: float) -> dict[str, dict[str, Any]]:
    outcome: dict[str, Any] = {**instance_outcome(predictions, int(doc["answer"]), alpha)}
    outcome["question_type"] = str(doc.get("question_type", ""))
    names = [*METRIC_NAMES, "acc_parsed", *(f"{name}_{t}" for name in BREAKDOWN for t in QUESTION_TYPES)]
    return dict.fromkeys(names, outcome)


def process_generation_results(
    doc: Mapping[str, Any], results: Sequence[str], alpha: float = 1.0
) -> dict[str, dict[str, Any]]:
    """Score one instance from its four completions (rotation order).

    Returns:
        For every metric name, the instance's outcome dict (with its `question_type`, which the per-type
        aggregations select on, so that every metric is scored on every document).

    Raises:
        ValueError: If there are not four completions.
    """
    texts = completions(doc, results, ROTATIONS, "rotation")
    predictions, _ = predictions_of(texts, list(doc["options"]))
    return _per_metric(doc, predictions, alpha)


def argmax_letter(logliks: Sequence[float]) -> int:
    """The position with the highest log-likelihood (the first one on a tie)."""
    return argmax(logliks)


def process_loglik_results(
    doc: Mapping[str, Any], results: Sequence[tuple[float, bool]], alpha: float = 1.0
) -> dict[str, dict[str, Any]]:
    """Score one instance from letter log-likelihoods: argmax per rotation, mapped back to the original option.

    Raises:
        ValueError: If there are not 16 results.
    """
    positions = choices(doc, results, ROTATIONS, len(CONTINUATIONS), "rotation")
    return _per_metric(doc, [to_original(position, r) for r, position in enumerate(positions)], alpha)


def _mean_of(name: str) -> Aggregation:
    return lambda items: mean(metric_values(items, name))


def _instance_mean(name: str, question_type: str | None = None) -> Aggregation:
    if question_type is None:
        return aggregation(name, _mean_of(name), f"Mean of the per-instance `{name}` over instances; NaN if none.")
    return aggregation(
        f"{name}_{question_type}",
        _mean_of(name),
        f"Mean of the per-instance `{name}` over the {question_type} instances; NaN if none.",
        where={"question_type": question_type},
    )


acc_aggregation = _instance_mean("acc")
"""ACC: mean over instances of [original order right]."""
circular_aggregation = _instance_mean("circular")
"""Circular: mean over instances of [all four rotations right]."""
partial_circular_aggregation = _instance_mean("partial_circular")
"""PartialCircular (PC_α): mean over instances."""
rotation_acc_aggregation = _instance_mean("rotation_acc")
"""Accuracy over all rotations: mean over instances of c/4."""
unparsed_rate_aggregation = _instance_mean("unparsed_rate")
"""Unread answers / all answers."""
acc_parsed_aggregation = aggregation(
    "acc_parsed",
    lambda items: acc_parsed(items).value,
    "ACC over the instances whose original-order answer parsed: Σ acc / Σ original_parsed; NaN if none.",
)
"""ACC over parsed original-order answers, named apart from `acc` (which counts an unparsed answer as wrong)."""
TYPE_AGGREGATIONS: Mapping[str, Aggregation] = MappingProxyType(
    {f"{name}_{t}": _instance_mean(name, t) for name in BREAKDOWN for t in QUESTION_TYPES}
)
"""`<metric>_<question type>` (`acc_3c1e`, ..., `partial_circular_missing`) → the metric over that type's instances.

Made from `BREAKDOWN` and the question types (`divlogiceval.config.QUESTION_TYPES`, their one declaration), so a new
type needs no edit here; the YAML (`_generate.py`) names each `<metric>_<question type>_aggregation`, which this
module's `__getattr__` resolves."""


def __getattr__(name: str) -> Aggregation:
    """The per-type aggregations under the names the YAML gives them (`acc_3c1e_aggregation`, ...; PEP 562)."""
    found = TYPE_AGGREGATIONS.get(name.removesuffix("_aggregation")) if name.endswith("_aggregation") else None
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found
