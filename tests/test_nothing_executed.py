"""Nothing we load is executed: no `eval`/`exec`, no `trust_remote_code`, no pickles, no unsafe YAML or torch loads.

Scans the source of the package (`lgmt_tasks/`, `scorers/`, `solvers/`, `task_configs/`) with `ast`, so a string
or a comment that mentions these names does not count, and fails naming every offending file:line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = ("lgmt_tasks", "scorers", "solvers", "task_configs")

FORBIDDEN_BUILTINS = {"eval", "exec", "__import__"}
UNPICKLERS = {
    ("pickle", "load"),
    ("pickle", "loads"),
    ("pickle", "Unpickler"),
    ("cPickle", "load"),
    ("cPickle", "loads"),
    ("dill", "load"),
    ("dill", "loads"),
    ("joblib", "load"),
    ("marshal", "load"),
    ("marshal", "loads"),
    ("shelve", "open"),
    ("pd", "read_pickle"),
    ("pandas", "read_pickle"),
    ("yaml", "unsafe_load"),
    ("yaml", "full_load"),
}
SAFE_YAML_LOADERS = {"SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader"}


def _dotted(node: ast.AST) -> tuple[str, ...]:
    """`a.b.c` as ("a", "b", "c"); anything else as ()."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    return ()


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def problems_in(source: str, where: str) -> list[str]:
    """Every forbidden construct in one module's source, as `where:line: what`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in {"pickle", "cPickle", "dill", "marshal", "shelve"}:
            found.append(f"{where}:{node.lineno}: imports from {node.module}")
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        line = f"{where}:{node.lineno}"
        if len(name) == 1 and name[0] in FORBIDDEN_BUILTINS:
            found.append(f"{line}: calls {name[0]}()")
        if name[-2:] in UNPICKLERS:
            found.append(f"{line}: calls {'.'.join(name)}() (executes what it loads)")
        if name[-2:] == ("yaml", "load"):
            loader = _keyword(node, "Loader") or (node.args[1] if len(node.args) > 1 else None)
            if loader is None or _dotted(loader)[-1:] not in {(n,) for n in SAFE_YAML_LOADERS}:
                found.append(f"{line}: yaml.load without a safe Loader")
        if name[-2:] == ("torch", "load") and not _is_true(_keyword(node, "weights_only")):
            found.append(f"{line}: torch.load without weights_only=True")
        if name[-1:] == ("load",) and name[:1] in {("np",), ("numpy",)} and _is_true(_keyword(node, "allow_pickle")):
            found.append(f"{line}: numpy load with allow_pickle=True")
        trust = _keyword(node, "trust_remote_code")
        if trust is not None and not (isinstance(trust, ast.Constant) and trust.value is False):
            found.append(f"{line}: trust_remote_code is not False")
    return found


def package_files() -> list[Path]:
    return sorted(p for d in PACKAGE_DIRS for p in (ROOT / d).rglob("*.py"))


def test_the_scan_sees_the_package():
    files = package_files()
    assert len(files) > 50
    assert ROOT / "lgmt_tasks" / "logic" / "parse.py" in files


@pytest.mark.parametrize(
    "snippet",
    [
        "eval(text)",
        "exec(code)",
        "import pickle\npickle.loads(b)",
        "from pickle import load",
        "yaml.load(f)",
        "yaml.load(f, Loader=yaml.FullLoader)",
        "torch.load(path)",
        "datasets.load_dataset(name, trust_remote_code=True)",
        "AutoModel.from_pretrained(name, trust_remote_code=flag)",
        "pd.read_pickle(path)",
        "np.load(path, allow_pickle=True)",
    ],
)
def test_the_scan_catches_each_construct(snippet):
    assert problems_in(snippet, "x.py")


@pytest.mark.parametrize(
    "snippet",
    [
        "yaml.load(f, Loader=yaml.SafeLoader)",
        "yaml.safe_load(f)",
        "torch.load(path, weights_only=True)",
        "load_dataset(name, trust_remote_code=False)",
        "model.eval()",  # a method named eval is not the builtin
        "json.loads(s)",
        "'eval(x)'",
    ],
)
def test_the_scan_allows_safe_forms(snippet):
    assert problems_in(snippet, "x.py") == []


def test_nothing_we_load_is_executed():
    problems = [
        p
        for file in package_files()
        for p in problems_in(file.read_text(encoding="utf-8"), str(file.relative_to(ROOT)))
    ]
    assert problems == [], "\n".join(problems)
