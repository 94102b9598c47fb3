"""One list of a suite's dataset parameters: its build config dataclass, each field carrying a `Param`.

A dataset parameter reaches users five ways: `lgmt build <suite> --flag`, the dataset card's reproduce command, the
Inspect task's `-T name=`, lm-eval's `--metadata '{"name": ...}'` and the suite README's parameter table. Written out
by hand in each place they drifted (three defaults of 200 and one of 20 for LGMT's `per_mr`, two flag names for one
idea). So each suite declares its parameters once, as the fields of its config dataclass (`field(metadata=...)`
through `param(...)`), plus the loader-only parameters that choose rows rather than build them (`Selection`), and
everything else is derived here:

- `build_options(Config)`: the click options of `lgmt build <suite>`, and `config_from_options` to read them back;
- `reproduce_command(suite, config, out)`: the command line a card prints (changed values only, unless `always`);
- `SuiteSchema.lm_eval_defaults()` / `SuiteSchema.lm_eval_keys()`: what lm-eval's `load_docs` reads, with any default
  that must differ from the Inspect task's stated once, with its reason;
- `SuiteSchema.markdown_table()`: the suite README's "Parameters" block (checked by a test);
- `SuiteSchema.task_defaults()`: what the `@task` signature must declare (checked by a test; the signatures stay
  explicit and typed because Inspect reads them for `-T` and `inspect list`).

Common parameters (`seed`, `timeout_ms`, the source and translation parameters) are declared once in this module as
`Param`s that the suites' fields reuse, so the same idea has one flag, one help text and one name everywhere.

This module imports no framework beyond click (the `lgmt` command's own dependency) and nothing of a suite.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import click

PARAM_KEY = "lgmt_param"
"""The key of a dataclass field's metadata that holds its `Param`."""

_F = TypeVar("_F", bound=Callable[..., Any])


class _Same:
    """The marker for "the config's own default" (a task or lm-eval default that does not differ)."""

    def __repr__(self) -> str:
        return "SAME"


SAME: Any = _Same()

Many = Literal["", "repeat", "spread", "comma"]
"""How a tuple-valued parameter is written on the command line: `repeat` (`--mr A --mr B`), `spread`
(`--depth 5 10`, QMFOL's multi-value options), `comma` (`--length 1,3` as one value); "" for a single value."""


@dataclass(frozen=True)
class Param:
    """How one dataset parameter reaches its users.

    Attributes:
        help: One line for `--help`, the README table and error messages.
        name: The user-facing name: `-T name=`, lm-eval's metadata key, the CLI flag's stem. Default: the field name.
        flags: The CLI flags, canonical first (later ones are accepted aliases). Default: `--name`.
        cli: Whether `lgmt build` has a generated option for it (False: the suite's command handles it, or it is set
            by the build itself).
        task: Whether it is a task / lm-eval parameter.
        choices: The accepted values, when a closed list.
        many: How a tuple value is written on the command line (`Many`).
        always: The reproduce command shows it even at its default.
        switch: For a bool: the CLI is one flag that sets the field to `not default` (`--unbalanced`).
        parse: The user's value (CLI text, `-T` value) → the field's value; None: as given.
        show: The field's value → its CLI text (one string per value for `many`); None: `str`.
        args: The whole config → the reproduce command's arguments for this field, overriding the generic rule (for
            a group of fields written together, such as LGMT's paired sources).
        metavar: The CLI metavar.
        cli_type: The click type of the option; None: from the field's default.
        task_default: The default of the task's on-the-fly build, when it is not the config's.
        lm_eval_default: The default of lm-eval's `load_docs`, when it is not the task's.
        why: Why `task_default` / `lm_eval_default` differ (printed in the README table).
        default_text: How the README table says the default, when its value says it badly (`function`: a named
            selection of relations, not their list).
    """

    help: str
    name: str = ""
    flags: tuple[str, ...] = ()
    cli: bool = True
    task: bool = True
    choices: tuple[str, ...] = ()
    many: Many = ""
    always: bool = False
    switch: bool = False
    parse: Callable[[Any], Any] | None = None
    show: Callable[[Any], str] | None = None
    args: Callable[[Any], list[str]] | None = None
    metavar: str | None = None
    cli_type: Any = None
    task_default: Any = SAME
    lm_eval_default: Any = SAME
    why: str = ""
    default_text: str = ""

    def but(self, **changes: Any) -> Param:
        """A copy with some attributes changed (a shared parameter with a suite's own help or default, say)."""
        return dataclasses.replace(self, **changes)


def param(default: Any, spec: Param | None = None, /, **attributes: Any) -> Any:
    """Declare a config dataclass field with its `Param`: `param(0, SEED)` or `param(200, help="...")`."""
    declared = spec.but(**attributes) if spec is not None else Param(**attributes)
    return field(default=default, metadata={PARAM_KEY: declared})


# ------------------------------------------------------------------------------------------- shared parameters

SEED = Param("Build seed: the same seed gives byte-identical data.", always=True)
TIMEOUT_MS = Param("Z3 limit per query, in milliseconds; an undecided item is dropped and counted.", task=False)
SOURCE = Param("Where source cases come from.")
SOURCE_PATH = Param("File or folder of the source records (required unless the source is generated).")
GENERATED_CASES = Param("Source cases to generate (source generated).", task=False)
TRANSLATOR = Param(
    "English of the transformed formulas: `template` (deterministic, read back exactly) or `model` (an LLM; each "
    "translation checked by a round trip proven by Z3).",
    choices=("template", "model"),
)
TRANSLATOR_MODEL = Param("The Inspect model of `--translator model` (e.g. openai/gpt-4o).", task=False)
TRANSLATION_ATTEMPTS = Param(
    "Round trips per translation before its item is rejected (--translator model).",
    task=False,
    cli_type=click.IntRange(min=1),
)
GENERATION_ATTEMPTS = Param("Generation attempts per item before its slot is given up.", name="attempts", task=False)

DATASET = Param(
    "A folder written by `lgmt build`, or a Hub dataset id, to evaluate instead of building (the build parameters "
    "are then ignored)."
)
REVISION = Param("Hub revision of `dataset`.")

LM_EVAL_NAMES: Mapping[str, str] = {"seed": "dataset_seed", "revision": "dataset_revision"}
"""A parameter's name in lm-eval's metadata where it cannot be its own: lm-eval merges the model arguments into every
task's metadata (`--model_args` and `--metadata` become one dict, the latter winning), so a metadata `seed` may be the
sampling seed of a vLLM, API, SGLang or TensorRT-LLM model and `revision` the model revision of `hf`; neither may
choose which rows are built. The YAMLs' `dataset_kwargs`, which lm-eval merges nothing into, keep the plain names."""


@dataclass(frozen=True)
class Declared:
    """One declared parameter: its name in the config (None for a loader-only parameter), default and `Param`."""

    field: str | None
    default: Any
    spec: Param

    @property
    def name(self) -> str:
        """The user-facing name."""
        return self.spec.name or str(self.field)

    @property
    def flags(self) -> tuple[str, ...]:
        """The CLI flags, canonical first."""
        return self.spec.flags or ("--" + self.name.replace("_", "-"),)

    @property
    def task_default(self) -> Any:
        """The task's default."""
        return self.default if self.spec.task_default is SAME else self.spec.task_default

    @property
    def lm_eval_default(self) -> Any:
        """lm-eval's default."""
        return self.task_default if self.spec.lm_eval_default is SAME else self.spec.lm_eval_default

    @property
    def lm_eval_key(self) -> str:
        """lm-eval's metadata key."""
        return LM_EVAL_NAMES.get(self.name, self.name)


def declared(config_class: type) -> list[Declared]:
    """The declared parameters of a config dataclass, in field order (fields without a `Param` are internal)."""
    out = []
    for f in dataclasses.fields(config_class):
        spec = f.metadata.get(PARAM_KEY)
        if spec is not None:
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[operator]
            out.append(Declared(f.name, default, spec))
    return out


def selection(name: str, default: Any, spec: Param) -> Declared:
    """A loader-only parameter (chooses rows of a build or a dataset; not part of the build config)."""
    return Declared(None, default, spec.but(name=spec.name or name, cli=False))


@dataclass(frozen=True)
class SuiteSchema:
    """A suite's dataset parameters: its config's declared fields and its loader-only parameters.

    Attributes:
        suite: The suite's name (`lgmt build <suite>`).
        config: The build config dataclass.
        loader: Loader-only parameters (`selection(...)`), in the order the README lists them after the config's.
    """

    suite: str
    config: type
    loader: tuple[Declared, ...] = ()

    def parameters(self) -> list[Declared]:
        """Every parameter: the config's, then the loader's."""
        return [*declared(self.config), *self.loader]

    def task_parameters(self) -> list[Declared]:
        """The parameters a task and lm-eval take."""
        return [d for d in self.parameters() if d.spec.task]

    def task_defaults(self) -> dict[str, Any]:
        """Task parameter name → its default (the `@task` signature must agree; a test checks it)."""
        return {d.name: d.task_default for d in self.task_parameters()}

    def lm_eval_keys(self) -> tuple[str, ...]:
        """The loader argument names lm-eval's metadata may set (before `lm_eval_key` renaming)."""
        return tuple(d.name for d in self.task_parameters())

    def lm_eval_defaults(self) -> dict[str, Any]:
        """Loader argument name → lm-eval's default."""
        return {d.name: d.lm_eval_default for d in self.task_parameters()}

    def markdown_table(self) -> str:
        """The README's parameter table: name, default of each front end, flag, what it does."""
        lines = [
            "| parameter (`-T`, lm-eval key) | `lgmt build` flag | default | what it sets |",
            "|---|---|---|---|",
        ]
        for d in self.parameters():
            name = f"`{d.name}`" if d.spec.task else "–"
            if d.spec.task and d.lm_eval_key != d.name:
                name += f" (lm-eval `{d.lm_eval_key}`)"
            flag = f"`{d.flags[0]}`" if d.field is not None else "–"  # a config field is on the command line
            default = _default_text(d)
            text = d.spec.help + (f" {d.spec.why}" if d.spec.why else "")
            if d.spec.choices:
                text += " One of " + ", ".join(f"`{c}`" for c in d.spec.choices) + "."
            lines.append(f"| {name} | {flag} | {default} | {text.replace('|', '/')} |")
        return "\n".join(lines)


def _shown(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        if len(value) > 6:
            return f"all {len(value)}"
        return ",".join(map(str, value)) if value else "all"
    return "none" if value is None else str(value)


def _default_text(d: Declared) -> str:
    """The defaults of the build, and of the task and lm-eval where they differ (None there: the build's)."""
    if d.spec.switch:
        return "off"
    text = f"`{d.spec.default_text or _shown(d.default)}`"
    if d.task_default is not None and d.task_default != d.default:
        text += f"; task `{_shown(d.task_default)}`"
    if d.lm_eval_default is not None and d.lm_eval_default != d.task_default:
        text += f"; lm-eval `{_shown(d.lm_eval_default)}`"
    return text


# ---------------------------------------------------------------------------------------------------- the CLI


def build_options(config_class: type) -> Callable[[_F], _F]:
    """The click options of every declared field with `cli=True`, in field order (the first listed first in --help).

    A tuple field takes repeated values (`many`), empty meaning the config's default; a `switch` is one flag; every
    other option defaults to the field's default.
    """
    options = [_option(d) for d in declared(config_class) if d.spec.cli]

    def decorate(command: _F) -> _F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def schema_option(name: str, default: Any, spec: Param) -> Callable[[_F], _F]:
    """The click option of a parameter that is no config field (a command's own, e.g. LGMT's `--translator`)."""
    return _option(Declared(name, default, spec))


def _option(d: Declared) -> Callable[[_F], _F]:
    spec = d.spec
    attributes: dict[str, Any] = {"help": spec.help}
    if spec.switch:
        return click.option(*d.flags, str(d.field), is_flag=True, default=False, **attributes)
    if spec.many:
        attributes["multiple"] = spec.many in ("repeat", "spread")
        attributes["default"] = () if spec.many != "comma" else None
        kind = _element_type(d.default)
    else:
        attributes["default"] = d.default
        attributes["show_default"] = d.default is not None
        kind = type(d.default) if d.default is not None and not isinstance(d.default, str) else None
    if spec.choices:
        attributes["type"] = click.Choice(spec.choices)
    elif spec.cli_type is not None:
        attributes["type"] = spec.cli_type
    elif kind in (int, float) and spec.many != "comma":
        attributes["type"] = kind
    if spec.metavar:
        attributes["metavar"] = spec.metavar
    return click.option(*d.flags, str(d.field), **attributes)


def _element_type(default: Any) -> type | None:
    if isinstance(default, (tuple, list)) and default and isinstance(default[0], (int, float)):
        return type(default[0])
    return None


def config_from_options(config_class: type, values: dict[str, Any], **fixed: Any) -> Any:
    """The config of `lgmt build` options: pops every generated option from `values`, then builds the config.

    Args:
        config_class: The build config dataclass.
        values: The command's keyword arguments (the generated options are removed; the rest stays for the caller).
        **fixed: Further config arguments the command computed itself (e.g. paired sources).

    Returns:
        The config.

    Raises:
        click.BadParameter: The config refused a value (its message names the parameter).
    """
    arguments: dict[str, Any] = {}
    for d in declared(config_class):
        if not d.spec.cli:
            continue
        value = values.pop(str(d.field))
        if d.spec.switch:
            if value:
                arguments[str(d.field)] = not d.default
            continue
        if d.spec.many and value in ((), None):
            continue  # nothing given: the config's default
        try:
            arguments[str(d.field)] = d.spec.parse(value) if d.spec.parse is not None else value
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint=d.flags[0]) from exc
    try:
        return config_class(**arguments, **fixed)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


# ------------------------------------------------------------------------------------------- the reproduce command


def reproduce_args(config: Any) -> list[str]:
    """The `lgmt build` arguments that rebuild `config`.

    Every declared field that differs from its default (or is `always` shown), in field order.
    """
    args: list[str] = []
    for d in declared(type(config)):
        if d.spec.args is not None:
            args += d.spec.args(config)
            continue
        if not d.spec.cli:
            continue
        value = getattr(config, str(d.field))
        if value == d.default and not d.spec.always:
            continue
        args += _arguments(d, value)
    return args


def _arguments(d: Declared, value: Any) -> list[str]:
    show = d.spec.show or str
    flag = d.flags[0]
    if d.spec.switch:
        return [flag] if value != d.default else []
    if d.spec.many == "repeat":
        return [part for item in value for part in (flag, show(item))]
    if d.spec.many == "spread":
        return [flag, *map(show, value)] if value else []
    if d.spec.many == "comma":
        return [flag, show(value) if d.spec.show else ",".join(map(str, value))]
    if value is None:
        return []
    return [flag, show(value)]


def no_args(config: Any) -> list[str]:
    """`Param.args` of a field written by another field's arguments (LGMT's width by `--depth`'s grid, say)."""
    return []


def reproduce_command(suite: str, config: Any, out: str, extra: Sequence[str] = ()) -> str:
    """`lgmt build <suite> ... --out OUT`: the shell command a dataset card prints to rebuild its data.

    Args:
        suite: The suite's name.
        config: The build config.
        out: The output folder.
        extra: Arguments for what the config does not hold (LGMT's model translation), placed before `--out`.
    """
    return shlex.join(["lgmt", "build", suite, *reproduce_args(config), *extra, "--out", out])


__all__ = [
    "DATASET",
    "GENERATED_CASES",
    "GENERATION_ATTEMPTS",
    "LM_EVAL_NAMES",
    "PARAM_KEY",
    "REVISION",
    "SAME",
    "SEED",
    "SOURCE",
    "SOURCE_PATH",
    "TIMEOUT_MS",
    "TRANSLATION_ATTEMPTS",
    "TRANSLATOR",
    "TRANSLATOR_MODEL",
    "Declared",
    "Param",
    "SuiteSchema",
    "build_options",
    "config_from_options",
    "declared",
    "param",
    "no_args",
    "reproduce_args",
    "reproduce_command",
    "schema_option",
    "selection",
]
