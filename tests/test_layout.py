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
    (`scorers/<suite>.py`, `scorers/<suite>_arithmetic.py`, ...) and its `evaluate` modules
    (`lgmt_tasks/metrics/<name>/`, listed in its registry record).
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


def imported_modules(tree: ast.AST, here: str, is_package: bool, modules: set[str]) -> dict[str, int]:
    """The modules among `modules` that module `here` imports, each with the line of its first import.

    Every `import` and `from ... import` statement counts, wherever it is: at the top, inside a function (an import
    deferred to call time still makes the two modules need each other) or under `TYPE_CHECKING` (annotations that
    need each other are a circle too). `from package import name` names the module `package.name` when there is
    one, else the package itself. Importing a module also runs its parent packages' `__init__`, but that is not
    counted: a package that re-exports its modules would otherwise be a circle with each of them.
    """
    parts = here.split(".")
    found: dict[str, int] = {}

    def add(name: str, line: int) -> None:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]  # `import a.b.Name` or an attribute path: its module
        if name in modules:
            found[name] = min(line, found.get(name, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = parts if is_package else parts[:-1]
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base, node.lineno)
    found.pop(here, None)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    """Every module of the package (`scorers/`, `solvers/`, `task_configs/` under their `lgmt_tasks.` names) and the
    modules it imports (with the line)."""
    paths = {module_name(p): p for p in source_files()}
    modules = set(paths)
    return {
        name: imported_modules(ast.parse(path.read_text(encoding="utf-8")), name, path.name == "__init__.py", modules)
        for name, path in paths.items()
    }


def import_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: list[str] = []
            while not component or component[-1] != module:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                components.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(components)


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
    the registry (`suite(name).module(...)`), except the composition roots (the Inspect entry point and the `lgmt`
    command)."""
    composition_roots = {"lgmt_tasks._registry"}
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
            internal = ("build", "config", "task", "dataset", "card", "cli")
            if parts[1] == other or (len(parts) > 2 and parts[2] in internal):
                offences.append(f"{here} imports {target}")
    assert not offences, "\n".join(offences)


def test_solvers_and_scorers_import_no_suite_package() -> None:
    """Solvers and scorers sit below the suites they serve: what a suite's solver needs from the suite is handed in
    by its task (the lexical transformer), and what they share sits below both (`lgmt_tasks.rotation`). Imports
    inside functions count too."""
    suite_packages = tuple(entry.package for entry in SUITES)
    offences = [
        f"{here} imports {target} (line {line})"
        for here, imported in import_graph().items()
        if here.split(".")[1:2] in (["scorers"], ["solvers"])
        for target, line in imported.items()
        if any(target == package or target.startswith(f"{package}.") for package in suite_packages)
    ]
    assert not offences, "\n".join(offences)


def test_no_import_cycles_between_modules() -> None:
    """No two modules of ours need each other, however indirectly, counting imports inside functions and under
    `TYPE_CHECKING` (see `imported_modules`). A circle closed by a deferred import works only as long as nobody
    imports the other end first; the fix is a module below both holding what they share."""
    graph = import_graph()
    cycles = import_cycles(graph)
    described = [
        " <-> ".join(cycle)
        + "".join(f"\n    {a} -> {b} (line {graph[a][b]})" for a in cycle for b in cycle if b in graph[a])
        for cycle in cycles
    ]
    assert not cycles, "import cycles:\n" + "\n".join(described)


def test_the_import_graph_counts_every_import_statement_and_the_cycle_finder_finds_circles() -> None:
    source = """
from lgmt_tasks.x import helper
def f():
    from lgmt_tasks.y import thing
if TYPE_CHECKING:
    from lgmt_tasks.z import T
from lgmt_tasks.pkg import sub, NAME
import lgmt_tasks.w.Name
from . import sibling
"""
    modules = {"lgmt_tasks.x", "lgmt_tasks.y", "lgmt_tasks.z", "lgmt_tasks.pkg", "lgmt_tasks.pkg.sub", "lgmt_tasks.w"}
    modules |= {"lgmt_tasks.here", "lgmt_tasks.sibling"}
    assert imported_modules(ast.parse(source), "lgmt_tasks.here", False, modules) == {
        "lgmt_tasks.x": 2,
        "lgmt_tasks.y": 4,
        "lgmt_tasks.z": 6,
        "lgmt_tasks.pkg.sub": 7,
        "lgmt_tasks.pkg": 7,
        "lgmt_tasks.w": 8,
        "lgmt_tasks.sibling": 9,
    }
    assert import_cycles({"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b": 1}, "b": {}}) == []


def test_the_logic_core_and_the_vocabulary_import_nothing_of_ours_but_the_core() -> None:
    for path in [
        *(ROOT / "lgmt_tasks" / "logic").glob("*.py"),
        ROOT / "lgmt_tasks" / "vocabulary.py",
        ROOT / "lgmt_tasks" / "rotation.py",
        ROOT / "lgmt_tasks" / "suites.py",
    ]:
        outside = [t for t in imports_of(path) if not t.startswith("lgmt_tasks.logic")]
        assert not outside, f"{path.name} imports {outside}"


def test_pyproject_lists_exactly_the_packages_on_disk() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {module_name(p) for p in source_files() if p.name == "__init__.py"}
    assert listed == on_disk


SUITE_NAME = r"(?<![\w./-])(?:{names})(?![\w/-])"
"""A registry name as a word of its own: not `lgmt_tasks`, `lgmt-tasks` or `datasets/lgmt`."""

LIST_SEPARATOR = r"[\s`'\"]*(?:,|/|\bor\b|\band\b|\s)\s*(?:(?:or|and)\b)?[\s`'\"]*"
"""What joins the items of a list: a comma, a slash, "or", "and" or a space, with quotes or backticks around."""


def suite_name_lists(line: str) -> list[str]:
    """The lists of suite names on a line: three or more registry names (as the registry writes them) in a row, or
    all of them in any case (`LGMT, LogicAsker, DivLogicEval, QMFOL, lexical`), as a tuple, a shell loop or prose."""
    found: dict[str, None] = {}  # a list both rules find is reported once
    name = SUITE_NAME.format(names="|".join(SUITE_NAMES))
    for flags, least in ((0, 3), (re.IGNORECASE, len(SUITE_NAMES))):
        for match in re.finditer(f"{name}(?:{LIST_SEPARATOR}{name}){{2,}}", line, flags):
            if len({n.lower() for n in re.findall(name, match.group(), flags)}) >= least:
                found[match.group()] = None
    return list(found)


def test_the_suite_list_finder_finds_lists_in_code_and_prose() -> None:
    listed = [
        '("lgmt", "logicasker", "divlogiceval", "qmfol", "lexical")',
        "for suite in lgmt logicasker divlogiceval qmfol lexical; do",
        '"suite": "lgmt, logicasker, divlogiceval, qmfol or lexical."',
        "one of `qmfol`, `lexical` and `lgmt`",
        "LGMT, LogicAsker, DivLogicEval, QMFOL and lexical",
    ]
    not_listed = [
        "lgmt build qmfol --out datasets/qmfol",  # two names, and a path
        "LGMT, lexical, QMFOL: the parsed share",  # a few suites by their paper names, not the registry's list
        "lgmt_tasks.lgmt, lgmt_tasks/qmfol, lgmt-tasks lexical",  # package paths and the distribution name
    ]
    assert all(suite_name_lists(line) for line in listed)
    assert not any(suite_name_lists(line) for line in not_listed)


def test_the_suite_list_is_written_nowhere_else() -> None:
    """The registry's hand-made copies were the names in a row: a tuple, a shell loop, or a sentence listing them."""
    allowed = {
        ROOT / "lgmt_tasks" / "suites.py",  # the registry
        ROOT / "lgmt_tasks" / "_registry.py",  # Inspect's static list of task names (some are also suite names)
    }
    files = [*source_files(), *(ROOT / "task_configs").rglob("*.yaml"), ROOT / "Makefile"]
    copies = [
        f"{p.relative_to(ROOT)}:{number}: {found}"
        for p in files
        if p not in allowed
        for number, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        for found in suite_name_lists(line)
    ]
    assert not copies, "\n".join(copies)


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
