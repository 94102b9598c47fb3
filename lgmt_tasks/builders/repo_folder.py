"""What a dataset repository folder holds, read before `datasets` loads it: its suite, data files, statistics, licence.

`datasets.load_dataset` reports a bad `-T dataset=` argument in its own terms: a mistyped folder becomes "Couldn't
reach ... on the Hub", a folder of another suite loads and then fails on a missing column (`Column 'mr' doesn't
exist`), and a data file that is not gzip fails as a generic `DatasetGenerationError`. The checks here run first and
say what is wrong with the argument in the user's terms (`check_folder`, `suite_of_columns`). The same reading
gives the facts an evaluation log should carry about the data it ran on (`FolderFacts`): the build statistics the
builder wrote (`build_stats.json`), the card's licence, and a fingerprint of the rows.

The fingerprint is the SHA-256 of the data files' *JSON Lines* bytes (decompressed), in the card's order: the gzip
bytes may differ between zlib builds while the rows cannot (see `lgmt_tasks.hub.repo`), and the `datasets`
fingerprint of a loaded split depends on cache paths, not only on the rows.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lgmt_tasks import suites as registry

STATS_FILE = "build_stats.json"
"""The build statistics `lgmt_tasks.hub.repo.write_build_repo` writes beside the card."""

_DATA_SUFFIXES = (".jsonl.gz", ".jsonl", ".json", ".parquet", ".csv")


# ---------------------------------------------------------------------------------------------- suite identity


def detect_suite(columns: Sequence[str]) -> str:
    """The suite whose columns a dataset has.

    Raises:
        ValueError: No suite, or more than one, matches the columns.
    """
    have = set(columns)
    matches = [s.name for s in registry.SUITES if s.columns <= have]
    if len(matches) != 1:
        found = "no suite" if not matches else f"several suites ({', '.join(matches)})"
        raise ValueError(
            f"columns {sorted(have)} match {found}; pass --suite, one of {', '.join(registry.SUITE_NAMES)}"
        )
    return matches[0]


def check_columns(suite: str, columns: Sequence[str]) -> None:
    """Raise a `ValueError` naming the missing columns when a dataset cannot be a `suite` dataset."""
    if suite not in registry.SUITE_NAMES:
        raise ValueError(f"suite={suite!r}: expected one of {', '.join(registry.SUITE_NAMES)}")
    missing = sorted(registry.suite(suite).columns - set(columns))
    if missing:
        raise ValueError(f"suite {suite!r} needs the column(s) {', '.join(missing)}, which this dataset lacks")


def suite_of_columns(suite: str, columns: Sequence[str], where: str) -> None:
    """Refuse a dataset whose columns are another suite's: `<where> is a logicasker build, not an LGMT build`.

    Raises:
        ValueError: The columns are another suite's, or lack some of `suite`'s (the message names them).
    """
    have = set(columns)
    if registry.suite(suite).columns <= have:
        return
    others = [s.name for s in registry.SUITES if s.name != suite and s.columns <= have]
    if len(others) == 1:
        raise ValueError(
            f"{where} is {_a(others[0])} build, not {_a(suite)} build: evaluate it "
            f"with the {others[0]} task (lgmt_tasks/{registry.suite(others[0]).tasks[0]}), or pass a {suite} folder"
        )
    try:
        check_columns(suite, columns)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _a(suite: str) -> str:
    """`an LGMT`, `a logicasker`."""
    return "an LGMT" if suite == "lgmt" else f"a {suite}"


# ------------------------------------------------------------------------------------------------ the folder


@dataclass(frozen=True)
class FolderFacts:
    """What a repository folder says about its rows, beside the rows.

    Attributes:
        data_files: The data files, relative to the folder (the card's, else every data file found).
        fingerprint: `sha256:<hex>` of the data files' JSON Lines bytes, in that order.
        columns: The columns of the first row of the first data file (empty if it is not JSON Lines).
        stats: `build_stats.json` (the build config, counts, dropped, notes), or empty if the folder has none.
        card: The card's YAML front matter (licence, source datasets, ...), or empty.
    """

    data_files: tuple[str, ...]
    fingerprint: str
    columns: tuple[str, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    card: dict[str, Any] = field(default_factory=dict)


def card_front_matter(folder: Path) -> dict[str, Any]:
    """The card's YAML front matter, or `{}` when there is no card or it has none.

    Raises:
        ValueError: Naming the card, if its front matter is not YAML.
    """
    card = folder / "README.md"
    if not card.is_file():
        return {}
    text = card.read_text(encoding="utf-8")
    parts = text.split("---\n", 2)
    if not text.startswith("---\n") or len(parts) < 3:
        return {}
    try:
        meta = yaml.safe_load(parts[1]) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{card}: the card's front matter is not valid YAML ({exc})") from None
    return meta if isinstance(meta, dict) else {}


def declared_data_files(folder: Path, card: dict[str, Any]) -> list[str]:
    """The data files the card's `configs` list, else every data file under the folder (as `datasets` infers)."""
    declared = [
        str(files["path"])
        for config in card.get("configs") or []
        for files in config.get("data_files") or []
        if isinstance(files, dict) and "path" in files
    ]
    if declared:
        return declared
    found = (p for p in folder.rglob("*") if p.is_file() and ".cache" not in p.parts and p.name != "README.md")
    return sorted(str(p.relative_to(folder)) for p in found if p.name.endswith(_DATA_SUFFIXES))


class DataFileError(ValueError):
    """A data file that cannot be read: the message names it and says what to do; `path` and `problem` say what.

    Attributes:
        path: The data file.
        problem: What is wrong, without advice (`is missing`, `is not a valid gzip file (...)`), for callers that
            give their own (the build cache rebuilds the entry).
    """

    def __init__(self, path: Path, problem: str, advice: str) -> None:
        super().__init__(f"data file {path} {problem}; {advice}")
        self.path = path
        self.problem = problem


def data_bytes(path: Path) -> bytes:
    """A data file's bytes, decompressed if it is named `.gz`.

    Raises:
        DataFileError: Naming the file, if it is missing or named `.gz` and is not a complete gzip stream.
    """
    if not path.is_file():
        raise DataFileError(path, "is missing (the card lists it)", "rebuild the folder with `lgmt build`")
    raw = path.read_bytes()
    if not path.name.endswith(".gz"):
        return raw
    try:
        return gzip.decompress(raw)
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise DataFileError(
            path,
            f"is not a valid gzip file ({exc})",
            "it may be a Git LFS pointer or a partial download: fetch it again (`git lfs pull`, or download the "
            "repository again) or rebuild the folder with `lgmt build`",
        ) from None


def first_row_columns(data: bytes, path: Path) -> tuple[str, ...]:
    """The keys of the first JSON Lines row (none for an empty file).

    Raises:
        ValueError: Naming the file, if its first line is not a JSON object.
    """
    line = data.split(b"\n", 1)[0].strip()
    if not line:
        return ()
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"data file {path}: the first line is not JSON ({exc})") from None
    if not isinstance(row, dict):
        raise ValueError(f"data file {path}: the first line is not a JSON object")
    return tuple(row)


def read_folder(folder: Path) -> FolderFacts:
    """Read a repository folder's card, statistics and data files (checking each data file), without `datasets`.

    Raises:
        ValueError: Naming the file, if the card's front matter, `build_stats.json` or a data file cannot be read.
    """
    card = card_front_matter(folder)
    files = declared_data_files(folder, card)
    digest = hashlib.sha256()
    columns: tuple[str, ...] = ()
    for name in files:
        path = folder / name
        data = data_bytes(path)
        digest.update(name.encode("utf-8") + b"\0" + data)
        if not columns and path.name.endswith((".jsonl.gz", ".jsonl")):
            columns = first_row_columns(data, path)
    stats: dict[str, Any] = {}
    if (folder / STATS_FILE).is_file():
        try:
            stats = json.loads((folder / STATS_FILE).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{folder / STATS_FILE}: not JSON ({exc})") from None
    return FolderFacts(tuple(files), f"sha256:{digest.hexdigest()}", columns, stats, card)


def check_folder(folder: Path, suite: str) -> FolderFacts:
    """`read_folder`, then refuse a folder of another suite (only for a registered `suite`).

    Raises:
        ValueError: See `read_folder` and `suite_of_columns`.
    """
    facts = read_folder(folder)
    if suite in registry.SUITE_NAMES and facts.columns:
        suite_of_columns(suite, facts.columns, str(folder))
    return facts


# ------------------------------------------------------------------------------------------- the argument


def looks_like_path(dataset: str) -> bool:
    """Whether `dataset` can only be a local path, not a Hub id (`NAME` or `ORG/NAME`)."""
    text = dataset.strip()
    return (
        text.startswith(("/", ".", "~"))
        or "\\" in text
        or text.endswith("/")
        or text.count("/") > 1
        or Path(text).exists()
    )


def no_such_folder(dataset: str, reason: str | None = None) -> ValueError:
    """The error for a `-T dataset=` that is no folder: `no such folder <path> (if this is a Hub id, ...)`."""
    path = Path(dataset).expanduser().absolute()
    hub = f"if this is a Hub id, it could not be read: {reason}" if reason else "it cannot be a Hub id (ORG/NAME)"
    siblings = [p.name for p in path.parent.iterdir() if p.is_dir()] if path.parent.is_dir() else []
    close = difflib.get_close_matches(path.name, siblings, n=1)
    hint = f"; did you mean {path.parent / close[0]}?" if close else ""
    return ValueError(f"dataset={dataset!r}: no such folder {path} ({hub}){hint}")
