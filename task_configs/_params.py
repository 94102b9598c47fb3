r"""How a run's lm-eval metadata becomes the keyword arguments of a suite's loader.

Parameters. `dataset_params` is the one place where a task's YAML (`dataset_kwargs`, `metadata`) and the run's
`--metadata` become the keyword arguments of the suite's loader: `--metadata` wins, a key the suite does not take is
reported in a logged warning naming the task, the key and the valid keys (and a "did you mean" when it looks like a
typo), and renamed keys are still read, with a `DeprecationWarning`. Not reported: lm-eval's own keys (`version`,
`config_source`, ...) and the model arguments, which lm-eval merges into every task's metadata. Because of that
merge, a loader argument that is also a model argument is read under another name: the build seed is `dataset_seed`
(`seed` is the sampling seed of vLLM and the API models), as the dataset's revision is `dataset_revision`.

The keys and their lm-eval defaults come from the suite's parameter schema (`lgmt_tasks.builders.schema`):
`Parameters.of(schema)` and `load_documents` read it, so no suite restates its parameter list here.
"""

from __future__ import annotations

import difflib
import inspect
import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, get_type_hints

from lm_eval.api.model import LM

from lgmt_tasks.builders.schema import LM_EVAL_NAMES, SuiteSchema
from lgmt_tasks.task_params import check_args

log = logging.getLogger(__name__)


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
        defaults: The dataset parameters' lm-eval defaults (the schema's), under every value the run does not give,
            so the loader and the results file (`dataset_kwargs`) see every value that was evaluated.
    """

    suite: str
    dataset: tuple[str, ...]
    task: tuple[str, ...] = ()
    fixed: tuple[str, ...] = ()
    renamed: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        schema: SuiteSchema,
        suite: str,
        task: tuple[str, ...] = (),
        fixed: tuple[str, ...] = (),
        renamed: Mapping[str, str] | None = None,
    ) -> Parameters:
        """A suite's lm-eval parameters: the task parameters of its schema, plus the task's own and fixed ones."""
        return cls(suite, schema.lm_eval_keys(), task, fixed, dict(renamed or {}), schema.lm_eval_defaults())

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


METADATA_NAMES: Mapping[str, str] = LM_EVAL_NAMES
"""Loader argument → its name in the run's metadata, for the loader arguments that are also lm-eval model arguments
(`dataset_seed`, `dataset_revision`; why: `lgmt_tasks.builders.schema.LM_EVAL_NAMES`)."""


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


def for_lm_eval_task(task: str) -> str:
    """Whom a build is for, as its notice names it (`lgmt_tasks.builders.load.building_for`): `lm-eval task <task>`.

    Empty without a task name (a direct call of a loader), so the notice names none.
    """
    return f"lm-eval task {task}" if task else ""


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
        The schema's lm-eval defaults, overridden by `dataset_kwargs` (with the `fixed` keys checked) and by the
        metadata's values of the `dataset` keys (under the loader's names).

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
    return {**params.defaults, **out}


def with_defaults(
    schema: SuiteSchema, params: Mapping[str, Any], loader: Callable[..., Any], where: str
) -> dict[str, Any]:
    """A loader's keyword arguments: `params` over the schema's lm-eval defaults, each checked and coerced.

    Values are checked against the loader's annotations as `-T` values are (`-T per_skill="5"` and
    `--metadata '{"per_skill": "5"}'` mean the same), so a bad value fails with one message naming it.
    """
    return check_args(where, get_type_hints(loader), {**schema.lm_eval_defaults(), **params})


def loader_arguments(
    schema: SuiteSchema, params: Parameters, metadata: Mapping[str, Any], loader: Callable[..., Any]
) -> dict[str, Any]:
    """The keyword arguments of a suite's loader for a plain lm-eval task (one whose YAML names `load_docs`).

    The run's values (`dataset_params`: the YAML's `metadata`, then `--metadata`) over the schema's lm-eval defaults.
    """
    return with_defaults(schema, dataset_params(params, {}, metadata), loader, f"{params.suite} lm-eval")
