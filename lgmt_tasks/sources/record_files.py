"""Reading source record files: every record of a JSON or JSON Lines file (or a folder of them), with where it starts.

The front door (`lgmt_tasks.sources.load`) reads files through this module and hands each record to its source's
reader; the readers themselves (`folio`, `proverqa`, `logicnli`) only ever see one record at a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lgmt_tasks.sources.common import SKIP_INVALID_JSON, SKIP_NOT_UTF8, RecordLocation, SourceDataError


@dataclass(frozen=True)
class UnreadableRecord:
    """What `read_records` yields in place of a line that is not valid JSON or not UTF-8: why, and the skip's name."""

    reason: str
    skip: str = SKIP_INVALID_JSON


def read_records(path: str | Path) -> Iterator[tuple[Any, Path, int]]:
    """Yield ``(record, file, index)`` for every record of a JSON/JSONL file or a folder of them.

    `index` is the record's 0-based position among its file's records (FOLIO v0.0 validation ids are made from
    it). `read_located_records` also gives where each record starts.
    """
    for record, file, index, _location in read_located_records(path):
        yield record, file, index


def read_located_records(path: str | Path) -> Iterator[tuple[Any, Path, int, RecordLocation]]:
    """Yield ``(record, file, index, location)`` for every record of a JSON/JSONL file or a folder of them.

    A folder is read non-recursively, files in name order, ``*.jsonl`` and ``*.json`` only (so a ``raw/``
    sub-folder or a licence file next to the data is ignored). A ``.json`` file holds one JSON array (the raw
    ProverQA layout) or one object per line. A line that is not valid JSON, or not UTF-8 text, is yielded as an
    `UnreadableRecord` (one bad line must not stop the build, nor vanish: `iter_problems` counts it as a skip); a
    record may also be any JSON value, which the caller checks. `location` is the 1-based line and column where the
    record starts.

    Raises:
        FileNotFoundError: `path` does not exist.
        SourceDataError: A folder holds no data file, a file is binary (a NUL byte or a compressed file's magic
            number: not text at all), a JSON array file is not UTF-8, or a ``.json`` file that opens as an array is
            not valid JSON as a whole (no record can be told apart from the next).
    """
    root = Path(path)
    if not root.exists():
        raise FileNotFoundError(f"no such file or folder: {root}")
    files = [root] if root.is_file() else sorted(p for p in root.iterdir() if p.suffix in (".json", ".jsonl"))
    if not files:
        raise SourceDataError(f"no .json or .jsonl files in {root}")
    for file in files:
        data = file.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if _binary(data) or data.lstrip().startswith(b"["):  # not text at all, or one array (no lines to skip)
                raise SourceDataError(
                    f"{file}: not a UTF-8 text file (byte {exc.start}: {exc.reason}); source records are JSON or "
                    "JSON Lines text (decompress a .gz first)"
                ) from None
            # a text file with some lines in another encoding: those lines are skipped and counted, as bad JSON is
            text = data.decode("utf-8", errors="surrogateescape")
        if file.suffix == ".json" and text.lstrip().startswith("["):
            for index, (record, location) in enumerate(_array_elements(text, file)):
                yield record, file, index, location
        else:
            yield from _jsonl_records(text, file)


def _jsonl_records(text: str, file: Path) -> Iterator[tuple[Any, Path, int, RecordLocation]]:
    """The records of a JSON Lines text, one per non-blank line (only a newline ends a line, as in JSON Lines)."""
    index = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        column = len(line) - len(line.lstrip()) + 1
        undecodable = _UNDECODED.search(line)
        record: Any
        if undecodable is not None:
            record = UnreadableRecord("line is not UTF-8 text", SKIP_NOT_UTF8)
            column = undecodable.start() + 1
        else:
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                record = UnreadableRecord(f"line is not valid JSON: {exc}")
                column = exc.colno
        yield record, file, index, RecordLocation(file.name, number, column)
        index += 1


_UNDECODED = re.compile("[\udc80-\udcff]")
"""A byte that was not UTF-8, as `surrogateescape` decoding keeps it (a lone surrogate no UTF-8 text contains)."""

_BINARY_MAGIC = (b"\x1f\x8b", b"PK\x03\x04", b"PAR1", b"BZh", b"\xfd7zXZ", b"(\xb5/\xfd")
"""gzip, zip, Parquet, bzip2, xz and zstd files: compressed or binary, never records with a bad line."""


def _binary(data: bytes) -> bool:
    """Whether `data` is a binary file rather than text (a NUL byte, or a compressed or columnar format's magic)."""
    return b"\x00" in data or data.startswith(_BINARY_MAGIC)


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _skip_space(text: str, pos: int) -> int:
    match = _JSON_SPACE.match(text, pos)
    return match.end() if match else pos


def _array_elements(text: str, file: Path) -> Iterator[tuple[Any, RecordLocation]]:
    """The elements of a JSON array text, each with where it starts.

    Raises:
        SourceDataError: The text is not one valid JSON array.
    """
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceDataError(f"{file}: not valid JSON: {exc}") from exc
    if not isinstance(whole, list):
        raise SourceDataError(f"{file}: expected one JSON array")
    decoder = json.JSONDecoder()
    line, line_start, counted = 1, 0, 0  # lines are counted incrementally: the raw files are megabytes

    def locate(offset: int) -> RecordLocation:
        nonlocal line, line_start, counted
        line += text.count("\n", counted, offset)
        newline = text.rfind("\n", counted, offset)
        line_start = newline + 1 if newline >= 0 else line_start
        counted = offset
        return RecordLocation(file.name, line, offset - line_start + 1)

    pos = _skip_space(text, 0) + 1  # after "["
    for _ in range(len(whole)):
        pos = _skip_space(text, pos)
        record, end = decoder.raw_decode(text, pos)
        yield record, locate(pos)
        pos = _skip_space(text, end) + 1  # after ","


__all__ = ["UnreadableRecord", "read_located_records", "read_records"]
