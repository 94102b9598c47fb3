"""A repository folder's files as bytes, compared the way a rebuild is compared with a committed build."""

from __future__ import annotations

from pathlib import Path

from lgmt_tasks.hub.repo import read_data_file


def repo_contents(path: Path) -> dict[str, bytes]:
    """Every file of a repository folder, data files decompressed (the comparison that is zlib-independent)."""
    return {
        p.relative_to(path).as_posix(): read_data_file(p) if p.name.endswith(".gz") else p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }
