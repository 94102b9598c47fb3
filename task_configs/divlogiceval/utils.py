r"""lm-evaluation-harness side of DivLogicEval: data, the rotation task class, per-document scoring, aggregations.

The YAMLs in `task_configs/divlogiceval/` point here with dotted `!function lgmt_tasks.task_configs...` paths. One
lm-eval *document* is one instance with its four circular rotations, as one Inspect `Sample` is (DESIGN decision 1),
so an instance stays whole under `--limit`.

Requests. `DivLogicEvalTask` builds the Appendix I prompt of every rotation (rotation r shows original option
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
`shots` (0 or 3), `alpha` (PC_α, default 1), and the dataset parameters `question_type` (`3c1e`, `3e1c`, `missing`,
`all`), `per_type`, `seed`, `n`, `pool`, `dataset` / `dataset_revision` (a folder written by `lgmt build
divlogiceval`, or a Hub id). `--metadata` wins over the YAML; the effective values are written back into the task
config so the results file shows them.

Metrics: `acc`, `circular`, `partial_circular`, `rotation_acc`, `unparsed_rate` (means over instances, computed by
`lgmt_tasks.scorers.divlogiceval_metrics`, DESIGN decision 6), and `acc_<type>`, `circular_<type>`,
`partial_circular_<type>` per question type (each document's outcome carries its type, which those aggregations
select on; a type absent from the run gives NaN). lm-eval
computes no standard error for custom aggregations (`N/A`); `divlogiceval_metrics.summarize` gives them from the
samples of `--log_samples`.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import datasets
from lm_eval.api.instance import Instance
from lm_eval.api.task import ConfigurableTask

from lgmt_tasks.divlogiceval.build import DEFAULT_N, QUESTION_TYPES, build_shots
from lgmt_tasks.divlogiceval.dataset import build_config, load_divlogiceval_rows
from lgmt_tasks.scorers.divlogiceval import predictions_of
from lgmt_tasks.scorers.divlogiceval_metrics import (
    METRIC_NAMES,
    ROTATIONS,
    check_alpha,
    instance_outcome,
    mean,
    metric_values,
    to_original,
)
from lgmt_tasks.solvers.divlogiceval import ANSWER_PREFIX, LETTERS, check_shots, rotation_prompts
from lgmt_tasks.task_configs._requests import group_requests

log = logging.getLogger(__name__)

DEFAULT_PER_TYPE = 20
"""Instances per question type when neither the YAML nor `--metadata` says otherwise (the Inspect default too)."""

OUTPUT_TYPES: tuple[str, ...] = ("generate_until", "loglikelihood")

CONTINUATIONS: tuple[str, ...] = tuple(f" {letter}" for letter in LETTERS)
"""The scored continuations of a log-likelihood context ending in `Answer:`."""

DATASET_PARAMS: tuple[str, ...] = ("question_type", "per_type", "seed", "n", "pool", "dataset", "dataset_revision")
"""Dataset parameters a user may override with `--metadata`."""

TASK_PARAMS: tuple[str, ...] = ("shots", "alpha")
"""Other task parameters read from the metadata."""

BREAKDOWN: tuple[str, ...] = ("acc", "circular", "partial_circular")
"""Metrics reported per question type as `<metric>_<type>`."""


# ------------------------------------------------------------------------------------------------------- data


def load_docs(
    question_type: str = "all",
    per_type: int = DEFAULT_PER_TYPE,
    seed: int = 0,
    n: int = DEFAULT_N,
    pool: str | None = None,
    dataset: str | None = None,
    dataset_revision: str | None = None,
    **_ignored: Any,
) -> datasets.DatasetDict:
    """Load (building and caching if needed) the DivLogicEval instances as an lm-eval dataset.

    Args:
        question_type: `3c1e`, `3e1c`, `missing` or `all`.
        per_type: Instances per question type.
        seed: Build seed.
        n: The paper's n.
        pool: A sentence pool (default: ours).
        dataset: A folder written by `lgmt build divlogiceval`, or a Hub id, to read instead of building.
        dataset_revision: Hub revision of `dataset`.
        **_ignored: Anything else (lm-eval passes the whole metadata, model arguments included).

    Returns:
        A `DatasetDict` with one split, `test`.
    """
    rows = load_divlogiceval_rows(
        str(question_type),
        per_type=int(per_type),
        seed=int(seed),
        n=int(n),
        pool=pool,
        dataset=dataset,
        revision=dataset_revision,
    )
    return datasets.DatasetDict({"test": rows})


def dataset_params(dataset_kwargs: Mapping[str, Any], metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Merge the YAML's `dataset_kwargs` with the run's metadata (metadata wins for `DATASET_PARAMS`).

    Raises:
        ValueError: If `dataset_kwargs` holds a key `load_docs` does not take.
    """
    unknown = sorted(set(dataset_kwargs) - set(DATASET_PARAMS))
    if unknown:
        raise ValueError(f"dataset_kwargs: unknown key(s) {unknown}; valid: {', '.join(DATASET_PARAMS)}")
    known = {*DATASET_PARAMS, *TASK_PARAMS}
    for key in metadata:
        close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.8)
        if key not in known and close:
            log.warning(
                "metadata key %r is not a DivLogicEval parameter (did you mean %r?); it is ignored", key, close[0]
            )
    return {**dataset_kwargs, **{key: metadata[key] for key in DATASET_PARAMS if key in metadata}}


# ------------------------------------------------------------------------------------------------------- task


class DivLogicEvalTask(ConfigurableTask):
    """A `ConfigurableTask` whose documents hold four rotations: one request per rotation (four for log-likelihood).

    Configured by the YAMLs in `task_configs/divlogiceval/`; see the module docstring.
    """

    def __init__(
        self,
        data_dir: str | None = None,
        cache_dir: str | None = None,
        download_mode: datasets.DownloadMode | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> None:
        """Read our parameters from the config, then build the task as lm-eval does.

        Args:
            data_dir: Unused (lm-eval's signature).
            cache_dir: Unused (lm-eval's signature).
            download_mode: Unused (lm-eval's signature).
            config: The task config from the YAML (its `class` key is dropped: `TaskConfig` has no such field).

        Raises:
            ValueError: Without a config, on another output type, or on invalid `shots` / `alpha`.
        """
        if config is None:
            raise ValueError("DivLogicEvalTask needs a config (from the YAMLs in task_configs/divlogiceval/)")
        config = {key: value for key, value in config.items() if key != "class"}
        output_type = config.get("output_type")
        if output_type not in OUTPUT_TYPES:
            valid = ", ".join(OUTPUT_TYPES)
            raise ValueError(f"DivLogicEvalTask: output_type={output_type!r}; expected one of {valid}")
        metadata = dict(config.get("metadata") or {})
        self.shots = check_shots(int(metadata.get("shots", 0)))
        self.alpha = check_alpha(float(metadata.get("alpha", 1.0)))
        config["metadata"] = {**metadata, "shots": self.shots, "alpha": self.alpha}
        self.examples: list[dict[str, Any]] = []
        self.answer_cue = ANSWER_PREFIX if output_type == "loglikelihood" else ""
        super().__init__(data_dir=data_dir, cache_dir=cache_dir, download_mode=download_mode, config=config)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        """Load the instances (`--metadata` overriding `dataset_kwargs`) and, for three-shot, the examples.

        Args:
            dataset_kwargs: The YAML's `dataset_kwargs`.
            **kwargs: Unused (lm-eval's signature).
        """
        params = dataset_params(dataset_kwargs or {}, self.config.metadata or {})
        self.config.dataset_kwargs = params
        loader: Callable[..., datasets.DatasetDict] = self.config.custom_dataset or load_docs
        self.dataset = loader(**params)
        if self.shots:
            config = build_config(
                int(params.get("per_type", DEFAULT_PER_TYPE)),
                int(params.get("seed", 0)),
                int(params.get("n", DEFAULT_N)),
                params.get("pool"),
            )
            self.examples = build_shots(config, exclude_ids=self.dataset["test"]["id"])

    def rotation_context(self, prompt: str, *, system_instruction: str | None = None, chat_template: Any = None) -> str:
        """The full context of one rotation: its prompt (and, for log-likelihood, the `Answer:` cue).

        Args:
            prompt: The rotation's prompt (Appendix I).
            system_instruction: lm-eval's `--system_instruction`.
            chat_template: lm-eval's renderer of a message list, or None for plain text.

        Returns:
            The context string.
        """
        if chat_template is None:
            lead = f"{system_instruction}\n\n" if system_instruction else ""
            return f"{lead}{prompt}\n{self.answer_cue}"
        messages = [{"role": "system", "content": system_instruction}] if system_instruction else []
        messages.append({"role": "user", "content": prompt})
        if self.answer_cue:
            messages.append({"role": "assistant", "content": self.answer_cue})
            return str(chat_template(messages, add_generation_prompt=False))
        return str(chat_template(messages, add_generation_prompt=True))

    def doc_to_text(self, doc: Mapping[str, Any], doc_to_text: Any = None) -> str:
        """The plain-text context of rotation 0 (what lm-eval shows and checks for a document)."""
        return self.rotation_context(rotation_prompts(doc, self.examples)[0])

    def doc_to_target(self, doc: Mapping[str, Any], doc_to_target: Any = None) -> str:
        """The gold letter in the original order."""
        return LETTERS[int(doc["answer"])]

    def fewshot_context(
        self,
        doc: Mapping[str, Any],
        num_fewshot: int,
        system_instruction: str | None = None,
        apply_chat_template: bool = False,
        fewshot_as_multiturn: bool = False,
        chat_template: Callable[..., str] | None = None,
        gen_prefix: str | None = None,
    ) -> list[str]:
        """Build one context per rotation (lm-eval passes the list on to `construct_requests`).

        Args:
            doc: One DivLogicEval row.
            num_fewshot: Must be 0: three-shot prompting is `--metadata '{"shots": 3}'` (one example per type).
            system_instruction: lm-eval's `--system_instruction`.
            apply_chat_template: Whether `--apply_chat_template` is on.
            fewshot_as_multiturn: Unused.
            chat_template: The model's chat template renderer.
            gen_prefix: Must be empty.

        Returns:
            The four contexts, rotation 0 first.

        Raises:
            ValueError: If `num_fewshot` or `gen_prefix` is set.
        """
        if num_fewshot:
            raise ValueError(
                f"{self.config.task}: num_fewshot={num_fewshot} is not supported; use "
                "--metadata '{\"shots\": 3}' (one solved example per question type, §4.1)"
            )
        if gen_prefix:
            raise ValueError(f"{self.config.task}: gen_prefix is not supported (got {gen_prefix!r})")
        template = chat_template if apply_chat_template else None
        return [
            self.rotation_context(prompt, system_instruction=system_instruction, chat_template=template)
            for prompt in rotation_prompts(doc, self.examples)
        ]

    def construct_requests(self, doc: Mapping[str, Any], ctx: Any, **kwargs: Any) -> list[Instance]:
        """Make the requests of one instance: per rotation one generation, or one log-likelihood per letter.

        Request `idx` orders the results: rotation r has `idx = r` (generation) or `idx = 4r + j` for letter j.

        Raises:
            TypeError: If `ctx` is not the list of rotation contexts.
        """
        return group_requests(self, doc, ctx, CONTINUATIONS, "rotation", **kwargs)

    def process_results(self, doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, dict[str, Any]]:
        """Score one instance with the task's alpha (the YAML's `process_results` is this at alpha = 1)."""
        if self.OUTPUT_TYPE == "generate_until":
            return process_generation_results(doc, results, self.alpha)
        return process_loglik_results(doc, results, self.alpha)


# ----------------------------------------------------------------------------------------- results, metrics


def _per_metric(doc: Mapping[str, Any], predictions: Sequence[int], alpha: float) -> dict[str, dict[str, Any]]:
    outcome: dict[str, Any] = {**instance_outcome(predictions, int(doc["answer"]), alpha)}
    outcome["question_type"] = str(doc.get("question_type", ""))
    names = [*METRIC_NAMES, *(f"{name}_{t}" for name in BREAKDOWN for t in QUESTION_TYPES)]
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
    if len(results) != ROTATIONS:
        raise ValueError(f"instance {doc.get('id')!r}: {len(results)} completions for {ROTATIONS} rotations")
    predictions, _ = predictions_of([str(r) for r in results], list(doc["options"]))
    return _per_metric(doc, predictions, alpha)


def argmax_letter(logliks: Sequence[float]) -> int:
    """The position with the highest log-likelihood (the first one on a tie)."""
    return max(range(len(logliks)), key=lambda j: logliks[j])


def process_loglik_results(
    doc: Mapping[str, Any], results: Sequence[tuple[float, bool]], alpha: float = 1.0
) -> dict[str, dict[str, Any]]:
    """Score one instance from letter log-likelihoods: argmax per rotation, mapped back to the original option.

    Raises:
        ValueError: If there are not 16 results.
    """
    width = len(CONTINUATIONS)
    if len(results) != ROTATIONS * width:
        raise ValueError(f"instance {doc.get('id')!r}: {len(results)} results for {ROTATIONS} rotations × {width}")
    predictions = [
        to_original(argmax_letter([loglik for loglik, _ in results[r * width : (r + 1) * width]]), r)
        for r in range(ROTATIONS)
    ]
    return _per_metric(doc, predictions, alpha)


def _aggregation(name: str, question_type: str | None = None) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    def aggregate(items: Sequence[Mapping[str, Any]]) -> float:
        if question_type is not None:
            items = [item for item in items if item.get("question_type") == question_type]
        return mean(metric_values(items, name))

    suffix = f"_{question_type}" if question_type else ""
    aggregate.__name__ = aggregate.__qualname__ = f"{name}{suffix}_aggregation"
    scope = f" over the {question_type} instances" if question_type else " over instances"
    aggregate.__doc__ = f"Mean of the per-instance `{name}`{scope} (see `divlogiceval_metrics`); NaN if none."
    return aggregate


acc_aggregation = _aggregation("acc")
"""ACC: mean over instances of [original order right]."""
circular_aggregation = _aggregation("circular")
"""Circular: mean over instances of [all four rotations right]."""
partial_circular_aggregation = _aggregation("partial_circular")
"""PartialCircular (PC_α): mean over instances."""
rotation_acc_aggregation = _aggregation("rotation_acc")
"""Accuracy over all rotations: mean over instances of c/4."""
unparsed_rate_aggregation = _aggregation("unparsed_rate")
"""Unread answers / all answers."""
acc_3c1e_aggregation = _aggregation("acc", "3c1e")
acc_3e1c_aggregation = _aggregation("acc", "3e1c")
acc_missing_aggregation = _aggregation("acc", "missing")
circular_3c1e_aggregation = _aggregation("circular", "3c1e")
circular_3e1c_aggregation = _aggregation("circular", "3e1c")
circular_missing_aggregation = _aggregation("circular", "missing")
partial_circular_3c1e_aggregation = _aggregation("partial_circular", "3c1e")
partial_circular_3e1c_aggregation = _aggregation("partial_circular", "3e1c")
partial_circular_missing_aggregation = _aggregation("partial_circular", "missing")
