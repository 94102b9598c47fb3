"""lm-evaluation-harness side of the lexical (LLMorph) baseline: `lgmt_lexical` and `lgmt_lexical_loglik`.

One lm-eval document is one lexical group (a source case and one follow-up), as one Inspect `Sample` is. The task
class is the shared `LabelGroupTask` of `task_configs/_requests.py`, as LGMT's is (the same prompts, chat-template
handling, one request per member, or three label log-likelihoods per member); only the data loading and the scoring
differ:

- documents come from `load_docs`, which builds (and caches) the function-based relations, or reads a folder written
  by `lgmt build lexical` / a Hub dataset (`dataset`), which may also hold LLM follow-ups made with
  `--transformer-model`. A pending LLM row (its follow-up still to be made by a transformer) cannot be evaluated
  here (lm-eval has no second model), and is refused with a message saying how to build it;
- each group is scored with `lexical_arithmetic.lexical_outcome` on the parsed labels, with the relation's output
  relation (equivalence, difference or not_inverse) and the row's expected follow-up label. Only the label output
  relation: free-text similarity is the Inspect task's `output=text`.

Metrics: LGMT's `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate`, `acc_static_parsed`,
`acc_cons_parsed` (the same aggregation functions as
LGMT's, `_requests.RATE_AGGREGATIONS`), LLMorph's confusion matrix `cm_pass_correct`, `cm_pass_wrong`,
`cm_fail_correct`, `cm_fail_wrong`, and the violation rate per function-based relation, `mvr_MR-1`, ... `mvr_MR-128`
(`mvr_MR-49` is the noise floor; a relation with no document reports NaN). See `scorers/lexical_arithmetic.py` for the
definitions and denominators.

Parameters (set with `--metadata`; their defaults are `lexical.config.SCHEMA`'s): `mr` (default `function`; ids
comma-separated), `part` (default `all`), `per_mr` (default 100, the shipped build's, as in the Inspect task), `seed`
(in the metadata `dataset_seed`, see `_params.METADATA_NAMES`), `source`, `source_path`, `style`, `dataset`,
`dataset_revision`; and `prompting` and `prefill` as for LGMT. A metadata key that is no parameter is ignored with a
logged warning naming the task and the valid keys (`_params.dataset_params`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets

from lgmt_tasks.lexical.catalogue import FUNCTION_BASED
from lgmt_tasks.lexical.config import SCHEMA
from lgmt_tasks.lexical.dataset import load_lexical, load_lexical_rows
from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.scorers.lexical_arithmetic import LEXICAL_KEYS, confusion_cell, label_violation, lexical_outcome
from lgmt_tasks.scorers.pairwise import RATE_NAMES
from lgmt_tasks.task_configs._aggregation import RATE_AGGREGATIONS, Aggregation, aggregation
from lgmt_tasks.task_configs._label_groups import LabelGroupTask, interleave_by, member_labels
from lgmt_tasks.task_configs._params import Parameters, with_defaults
from lgmt_tasks.task_configs._requests import completions

PARAMS = Parameters.of(SCHEMA, "lexical", task=("prompting", "prefill"))
"""The parameters: `--metadata` may override the dataset parameters (`lexical.config.SCHEMA`, with its defaults: the
shipped build), `prompting` and `prefill`."""

CELLS: tuple[str, ...] = ("cm_pass_correct", "cm_pass_wrong", "cm_fail_correct", "cm_fail_wrong")

RELATION_METRICS: tuple[str, ...] = tuple(f"mvr_{mr}" for mr in FUNCTION_BASED)
"""Per-relation violation rates reported by the tasks (the function-based relations). Each is LGMT's `mvr`
aggregation over per-document outcomes in which the groups of other relations have `parsed = 0`."""

METRICS: tuple[str, ...] = (*RATE_NAMES, *CELLS, *RELATION_METRICS)
"""Every metric of the lexical lm-eval tasks, in YAML order."""


def load_docs(**params: Any) -> datasets.DatasetDict:
    """Load (building and caching if needed) the lexical groups as an lm-eval dataset.

    Args:
        **params: The dataset parameters of `lexical.config.SCHEMA` (`dataset_params` passes exactly those), over
            its lm-eval defaults: `mr` (ids, comma-separated or a list, or `function` / `llm` / `all`), `part`,
            `per_mr`, `seed`, `source`, `source_path`, `style`, `dataset`, `revision`.

    Returns:
        A `DatasetDict` with one split, `test`, ordered round-robin over relations (so `--limit` spreads).

    Raises:
        ValueError: On an invalid parameter, no group, or a pending LLM group.
    """
    rows = load_lexical_rows(**with_defaults(SCHEMA, params, load_lexical, "lexical lm-eval"))
    pending = sorted({r["mr"] for r in rows if r["pending"]})
    if pending:
        raise ValueError(
            f"relations {', '.join(pending)} have no follow-ups yet (they are made by a transformer model): build "
            "them with `lgmt build lexical --transformer-model M --mr ...` and pass the folder as dataset, or use "
            "the Inspect task with -T transformer_model=M"
        )
    return datasets.DatasetDict({"test": interleave_by(rows, "mr")})


class LexicalTask(LabelGroupTask):
    """The lexical group task: the shared `LabelGroupTask` with the lexical parameters (see the module docstring)."""

    PARAMS = PARAMS


def _per_metric(doc: Mapping[str, Any], source: str | None, followup: str | None) -> dict[str, dict[str, int]]:
    violation = None if source is None or followup is None else label_violation(doc["expected"], source, followup)
    outcome = lexical_outcome(
        doc["expected"], doc["label"], source, followup, violation, str(doc.get("followup_label") or "")
    )
    elsewhere = dict.fromkeys(LEXICAL_KEYS, 0)  # another relation's metric: this group is not in its denominator
    return {
        **dict.fromkeys((*RATE_NAMES, *CELLS), outcome),
        **{name: outcome if name == f"mvr_{doc['mr']}" else elsewhere for name in RELATION_METRICS},
    }


def process_generation_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, int]]:
    """Score one group from its two completions (source, follow-up) with the one label parser.

    Raises:
        ValueError: If there are not exactly two completions.
    """
    source, followup = (parse_label(text).label for text in completions(doc, results, 2, "member"))
    return _per_metric(doc, source, followup)


def process_loglik_results(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> dict[str, dict[str, int]]:
    """Score one group from the label log-likelihoods of its two members (argmax per member).

    Raises:
        ValueError: If there are not three results per member.
    """
    source, followup = member_labels(doc, results)
    return _per_metric(doc, source, followup)


def _cell(cell: str) -> Aggregation:
    return aggregation(
        cell, lambda items: confusion_cell(items, cell), f"LLMorph's confusion-matrix cell {cell}: Σ {cell} / Σ parsed."
    )


# The aggregations the YAMLs name: LGMT's rates (shared, `_requests.RATE_AGGREGATIONS`) and the confusion cells.
mvr_aggregation = RATE_AGGREGATIONS["mvr"]
acc_static_aggregation = RATE_AGGREGATIONS["acc_static"]
acc_cons_aggregation = RATE_AGGREGATIONS["acc_cons"]
hdr_aggregation = RATE_AGGREGATIONS["hdr"]
fur_aggregation = RATE_AGGREGATIONS["fur"]
unparsed_rate_aggregation = RATE_AGGREGATIONS["unparsed_rate"]
acc_static_parsed_aggregation = RATE_AGGREGATIONS["acc_static_parsed"]
acc_cons_parsed_aggregation = RATE_AGGREGATIONS["acc_cons_parsed"]
cm_pass_correct_aggregation = _cell("cm_pass_correct")
cm_pass_wrong_aggregation = _cell("cm_pass_wrong")
cm_fail_correct_aggregation = _cell("cm_fail_correct")
cm_fail_wrong_aggregation = _cell("cm_fail_wrong")
