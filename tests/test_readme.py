"""The README documents what the code offers: every registered task and every one of its `-T` parameters."""

from pathlib import Path

from inspect_ai._util.registry import registry_info

import lgmt_tasks._registry as registry

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_task_and_parameter_is_documented():
    missing = []
    for name in registry.__all__:
        info = registry_info(getattr(registry, name))
        if f"lgmt_tasks/{name}" not in README:
            missing.append(f"task lgmt_tasks/{name}")
        for param in info.metadata.get("params", []):
            if f"`{param}`" not in README and f"{param}=" not in README:
                missing.append(f"{name}: -T {param}")
    assert missing == []


def test_readme_opens_with_the_two_commands():
    head = README.split("## Contents")[0]
    assert "make demo" in head and "make test" in head
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci
