"""A source file is read only as the source its records say they are: the card's licence follows the data.

Our clean FOLIO and ProverQA files have the same layout, so before this check a FOLIO file built with
`--source proverqa` gave a card stating ProverQA (no licence) over FOLIO's share-alike records.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.sources.common import SourceDataError
from lgmt_tasks.sources.load import cases_from_records, load_source


def _record(rid: str, dataset: str) -> dict[str, Any]:
    """A clean-layout record (the layout FOLIO's and ProverQA's clean files share) that loads and proves True."""
    return {
        "id": rid,
        "dataset": dataset,
        "premises": ["All cats are animals.", "Tom is a cat."],
        "premises_fol": ["∀x (Cat(x) → Animal(x))", "Cat(tom)"],
        "conclusion": "Tom is an animal.",
        "conclusion_fol": "Animal(tom)",
        "label": "True",
    }


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "lgmt-cache"))


def test_a_folio_file_read_as_proverqa_is_refused_naming_file_record_and_both_sources(tmp_path: Path) -> None:
    path = _write(tmp_path / "folio_dev.jsonl", [_record("proverqa_like", "proverqa"), _record("folio_7", "folio")])
    with pytest.raises(SourceDataError) as error:
        load_source("proverqa", path)
    message = str(error.value)
    assert f"{path}:2" in message  # the file and the 1-based line of the first foreign record
    assert "'folio_7'" in message and "'folio' record" in message and "read as proverqa" in message


def test_every_source_checks_the_records_identity(tmp_path: Path) -> None:
    path = _write(tmp_path / "mixed.jsonl", [_record("p1", "proverqa")])
    with pytest.raises(SourceDataError, match="'p1' is a 'proverqa' record .* read as folio"):
        load_source("folio", path)
    with pytest.raises(SourceDataError, match="record 0: record 'p1' is a 'proverqa' record"):
        cases_from_records([_record("p1", "proverqa")], "logicnli")
    cases, _ = load_source("proverqa", path)  # the matching source loads it
    assert [c.source_dataset for c in cases] == ["proverqa"]


def test_lgmt_build_refuses_the_mismatch_and_writes_nothing(tmp_path: Path) -> None:
    path = _write(tmp_path / "folio_validation.jsonl", [_record("folio_1", "folio")])
    out = tmp_path / "out"
    args = ["build", "lgmt", "--source-path", str(path), "--mr", "MR-E1.1", "--per-mr", "1", "--out", str(out)]

    refused = CliRunner().invoke(main, [*args, "--source", "proverqa"])
    assert refused.exit_code == 1
    assert "Traceback" not in refused.output
    assert refused.output.strip().splitlines()[-1].startswith(f"Error: {path}:1: record 'folio_1' is a 'folio'")
    assert not out.exists()

    built = CliRunner().invoke(main, [*args, "--source", "folio"])
    assert built.exit_code == 0, built.output
    card = (out / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(card.split("---\n")[1])
    assert meta["license"] == "cc-by-sa-4.0" and meta["source_datasets"] == ["folio"]
