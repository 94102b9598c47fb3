"""A slice of every suite's default build: the same options, fewer items, through every phase of its builder.

`make test` rebuilds these slices once per run (`tests/conftest.py::slices`) and compares them with the digests
recorded in `tests/reproduce_slices.json` (`tests/verify/test_reproduce_slices.py`): a builder change that alters its
output fails there within the suite's time, while the byte-for-byte rebuild of the whole committed datasets is the
release check `make reproduce`. `make datasets` rewrites the record (`python -m tests.slices --write`) with the
committed datasets, so the two move together.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from lgmt_tasks import __version__


class Slice(NamedTuple):
    """One suite's slice: its build config and what it reaches."""

    config: Callable[[], Any]
    reaches: str


def _lgmt() -> Any:
    from lgmt_tasks.lgmt.config import LgmtConfig

    return LgmtConfig(per_mr=1, generated_cases=40)


def _logicasker() -> Any:
    from lgmt_tasks.logicasker.config import LogicAskerConfig

    return LogicAskerConfig(per_skill=1)


def _divlogiceval() -> Any:
    from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig

    return DivLogicEvalConfig(per_type=4)


def _qmfol() -> Any:
    from lgmt_tasks.qmfol.config import QmfolConfig

    return QmfolConfig(depths=(5, 20), widths=(5, 20), distractors=(0, 20), topics=("Food",), seeds=1)


def _lexical() -> Any:
    from lgmt_tasks.lexical.build import LexicalConfig

    return LexicalConfig(per_mr=1, generated_cases=12)


SLICES: dict[str, Slice] = {
    "lgmt": Slice(_lgmt, "every relation from generated source problems, one group each (40 cases, not 300)"),
    "logicasker": Slice(_logicasker, "every skill at length 1, one test per skill and answer instead of four"),
    "divlogiceval": Slice(
        _divlogiceval,
        "every question type (3c1e matched per item; 3e1c and missing-premise menus, the role balance over the "
        "build and its re-choosing passes), four instances per type instead of 300",
    ),
    "qmfol": Slice(_qmfol, "the paper's extreme depths, widths and distractor levels, every label, one topic and seed"),
    "lexical": Slice(_lexical, "the default function-based relations and parts, one group per variant"),
}
SUITES = tuple(SLICES)

RECORD = Path(__file__).with_name("reproduce_slices.json")
"""The digests of the slices as the builders made them when the committed datasets were last rebuilt."""


def write_slice(suite: str, out: Path) -> Path:
    """Build `suite`'s slice and write it as `lgmt build` writes a repository folder."""
    build = importlib.import_module(f"lgmt_tasks.{suite}.build")
    card = importlib.import_module(f"lgmt_tasks.{suite}.card")
    built = getattr(build, f"build_{suite}")(SLICES[suite].config())
    getattr(card, f"write_{suite}_repo")(built, out)
    return out


def build_revision(suite: str) -> int | str:
    """The suite builder's `BUILD_REVISION` (part of the build-cache key)."""
    revision: int | str = importlib.import_module(f"lgmt_tasks.{suite}.build").BUILD_REVISION
    return revision


def cache_key(suite: str) -> dict[str, Any]:
    """The slice config's build-cache key."""
    key: dict[str, Any] = SLICES[suite].config().key()
    return key


def digests(folder: Path) -> dict[str, str]:
    """SHA-256 of every file of a repository folder, data files decompressed (zlib builds may differ in gzip bytes)."""
    from tests.hub.repo_contents import repo_contents

    return {name: hashlib.sha256(data).hexdigest() for name, data in repo_contents(folder).items()}


def record_entry(suite: str, folder: Path) -> dict[str, Any]:
    """What the record holds for one slice: package version, builder revision, config and file digests."""
    key = json.loads(json.dumps(cache_key(suite), default=str))
    return {"version": __version__, "build_revision": build_revision(suite), "config": key, "files": digests(folder)}


def main() -> None:
    """`python -m tests.slices --write [--out DIR]`: rebuild every slice and rewrite the record."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {RECORD.name}")
    parser.add_argument("--out", type=Path, help="keep the slice folders here (default: a temporary folder)")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = args.out or Path(tmp)
        record = {suite: record_entry(suite, write_slice(suite, root / suite)) for suite in SUITES}
    text = json.dumps(record, indent=1, sort_keys=True) + "\n"
    if args.write:
        RECORD.write_text(text, encoding="utf-8")
        print(f"wrote {RECORD}")
    else:
        print(text)


if __name__ == "__main__":
    main()
