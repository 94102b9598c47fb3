"""The layout ARCHITECTURE.md promises: one package per suite with the same modules, one registry, one-way imports.

These are the checks a contributor would otherwise do by hand before adding a suite or moving code.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

import lgmt_tasks._registry as entry_point
from lgmt_tasks.suites import STANDARD_MODULES, SUITE_NAMES, SUITES, Suite, suite

ROOT = Path(__file__).resolve().parents[1]
CODE_ROOTS = {
    "lgmt_tasks": ROOT / "lgmt_tasks",
    "scorers": ROOT / "scorers",
    "solvers": ROOT / "solvers",
    "task_configs": ROOT / "task_configs",
}
SHARED_SCORERS = {"answers", "intervals", "outcomes", "pairwise", "pairwise_metrics", "rate_metrics", "unparsed"}
"""Scorer modules every suite may use."""
SHARED_SOLVERS = {"group", "prompts", "prefill"}


def module_name(path: Path) -> str:
    """The import name of a source file (`scorers/x.py` is `lgmt_tasks.scorers.x`)."""
    for top, folder in CODE_ROOTS.items():
        if path.is_relative_to(folder):
            parts = path.relative_to(folder).with_suffix("").parts
            prefix = ("lgmt_tasks",) if top == "lgmt_tasks" else ("lgmt_tasks", top)
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            return ".".join(prefix + parts)
    raise ValueError(path)


def owner(module: str) -> str | None:
    """The suite a module belongs to, or None for shared code.

    A suite owns its package, its `task_configs/<suite>/` folder, the scorer and solver modules named after it
    (`scorers/<suite>.py`, `scorers/<suite>_metrics.py`, ...) and its `evaluate` modules (`lgmt_tasks/metrics/<name>/`,
    listed in its registry record).
    """
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "metrics":
        return next((s.name for s in SUITES if parts[2] in s.evaluate_modules), None)
    if len(parts) >= 2 and parts[1] in SUITE_NAMES:
        return parts[1]
    if len(parts) >= 3 and parts[1] == "task_configs" and parts[2] in SUITE_NAMES:
        return parts[2]
    if len(parts) >= 3 and parts[1] in ("scorers", "solvers"):
        stem = parts[2]
        return next((s for s in SUITE_NAMES if stem == s or stem.startswith(f"{s}_")), None)
    return None


def imports_of(path: Path) -> list[str]:
    """Every module a file imports (absolute `lgmt_tasks` imports; relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = here if path.name == "__init__.py" else here[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{a.name}" for a in node.names]
    return [m for m in found if m.startswith("lgmt_tasks")]


def source_files() -> list[Path]:
    return sorted(p for folder in CODE_ROOTS.values() for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_every_suite_package_has_the_standard_modules_and_a_readme(entry: Suite) -> None:
    package = ROOT / "lgmt_tasks" / entry.name
    missing = [m for m in STANDARD_MODULES if not (package / f"{m}.py").is_file()]
    assert not missing, f"lgmt_tasks/{entry.name}/ lacks {missing}"
    assert (package / "README.md").is_file()
    assert (ROOT / "task_configs" / entry.name).is_dir()
    assert (ROOT / "scorers" / f"{entry.name}.py").is_file()


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_the_standard_modules_provide_what_the_shared_code_reads(entry: Suite) -> None:
    assert callable(entry.attr("cli", "build_command").callback)
    assert callable(entry.attr("report", "suite_report"))
    assert callable(entry.attr("claims", "row_claims"))
    assert callable(entry.attr("dataset", "record_to_sample"))
    assert entry.attr("build", "FEATURES")
    assert entry.attr("build", "BUILD_REVISION") is not None
    assert entry.attr("task", "VERSION") == entry.version


def test_every_registered_task_is_in_the_registry_and_no_other() -> None:
    registered = set(entry_point.__all__)
    listed = {t for s in SUITES for t in s.tasks}
    assert registered == listed
    for entry in SUITES:
        for name in entry.tasks:
            assert getattr(entry_point, name).__module__ == f"{entry.package}.task"


def yaml_documents(entry: Suite) -> list[dict]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # `!function ...` tags: not needed here
    return [
        yaml.load(p.read_text(encoding="utf-8"), Loader=Loader) or {}
        for p in sorted((ROOT / "task_configs" / entry.name).glob("*.yaml"))
    ]


@pytest.mark.parametrize("entry", SUITES, ids=SUITE_NAMES)
def test_the_lm_eval_yamls_carry_the_registry_version_and_task_names(entry: Suite) -> None:
    documents = yaml_documents(entry)
    versions = {d["metadata"]["version"] for d in documents if "version" in (d.get("metadata") or {})}
    assert versions == {entry.version}
    names = {d[key] for d in documents for key in ("task", "group") if isinstance(d.get(key), str)}
    assert names == set(entry.lm_eval_tasks)


def test_no_module_imports_another_suites_internals() -> None:
    """A suite may use shared code and another suite's package-level names; shared code reaches suites only through
    the registry (`suite(name).module(...)`), except the composition roots (the Inspect entry point, the `lgmt`
    command and the deprecated `lgmt_tasks.tasks` aliases)."""
    composition_roots = {"lgmt_tasks._registry"} | {f"lgmt_tasks.tasks.{s}" for s in SUITE_NAMES}
    # The `lgmt` command composes every suite's commands and report options, as the entry point composes its tasks.
    composition_roots |= {module_name(p) for p in (ROOT / "lgmt_tasks" / "cli").glob("*.py")}
    offences = []
    for path in source_files():
        here = module_name(path)
        if here in composition_roots:
            continue
        mine = owner(here)
        for target in imports_of(path):
            theirs = owner(target)
            if theirs is None or theirs == mine:
                continue
            if target.count(".") == 1 or (
                target.count(".") == 2 and target.split(".")[1] == theirs and target.split(".")[2].isupper()
            ):
                continue  # `lgmt_tasks.lgmt` or a package-level constant such as `lgmt_tasks.lgmt.RELATION_IDS`
            offences.append(f"{here} imports {target}")
    assert not offences, "\n".join(offences)


def test_solvers_and_scorers_do_not_import_each_other_builders_or_tasks() -> None:
    offences = []
    for path in source_files():
        here = module_name(path)
        layer = here.split(".")[1] if here.count(".") >= 1 else ""
        if layer not in ("scorers", "solvers"):
            continue
        other = "solvers" if layer == "scorers" else "scorers"
        for target in imports_of(path):
            parts = target.split(".")
            if parts[1] == other or (len(parts) > 2 and parts[2] in ("build", "task", "dataset", "card", "cli")):
                offences.append(f"{here} imports {target}")
    assert not offences, "\n".join(offences)


def test_the_logic_core_and_the_vocabulary_import_nothing_of_ours_but_the_core() -> None:
    for path in [
        *(ROOT / "lgmt_tasks" / "logic").glob("*.py"),
        ROOT / "lgmt_tasks" / "vocabulary.py",
        ROOT / "lgmt_tasks" / "suites.py",
    ]:
        outside = [t for t in imports_of(path) if not t.startswith("lgmt_tasks.logic")]
        assert not outside, f"{path.name} imports {outside}"


def test_pyproject_lists_exactly_the_packages_on_disk() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {module_name(p) for p in source_files() if p.name == "__init__.py"}
    assert listed == on_disk


def test_the_suite_list_is_written_nowhere_else() -> None:
    """The five names in a row, as a tuple or a shell loop, were the registry's hand-made copies."""
    pattern = re.compile(r"lgmt\W+logicasker\W+divlogiceval\W+qmfol\W+lexical")
    allowed = {ROOT / "lgmt_tasks" / "suites.py"}
    copies = [
        str(p.relative_to(ROOT))
        for p in [*source_files(), ROOT / "Makefile"]
        if p not in allowed and pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert not copies


def test_registry_lookups_name_the_valid_suites() -> None:
    with pytest.raises(ValueError, match="lgmt, logicasker, divlogiceval, qmfol, lexical"):
        suite("lgmtt")


def test_lgmt_relation_ids_match_the_relations() -> None:
    from lgmt_tasks.lgmt import RELATION_IDS
    from lgmt_tasks.lgmt.relations import RELATIONS

    assert tuple(RELATIONS) == RELATION_IDS


def test_the_cards_cite_the_registry_bibtex() -> None:
    for entry in SUITES:
        if entry.name != "lexical":  # the lexical card cites LLMorph and LGMT (below)
            assert entry.attr("card", "CITATION") == entry.bibtex
    assert suite("lexical").attr("card", "LLMORPH_CITATION") == suite("lexical").bibtex


def test_the_lgmt_tasks_aliases_still_import_with_a_warning() -> None:
    import importlib
    import sys

    sys.modules.pop("lgmt_tasks.tasks.qmfol", None)
    with pytest.warns(DeprecationWarning, match="lgmt_tasks.qmfol.task"):
        module = importlib.import_module("lgmt_tasks.tasks.qmfol")
    assert module.qmfol is entry_point.qmfol
