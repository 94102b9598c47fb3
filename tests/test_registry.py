"""The Inspect entry point: every task we list is visible to Inspect under `lgmt_tasks/<name>`."""

import subprocess
import sys
from importlib.metadata import entry_points

import lgmt_tasks._registry as registry


def test_entry_point_points_at_registry():
    eps = [ep for ep in entry_points(group="inspect_ai") if ep.name == "lgmt_tasks"]
    assert len(eps) == 1
    assert eps[0].value == "lgmt_tasks._registry"


def test_every_registered_task_is_visible_to_inspect():
    from inspect_ai._util.registry import registry_info, registry_lookup

    for name in registry.__all__:
        obj = getattr(registry, name)
        info = registry_info(obj)
        assert info.name == f"lgmt_tasks/{name}", info.name
        assert registry_lookup("task", f"lgmt_tasks/{name}") is not None, name


def test_registry_import_is_light():
    """Importing the registry (what Inspect does at startup) must not import torch or transformers."""
    code = "import sys, lgmt_tasks._registry; print(sorted(m for m in ('torch','transformers') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_inspect_list_tasks_lists_every_task_from_the_repository_root():
    """`inspect list tasks` reads the source (no import): every task must be a module-level `@task` function."""
    from pathlib import Path

    from lgmt_tasks.suites import SUITES

    root = Path(__file__).resolve().parents[1]
    inspect = Path(sys.executable).parent / "inspect"
    listed = subprocess.run([str(inspect), "list", "tasks"], cwd=root, capture_output=True, text=True, check=True)
    names = {line.rsplit("@", 1)[1] for line in listed.stdout.splitlines() if "@" in line}
    expected = {name for entry in SUITES for name in entry.tasks}
    assert names == expected == set(registry.__all__)
    assert len(names) == 11
