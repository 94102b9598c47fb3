"""Bad `-T` arguments end in one short message naming the argument, before any build; good ones still run."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import pytest
from inspect_ai import eval
from inspect_ai._util.config import parse_cli_args  # how `inspect eval` reads `-T name=value`
from inspect_ai._util.registry import registry_info
from inspect_ai.model import ModelOutput, ModelUsage, get_model

import lgmt_tasks._registry as entry_point
from lgmt_tasks.errors import LgmtError
from lgmt_tasks.task_params import TaskParameterError, check_args

ROOT = Path(__file__).resolve().parents[2]
INSPECT = Path(sys.executable).parent / "inspect"
LGMT_TASKS = ("lgmt", "mr_c", "mr_e", "mr_e1", "mr_e2", "mr_p", "mr_s")
PROMPTINGS = "zero_shot, zero_shot_cot, few_shot, few_shot_cot"


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("LGMT_CACHE_DIR", str(folder))
    return folder


HINTS: dict[str, Any] = {
    "count": int,
    "alpha": float,
    "flag": bool,
    "prompting": Literal["zero_shot", "few_shot"],
    "name": str,
    "optional": str | None,
    "length": str | int | None,
    "mr": str | list[str],
    "depth": int | str | list[int] | list[str] | None,
}


@pytest.mark.parametrize(
    ("arg", "given", "expected"),
    [
        ("count", 5, 5),
        ("count", "5", 5),  # -T count='"5"', or a Python caller
        ("alpha", 1, 1.0),
        ("alpha", "1e-1", 0.1),  # YAML reads 1e-1 as a string
        ("flag", True, True),
        ("flag", "Yes", True),
        ("flag", "FALSE", False),
        ("flag", 0, False),
        ("prompting", "few_shot", "few_shot"),
        ("name", 84, "84"),  # YAML reads -T name=84 as an int
        ("name", ["a", "b"], "a,b"),  # Inspect splits -T name=a,b; our string parameters take comma-separated values
        ("optional", None, None),
        ("length", 3, 3),  # already an int: kept, not made a string by the union's first member
        ("length", ["1", "3"], "1,3"),
        ("mr", ["MR-1", "MR-84"], ["MR-1", "MR-84"]),
        ("depth", [5, 10], [5, 10]),
        ("unannotated", "anything", "anything"),
    ],
)
def test_check_args_coerces_what_the_cli_and_python_callers_pass(arg: str, given: Any, expected: Any) -> None:
    checked = check_args("t", HINTS, {arg: given})[arg]
    assert checked == expected and type(checked) is type(expected)


@pytest.mark.parametrize(
    ("arg", "given", "expected"),
    [
        ("count", "abc", "an integer"),
        ("count", True, "an integer"),
        ("count", 2.5, "an integer"),
        ("alpha", "x", "a number"),
        ("flag", "maybe", "true or false"),
        ("flag", 2, "true or false"),
        ("prompting", "foo", "one of zero_shot, few_shot"),
        ("prompting", ["zero_shot", "few_shot"], "one of zero_shot, few_shot"),
        ("name", None, "a string"),
        ("name", 1.5, "a string"),  # YAML reads 1.50 as 1.5: the text is lost, so it is refused, not guessed
        ("name", True, "a string"),
        ("depth", True, "an integer or a string or a list of integers or a list of strings or null"),
    ],
)
def test_check_args_refuses_naming_the_argument_the_value_and_what_is_accepted(
    arg: str, given: Any, expected: str
) -> None:
    with pytest.raises(TaskParameterError) as raised:
        check_args("t", HINTS, {arg: given})
    assert str(raised.value) == f"t: {arg}={given!r}: expected {expected}"


def _bad_arguments() -> list[tuple[str, str, Any, str]]:
    """(task, argument, bad value, what the message must list): a bad int, bool and choice for every task."""
    cases: list[tuple[str, str, Any, str]] = []
    for name in LGMT_TASKS:
        cases += [
            (name, "per_mr", "abc", "expected an integer"),
            (name, "prefill", "maybe", "expected true or false"),
            (name, "prompting", "foo", PROMPTINGS),
        ]
    return cases + [
        ("lexical", "per_mr", "abc", "expected an integer"),
        ("lexical", "prefill", "maybe", "expected true or false"),
        ("lexical", "prompting", "foo", PROMPTINGS),
        ("qmfol", "padding_tokens", "abc", "expected an integer"),
        ("qmfol", "prefill", "maybe", "expected true or false"),
        ("qmfol", "form", "foo", "quantified, ground"),  # a plain `str`: the task's own ValueError, shortened
        ("logicasker", "per_skill", "abc", "expected an integer"),
        ("logicasker", "demonstrations", "foo", "none, random, weakness"),
        ("divlogiceval", "shots", "abc", "expected an integer"),
        ("divlogiceval", "form", "foo", "natural, symbolic"),
        ("divlogiceval", "question_type", "foo", "3c1e, 3e1c, missing, all"),
    ]


@pytest.mark.parametrize(("name", "arg", "value", "listed"), _bad_arguments())
def test_every_task_refuses_a_bad_argument_in_one_line_before_building(
    name: str, arg: str, value: Any, listed: str, cache: Path
) -> None:
    with pytest.raises(TaskParameterError) as raised:
        getattr(entry_point, name)(**{arg: value})
    message = str(raised.value)
    assert isinstance(raised.value, LgmtError) and isinstance(raised.value, ValueError)
    assert "\n" not in message
    assert message.startswith(f"{name}: {arg}={value!r}: ") and listed in message
    assert not cache.exists()  # refused before any build wrote its cache


@pytest.mark.parametrize("name", [*LGMT_TASKS, "lexical"])
def test_a_missing_source_path_is_refused_in_one_line_before_building(name: str, cache: Path, tmp_path: Path) -> None:
    missing = str(tmp_path / "no" / "folio.jsonl")
    with pytest.raises(TaskParameterError) as raised:
        getattr(entry_point, name)(source="folio", source_path=missing)
    assert str(raised.value) == f"{name}: source_path={missing!r}: no such file or folder (the folio records)"
    assert not cache.exists()  # refused before any build wrote its cache


def test_a_value_error_of_task_creation_keeps_its_cause_for_python_callers() -> None:
    with pytest.raises(TaskParameterError, match="^mr_c: translator='llm': expected one of") as raised:
        entry_point.mr_c(translator="llm")
    assert type(raised.value.__cause__) is ValueError


@pytest.mark.parametrize("name", entry_point.__all__)
def test_inspect_still_sees_every_tasks_parameters(name: str) -> None:
    registered = getattr(entry_point, name)
    params = registry_info(registered).metadata["params"]
    assert params == list(inspect.signature(registered).parameters)
    assert "seed" in params and "dataset" in params


def test_inspect_eval_prints_a_bad_argument_in_a_few_lines(tmp_path: Path) -> None:
    env = os.environ | {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "LGMT_CACHE_DIR": str(tmp_path / "cache")}
    command = [str(INSPECT), "eval", "lgmt_tasks/mr_e", "--model", "mockllm/model", "--log-dir", str(tmp_path)]
    run = subprocess.run([*command, "-T", "per_mr=abc"], cwd=ROOT, env=env, capture_output=True, text=True)
    output = run.stdout + run.stderr
    assert run.returncode != 0
    assert len(output.strip().splitlines()) < 15, output
    assert "mr_e: per_mr='abc': expected an integer" in output
    assert "Traceback" not in output
    assert run.stderr.strip().startswith("Error: mr_e: per_mr='abc'"), output  # `lgmt_tasks.errors`' hook, on stderr
    assert not (tmp_path / "cache").exists()


def test_good_arguments_as_the_cli_parses_them_still_run(tmp_path: Path) -> None:
    """`-T per_mr='"1"' -T prefill='"yes"'` (strings) through Inspect's parser and registry: coerced, and run."""

    def answer(messages: list[Any], *args: Any, **kwargs: Any) -> ModelOutput:
        out = ModelOutput.from_content("mockllm/model", 'Unknown"}')
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tiktoken download
        return out

    task_args = parse_cli_args(['per_mr="1"', 'prefill="yes"', "prompting=zero_shot"])
    assert task_args == {"per_mr": "1", "prefill": "yes", "prompting": "zero_shot"}
    model = get_model("mockllm/model", custom_outputs=answer)
    (log,) = eval("lgmt_tasks/mr_s", task_args=task_args, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success"
    assert log.samples is not None and len(log.samples) == 2  # MR-S1 and MR-S2, one group each
    for sample in log.samples:
        assert sample.store["responses"] == ['{"label": "Unknown"}'] * 2  # prefill on: the opening is kept
    assert set(task_args) <= set(log.eval.task_args)
