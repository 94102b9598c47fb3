r"""lm-evaluation-harness side of LogicAsker: documents, prompts, per-document scoring and aggregations.

The YAMLs in `task_configs/logicasker/` point here with dotted `!function lgmt_tasks.task_configs...` paths. One
document is one test (a dataset row of `lgmt build logicasker`), with the same question as the Inspect task.

- `lgmt_logicasker` (generation): the context is the paper's question (Appendix G); the completion is read by the
  one yes/no parser (`parse_yes_no`, strict: "cannot" is not "no"), exactly as the Inspect scorer reads it.
- `lgmt_logicasker_loglik` (`multiple_choice`): the context is the question followed by `\nAnswer:`, and the
  continuations ` yes` and ` no` are scored; the answer is the likelier one (a tie goes to yes), so every answer
  follows the instruction and `instruction_following_rate` is 1.

Parameters (YAML `metadata`; override with `--metadata '{"logic": "predicate", "length": "1..7", "per_skill": 2}'`
or `TaskManager(metadata=...)`): `logic`, `category`, `rule` (comma-separated names or ids), `length` (`1`, `1..7`,
`1,3,5`), `per_skill`, `dataset_seed`, and `dataset` / `dataset_revision` to evaluate a folder written by `lgmt build
logicasker` or a Hub dataset instead of building (`dataset_seed` and `dataset_revision`, not `seed` and `revision`:
lm-eval merges the model arguments into the metadata, and those are model arguments of vLLM / the API models and of
`hf`; `_requests.METADATA_NAMES`). A metadata key that is no parameter is ignored with a logged warning naming the
task and the valid keys (`_requests.dataset_params`).

Metrics: `accuracy` (Σ correct / documents, an unanswered document wrong), `response_accuracy` (Σ correct / Σ answered,
the paper's §3.3 figure), `instruction_following_rate` (Σ answered / documents), and
response accuracy per attribute of the rule tree: `response_accuracy_logic_<logic>`,
`response_accuracy_category_<category>`, `response_accuracy_problem_type_<type>`, `response_accuracy_length_<n>`,
`response_accuracy_rule_<rule id>` (each document reports the breakdown keys of its own attributes; a key no
document reported is absent from the results). The aggregations are the pure functions of
`lgmt_tasks.scorers.logicasker_arithmetic` (DESIGN decision 6); lm-eval reports no standard error for them (`N/A`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets

from lgmt_tasks.builders.load import building_for
from lgmt_tasks.logicasker.catalogue import get_skill
from lgmt_tasks.logicasker.config import SCHEMA
from lgmt_tasks.logicasker.dataset import load_logicasker, load_logicasker_rows
from lgmt_tasks.scorers.answers import parse_yes_no
from lgmt_tasks.scorers.logicasker_arithmetic import (
    accuracy,
    instruction_following_rate,
    response_accuracy,
    yes_no_outcome,
)
from lgmt_tasks.task_configs._aggregation import aggregation
from lgmt_tasks.task_configs._params import Parameters, for_lm_eval_task, loader_arguments, task_of
from lgmt_tasks.task_configs._requests import FewshotRefusingTask

CHOICES: tuple[str, str] = ("yes", "no")
"""The answers, in the order of the log-likelihood continuations (and of the tie-break)."""

ANSWER_CUE = "\nAnswer:"
"""What the log-likelihood context ends with; the continuations are ` yes` and ` no` (lm-eval's target delimiter)."""

PARAMS = Parameters.of(SCHEMA, "LogicAsker")
"""The metadata keys that select or build the documents: LogicAsker's task parameters (`logicasker.config.SCHEMA`),
set in the YAML's `metadata` and overridable with `--metadata`."""


def load_docs(**metadata: Any) -> datasets.DatasetDict:
    """Load (building and caching if needed) the LogicAsker tests selected by the task metadata.

    Args:
        **metadata: The task metadata (YAML, then `--metadata`); keys other than the schema's are ignored (the
            version, model arguments that lm-eval merges in; any other key is reported, see `dataset_params`).

    Returns:
        A `DatasetDict` with one split, `test`.

    Raises:
        ValueError: On an invalid selection or when no test is left (from the loader).
    """
    with building_for(for_lm_eval_task(task_of(metadata))):  # a build on the fly names the task
        rows = load_logicasker_rows(**loader_arguments(SCHEMA, PARAMS, metadata, load_logicasker))
    return datasets.DatasetDict({"test": rows})


def doc_to_text(doc: Mapping[str, Any]) -> str:
    """The paper's question (generation)."""
    return str(doc["question"])


def doc_to_text_loglik(doc: Mapping[str, Any]) -> str:
    """The question followed by `ANSWER_CUE` (log-likelihood)."""
    return f"{doc['question']}{ANSWER_CUE}"


def doc_to_target_index(doc: Mapping[str, Any]) -> int:
    """The index of the proven answer in `CHOICES` (log-likelihood)."""
    return CHOICES.index(str(doc["answer"]))


def metric_keys(doc: Mapping[str, Any]) -> list[str]:
    """The metrics one document reports: the two rates and its own breakdown keys."""
    return [
        "accuracy",
        "response_accuracy",
        "instruction_following_rate",
        f"response_accuracy_logic_{doc['logic']}",
        f"response_accuracy_category_{doc['category']}",
        f"response_accuracy_problem_type_{doc['problem_type']}",
        f"response_accuracy_length_{doc['length']}",
        f"response_accuracy_rule_{get_skill(str(doc['rule'])).id}",
    ]


def _per_metric(doc: Mapping[str, Any], answer: str | None) -> dict[str, dict[str, int]]:
    outcome = yes_no_outcome(str(doc["answer"]), answer)
    return dict.fromkeys(metric_keys(doc), outcome)


def process_generation_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, int]]:
    """Score one test from its completion with the one yes/no parser.

    Args:
        doc: One LogicAsker row.
        results: The completion (one).

    Returns:
        For every metric key of the document, the test's outcome dict (`correct`, `answered`).
    """
    if len(results) != 1:
        raise ValueError(f"test {doc.get('id')!r}: expected one completion, got {len(results)}")
    return _per_metric(doc, parse_yes_no(results[0]).label)


def process_loglik_results(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> dict[str, dict[str, int]]:
    """Score one test from the log-likelihoods of ` yes` and ` no` (the likelier wins; a tie goes to yes).

    Args:
        doc: One LogicAsker row.
        results: `(loglikelihood, is_greedy)` for ` yes`, then ` no`.

    Returns:
        For every metric key of the document, the test's outcome dict.
    """
    if len(results) != len(CHOICES):
        raise ValueError(f"test {doc.get('id')!r}: expected {len(CHOICES)} log-likelihoods, got {len(results)}")
    answer = CHOICES[0] if results[0][0] >= results[1][0] else CHOICES[1]
    return _per_metric(doc, answer)


accuracy_aggregation = aggregation(
    "accuracy",
    accuracy,
    "Accuracy: Σ correct / documents, an unanswered document wrong (see `logicasker_arithmetic.accuracy`).",
)
response_accuracy_aggregation = aggregation(
    "response_accuracy",
    response_accuracy,
    "Response accuracy: Σ correct / Σ answered (see `logicasker_arithmetic.response_accuracy`).",
)
instruction_following_aggregation = aggregation(
    "instruction_following",
    instruction_following_rate,
    "Instruction-following rate: Σ answered / documents (see `logicasker_arithmetic.instruction_following_rate`).",
)


class LogicAskerTask(FewshotRefusingTask):
    """The logicasker lm-eval task: lm-eval's YAML task, refusing `--num_fewshot N` (N > 0) in one line."""

    FEWSHOT_HINT = (
        "LogicAsker's lm-eval tasks are zero-shot, as the paper's main evaluation; its demonstrations (§3.4) are the "
        "Inspect task's `-T demonstrations=random|weakness`"
    )
