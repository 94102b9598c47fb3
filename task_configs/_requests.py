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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from typing import Any, ClassVar

import datasets
from lm_eval.api.instance import Instance
from lm_eval.api.task import ConfigurableTask

from lgmt_tasks.builders.load import building_for
from lgmt_tasks.task_configs._params import Parameters, dataset_params, for_lm_eval_task

OUTPUT_TYPES: tuple[str, ...] = ("generate_until", "loglikelihood")
"""The lm-eval output types of a `MultiRequestTask`: one generation per unit, or the log-likelihood of each answer."""

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


class FewshotRefusingTask(ConfigurableTask):
    """A task built from its YAML (`class: !function ...`) that refuses `--num_fewshot N` (N > 0) before any request.

    lgmt's tasks carry their demonstrations in their prompts (or have none in their paper), so a few-shot count from
    lm-eval would either be ignored silently (a YAML `num_fewshot: 0`) or prepend documents that are not examples. A
    subclass sets `FEWSHOT_HINT` (what to use instead). The YAML's `class` key, which lm-eval leaves in the config it
    passes, is dropped (`TaskConfig` has no such field).
    """

    FEWSHOT_HINT: ClassVar[str]
    """What to use instead of `--num_fewshot`."""

    def __init__(
        self,
        data_dir: str | None = None,
        cache_dir: str | None = None,
        download_mode: datasets.DownloadMode | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> None:
        """Build the task as lm-eval does, from its YAML config without the `class` key, after `prepare`.

        Args:
            data_dir: Unused (lm-eval's signature).
            cache_dir: Unused (lm-eval's signature).
            download_mode: Unused (lm-eval's signature).
            config: The task config from the YAML. Its `class` key (which lm-eval leaves in the config it passes to
                a `class:` task) is dropped: `TaskConfig` has no such field.

        Raises:
            ValueError: Without a config, or whatever `prepare` raises.
        """
        if config is None:
            raise ValueError(f"{type(self).__name__} needs a config (it is built from its YAML in task_configs/)")
        prepared = self.prepare({key: value for key, value in config.items() if key != "class"})
        super().__init__(data_dir=data_dir, cache_dir=cache_dir, download_mode=download_mode, config=prepared)

    def prepare(self, config: dict[str, Any]) -> dict[str, Any]:
        """The config lm-eval builds the task from (a subclass reads its own parameters here); as given by default."""
        return config

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


class MultiRequestTask(FewshotRefusingTask):
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

    system_prompt: str = ""
    """Put after `--system_instruction` in every context."""

    answer_cue: str = ""
    """What every context ends with: the start of the answer. Log-likelihood: the text the continuations follow.
    Generation: empty, or the prefill (`prefill=true` of `LabelGroupTask`), which `process_results` puts back in front
    of each completion, so that the parser reads the whole answer."""

    def prepare(self, config: dict[str, Any]) -> dict[str, Any]:
        """Check the output type and read our parameters (`configure`) into the metadata, before lm-eval loads.

        lm-eval's constructor loads the documents and renders a first one to check the config, so the parameters are
        read first; the effective values go back into the metadata, so the results file shows what was evaluated.

        Raises:
            ValueError: On an output type other than `OUTPUT_TYPES`, or on an invalid parameter (from `configure`).
        """
        output_type = config.get("output_type")
        if output_type not in OUTPUT_TYPES:
            name = type(self).__name__
            raise ValueError(f"{name}: output_type={output_type!r}; expected one of {', '.join(OUTPUT_TYPES)}")
        metadata = dict(config.get("metadata") or {})
        return {**config, "metadata": {**metadata, **self.configure(str(output_type), metadata)}}

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
        with building_for(for_lm_eval_task(str(self.config.task))):  # a build on the fly names the task
            self.dataset = loader(**params)
        self.after_download(params)

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
            ctx: The unit contexts from `fewshot_context`; or one string, as lm-eval's generic task checks pass
                (`tests/test_tasks.py`: `ctx=task.doc_to_text(doc)`): the first unit's context, the others then
                built in the plain-text layout.
            **kwargs: lm-eval's request metadata (`metadata=(task, doc_id, repeats)`); `apply_chat_template` and
                `chat_template` were consumed by `fewshot_context` already and are dropped here.

        Returns:
            The requests, numbered as the class docstring says.

        Raises:
            TypeError: If `ctx` is neither the list of unit contexts nor a string.
        """
        kwargs.pop("apply_chat_template", None)
        kwargs.pop("chat_template", None)
        if isinstance(ctx, str):
            ctx = [ctx, *self.fewshot_context(doc, 0)[1:]]
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
