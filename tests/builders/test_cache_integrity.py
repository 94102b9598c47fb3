"""A damaged build-cache entry is rebuilt with one warning, and an unwritable cache root is one line (issue 28).

Before: `truncate -s 100` on a cached `test.jsonl.gz` broke every later run with those parameters in `datasets`'
130-line traceback naming neither the file nor `lgmt cache clear`; `LGMT_CACHE_DIR` on an unwritable path failed in
a 295-line traceback that did not name the variable. Real LogicAsker builds on small parameters (one rule, one test
per skill: a few seconds), so the entry's own fingerprint is what is checked.
"""

from __future__ import annotations

import gzip
import logging
from pathlib import Path

import pytest

from lgmt_tasks.builders.cache import CacheDirError, cached_builds, entry_record
from lgmt_tasks.logicasker.dataset import load_logicasker
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.task_params import TaskParameterError

SMALL = {"rule": "modus ponens", "per_skill": 2, "seed": 3}


@pytest.fixture
def cache(offline_cache: Path) -> Path:
    """The test's own build cache, offline (`tests/conftest.py`)."""
    return offline_cache


def _data_file(cache: Path) -> Path:
    (entry,) = cached_builds(cache)
    return entry.path / "data" / "default" / "test.jsonl.gz"


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_an_entry_records_the_fingerprint_the_log_records(cache: Path) -> None:
    loaded = load_logicasker(**SMALL)  # type: ignore[arg-type]
    (entry,) = cached_builds(cache)
    assert entry_record(entry.path).read_text().strip() == loaded.metadata["fingerprint"]
    assert entry_record(entry.path).parent == entry.path.parent  # beside: the folder stays what `lgmt build` writes


def test_a_truncated_entry_is_rebuilt_with_one_warning(cache: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = load_logicasker(**SMALL)  # type: ignore[arg-type]
    data = _data_file(cache)
    with data.open("r+b") as handle:  # `truncate -s 100`
        handle.truncate(100)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        again = load_logicasker(**SMALL)  # type: ignore[arg-type]
    assert again.rows.to_list() == first.rows.to_list()
    assert again.metadata["fingerprint"] == first.metadata["fingerprint"]
    (warning,) = _warnings(caplog)
    assert str(data) in warning and "lgmt cache clear" in warning and "not a valid gzip file" in warning
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        load_logicasker(**SMALL)  # type: ignore[arg-type]
    assert _warnings(caplog) == []  # the rebuilt entry is sound


def test_an_entry_whose_rows_changed_is_rebuilt(cache: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = load_logicasker(**SMALL)  # type: ignore[arg-type]
    data = _data_file(cache)
    lines = gzip.decompress(data.read_bytes()).splitlines(keepends=True)
    data.write_bytes(gzip.compress(b"".join(lines[:-1])))  # readable, one row short
    with caplog.at_level(logging.WARNING):
        again = load_logicasker(**SMALL)  # type: ignore[arg-type]
    assert len(again.rows) == len(first.rows)
    (warning,) = _warnings(caplog)
    assert "fingerprint" in warning and str(data) in warning and "lgmt cache clear" in warning


def test_an_unwritable_cache_root_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", "/proc/lgmt-cache")
    with pytest.raises(CacheDirError, match=r"^LGMT_CACHE_DIR=/proc/lgmt-cache: cannot write .*set LGMT_CACHE_DIR"):
        load_logicasker(**SMALL)  # type: ignore[arg-type]
    with pytest.raises(CacheDirError, match="LGMT_CACHE_DIR=/proc/lgmt-cache"):
        load_logicasker()  # the shipped default build: `datasets` still copies it under the cache root
    with pytest.raises(TaskParameterError, match="LGMT_CACHE_DIR=/proc/lgmt-cache") as info:
        logicasker(rule="modus ponens", per_skill=2)
    assert "\n" not in str(info.value)


def test_clearing_a_build_removes_its_record(cache: Path) -> None:
    from click.testing import CliRunner

    from lgmt_tasks.cli import main

    load_logicasker(**SMALL)  # type: ignore[arg-type]
    (entry,) = cached_builds(cache)
    result = CliRunner().invoke(main, ["cache", "clear", "--suite", "logicasker"])
    assert result.exit_code == 0, result.output
    assert not entry.path.exists() and not entry_record(entry.path).exists()
