r"""lm-evaluation-harness side of QMFOL: documents, per-document scoring and aggregations.

`task_configs/qmfol/lgmt_qmfol.yaml` points here with dotted `!function lgmt_tasks.task_configs.qmfol.utils.*`
paths. One document is one QMFOL task (a row of `lgmt build qmfol`), with exactly the prompt of the Inspect task
(`lgmt_tasks.solvers.qmfol.render_prompt`, stored in the document's `prompt` column by `load_docs`); the completion
is read by the one label parser (`parse_label`), as the Inspect scorer reads it.

Parameters (YAML `metadata`; override with `--metadata '{"depth": [5, 10], "distractors": 0, "per_config": 3}'` or
`TaskManager(metadata=...)`): `depth`, `width`, `distractors`, `topic`, `label` (one value, a list, or a string
"5,10"), `dataset_seed` (the build's `seed`: lm-eval merges model arguments, vLLM's `seed` among them, into the
metadata), `per_config`, `padding_tokens` (the §4.2.2 length control; only with `distractors` 0), and
`dataset` / `dataset_revision` to evaluate a folder written by `lgmt build qmfol` or a Hub dataset instead of
building (`dataset_revision`, not `revision`, which is a model argument of `hf` that lm-eval merges into the
metadata). Without `dataset` the default grid is the Inspect task's (96 tasks). A metadata key that is no parameter is
reported in a logged warning with the valid keys (`_requests.dataset_params`).

Metrics, the same as the Inspect task's and computed by the same pure functions (`lgmt_tasks.scorers.qmfol_arithmetic`,
DESIGN decision 6): `accuracy` (an unparsed answer is wrong) and `accuracy_parsed` (over parsed answers), `f1_True`,
`f1_False`, `f1_Unknown`, `macro_f1` and `macro_f1_parsed`, `dist_<gold>_<answer>` and `dist_<gold>_unparsed`,
`unparsed_rate`, and accuracy by depth × width (`accuracy_d5_w10`), distractors (`accuracy_D5`), topic
(`accuracy_Food`) and gold label (`accuracy_True`). lm-eval's metric list is fixed in the YAML, so breakdowns cover
the paper's grid values (`BREAKDOWN_METRICS`); a document reports only the breakdown keys of its own configuration,
and a key no document reported is absent from the results. lm-eval reports no standard error for these (`N/A`);
`lgmt_tasks.scorers.qmfol_arithmetic.summarize` gives `accuracy_stderr` from the outcomes of `--log_samples`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import datasets

from lgmt_tasks.builders.load import building_for
from lgmt_tasks.qmfol.config import PAPER_DEPTHS, PAPER_DISTRACTORS, PAPER_WIDTHS, SCHEMA
from lgmt_tasks.qmfol.construction import LABELS
from lgmt_tasks.qmfol.dataset import load_qmfol, load_qmfol_rows
from lgmt_tasks.qmfol.english import TOPICS
from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.scorers.qmfol_arithmetic import (
    DIST_NAMES,
    F1_NAMES,
    accuracy,
    accuracy_parsed,
    answer_distribution,
    f1_scores,
    sample_outcome,
    unparsed_rate,
)
from lgmt_tasks.solvers.qmfol import render_prompt
from lgmt_tasks.task_configs._aggregation import Aggregation, Items, aggregation
from lgmt_tasks.task_configs._params import Parameters, for_lm_eval_task, loader_arguments, task_of
from lgmt_tasks.task_configs._requests import FewshotRefusingTask

PARAMS = Parameters.of(SCHEMA, "QMFOL")
"""The metadata keys that select or build the documents: QMFOL's task parameters (`qmfol.config.SCHEMA`)."""

HEADLINE_METRICS: tuple[str, ...] = (
    "accuracy",
    "accuracy_parsed",
    *F1_NAMES,
    "macro_f1_parsed",
    *DIST_NAMES,
    "unparsed_rate",
)
"""Every metric of every document."""

BREAKDOWN_METRICS: tuple[str, ...] = (
    *(f"accuracy_d{d}_w{w}" for d in PAPER_DEPTHS for w in PAPER_WIDTHS),
    *(f"accuracy_D{n}" for n in PAPER_DISTRACTORS),
    *(f"accuracy_{topic}" for topic in TOPICS),
    *(f"accuracy_{label}" for label in LABELS),
)
"""The breakdowns of accuracy in the metric list (the paper's grid values)."""

_KNOWN_BREAKDOWNS = frozenset(BREAKDOWN_METRICS)


def load_docs(**metadata: Any) -> datasets.DatasetDict:
    """Load (building and caching if needed) the QMFOL tasks selected by the task metadata, with their prompts.

    Args:
        **metadata: The task metadata (YAML, then `--metadata`); keys other than `PARAMS.dataset` are ignored (the
            version, model arguments that lm-eval merges in; any other key is reported, see `dataset_params`).

    Returns:
        A `DatasetDict` with one split, `test`; each row gains a `prompt` column (the Inspect task's input).

    Raises:
        ValueError: On an invalid selection, padding with distractors, or when no task is left.
    """
    params = loader_arguments(SCHEMA, PARAMS, metadata, load_qmfol)
    padding = int(params["padding_tokens"])
    with building_for(for_lm_eval_task(task_of(metadata))):  # a build on the fly names the task
        rows = load_qmfol_rows(**params)
    rows = rows.map(lambda r: {"prompt": render_prompt(list(r["premises"]), r["conclusion"], padding)})
    return datasets.DatasetDict({"test": rows})


def metric_keys(doc: Mapping[str, Any]) -> list[str]:
    """The metrics one document reports: every headline metric and the breakdown keys of its configuration."""
    own = [
        f"accuracy_d{doc['depth']}_w{doc['width']}",
        f"accuracy_D{doc['distractors']}",
        f"accuracy_{doc['topic']}",
        f"accuracy_{doc['label']}",
    ]
    return [*HEADLINE_METRICS, *(key for key in own if key in _KNOWN_BREAKDOWNS)]


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, int]]:
    """Score one task from its completion with the one label parser.

    Args:
        doc: One QMFOL row.
        results: The completion (one).

    Returns:
        For every metric key of the document, the task's outcome dict (`sample_outcome`).

    Raises:
        ValueError: If there is not exactly one completion.
    """
    if len(results) != 1:
        raise ValueError(f"task {doc.get('id')!r}: expected one completion, got {len(results)}")
    outcome = sample_outcome(str(doc["label"]), parse_label(results[0]).label)
    return dict.fromkeys(metric_keys(doc), outcome)


def _f1(name: str) -> Callable[[Items], float]:
    return lambda items: f1_scores(items)[name]


def _share(name: str) -> Callable[[Items], float]:
    return lambda items: answer_distribution(items)[name]


def _dist(name: str) -> Aggregation:
    doc = f"`{name}`: the share of this answer (or of no answer) among all tasks of this gold label (Table 3)."
    return aggregation(name, _share(name), doc)


accuracy_aggregation = aggregation(
    "accuracy", accuracy, "Accuracy: Σ correct / tasks, an unparsed answer being wrong (`qmfol_arithmetic.accuracy`)."
)
accuracy_parsed_aggregation = aggregation(
    "accuracy_parsed", accuracy_parsed, "Accuracy over parsed answers: Σ correct / Σ parsed (`accuracy_parsed`)."
)
unparsed_rate_aggregation = aggregation(
    "unparsed_rate", unparsed_rate, "Unparsed rate: Σ (1 − parsed) / tasks (see `qmfol_arithmetic.unparsed_rate`)."
)
f1_true_aggregation = aggregation(
    "f1_true", _f1("f1_True"), "F1 of True, an unparsed answer a miss (`qmfol_arithmetic.f1_scores`)."
)
f1_false_aggregation = aggregation("f1_false", _f1("f1_False"), "F1 of False, an unparsed answer a miss.")
f1_unknown_aggregation = aggregation("f1_unknown", _f1("f1_Unknown"), "F1 of Unknown, an unparsed answer a miss.")
macro_f1_aggregation = aggregation("macro_f1", _f1("macro_f1"), "Macro-F1: the mean of the defined label-wise F1s.")
macro_f1_parsed_aggregation = aggregation(
    "macro_f1_parsed", _f1("macro_f1_parsed"), "Macro-F1 over parsed answers only (`macro_f1_parsed`)."
)
dist_True_True_aggregation = _dist("dist_True_True")
dist_True_False_aggregation = _dist("dist_True_False")
dist_True_Unknown_aggregation = _dist("dist_True_Unknown")
dist_True_unparsed_aggregation = _dist("dist_True_unparsed")
dist_False_True_aggregation = _dist("dist_False_True")
dist_False_False_aggregation = _dist("dist_False_False")
dist_False_Unknown_aggregation = _dist("dist_False_Unknown")
dist_False_unparsed_aggregation = _dist("dist_False_unparsed")
dist_Unknown_True_aggregation = _dist("dist_Unknown_True")
dist_Unknown_False_aggregation = _dist("dist_Unknown_False")
dist_Unknown_Unknown_aggregation = _dist("dist_Unknown_Unknown")
dist_Unknown_unparsed_aggregation = _dist("dist_Unknown_unparsed")

AGGREGATIONS: dict[str, str] = {
    "accuracy": "accuracy_aggregation",
    "accuracy_parsed": "accuracy_parsed_aggregation",
    "f1_True": "f1_true_aggregation",
    "f1_False": "f1_false_aggregation",
    "f1_Unknown": "f1_unknown_aggregation",
    "macro_f1": "macro_f1_aggregation",
    "macro_f1_parsed": "macro_f1_parsed_aggregation",
    **{name: f"{name}_aggregation" for name in DIST_NAMES},
    "unparsed_rate": "unparsed_rate_aggregation",
    **dict.fromkeys(BREAKDOWN_METRICS, "accuracy_aggregation"),
}
"""Metric → the name of its aggregation function in this module (the YAML generator writes these)."""


class QmfolTask(FewshotRefusingTask):
    """The qmfol lm-eval task: lm-eval's YAML task, refusing `--num_fewshot N` (N > 0) in one line."""

    FEWSHOT_HINT = "QMFOL evaluates zero-shot (§4): its tasks have no demonstrations"
