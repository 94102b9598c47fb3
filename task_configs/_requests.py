r"""What our lm-eval tasks share: documents that hold several prompts, run-time parameters, and aggregations.

Why a task class of our own. lm-eval's `ConfigurableTask` makes one request per document (or, for
`multiple_choice`, one log-likelihood per choice after a single context) and hands `process_results` the results of
that one context. It has no task type for "a group of prompts asked separately and scored together". Our group
suites need exactly that, and need the group to be *one document*, so that `--limit N` keeps groups whole and the
group is scored as a unit (as one Inspect `Sample` is, DESIGN decision 1):

- LGMT and lexical (LLMorph): a metamorphic group, one prompt per *member* (the source, then each follow-up);
- DivLogicEval: an instance, one prompt per circular *rotation* of its options.

`MultiRequestTask` is that task type, written once: per document it builds one context per unit (`unit_prompts`,
laid out with or without the chat template), makes one `generate_until` request per context, or one `loglikelihood`
request per (context, continuation), and numbers them so that `process_results` receives them in order; `completions`
and `choices` split them back into one answer per unit. `LabelGroupTask` is its LGMT/lexical form (the paper's
prompts, True/False/Unknown answers). A suite's class only declares its parameters and, where needed, its prompts.

Parameters. `dataset_params` is the one place where a task's YAML (`dataset_kwargs`, `metadata`) and the run's
`--metadata` become the keyword arguments of the suite's loader: `--metadata` wins, a key the suite does not take is
reported in a logged warning naming the task, the key and the valid keys (and a "did you mean" when it looks like a
typo), and renamed keys are still read, with a `DeprecationWarning`. Not reported: lm-eval's own keys (`version`,
`config_source`, ...) and the model arguments, which lm-eval merges into every task's metadata. Because of that
merge, a loader argument that is also a model argument is read under another name: the build seed is `dataset_seed`
(`seed` is the sampling seed of vLLM and the API models), as the dataset's revision is `dataset_revision`.

Aggregations. `aggregation` turns a pure metric function of `lgmt_tasks.scorers` (per-document outcome dicts in, a
`Rate` or a number out) into the named function a YAML `metric_list` points at (DESIGN decision 6: lm-eval and
Inspect compute every number with the same code).
"""

from __future__ import annotations

import difflib
import inspect
import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, ClassVar, Protocol

import datasets
from lm_eval.api.instance import Instance
from lm_eval.api.model import LM
from lm_eval.api.task import ConfigurableTask

from lgmt_tasks.builders import order
from lgmt_tasks.scorers.pairwise import (
    RATE_NAMES,
    acc_cons,
    acc_cons_parsed,
    acc_static,
    acc_static_parsed,
    fur,
    hdr,
    mvr,
    unparsed_rate,
)
from lgmt_tasks.solvers.prompts import PROMPTINGS, render_user_prompt, system_prompt
from lgmt_tasks.vocabulary import TRUTH_LABELS

log = logging.getLogger(__name__)

OUTPUT_TYPES: tuple[str, ...] = ("generate_until", "loglikelihood")
"""The lm-eval output types of a `MultiRequestTask`: one generation per unit, or the log-likelihood of each answer."""


# ---------------------------------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Parameters:
    """The run-time parameters of one suite's lm-eval tasks (read by `dataset_params`).

    Attributes:
        suite: The suite's name in messages (`LGMT`, `DivLogicEval`, ...).
        dataset: Keyword arguments of the suite's loader that the YAML sets and `--metadata` may override.
        task: Other parameters the task reads from its metadata (`prompting`, `shots`, ...); not loader arguments.
        fixed: Loader arguments that say which task this is (LGMT's `relation_set`): required, taken from the YAML's
            `dataset_kwargs`; the run's metadata supplies one only when the YAML leaves it out (lm-eval hands the same
            `--metadata` to every task of a run, so it cannot choose, say, the relation set of one task).
        renamed: Deprecated key → its new name. The old key is still read, with a `DeprecationWarning` (and a logged
            warning: Python hides `DeprecationWarning`s outside `__main__`); giving both is an error.
    """

    suite: str
    dataset: tuple[str, ...]
    task: tuple[str, ...] = ()
    fixed: tuple[str, ...] = ()
    renamed: Mapping[str, str] = field(default_factory=dict)

    @property
    def loader_keys(self) -> tuple[str, ...]:
        """Every keyword argument `dataset_params` may return."""
        return (*self.fixed, *self.dataset)

    @property
    def known(self) -> tuple[str, ...]:
        """Every key of ours a metadata may hold (the new names; old names are accepted too).

        A loader argument that is also an lm-eval model argument goes by its `METADATA_NAMES` name (`dataset_seed`).
        """
        return (*(metadata_name(key) for key in (*self.fixed, *self.dataset)), *self.task)


METADATA_NAMES: Mapping[str, str] = {"seed": "dataset_seed"}
"""Loader argument → its name in the run's metadata, for the loader arguments that are also lm-eval model arguments.

lm-eval merges the model arguments into every task's metadata (`--model_args` and `--metadata` become one dict, the
latter winning), so a metadata `seed` may be the sampling seed of a vLLM, API (`local-completions`, ...), SGLang or
TensorRT-LLM model, which must not choose which rows are built. The build seed is therefore read from `dataset_seed`
in the metadata, never from `seed` (as the dataset's revision is `dataset_revision`, `revision` being a model
argument of `hf`). The YAML's `dataset_kwargs`, which lm-eval does not merge anything into, keep the loader's names.
"""


def metadata_name(key: str) -> str:
    """The metadata name of a loader argument (`METADATA_NAMES`, else the argument's own name)."""
    return METADATA_NAMES.get(key, key)


LM_EVAL_METADATA_KEYS: frozenset[str] = frozenset({"version", "config_source", "config", "_metadata"})
"""Keys lm-eval itself puts in a task's metadata."""

COMMON_MODEL_ARGUMENTS: frozenset[str] = frozenset(
    {"pretrained", "model", "revision", "dtype", "device", "batch_size", "max_batch_size", "max_length",
     "trust_remote_code", "tokenizer", "parallelize", "peft", "base_url", "tokenized_requests", "num_concurrent"}
)  # fmt: skip
"""Model arguments that are common in lm-eval runs (lm-eval merges `--model_args` into every task's metadata)."""


def model_argument_names() -> frozenset[str]:
    """Keyword arguments of the lm-eval model classes imported so far, and `COMMON_MODEL_ARGUMENTS`.

    lm-eval merges the model arguments into the metadata of every task, and builds (so imports) the model before it
    loads the tasks: the arguments of the model in use are among these names. They are not reported as unknown.
    """
    names: set[str] = set(COMMON_MODEL_ARGUMENTS)
    seen: set[type] = set()
    pending: list[type] = [LM]
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        pending += cls.__subclasses__()
        try:
            parameters = inspect.signature(cls).parameters.values()
        except (TypeError, ValueError):  # pragma: no cover - a C-implemented __init__
            continue
        names |= {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return frozenset(names)


def renamed_value(old: str, old_value: Any, new: str, new_value: Any, where: str) -> Any:
    """Read a parameter under its new name or, deprecated, its old one.

    Args:
        old: The deprecated name.
        old_value: Its value, or None if not given.
        new: The current name.
        new_value: Its value, or None if not given.
        where: Where the values come from, for the messages (e.g. `LGMT dataset_kwargs`).

    Returns:
        The value given (None if neither is).

    Raises:
        ValueError: If both names are given.
    """
    if old_value is None:
        return new_value
    if new_value is not None:
        raise ValueError(f"{where}: both {old!r} and {new!r} are given; {old!r} is the deprecated name of {new!r}")
    message = f"{where}: {old!r} is deprecated, use {new!r} (read as {new}={old_value!r})"
    warnings.warn(message, DeprecationWarning, stacklevel=2)
    log.warning(message)
    return old_value


def _rename(values: Mapping[str, Any], params: Parameters, where: str) -> dict[str, Any]:
    out = {key: value for key, value in values.items() if key not in params.renamed}
    for old, new in params.renamed.items():
        if old in values:
            out[new] = renamed_value(old, values[old], new, values.get(new), where)
    return out


def _suggestion(key: str, valid: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, sorted(valid), n=1, cutoff=0.8)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_metadata_keys(params: Parameters, metadata: Mapping[str, Any], task: str = "") -> list[str]:
    """Report (as logged warnings) the metadata keys that are no parameter of the suite, and return them.

    Why a warning and not an error: lm-eval hands the one `--metadata` of a run to every task of the run, so a run of
    two suites (`--tasks lgmt_mr_e,lgmt_logicasker --metadata '{"per_mr": 5, "per_skill": 2}'`) gives each task
    the other's keys. lm-eval's own keys and the model arguments (which lm-eval merges into every task's metadata)
    are not reported. A key that looks like a typo of a parameter gets a "did you mean" suggestion; `seed` points to
    `dataset_seed` (`METADATA_NAMES`).

    Args:
        params: The suite's parameters.
        metadata: The task's metadata (old names already renamed).
        task: The task's name, put in front of each message (omitted if empty).

    Returns:
        The reported keys, sorted.
    """
    valid = params.known
    foreign = LM_EVAL_METADATA_KEYS | model_argument_names()
    unknown = sorted(key for key in metadata if key not in valid and key not in params.renamed and key not in foreign)
    where = f"{task}: " if task else ""
    for key in unknown:
        log.warning(
            "%smetadata key %r is not a parameter of %s%s; it is ignored. %s parameters: %s",
            where,
            key,
            params.suite,
            _metadata_hint(key, valid),
            params.suite,
            ", ".join(valid),
        )
    return unknown


def _metadata_hint(key: str, valid: Sequence[str]) -> str:
    twin = METADATA_NAMES.get(key)
    if twin is not None and twin in valid:
        return (
            f" (the build's {key} is {twin!r}: lm-eval merges the model arguments into the metadata, where {key!r}"
            " may be the model's)"
        )
    return _suggestion(key, valid)


def task_of(metadata: Mapping[str, Any]) -> str:
    """The task a metadata belongs to, for messages: the stem of the YAML lm-eval records as `config_source`.

    A plain-YAML task's loader (`custom_dataset`) receives only the metadata, not the task's name; lm-eval puts the
    task's own YAML file there (named after the task in our configs). Empty when there is none (a direct call).
    """
    source = str(metadata.get("config_source") or "")
    return PurePath(source).stem if source.endswith((".yaml", ".yml")) else ""


def dataset_params(
    params: Parameters, dataset_kwargs: Mapping[str, Any], metadata: Mapping[str, Any], task: str = ""
) -> dict[str, Any]:
    """The keyword arguments of a suite's loader: the YAML's `dataset_kwargs`, overridden by the run's metadata.

    Args:
        params: The suite's parameters.
        dataset_kwargs: The task's `dataset_kwargs` (from its YAML; empty for suites whose YAML sets `metadata` only).
        metadata: The task's metadata: the YAML's, then `--metadata` / `TaskManager(metadata=...)`, then (from
            `simple_evaluate` and the CLI) the model arguments. A loader argument in `METADATA_NAMES` is read under
            its metadata name (`dataset_seed`, not `seed`).
        task: The task's name for the messages (default: `task_of(metadata)`).

    Returns:
        `dataset_kwargs` with the `fixed` keys checked and the metadata's values of the `dataset` keys (under the
        loader's names).

    Raises:
        ValueError: If `dataset_kwargs` holds a key the loader does not take, if a `fixed` key is given nowhere, or
            if a key is given under its old and its new name.
    """
    yaml_values = _rename(dataset_kwargs, params, f"{params.suite} dataset_kwargs")
    run_values = _rename(metadata, params, f"{params.suite} metadata")
    valid = params.loader_keys
    unknown = sorted(set(yaml_values) - set(valid))
    if unknown:
        hints = "; ".join(f"{key!r}{_suggestion(key, valid)}" for key in unknown)
        raise ValueError(f"{params.suite} dataset_kwargs: unknown key(s) {hints}; valid: {', '.join(valid)}")
    check_metadata_keys(params, run_values, task or task_of(metadata))
    run_values = {key: run_values[metadata_name(key)] for key in params.loader_keys if metadata_name(key) in run_values}
    out = dict(yaml_values)
    for key in params.fixed:
        if key not in yaml_values and key in run_values:
            out[key] = run_values[key]
        elif key not in yaml_values:
            raise ValueError(
                f"{params.suite}: no {key!r}; the task's dataset_kwargs (or the metadata) must give it; got "
                f"dataset_kwargs {dict(dataset_kwargs)}"
            )
        elif key in run_values and run_values[key] != yaml_values[key]:
            log.warning(
                "%s: metadata %s=%r is ignored: the task fixes %s=%r (choose the task instead)",
                params.suite,
                key,
                run_values[key],
                key,
                yaml_values[key],
            )
    out.update({key: run_values[key] for key in params.dataset if key in run_values})
    return out


# -------------------------------------------------------------------------------------------------- aggregations


Items = Sequence[Mapping[str, Any]]
"""What lm-eval hands an aggregation: the per-document values of one metric (our outcome dicts)."""

Aggregation = Callable[[Items], float]


class HasValue(Protocol):
    """A metric result with a `value` (`lgmt_tasks.scorers.pairwise.Rate`)."""

    @property
    def value(self) -> float: ...  # noqa: D102


def aggregation(
    name: str, compute: Callable[[Items], float | HasValue], doc: str, *, where: Mapping[str, Any] | None = None
) -> Aggregation:
    """Make the lm-eval aggregation `<name>_aggregation` of a pure metric function.

    Args:
        name: The aggregation's name without the `_aggregation` suffix (usually the metric's name).
        compute: The metric over per-document outcomes: a number, or a `Rate` (its `value` is reported).
        doc: The function's docstring (what the number is).
        where: If given, only the outcomes whose keys have these values are aggregated (e.g. one question type).

    Returns:
        The aggregation, named `<name>_aggregation`.
    """

    def aggregate(items: Items) -> float:
        if where is not None:
            items = [item for item in items if all(item.get(key) == value for key, value in where.items())]
        value = compute(items)
        return float(value) if isinstance(value, int | float) else float(value.value)

    aggregate.__name__ = aggregate.__qualname__ = f"{name}_aggregation"
    aggregate.__doc__ = doc
    return aggregate


# ------------------------------------------------------------------------------------------------ regroup results


def argmax(values: Sequence[float]) -> int:
    """The position of the largest value (the first one on a tie)."""
    return max(range(len(values)), key=lambda j: values[j])


def _split(doc: Mapping[str, Any], results: Sequence[Any], units: int, width: int, unit: str) -> list[Sequence[Any]]:
    if len(results) != units * width:
        raise ValueError(f"document {doc.get('id')!r}: {len(results)} results for {units} {unit}s ({width} per {unit})")
    return [results[u * width : (u + 1) * width] for u in range(units)]


def completions(doc: Mapping[str, Any], results: Sequence[str], units: int, unit: str) -> list[str]:
    """The completions of a generation task's document, one per unit in unit order.

    Args:
        doc: The document (its `id` is named in the error).
        results: What lm-eval hands `process_results` (ordered by request `idx`, see `MultiRequestTask`).
        units: How many units (members, rotations) the document has.
        unit: What one unit is, for the error.

    Raises:
        ValueError: If there is not one completion per unit.
    """
    return [str(chunk[0]) for chunk in _split(doc, results, units, 1, unit)]


def choices(
    doc: Mapping[str, Any], results: Sequence[tuple[float, bool]], units: int, width: int, unit: str
) -> list[int]:
    """The answer of each unit of a log-likelihood task's document: the position of its likeliest continuation.

    Args:
        doc: The document (its `id` is named in the error).
        results: `(loglikelihood, is_greedy)` per request, ordered by request `idx` (unit-major).
        units: How many units the document has.
        width: How many continuations each unit's context was scored with.
        unit: What one unit is, for the error.

    Returns:
        Per unit, the index of the continuation with the highest log-likelihood (ties: the first one).

    Raises:
        ValueError: If there are not `width` results per unit.
    """
    return [argmax([loglik for loglik, _ in chunk]) for chunk in _split(doc, results, units, width, unit)]


# ------------------------------------------------------------------------------------------------------ the task


class MultiRequestTask(ConfigurableTask):
    r"""A `ConfigurableTask` whose document holds several prompts (units), asked separately and scored together.

    Requests: unit `i` (in `unit_prompts` order) gets one `generate_until` request with `idx = i`, or one
    `loglikelihood` request per continuation `CONTINUATIONS[j]` with `idx = i * len(CONTINUATIONS) + j`. lm-eval sorts
    a document's results by `idx` before `process_results`, where `completions` / `choices` undo this numbering.

    Context of a unit (`unit_context`): the system text is `--system_instruction` followed by the task's
    `system_prompt` (a blank line between them; either may be empty). Plain text: `<system>\n\n<prompt>\n<cue>`
    (without the first part if there is no system text). With `--apply_chat_template`: a system message (if there is
    system text) and a user message, rendered with the generation prompt; when there is an `answer_cue`
    (log-likelihood, or a generation prefill) the assistant turn is opened with it and continued instead.

    Few-shot: `--num_fewshot N` (N > 0) is refused with an error (`set_config`): the documents are groups, not
    examples, and each suite has its own demonstrations (`FEWSHOT_HINT`).

    A subclass sets `PARAMS`, `UNIT`, `CONTINUATIONS` and `FEWSHOT_HINT`, implements `unit_prompts`, and may read its
    own parameters in `configure` and prepare more data in `after_download`. Its YAML gives `class: !function ...`,
    `custom_dataset: !function ...load_docs` (called with `dataset_params`), `output_type` and `process_results`.
    """

    PARAMS: ClassVar[Parameters]
    """The suite's parameters (`dataset_params`)."""

    UNIT: ClassVar[str]
    """What one prompt of a document is (`member`, `rotation`), for messages."""

    CONTINUATIONS: ClassVar[tuple[str, ...]]
    """The continuations scored after each context of a log-likelihood task (the possible answers)."""

    FEWSHOT_HINT: ClassVar[str]
    """What to use instead of `--num_fewshot` (the tasks' demonstrations are part of their prompts)."""

    system_prompt: str = ""
    """Put after `--system_instruction` in every context."""

    answer_cue: str = ""
    """What every context ends with: the start of the answer. Log-likelihood: the text the continuations follow.
    Generation: empty, or the prefill (`prefill=true` of `LabelGroupTask`), which `process_results` puts back in front
    of each completion, so that the parser reads the whole answer."""

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
            ValueError: Without a config, on an output type other than `OUTPUT_TYPES`, or on an invalid parameter
                (from `configure`).
        """
        name = type(self).__name__
        if config is None:
            raise ValueError(f"{name} needs a config (it is built from its YAML in task_configs/)")
        config = {key: value for key, value in config.items() if key != "class"}
        output_type = config.get("output_type")
        if output_type not in OUTPUT_TYPES:
            raise ValueError(f"{name}: output_type={output_type!r}; expected one of {', '.join(OUTPUT_TYPES)}")
        metadata = dict(config.get("metadata") or {})
        # Before super().__init__, which loads the documents and renders a first one to check the config. The
        # effective values go back into the metadata, so the results file shows what was evaluated.
        config["metadata"] = {**metadata, **self.configure(str(output_type), metadata)}
        super().__init__(data_dir=data_dir, cache_dir=cache_dir, download_mode=download_mode, config=config)

    def configure(self, output_type: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """Read the task's own parameters (`PARAMS.task`) from the metadata; called before the documents load.

        Args:
            output_type: `generate_until` or `loglikelihood`.
            metadata: The task's metadata (YAML, then the run's).

        Returns:
            The effective values, written back into the metadata.
        """
        return {}

    def download(self, dataset_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        """Load the documents with the YAML's `custom_dataset`, called with `dataset_params`.

        Unlike lm-eval's default `custom_dataset(**metadata, **dataset_kwargs)`, a key in both is an override, not
        a `TypeError`, and model arguments in the metadata are not taken for dataset parameters. The effective
        parameters are written back to `dataset_kwargs`, so the results file shows them.

        Args:
            dataset_kwargs: The YAML's `dataset_kwargs`.
            **kwargs: Unused (lm-eval's signature).

        Raises:
            ValueError: If the YAML names no `custom_dataset`, or on invalid parameters (`dataset_params`).
        """
        params = dataset_params(self.PARAMS, dataset_kwargs or {}, self.config.metadata or {}, str(self.config.task))
        self.config.dataset_kwargs = params
        loader: Callable[..., datasets.DatasetDict] | None = self.config.custom_dataset
        if not callable(loader):
            raise ValueError(f"{self.config.task}: the YAML must name its loader (custom_dataset: !function ...)")
        self.dataset = loader(**params)
        self.after_download(params)

    def set_config(self, key: str, value: Any, update: bool = False) -> None:
        """Set a config value as lm-eval does, but refuse a number of few-shot examples other than 0.

        Why here: lm-eval applies `--num_fewshot N` (and `simple_evaluate(num_fewshot=N)`) with
        `set_config("num_fewshot", N)` right after loading the tasks, unless the YAML sets `num_fewshot: 0`, in which
        case it ignores the flag with an info message only. Our YAMLs therefore leave `num_fewshot` out and this
        refuses it, before any request is built, with what to use instead (`FEWSHOT_HINT`). Without the flag lm-eval
        sets 0, which passes.

        Raises:
            ValueError: On `num_fewshot` other than 0 (or None).
        """
        if key == "num_fewshot" and value:
            raise ValueError(
                f"{self.config.task}: num_fewshot={value} (--num_fewshot) is not supported: the task's documents are "
                f"not few-shot examples; {self.FEWSHOT_HINT}"
            )
        super().set_config(key, value, update)

    def process_results(self, doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, Any]:
        """Score one document with the YAML's `process_results`, each completion preceded by the prefill (if any).

        Args:
            doc: One document.
            results: Per request, in `idx` order: the completion, or `(loglikelihood, is_greedy)`.
        """
        if self.OUTPUT_TYPE == "generate_until" and self.answer_cue:
            results = [self.answer_cue + str(result) for result in results]
        return dict(super().process_results(doc, results))

    def after_download(self, params: Mapping[str, Any]) -> None:
        """Prepare anything else the prompts need once the documents are loaded (nothing by default).

        Args:
            params: The loader's keyword arguments.
        """

    def unit_prompts(self, doc: Mapping[str, Any]) -> list[str]:
        """The prompt of every unit of a document, in request order.

        Args:
            doc: One document.

        Returns:
            The prompts (user messages), at least one.
        """
        raise NotImplementedError

    def unit_context(self, prompt: str, *, system_instruction: str | None = None, chat_template: Any = None) -> str:
        """The full context of one unit (see the class docstring for the layout).

        Args:
            prompt: The unit's prompt.
            system_instruction: lm-eval's `--system_instruction`.
            chat_template: lm-eval's renderer of a message list (`lm.apply_chat_template`), or None for plain text.

        Returns:
            The context string sent to the model.
        """
        system = "\n\n".join(part for part in (system_instruction, self.system_prompt) if part)
        if chat_template is None:
            lead = f"{system}\n\n" if system else ""
            return f"{lead}{prompt}\n{self.answer_cue}"
        messages = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt})
        if self.answer_cue:
            messages.append({"role": "assistant", "content": self.answer_cue})
            return str(chat_template(messages, add_generation_prompt=False))
        return str(chat_template(messages, add_generation_prompt=True))

    def doc_to_text(self, doc: Mapping[str, Any], doc_to_text: Any = None) -> str:
        """The plain-text context of the first unit (what lm-eval shows and checks for a document).

        Args:
            doc: One document.
            doc_to_text: Ignored: the prompts are built by the class.
        """
        return self.unit_context(self.unit_prompts(doc)[0])

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
        """Build one context per unit (lm-eval passes the list on to `construct_requests`).

        Args:
            doc: One document.
            num_fewshot: Must be 0 (`FEWSHOT_HINT` says what to use instead).
            system_instruction: lm-eval's `--system_instruction`.
            apply_chat_template: Whether lm-eval's `--apply_chat_template` is on.
            fewshot_as_multiturn: Unused (no few-shot documents).
            chat_template: The model's chat template renderer (when `apply_chat_template`).
            gen_prefix: Must be empty: the answer cue of log-likelihood tasks is fixed (`answer_cue`).

        Returns:
            The contexts, in unit order.

        Raises:
            ValueError: If `num_fewshot` or `gen_prefix` is set.
        """
        if num_fewshot:
            raise ValueError(f"{self.config.task}: num_fewshot={num_fewshot} is not supported; {self.FEWSHOT_HINT}")
        if gen_prefix:
            raise ValueError(f"{self.config.task}: gen_prefix is not supported (got {gen_prefix!r})")
        template = chat_template if apply_chat_template else None
        return [
            self.unit_context(prompt, system_instruction=system_instruction, chat_template=template)
            for prompt in self.unit_prompts(doc)
        ]

    def construct_requests(self, doc: Mapping[str, Any], ctx: Any, **kwargs: Any) -> list[Instance]:
        """Make the requests of one document: per unit one generation, or one log-likelihood per continuation.

        Args:
            doc: One document.
            ctx: The unit contexts from `fewshot_context`.
            **kwargs: lm-eval's request metadata (`metadata=(task, doc_id, repeats)`); `apply_chat_template` and
                `chat_template` were consumed by `fewshot_context` already and are dropped here.

        Returns:
            The requests, numbered as the class docstring says.

        Raises:
            TypeError: If `ctx` is not the list of unit contexts.
        """
        kwargs.pop("apply_chat_template", None)
        kwargs.pop("chat_template", None)
        if not isinstance(ctx, list):
            raise TypeError(f"{self.config.task}: expected one context per {self.UNIT}, got {type(ctx).__name__}")
        if self.OUTPUT_TYPE == "generate_until":
            return [
                Instance(
                    request_type="generate_until",
                    doc=doc,
                    arguments=(context, deepcopy(self.config.generation_kwargs)),
                    idx=i,
                    **kwargs,
                )
                for i, context in enumerate(ctx)
            ]
        width = len(self.CONTINUATIONS)
        return [
            Instance(
                request_type="loglikelihood",
                doc=doc,
                arguments=(context, continuation),
                idx=i * width + j,
                **kwargs,
            )
            for i, context in enumerate(ctx)
            for j, continuation in enumerate(self.CONTINUATIONS)
        ]


# ----------------------------------------------------------------------- groups of entailment problems (LGMT, lexical)


LABELS: tuple[str, ...] = TRUTH_LABELS
"""The labels, in the order of a member's log-likelihood requests (and of the argmax tie-break)."""

ANSWER_CUE = '{"label": "'
"""Start of the answer a log-likelihood context ends with; the continuations are the bare labels."""

DEFAULT_PROMPTING: Mapping[str, str] = {"generate_until": "zero_shot_cot", "loglikelihood": "zero_shot"}
"""The prompting strategy per output type when the config names none."""

PREFILLS: Mapping[str, str] = {
    "zero_shot": ANSWER_CUE,
    "few_shot": ANSWER_CUE,
    "zero_shot_cot": '{"reasoning": "',
    "few_shot_cot": '{"reasoning": "',
}
"""The generation prefill per prompting (`prefill=true`): the opening of the JSON answer the prompt asks for, as the
Inspect tasks' `-T prefill=true` (`lgmt_tasks.solvers.group.PREFILLS`; a test keeps the two equal, and this module
does not import the Inspect solvers)."""

LOGLIK_PROMPTINGS: tuple[str, ...] = ("zero_shot", "few_shot")
"""Prompting strategies that ask for the label directly: the only ones a scored label continuation fits."""


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


TRUE_WORDS: frozenset[str] = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS: frozenset[str] = frozenset({"false", "no", "off", "0"})
"""What a boolean parameter accepts besides a bool (any case), as the Inspect tasks' `-T` (`lgmt_tasks.task_params`,
which this module does not import: it imports Inspect; a test keeps the two equal)."""


def check_prefill(value: Any) -> bool:
    """Read the `prefill` parameter: a bool, 0 / 1, or a word of `TRUE_WORDS` / `FALSE_WORDS` (`prefill=true`).

    Raises:
        ValueError: Naming the value, on anything else (`maybe` is not silently true).
    """
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower() if isinstance(value, str | int) else None
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(f"prefill={value!r}: expected true or false (or yes / no / on / off / 1 / 0)")


def member_prompts(doc: Mapping[str, Any]) -> list[str]:
    """Render the user prompt of every member of a group: the source first, then each follow-up in order.

    Args:
        doc: One group (LGMT or lexical row).

    Returns:
        The user prompts (the paper's user template), at least two.
    """
    extra = doc.get("extra_followups") or []
    return [
        render_user_prompt(list(doc["premises"]), doc["conclusion"]),
        render_user_prompt(list(doc["followup_premises"]), doc["followup_conclusion"]),
        *(render_user_prompt(list(e["premises"]), e["conclusion"]) for e in extra),
    ]


def member_count(doc: Mapping[str, Any]) -> int:
    """How many members a group has (the source, the follow-up and any extra follow-ups)."""
    return 2 + len(doc.get("extra_followups") or [])


def member_labels(doc: Mapping[str, Any], results: Sequence[tuple[float, bool]]) -> list[str]:
    """Each member's answer in a log-likelihood task: the label with the highest log-likelihood (ties: `LABELS` order).

    Raises:
        ValueError: If there are not `len(LABELS)` results per member.
    """
    return [LABELS[j] for j in choices(doc, results, member_count(doc), len(LABELS), "member")]


def interleave_by(rows: datasets.Dataset, column: str, group_of: Callable[[str], str] = str) -> datasets.Dataset:
    """Reorder rows round-robin over the groups of a column, keeping each group's own order.

    The suites' loaders already return their rows in this order (`lgmt_tasks.builders.order`, the one implementation,
    shared with the Inspect tasks so that `--limit N` takes the same rows in both frameworks); reordering again
    changes nothing.

    Args:
        rows: The rows.
        column: The column (e.g. `mr`).
        group_of: Maps a value to its group (default: the value itself).

    Returns:
        The same rows: the first row of every group (in order of first appearance), then every second, ... so that
        `--limit N` covers many groups.
    """
    return order.interleave_by(rows, column, group_of)


_RATES: dict[str, tuple[Callable[[Items], HasValue], str]] = {
    "mvr": (mvr, "Metamorphic violation rate: Σ violation / Σ parsed (see `pairwise.mvr`)."),
    "acc_static": (acc_static, "Static accuracy: Σ source_answered_correctly / groups (see `pairwise.acc_static`)."),
    "acc_cons": (acc_cons, "Consistent accuracy: Σ consistent_correct / groups (see `pairwise.acc_cons`)."),
    "acc_static_parsed": (
        acc_static_parsed,
        "Static accuracy over parsed groups: Σ source_correct / Σ parsed (see `pairwise.acc_static_parsed`).",
    ),
    "acc_cons_parsed": (
        acc_cons_parsed,
        "Consistent accuracy over parsed groups: Σ consistent_correct / Σ parsed (`pairwise.acc_cons_parsed`).",
    ),
    "hdr": (hdr, "Hidden defect rate: Σ hidden_defect / Σ parsed (see `pairwise.hdr`)."),
    "fur": (fur, "False unreported rate: Σ false_unreported / Σ parsed (see `pairwise.fur`)."),
    "unparsed_rate": (
        unparsed_rate,
        "Share of groups with an unparsed answer: Σ (1 − parsed) / groups (see `pairwise.unparsed_rate`).",
    ),
}

RATE_AGGREGATIONS: Mapping[str, Aggregation] = {name: aggregation(name, *_RATES[name]) for name in RATE_NAMES}
"""LGMT's pairwise rates (`RATE_NAMES`, in that order) as aggregations; LGMT's and lexical's utils bind them to the
module names their YAMLs point at."""


class LabelGroupTask(MultiRequestTask):
    """A `MultiRequestTask` whose documents are groups of entailment problems answered True / False / Unknown.

    Units are the group's members (`member_prompts`: the source, then each follow-up), asked with the paper's
    system prompt (`prompting`, Appendix C.1) and user template. Generation: the completion is read by the one label
    parser. Log-likelihood: the context ends with `ANSWER_CUE`, `{"label": "`, and the bare labels are scored (no
    leading space: in JSON the label follows the opening quote directly; for BPE tokenizers such as SmolLM2's,
    ` "` is one token, so the boundary is a token boundary); only the direct prompts (`LOGLIK_PROMPTINGS`) fit.
    LGMT and lexical subclass it with their own parameters and loader.
    """

    UNIT = "member"
    CONTINUATIONS = LABELS
    FEWSHOT_HINT = (
        'the demonstrations are in the system prompt: use --metadata \'{"prompting": "few_shot"}\' (or few_shot_cot)'
    )

    prompting: str
    """The effective prompting strategy."""
    prefill: bool
    """Whether generation contexts end with the opening of the JSON answer (`PREFILLS`)."""

    def configure(self, output_type: str, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """Read `prompting` (default per output type, `DEFAULT_PROMPTING`) and `prefill` (default false).

        `prefill=true` makes a generation context end with the opening of the JSON answer the prompting asks for
        (`{"label": "`, or `{"reasoning": "` for the chain-of-thought prompts), as `-T prefill=true` does in the
        Inspect tasks (lm-eval's own `gen_prefix` is fixed in a YAML, not a run parameter, and its text never reaches
        `process_results`). A small local model (the embedded 135M one) otherwise seldom writes the JSON at all, so
        every answer is unparsed. The
        completion then holds only the continuation (`True"}`); `process_results` puts the opening back in front.
        Not in the paper. A log-likelihood context always ends with `ANSWER_CUE`, so `prefill` changes nothing there.

        Raises:
            ValueError: On an invalid `prompting` for the output type, or a `prefill` that is no boolean.
        """
        self.prompting = check_prompting(str(metadata.get("prompting", DEFAULT_PROMPTING[output_type])), output_type)
        self.system_prompt = system_prompt(self.prompting)
        self.prefill = check_prefill(metadata.get("prefill", False)) and output_type == "generate_until"
        if output_type == "loglikelihood":
            self.answer_cue = ANSWER_CUE
        else:
            self.answer_cue = PREFILLS[self.prompting] if self.prefill else ""
        return {"prompting": self.prompting, "prefill": self.prefill}

    def unit_prompts(self, doc: Mapping[str, Any]) -> list[str]:
        """The members' user prompts (`member_prompts`)."""
        return member_prompts(doc)
