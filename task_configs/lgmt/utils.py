r"""lm-evaluation-harness side of LGMT: data loading, the group task class, per-document scoring and aggregations.

The YAMLs in `task_configs/lgmt/` point here with dotted `!function lgmt_tasks.task_configs.lgmt.utils.*` paths.
One lm-eval *document* is one metamorphic group (a dataset row: a source case and its follow-ups), as one Inspect
`Sample` is (DESIGN decision 1), so a group stays whole under `--limit`.

Requests. `LgmtTask` is the shared `LabelGroupTask` (`task_configs/_requests.py`, lm-eval has no task type for a
group of requests): it asks the model once per group *member* (source first, then each follow-up) and receives all
the answers of a group together in `process_results`:

- generation tasks (`lgmt_mr_e`, ...): one `generate_until` request per member, whose completion goes through the
  one label parser (`parse_label`: strict JSON, lenient, else unparsed), exactly as in the Inspect tasks;
- log-likelihood tasks (`lgmt_mr_e_loglik`, ...): three `loglikelihood` requests per member, one per label. The
  context ends with the start of the JSON answer the system prompt asks for, `{"label": "` (`ANSWER_CUE`), and the
  continuations are the bare labels `True`, `False`, `Unknown` (no leading space: in JSON the label follows the
  opening quote directly; for BPE tokenizers such as SmolLM2's, ` "` is one token, so the context/continuation
  boundary is a token boundary and each label is scored as its own tokens). The member's answer is the label with
  the highest summed log-probability (ties go to the first of True, False, Unknown); such an answer always
  "parses", so `unparsed_rate` is 0 for these tasks. Only the direct prompts (`zero_shot`, `few_shot`) are allowed:
  a chain-of-thought prompt asks for reasoning before the label, which a scored continuation cannot contain.

Prompts (`LabelGroupTask`, shared with the lexical tasks). Each member's context is the paper's system prompt
(`prompting`: `zero_shot`, `zero_shot_cot`, `few_shot`, `few_shot_cot`; Appendix C.1) and its user prompt, laid out
as follows:

- plain text (default, for base LMs): `<system prompt>\n\n<user prompt>\n` (+ `ANSWER_CUE` for log-likelihood);
- `--apply_chat_template`: messages `[system: <system prompt>, user: <user prompt>]` rendered by the model's chat
  template with the generation prompt (for log-likelihood, the assistant turn is opened with `ANSWER_CUE` and
  continued instead);
- `--system_instruction TEXT`: TEXT is put before the paper's system prompt, separated by a blank line (in the
  plain-text layout and in the chat system message alike); it adds to the task's prompt, it does not replace it.

Instruct models (SmolLM2-Instruct, Llama-Instruct, ...) should be run with `--apply_chat_template`, as with any
lm-eval generation task; the plain-text layout is what base models see.

Parameters (defaults in the YAMLs; override at run time with `--metadata '{"per_mr": 50, "prompting": "zero_shot"}'`
or `TaskManager(metadata=...)`):

- `prompting` (YAML `metadata`): default `zero_shot_cot` for generation (the paper's default, as in the Inspect
  tasks) and `zero_shot` for log-likelihood. Small local models often do better with `zero_shot`.
- `prefill` (default false): generation contexts end with the opening of the JSON answer, which is put back in
  front of each completion before parsing (`LabelGroupTask.configure`); for small local models, whose generations
  are otherwise all unparsed.
- `relation_set` (YAML `dataset_kwargs`; fixed by the task, `lgmt_mr_e` evaluates `mr_e`): a key of
  `lgmt_tasks.lgmt.dataset.MR_SETS`. Its former name `suite` is still read, with a deprecation warning, until the
  next release; giving both is an error.
- dataset parameters (YAML `dataset_kwargs` or `--metadata`): those of `lgmt_tasks.lgmt.config.SCHEMA` (the table
  in the LGMT README), with the Inspect defaults (`per_mr` 200: the shipped default build, read without building;
  `--limit N` is a stratified smoke test). `dataset` / `dataset_revision` evaluate a folder written by `lgmt build`
  or a Hub dataset instead of building. `--metadata` wins over the YAML; the values given are written back to the task's
  `dataset_kwargs`. In the metadata the seed is `dataset_seed` and the revision `dataset_revision`: lm-eval merges
  the model arguments into the metadata, and `seed` (vLLM, the API models) and `revision` (`hf`) are model arguments
  (`lgmt_tasks.builders.schema.LM_EVAL_NAMES`). A metadata key that is no parameter is ignored with a logged warning
  naming the task and the valid keys (`_params.dataset_params`).

Documents are ordered round-robin over relations (first group of every relation, then the second, ...), so that
`--limit N` evaluates a spread of relations rather than N groups of the first one.

Metrics: `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate`, `acc_static_parsed`, `acc_cons_parsed`,
`acc_static_per_case`, computed by the pure functions of
`lgmt_tasks.scorers.pairwise` (DESIGN decision 6): `process_*_results` returns one `group_outcome` dict per document
(with the group's source case, `pairwise.CASE_KEYS`) for every metric, and the aggregations
(`_aggregation.RATE_AGGREGATIONS`, `_aggregation.ACC_STATIC_PER_CASE`) are the rate functions over those dicts
(ratios of sums over parsed groups; NaN when nothing parsed, with a logged warning saying so;
`acc_static_per_case` is the Inspect task's metric of that name, each source case counted once). lm-eval computes
standard errors only for its own aggregations, so these report `N/A`; `lgmt_tasks.scorers.pairwise.summarize` gives
them from the per-document outcomes of `--log_samples`.

The headline tasks `lgmt` / `lgmt_loglik` are one task each over all 20 relations (`relation_set: lgmt`), not lm-eval
groups of the four category tasks: a group's value is lm-eval's size-weighted mean of its tasks' values
(`lm_eval.api.group.Group.aggregate`: weights are documents per task, parsed or not, and one NaN task makes the mean
NaN), which is not the pooled rate Σ violations / Σ parsed groups that the Inspect task `lgmt` and `lgmt report`
compute, and lm-eval 0.4 offers a group no other aggregation (a callable `aggregation` is accepted by its config but
not called). One task computes every rate from the pooled per-group outcomes, and reports each category's `mvr` and
`unparsed_rate` beside them (`mvr_mr_e`, ...; `process_pooled_*_results`). The four category tasks carry the tag
`lgmt_categories` (`lgmt_categories_loglik`), which runs them as separate rows with no combined number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import datasets

from lgmt_tasks.lgmt import CATEGORIES
from lgmt_tasks.lgmt.config import SCHEMA
from lgmt_tasks.lgmt.dataset import MR_SETS, first_relation, load_lgmt, load_lgmt_rows
from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.scorers.pairwise import CASE_KEYS, RATE_NAMES, group_outcome
from lgmt_tasks.task_configs._aggregation import ACC_STATIC_PER_CASE, RATE_AGGREGATIONS, rate_aggregation
from lgmt_tasks.task_configs._label_groups import LABELS, LabelGroupTask, interleave_by, member_count, member_labels
from lgmt_tasks.task_configs._params import Parameters, renamed_value, with_defaults
from lgmt_tasks.task_configs._requests import argmax, completions

DEFAULT_RELATION_SET = "mr_e"
"""The relation set `load_docs` builds when called without one (the tasks always name theirs)."""

PARAMS = Parameters.of(
    SCHEMA, "LGMT", task=("prompting", "prefill"), fixed=("relation_set",), renamed={"suite": "relation_set"}
)
"""The parameters: the relation set is fixed by the task (`suite` is its deprecated name); `--metadata` may override
the dataset parameters (`lgmt.config.SCHEMA`, with its defaults: the shipped build) and `prompting`."""


# ---------------------------------------------------------------------------------------------------------- data


def load_docs(relation_set: str | None = None, suite: str | None = None, **params: Any) -> datasets.DatasetDict:
    """Load (building and caching if needed) the LGMT groups of one relation set as an lm-eval dataset.

    Args:
        relation_set: The relation set, a key of `MR_SETS` (`mr_e`, `mr_s`, `mr_p`, `mr_c`, ...); default
            `DEFAULT_RELATION_SET`.
        suite: Deprecated name of `relation_set` (read with a `DeprecationWarning`).
        **params: The dataset parameters of `lgmt.config.SCHEMA` (`dataset_params` passes exactly those), over its
            lm-eval defaults.

    Returns:
        A `DatasetDict` with one split, `test`: one row per group, ordered round-robin over relations.

    Raises:
        ValueError: On an unknown relation set, on both `suite` and `relation_set`, on an invalid build parameter
            (raised by the loader), or if no group is left.
    """
    chosen = renamed_value("suite", suite, "relation_set", relation_set, "LGMT load_docs") or DEFAULT_RELATION_SET
    if chosen not in MR_SETS:
        raise ValueError(f"relation_set={chosen!r}: expected one of {', '.join(MR_SETS)}")
    rows = load_lgmt_rows(MR_SETS[chosen], **with_defaults(SCHEMA, params, load_lgmt, "LGMT lm-eval"))
    return datasets.DatasetDict({"test": interleave_by_relation(rows)})


def interleave_by_relation(rows: datasets.Dataset) -> datasets.Dataset:
    """Reorder groups round-robin over relations (a composed chain counts as its first relation).

    Args:
        rows: LGMT rows (with an `mr` column), typically sorted by relation.

    Returns:
        The same rows: the first group of every relation (in order of first appearance), then every second, ...
    """
    return interleave_by(rows, "mr", first_relation)


# ---------------------------------------------------------------------------------------------------------- task


class LgmtTask(LabelGroupTask):
    """The LGMT group task: the shared `LabelGroupTask` with LGMT's parameters (see the module docstring).

    Configured by the YAMLs in `task_configs/lgmt/` (`class: !function ...LgmtTask`).
    """

    PARAMS = PARAMS


# --------------------------------------------------------------------------------------------- results, metrics


CATEGORY_RATES = ("mvr", "unparsed_rate")
"""The rates the pooled tasks also report per category (`mvr_mr_e`, `unparsed_rate_mr_e`, ...)."""


def relation_set_of(category: str) -> str:
    """`mr_e` for `MR-E`: the relation set (and metric-name suffix) of a category."""
    return category.lower().replace("-", "_")


CATEGORY_METRICS: tuple[str, ...] = tuple(
    f"{rate}_{relation_set_of(category)}" for category in CATEGORIES for rate in CATEGORY_RATES
)
"""The per-category metric names of the pooled tasks, category-major (`mvr_mr_e`, `unparsed_rate_mr_e`, ...)."""


PER_CASE = "acc_static_per_case"
"""Static accuracy with each distinct source case counted once, as the Inspect task reports it."""

METRICS: tuple[str, ...] = (*RATE_NAMES, PER_CASE)
"""The metrics every LGMT task reports: the pairwise rates, then `acc_static_per_case`."""


def _per_metric(doc: Mapping[str, Any], answers: Sequence[str | None]) -> dict[str, dict[str, Any]]:
    """The group's outcome for every metric, with its source case (`CASE_KEYS`), which `acc_static_per_case` reads."""
    outcome: dict[str, Any] = {**group_outcome(doc["label"], answers[0], answers[1:])}
    outcome.update({key: doc.get(key) for key in CASE_KEYS})
    return dict.fromkeys(METRICS, outcome)


def _pooled(outcomes: dict[str, dict[str, Any]], doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The outcome of one group for every metric of a pooled task, with its category for the per-category rates."""
    outcome = {**outcomes[RATE_NAMES[0]], "category": doc["category"]}
    return dict.fromkeys((*METRICS, *CATEGORY_METRICS), outcome)


def process_generation_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Score one group from its completions: parse each member's label, then `group_outcome`.

    Args:
        doc: One LGMT row.
        results: The completions, one per member, source first.

    Returns:
        For every metric of `METRICS`, the group's outcome dict (the aggregations read the keys they need).

    Raises:
        ValueError: If the number of completions is not the number of members.
    """
    texts = completions(doc, results, member_count(doc), "member")
    return _per_metric(doc, [parse_label(text).label for text in texts])


def argmax_label(logliks: Sequence[float]) -> str:
    """Return the label with the highest log-likelihood (the first of `LABELS` on a tie).

    Args:
        logliks: One log-likelihood per label, in `LABELS` order.

    Returns:
        The chosen label.
    """
    return LABELS[argmax(logliks)]


def process_loglik_results(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> dict[str, dict[str, Any]]:
    """Score one group from label log-likelihoods: argmax per member, then `group_outcome`.

    Args:
        doc: One LGMT row.
        results: `(loglikelihood, is_greedy)` per request, member-major in `LABELS` order.

    Returns:
        For every metric of `METRICS`, the group's outcome dict.

    Raises:
        ValueError: If the number of results is not three per member.
    """
    return _per_metric(doc, member_labels(doc, results))


def process_pooled_generation_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """`process_generation_results` for the pooled task `lgmt`: every rate, and the per-category ones."""
    return _pooled(process_generation_results(doc, results), doc)


def process_pooled_loglik_results(
    doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]
) -> dict[str, dict[str, Any]]:
    """`process_loglik_results` for the pooled task `lgmt_loglik`: every rate, and the per-category ones."""
    return _pooled(process_loglik_results(doc, results), doc)


# The aggregations the YAMLs name (`_requests.RATE_AGGREGATIONS`, shared with the lexical tasks).
mvr_aggregation = RATE_AGGREGATIONS["mvr"]
acc_static_aggregation = RATE_AGGREGATIONS["acc_static"]
acc_cons_aggregation = RATE_AGGREGATIONS["acc_cons"]
hdr_aggregation = RATE_AGGREGATIONS["hdr"]
fur_aggregation = RATE_AGGREGATIONS["fur"]
unparsed_rate_aggregation = RATE_AGGREGATIONS["unparsed_rate"]
acc_static_parsed_aggregation = RATE_AGGREGATIONS["acc_static_parsed"]
acc_cons_parsed_aggregation = RATE_AGGREGATIONS["acc_cons_parsed"]
acc_static_per_case_aggregation = ACC_STATIC_PER_CASE

# The pooled tasks' per-category rates (`CATEGORY_METRICS`), over the groups of one category.
mvr_mr_e_aggregation = rate_aggregation("mvr", "category", "MR-E", "mr_e")
unparsed_rate_mr_e_aggregation = rate_aggregation("unparsed_rate", "category", "MR-E", "mr_e")
mvr_mr_s_aggregation = rate_aggregation("mvr", "category", "MR-S", "mr_s")
unparsed_rate_mr_s_aggregation = rate_aggregation("unparsed_rate", "category", "MR-S", "mr_s")
mvr_mr_p_aggregation = rate_aggregation("mvr", "category", "MR-P", "mr_p")
unparsed_rate_mr_p_aggregation = rate_aggregation("unparsed_rate", "category", "MR-P", "mr_p")
mvr_mr_c_aggregation = rate_aggregation("mvr", "category", "MR-C", "mr_c")
unparsed_rate_mr_c_aggregation = rate_aggregation("unparsed_rate", "category", "MR-C", "mr_c")
