"""One parameter schema per suite (`lgmt_tasks.builders.schema`): the task signatures, loaders, CLI, cards, lm-eval
and README tables all agree with it, and one idea has one flag everywhere."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import click
import pytest

from lgmt_tasks.builders import parameters_doc
from lgmt_tasks.builders.schema import (
    LM_EVAL_NAMES,
    SuiteSchema,
    build_options,
    config_from_options,
    declared,
    reproduce_args,
    reproduce_command,
)
from lgmt_tasks.suites import SUITES, Suite, suite

NAMES = [entry.name for entry in SUITES]

LOADERS = {
    "lgmt": "load_lgmt",
    "logicasker": "load_logicasker",
    "divlogiceval": "load_divlogiceval",
    "qmfol": "load_qmfol",
    "lexical": "load_lexical",
}
"""Each suite's loader in its `dataset` module (the function every task and lm-eval's `load_docs` call)."""

EXAMPLES: dict[str, dict[str, Any]] = {
    "lgmt": {"mrs": ("MR-E1.1", "MR-C3"), "per_mr": "all", "compose": 2, "names": "natural", "seed": 7},
    "logicasker": {"logic": ("predicate",), "lengths": (1, 2, 3), "per_skill": 2, "balanced": False, "seed": 3},
    "qmfol": {"depths": (1, 20), "widths": (0, 20), "labels": ("True", "Unknown"), "seeds": 2, "seed": 7},
    "divlogiceval": {"per_type": 5, "n": 4, "seed": 2},
    "lexical": {"per_mr": 7, "style": "clean", "seed": 5},
}
"""A non-default config of each suite, for the command-line round trip."""


def schema_of(name: str) -> SuiteSchema:
    schema = suite(name).module("config").SCHEMA
    assert isinstance(schema, SuiteSchema) and schema.suite == name
    return schema


def task_functions(entry: Suite) -> list[Any]:
    module = entry.module("task")
    return [getattr(module, name) for name in entry.tasks]


@pytest.mark.parametrize("name", NAMES)
def test_task_signatures_declare_the_schema_parameters_with_its_defaults(name: str) -> None:
    expected = schema_of(name).task_defaults()
    for fn in task_functions(suite(name)):
        signature = inspect.signature(fn)
        for parameter, default in expected.items():
            assert parameter in signature.parameters, f"{name}: task {fn.__name__} lacks -T {parameter}"
            assert signature.parameters[parameter].default == default, (
                f"{name}: task {fn.__name__}'s {parameter} defaults to {signature.parameters[parameter].default!r}, "
                f"the schema says {default!r}"
            )


@pytest.mark.parametrize("name", NAMES)
def test_the_loader_takes_exactly_the_schema_parameters(name: str) -> None:
    loader = getattr(suite(name).module("dataset"), LOADERS[name])
    parameters = inspect.signature(loader).parameters
    keyword = {p for p, v in parameters.items() if v.default is not inspect.Parameter.empty}
    # `used_elsewhere` is no dataset parameter: the task says which build parameters it also uses (demonstrations,
    # shots), so that `-T dataset=` does not warn that they have no effect
    assert keyword - {"used_elsewhere"} == set(schema_of(name).task_defaults()), f"{name}: {LOADERS[name]} vs schema"


@pytest.mark.parametrize("name", NAMES)
def test_the_cli_round_trips_the_reproduce_command(name: str) -> None:
    schema = schema_of(name)
    config = schema.config(**EXAMPLES[name])

    @click.command(cls=type(suite(name).module("cli").build_command))  # QMFOL's reads `--depth 5 10`
    @build_options(schema.config)
    def command(**options: Any) -> None:  # the suite's generated options, without its own
        pass

    args = [a for a in reproduce_args(config) if a not in ("--source", "generated")]
    ctx = command.make_context("build", args)
    assert config_from_options(schema.config, dict(ctx.params)) == config


@pytest.mark.parametrize("name", NAMES)
def test_the_suite_command_has_every_generated_option(name: str) -> None:
    command = suite(name).module("cli").build_command
    flags = {flag for option in command.params for flag in option.opts}
    for d in declared(schema_of(name).config):
        if d.spec.cli:
            assert set(d.flags) <= flags, f"lgmt build {name} lacks {d.flags}"


@pytest.mark.parametrize("name", NAMES)
def test_the_default_card_command_is_the_committed_one(name: str) -> None:
    schema = schema_of(name)
    card = (parameters_doc.readme_path(suite(name)).parents[2] / "datasets" / name / "README.md").read_text("utf-8")
    assert reproduce_command(name, schema.config(), f"datasets/{name}") in card


def test_one_flag_per_idea() -> None:
    """Across suites, a flag always sets the same user-facing name, and a name always has the same flag."""
    by_flag: dict[str, set[str]] = {}
    by_name: dict[str, set[str]] = {}
    for name in NAMES:
        for d in schema_of(name).parameters():
            if d.spec.cli:
                by_flag.setdefault(d.flags[0], set()).add(d.name)
                by_name.setdefault(d.name, set()).add(d.flags[0])
    assert {f: n for f, n in by_flag.items() if len(n) > 1} == {}
    assert {n: f for n, f in by_name.items() if len(f) > 1} == {}


def test_lm_eval_renames_only_model_arguments() -> None:
    for name in NAMES:
        keys = {d.lm_eval_key for d in schema_of(name).task_parameters()}
        assert not keys & set(LM_EVAL_NAMES), f"{name}: a metadata key that is an lm-eval model argument"


@pytest.mark.parametrize("name", NAMES)
def test_readme_parameter_table_is_current(name: str) -> None:
    entry = suite(name)
    text = parameters_doc.readme_path(entry).read_text(encoding="utf-8")
    assert parameters_doc.block(entry) in text, (
        f"lgmt_tasks/{name}/README.md: run `python -m lgmt_tasks.builders.parameters_doc`"
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_declared_field_is_in_the_cache_key(name: str) -> None:
    """Declaring a field changes nothing in what identifies a build: its key still holds every field."""
    config = schema_of(name).config()
    fields = {f.name for f in dataclasses.fields(config)}
    assert {d.field for d in declared(type(config))} <= fields
    assert set(config.key()) <= fields | {"pool_sha256"}
