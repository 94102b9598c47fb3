"""The wheel's data files come from the `package-data` patterns alone, and those patterns reach every data file.

`include-package-data` is off (pyproject.toml says why: with it, setuptools printed 16 "Package would be ignored"
warnings for our data folders). That is safe only while the patterns match every data file in the package folders,
which this checks the way setuptools applies them (each pattern globbed in each listed package's folder).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]

NOT_SHIPPED = {"lgmt_tasks/default_builds/README.md"}
"""`datasets/README.md` (the link `default_builds` points at `datasets/`): about the folder, not a build."""


def package_folder(package: str) -> Path:
    """A package's folder, through `[tool.setuptools.package-dir]` (the longest mapped prefix wins)."""
    mapping = SETUPTOOLS["package-dir"]
    for prefix in sorted(mapping, key=len, reverse=True):
        if package == prefix or package.startswith(prefix + "."):
            rest = package[len(prefix) :].lstrip(".")
            return Path(mapping[prefix], *rest.split(".")) if rest else Path(mapping[prefix])
    return Path(*package.split("."))


def test_include_package_data_is_off():
    assert SETUPTOOLS["include-package-data"] is False


def test_every_data_file_in_a_package_folder_is_matched_by_a_pattern():
    packages = SETUPTOOLS["packages"]
    folders = {package_folder(p) for p in packages}
    shipped: set[str] = set()
    on_disk: set[str] = set()
    for package in packages:
        folder = package_folder(package)
        for pattern in [*SETUPTOOLS["package-data"].get("*", []), *SETUPTOOLS["package-data"].get(package, [])]:
            matched = glob.glob(str(ROOT / folder / pattern))
            shipped |= {os.path.relpath(p, ROOT) for p in matched if os.path.isfile(p)}
        for entry in (ROOT / folder).iterdir():
            if entry.is_file() and entry.suffix not in (".py", ".pyc"):
                on_disk.add(os.path.relpath(entry, ROOT))
            elif entry.is_dir() and entry.relative_to(ROOT) not in folders and entry.name != "__pycache__":
                files = (f for f in entry.rglob("*") if f.is_file() and "__pycache__" not in f.parts)
                on_disk |= {os.path.relpath(f, ROOT) for f in files if f.suffix != ".pyc"}
    assert len(shipped) > 50  # the suites' data, the lm-eval YAMLs and the default builds
    assert on_disk - shipped == NOT_SHIPPED
