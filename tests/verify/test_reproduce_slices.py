"""Every builder still makes what the committed datasets were made with: a slice of each, rebuilt and compared.

The full byte-for-byte rebuild of `datasets/<suite>` is `make reproduce` (about 4 minutes on two cores); this is its
share of `make test`. Each suite's slice (`tests/slices.py`: the default options, fewer items, every phase of the
builder) is built once per run and its files are compared with the digests `make datasets` recorded when it last
rebuilt the committed datasets (`tests/reproduce_slices.json`). A difference means a builder or card changed its
output: rebuild with `make datasets` (which rewrites the record too) and check the whole builds with `make reproduce`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lgmt_tasks import __version__
from tests.slices import RECORD, SUITES, build_revision, cache_key, digests

REMEDY = "rebuild the committed datasets and this record with `make datasets`, then run `make reproduce`"


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_the_record_names_every_suite_at_this_version(record: dict) -> None:
    assert sorted(record) == sorted(SUITES)
    for suite, entry in record.items():
        assert entry["version"] == __version__, f"{suite}: recorded at {entry['version']}; {REMEDY}"
        assert entry["build_revision"] == build_revision(suite), f"{suite}: builder revision changed; {REMEDY}"
        assert entry["config"] == json.loads(json.dumps(cache_key(suite), default=str)), f"{suite}: slice changed"


@pytest.mark.parametrize("suite", SUITES)
def test_a_slice_of_each_builder_rebuilds_to_the_recorded_bytes(slices: dict[str, Path], record: dict, suite: str):
    rebuilt, recorded = digests(slices[suite]), record[suite]["files"]
    assert sorted(rebuilt) == sorted(recorded), f"{suite}: other files than recorded; {REMEDY}"
    changed = sorted(name for name in recorded if rebuilt[name] != recorded[name])
    assert not changed, f"{suite}: {', '.join(changed)} differ from the recorded slice; {REMEDY}"


def test_the_record_is_what_make_datasets_writes() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text(encoding="utf-8")
    datasets_target = makefile.split("\ndatasets:", 1)[1].split("\n\n", 1)[0]
    assert "-m tests.slices --write" in datasets_target
