"""What start-up imports: the Inspect entry point and `lgmt --help` / `--version` stay free of heavy modules.

Inspect imports every installed plugin before any eval (even one that never runs our tasks), so what importing
`lgmt_tasks._registry` costs is paid by every `inspect eval` of everyone who installs us. Each check runs in a fresh
interpreter (this process has imported everything by now). No timings here: `benchmarks/bench_start.py` measures them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = (
    "datasets",
    "pandas",
    "pyarrow",
    "torch",
    "transformers",
    "sentence_transformers",
    "lm_eval",
    "matplotlib",
    "evaluate",
    "scipy",
    "nltk",
    "nlpaug",
)
"""Never imported by the entry point: data frames and datasets are for builds, loads and reports, not registration."""

OURS_AT_RUN_TIME = (
    "z3",
    "lgmt_tasks.logic.prover",
    "lgmt_tasks.logic.lexicon",
    "lgmt_tasks.builders.load",
    "lgmt_tasks.hub",
    "lgmt_tasks.lgmt.relations",
    "lgmt_tasks.lgmt.english",
    "lgmt_tasks.scorers.answers",
)
"""Needed when a task is created or scored, not to register it: the task modules import them inside the task function
(the signature needs only its types and defaults), which took the entry point from 113 of our modules to 38."""

MODEL_LAYER = ("inspect_ai", "inspect_ai.model", "lgmt_tasks.models", "lgmt_tasks.models.smollm2")
"""Never imported by `lgmt --help` / `--version` (Inspect's model layer took 3.4 s of `lgmt --version` under load)."""

CLI_HEAVY = (*HEAVY, *MODEL_LAYER, "z3", "numpy", "huggingface_hub")

PROBE = """
import json, sys
{body}
print("\\n" + json.dumps(sorted(sys.modules)))
"""


def imported(body: str) -> set[str]:
    """The modules a fresh interpreter has imported after running `body` (its last stdout line)."""
    code = PROBE.format(body=body)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """Which of `names` (or their submodules) are among `modules`."""
    return sorted(n for n in names if n in modules or any(m.startswith(n + ".") for m in modules))


def cli(*args: str) -> str:
    """Run `lgmt ARGS` in-process inside the probe (as the console script does), ignoring its exit."""
    lines = [f"sys.argv = ['lgmt', *{list(args)!r}]", "from lgmt_tasks.cli import main", "try:", "    main()"]
    return "\n".join([*lines, "except SystemExit:", "    pass"])


def test_entry_point_imports_no_heavy_module():
    modules = imported("import lgmt_tasks._registry")
    assert "lgmt_tasks._registry" in modules
    assert loaded(modules, HEAVY) == []


def test_entry_point_imports_only_what_the_task_signatures_need():
    modules = imported("import lgmt_tasks._registry")
    assert loaded(modules, OURS_AT_RUN_TIME) == []


def test_entry_point_still_registers_every_task_and_the_model():
    # registration itself must survive the lazy imports: the @task functions and the lgmt/smollm2 provider
    body = (
        "import lgmt_tasks._registry as r\n"
        "from inspect_ai._util.registry import registry_lookup\n"
        "assert all(registry_lookup('task', f'lgmt_tasks/{n}') for n in r.__all__)\n"
        "assert registry_lookup('modelapi', 'lgmt_tasks/lgmt')"
    )
    modules = imported(body)
    assert loaded(modules, HEAVY) == []


@pytest.mark.parametrize("args", [("--help",), ("--version",)])
def test_cli_help_and_version_import_only_click(args):
    modules = imported(cli(*args))
    assert loaded(modules, CLI_HEAVY) == []
    ours = sorted(m for m in modules if m.startswith("lgmt_tasks"))
    assert ours == ["lgmt_tasks", "lgmt_tasks.cli"]


@pytest.mark.parametrize(
    ("args", "forbidden"),
    [
        (("suites", "--names"), CLI_HEAVY),
        # the model's cache folder is `lgmt_tasks.models._files`; the provider (`smollm2`) and Inspect stay out
        (("cache", "list"), tuple(m for m in CLI_HEAVY if m != "lgmt_tasks.models")),
        (("lm-eval-path",), CLI_HEAVY),
        (("report", "--help"), CLI_HEAVY),
        (("plan", "--help"), CLI_HEAVY),
        (("adaptive-next", "--help"), CLI_HEAVY),
        (("build", "--help"), CLI_HEAVY),  # no suite command module, so no Z3 (issue 38)
        (("verify", "--help"), (*HEAVY, *MODEL_LAYER)),
    ],
)
def test_each_subcommand_imports_only_what_it_uses(args, forbidden):
    modules = imported(cli(*args))
    assert loaded(modules, forbidden) == []


def test_one_suite_build_command_imports_no_other_suite():
    modules = imported(cli("build", "qmfol", "--help"))
    others = ("lgmt_tasks.divlogiceval", "lgmt_tasks.lexical", "lgmt_tasks.logicasker")
    assert loaded(modules, others) == []
    assert loaded(modules, HEAVY) == []
