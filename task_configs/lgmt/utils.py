r"""lm-evaluation-harness side of LGMT: data loading, the group task class, per-document scoring and aggregations.

The YAMLs in `task_configs/lgmt/` point here with dotted `!function lgmt_tasks.task_configs.lgmt.utils.*` paths.
One lm-eval *document* is one metamorphic group (a dataset row: a source case and its follow-ups), as one Inspect
`Sample` is (DESIGN decision 1), so a group stays whole under `--limit`.

Requests. `LgmtTask` asks the model once per group *member* (source first, then each follow-up) and receives all
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

Prompts. Each member's context is the paper's system prompt (`prompting`: `zero_shot`, `zero_shot_cot`,
`few_shot`, `few_shot_cot`; Appendix C.1) and its user prompt, laid out as follows:

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
- dataset parameters (YAML `dataset_kwargs`): `per_mr` (groups per relation, default `DEFAULT_PER_MR`, smaller than
  the Inspect default of 200 to keep a first lm-eval run short), `seed`, `source`, `source_path`, `followups`,
  `compose`, `names`, and `dataset` / `dataset_revision` to evaluate a folder written by `lgmt build` or a Hub
  dataset instead of building. `--metadata` wins over the YAML; the effective values are written back to the task's
  `dataset_kwargs`, so the results file shows what was evaluated. (`dataset_revision`, not `revision`: lm-eval
  merges the model arguments into the metadata, and `revision` is a model argument of `hf`.)

Documents are ordered round-robin over relations (first group of every relation, then the second, ...), so that
`--limit N` evaluates a spread of relations rather than N groups of the first one.

Metrics: `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate`, computed by the pure functions of
`lgmt_tasks.scorers.pairwise` (DESIGN decision 6): `process_*_results` returns one `group_outcome` dict per
document for every metric, and the aggregations below are the rate functions over those dicts (ratios of sums over
parsed groups; NaN when nothing parsed). lm-eval computes standard errors only for its own aggregations, so these
report `N/A`; `lgmt_tasks.scorers.pairwise.summarize` gives them from the per-document outcomes of
`--log_samples`. The groups `lgmt` / `lgmt_loglik` report each metric as lm-eval's size-weighted mean of the task
values (weights: documents per task), which equals the pooled rate when every answer parsed.
"""

from __future__ import annotations

import difflib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import datasets
from lm_eval.api.instance import Instance
from lm_eval.api.task import ConfigurableTask

from lgmt_tasks.lgmt.dataset import MR_SETS, first_relation, load_lgmt_rows
from lgmt_tasks.scorers.answers import TRUTH_LABELS, parse_label
from lgmt_tasks.scorers.pairwise import RATE_NAMES, Outcome, acc_cons, acc_static, fur, group_outcome, hdr, mvr
from lgmt_tasks.scorers.pairwise import unparsed_rate as unparsed_rate_of
from lgmt_tasks.solvers.prompts import PROMPTINGS, render_user_prompt, system_prompt
from lgmt_tasks.task_configs._requests import group_requests

log = logging.getLogger(__name__)

LABELS: tuple[str, ...] = TRUTH_LABELS
"""The labels, in the order of the log-likelihood requests of one member (and of the argmax tie-break)."""

ANSWER_CUE = '{"label": "'
"""Start of the answer the log-likelihood context ends with; the continuations are the bare labels."""

DEFAULT_PER_MR = 20
"""Groups per relation when neither the YAML nor `--metadata` says otherwise."""

OUTPUT_TYPES: tuple[str, ...] = ("generate_until", "loglikelihood")
"""The lm-eval output types an `LgmtTask` can have: generation, or the log-likelihood of each label."""

DEFAULT_PROMPTING: Mapping[str, str] = {"generate_until": "zero_shot_cot", "loglikelihood": "zero_shot"}
"""The prompting strategy per output type when the config names none."""

LOGLIK_PROMPTINGS: tuple[str, ...] = ("zero_shot", "few_shot")
"""Prompting strategies that ask for the label directly: the only ones a scored label continuation fits."""

DATASET_PARAMS: tuple[str, ...] = (
    "per_mr",
    "seed",
    "source",
    "source_path",
    "followups",
    "compose",
    "names",
    "dataset",
    "dataset_revision",
)
"""Dataset parameters a user may override with `--metadata` (the relation set, `suite`, is fixed by the task)."""

TASK_PARAMS: tuple[str, ...] = ("prompting",)
"""Other task parameters read from the metadata."""


# ---------------------------------------------------------------------------------------------------------- data


def load_docs(
    suite: str = "mr_e",
    per_mr: int = DEFAULT_PER_MR,
    seed: int = 0,
    source: str = "generated",
    source_path: str | None = None,
    followups: int = 1,
    compose: int = 0,
    names: str = "abstract",
    dataset: str | None = None,
    dataset_revision: str | None = None,
    **_ignored: Any,
) -> datasets.DatasetDict:
    """Load (building and caching if needed) the LGMT groups of one relation set as an lm-eval dataset.

    Args:
        suite: The relation set, a key of `MR_SETS` (`mr_e`, `mr_s`, `mr_p`, `mr_c`, ...).
        per_mr: Groups per relation.
        seed: Build seed (the same seed gives the same groups).
        source: Source cases: `generated`, `folio`, `proverqa` or `logicnli`.
        source_path: File or folder of the source records (required unless `source="generated"`).
        followups: Follow-ups per group.
        compose: 0, or 2 / 3 for chains of relations.
        names: Fresh symbols for MR-S: `abstract` or `natural`.
        dataset: A folder written by `lgmt build`, or a Hub dataset id, to read instead of building.
        dataset_revision: Hub revision of `dataset`.
        **_ignored: Anything else. lm-eval calls a `custom_dataset` with the whole task metadata, which includes the
            model arguments (`pretrained`, `dtype`, ...), so unknown keys cannot be an error here.

    Returns:
        A `DatasetDict` with one split, `test`: one row per group, ordered round-robin over relations.

    Raises:
        ValueError: On an unknown suite or an invalid build parameter (raised by the loader), or if no group is left.
    """
    if suite not in MR_SETS:
        raise ValueError(f"suite={suite!r}: expected one of {', '.join(MR_SETS)}")
    rows = load_lgmt_rows(
        MR_SETS[suite],
        source=source,
        source_path=source_path,
        per_mr=int(per_mr),
        seed=int(seed),
        followups=int(followups),
        compose=int(compose),
        names=names,
        dataset=dataset,
        revision=dataset_revision,
    )
    return datasets.DatasetDict({"test": interleave_by_relation(rows)})


def interleave_by_relation(rows: datasets.Dataset) -> datasets.Dataset:
    """Reorder groups round-robin over relations, keeping each relation's own order.

    Args:
        rows: LGMT rows (with an `mr` column), typically sorted by relation.

    Returns:
        The same rows: the first group of every relation (in order of first appearance), then every second, ...
    """
    queues: dict[str, list[int]] = {}
    for index, mr in enumerate(rows["mr"]):
        queues.setdefault(first_relation(mr), []).append(index)
    longest = max((len(queue) for queue in queues.values()), default=0)
    order = [queue[k] for k in range(longest) for queue in queues.values() if k < len(queue)]
    return rows.select(order)


def dataset_params(dataset_kwargs: Mapping[str, Any], metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Merge the YAML's `dataset_kwargs` with the run's metadata: metadata wins for the keys of `DATASET_PARAMS`.

    Args:
        dataset_kwargs: The task's `dataset_kwargs` (must name the `suite`).
        metadata: The task's metadata: the YAML's, then `--metadata` / `TaskManager(metadata=...)`, then (from
            `simple_evaluate` and the CLI) the model arguments.

    Returns:
        The keyword arguments for `load_docs`.

    Raises:
        ValueError: If `dataset_kwargs` has no `suite`, or holds a key `load_docs` does not take.
    """
    if "suite" not in dataset_kwargs:
        raise ValueError(f"dataset_kwargs must name the relation set, e.g. suite: mr_e; got {dict(dataset_kwargs)}")
    unknown = sorted(set(dataset_kwargs) - {"suite", *DATASET_PARAMS})
    if unknown:
        raise ValueError(f"dataset_kwargs: unknown key(s) {unknown}; valid: suite, {', '.join(DATASET_PARAMS)}")
    known = {*DATASET_PARAMS, *TASK_PARAMS, "suite"}
    for key in metadata:
        close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.8)
        if key not in known and close:
            log.warning("metadata key %r is not an LGMT parameter (did you mean %r?); it is ignored", key, close[0])
    return {**dataset_kwargs, **{key: metadata[key] for key in DATASET_PARAMS if key in metadata}}


def member_prompts(doc: Mapping[str, Any]) -> list[str]:
    """Render the user prompt of every member of a group: the source first, then each follow-up in order.

    Args:
        doc: One LGMT row.

    Returns:
        The user prompts (the paper's user template), at least two.
    """
    extra = doc.get("extra_followups") or []
    return [
        render_user_prompt(list(doc["premises"]), doc["conclusion"]),
        render_user_prompt(list(doc["followup_premises"]), doc["followup_conclusion"]),
        *(render_user_prompt(list(e["premises"]), e["conclusion"]) for e in extra),
    ]


def check_prompting(prompting: str, output_type: str) -> str:
    """Validate a prompting strategy for an output type.

    Args:
        prompting: One of `PROMPTINGS`; for log-likelihood, one of `LOGLIK_PROMPTINGS`.
        output_type: `generate_until` or `loglikelihood`.

    Returns:
        `prompting`, unchanged.

    Raises:
        ValueError: Listing the valid values, if `prompting` is not one of them.
    """
    valid = LOGLIK_PROMPTINGS if output_type == "loglikelihood" else PROMPTINGS
    if prompting not in valid:
        why = " (a scored label continuation cannot follow a request for reasoning)" if prompting in PROMPTINGS else ""
        raise ValueError(f"prompting={prompting!r} for {output_type}: expected one of {', '.join(valid)}{why}")
    return prompting


# ---------------------------------------------------------------------------------------------------------- task


class LgmtTask(ConfigurableTask):
    """A `ConfigurableTask` whose documents are metamorphic groups: one request per member (three for log-likelihood).

    Configured by the YAMLs in `task_configs/lgmt/` (`class: !function ...LgmtTask`); see the module docstring for
    the prompt layout, the parameters and the metrics.
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
            config: The task config from the YAML. Its `class` key (which lm-eval leaves in the config it passes to
                a `class:` task) is dropped: `TaskConfig` has no such field.

        Raises:
            ValueError: Without a config, on an output type other than `generate_until` / `loglikelihood`, or on
                an invalid `prompting` for the output type.
        """
        if config is None:
            raise ValueError("LgmtTask needs a config (it is built from the YAMLs in task_configs/lgmt/)")
        config = {key: value for key, value in config.items() if key != "class"}
        output_type = config.get("output_type")
        if output_type not in OUTPUT_TYPES:
            raise ValueError(f"LgmtTask: output_type={output_type!r}; expected one of {', '.join(OUTPUT_TYPES)}")
        metadata = dict(config.get("metadata") or {})
        prompting = check_prompting(str(metadata.get("prompting", DEFAULT_PROMPTING[output_type])), output_type)
        config["metadata"] = {**metadata, "prompting": prompting}  # the results file shows the effective value
        # Set before super().__init__, which renders a first document to check the config.
        self.prompting = prompting
        self.system_prompt = system_prompt(prompting)
        self.answer_cue = ANSWER_CUE if output_type == "loglikelihood" else ""
        super().__init__(data_dir=data_dir, cache_dir=cache_dir, download_mode=download_mode, config=config)

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        """Load the groups with `custom_dataset` (default `load_docs`), `--metadata` overriding `dataset_kwargs`.

        Unlike lm-eval's default `custom_dataset(**metadata, **dataset_kwargs)`, a key in both is an override, not
        a `TypeError`, and model arguments in the metadata are not taken for dataset parameters.

        Args:
            dataset_kwargs: The YAML's `dataset_kwargs` (with the `suite`).
            **kwargs: Unused (lm-eval's signature).
        """
        params = dataset_params(dataset_kwargs or {}, self.config.metadata or {})
        self.config.dataset_kwargs = params
        loader: Callable[..., datasets.DatasetDict] = self.config.custom_dataset or load_docs
        self.dataset = loader(**params)

    def member_context(
        self, user_prompt: str, *, system_instruction: str | None = None, chat_template: Any = None
    ) -> str:
        """Build the full context of one member: system prompt, user prompt and (log-likelihood) the answer cue.

        Args:
            user_prompt: The member's user prompt.
            system_instruction: lm-eval's `--system_instruction`, put before the paper's system prompt.
            chat_template: lm-eval's renderer of a message list (`lm.apply_chat_template`), or None for plain text.

        Returns:
            The context string sent to the model.
        """
        system = "\n\n".join(part for part in (system_instruction, self.system_prompt) if part)
        if chat_template is None:
            return f"{system}\n\n{user_prompt}\n{self.answer_cue}"
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user_prompt}]
        if self.answer_cue:
            messages.append({"role": "assistant", "content": self.answer_cue})
            return str(chat_template(messages, add_generation_prompt=False))
        return str(chat_template(messages, add_generation_prompt=True))

    def doc_to_text(self, doc: Mapping[str, Any], doc_to_text: Any = None) -> str:
        """Return the plain-text context of the source member (what lm-eval shows and checks for a document).

        Args:
            doc: One LGMT row.
            doc_to_text: Ignored: the prompt is the paper's, built by this class.

        Returns:
            The source member's context without chat template.
        """
        return self.member_context(member_prompts(doc)[0])

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
        """Build one context per group member (lm-eval passes the list on to `construct_requests`).

        Args:
            doc: One LGMT row.
            num_fewshot: Must be 0: the few-shot demonstrations of LGMT are part of the system prompt
                (`prompting: few_shot`), not documents of the test split.
            system_instruction: lm-eval's `--system_instruction`.
            apply_chat_template: Whether lm-eval's `--apply_chat_template` is on.
            fewshot_as_multiturn: Unused (no few-shot documents).
            chat_template: The model's chat template renderer (when `apply_chat_template`).
            gen_prefix: Must be empty: the answer cue of log-likelihood tasks is fixed (`ANSWER_CUE`).

        Returns:
            The contexts, source first.

        Raises:
            ValueError: If `num_fewshot` or `gen_prefix` is set.
        """
        if num_fewshot:
            raise ValueError(
                f"{self.config.task}: num_fewshot={num_fewshot} is not supported; LGMT's demonstrations are in the "
                'system prompt: use --metadata \'{"prompting": "few_shot"}\' (or few_shot_cot)'
            )
        if gen_prefix:
            raise ValueError(f"{self.config.task}: gen_prefix is not supported (got {gen_prefix!r})")
        template = chat_template if apply_chat_template else None
        return [
            self.member_context(prompt, system_instruction=system_instruction, chat_template=template)
            for prompt in member_prompts(doc)
        ]

    def construct_requests(self, doc: Mapping[str, Any], ctx: Any, **kwargs: Any) -> list[Instance]:
        """Make the requests of one group: per member, one generation, or one log-likelihood per label.

        Request `idx` orders the results lm-eval hands to `process_results`: member `m` has `idx = m` (generation)
        or `idx = m * len(LABELS) + j` for label `LABELS[j]` (log-likelihood).

        Args:
            doc: One LGMT row.
            ctx: The member contexts from `fewshot_context`.
            **kwargs: lm-eval's request metadata (`metadata=(task, doc_id, repeats)`); `apply_chat_template` and
                `chat_template` are consumed by `fewshot_context` already and dropped here.

        Returns:
            The requests of the group.

        Raises:
            TypeError: If `ctx` is not the list of member contexts.
        """
        return group_requests(self, doc, ctx, LABELS, "member", **kwargs)


# --------------------------------------------------------------------------------------------- results, metrics


def _check_count(doc: Mapping[str, Any], results: Sequence[Any], per_member: int) -> int:
    members = 2 + len(doc.get("extra_followups") or [])
    if len(results) != members * per_member:
        raise ValueError(
            f"group {doc.get('id')!r}: {len(results)} results for {members} members ({per_member} per member)"
        )
    return members


def _per_metric(doc: Mapping[str, Any], answers: Sequence[str | None]) -> dict[str, dict[str, int]]:
    outcome = group_outcome(doc["label"], answers[0], answers[1:])
    return dict.fromkeys(RATE_NAMES, outcome)


def process_generation_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, int]]:
    """Score one group from its completions: parse each member's label, then `group_outcome`.

    Args:
        doc: One LGMT row.
        results: The completions, one per member, source first.

    Returns:
        For every metric of `RATE_NAMES`, the group's outcome dict (the aggregations read the keys they need).

    Raises:
        ValueError: If the number of completions is not the number of members.
    """
    _check_count(doc, results, 1)
    return _per_metric(doc, [parse_label(text).label for text in results])


def argmax_label(logliks: Sequence[float]) -> str:
    """Return the label with the highest log-likelihood (the first of `LABELS` on a tie).

    Args:
        logliks: One log-likelihood per label, in `LABELS` order.

    Returns:
        The chosen label.
    """
    best = max(range(len(LABELS)), key=lambda j: logliks[j])
    return LABELS[best]


def process_loglik_results(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> dict[str, dict[str, int]]:
    """Score one group from label log-likelihoods: argmax per member, then `group_outcome`.

    Args:
        doc: One LGMT row.
        results: `(loglikelihood, is_greedy)` per request, member-major in `LABELS` order.

    Returns:
        For every metric of `RATE_NAMES`, the group's outcome dict.

    Raises:
        ValueError: If the number of results is not three per member.
    """
    members = _check_count(doc, results, len(LABELS))
    width = len(LABELS)
    answers: list[str | None] = [
        argmax_label([loglik for loglik, _ in results[m * width : (m + 1) * width]]) for m in range(members)
    ]
    return _per_metric(doc, answers)


def mvr_aggregation(items: Sequence[Outcome]) -> float:
    """Metamorphic violation rate: Σ violation / Σ parsed (see `pairwise.mvr`)."""
    return mvr(items).value


def acc_static_aggregation(items: Sequence[Outcome]) -> float:
    """Static accuracy: Σ source_correct / Σ parsed (see `pairwise.acc_static`)."""
    return acc_static(items).value


def acc_cons_aggregation(items: Sequence[Outcome]) -> float:
    """Consistent accuracy: Σ consistent_correct / Σ parsed (see `pairwise.acc_cons`)."""
    return acc_cons(items).value


def hdr_aggregation(items: Sequence[Outcome]) -> float:
    """Hidden defect rate: Σ hidden_defect / Σ parsed (see `pairwise.hdr`)."""
    return hdr(items).value


def fur_aggregation(items: Sequence[Outcome]) -> float:
    """False unreported rate: Σ false_unreported / Σ parsed (see `pairwise.fur`)."""
    return fur(items).value


def unparsed_rate_aggregation(items: Sequence[Outcome]) -> float:
    """Share of groups with an unparsed answer: Σ (1 − parsed) / groups (see `pairwise.unparsed_rate`)."""
    return unparsed_rate_of(items).value
