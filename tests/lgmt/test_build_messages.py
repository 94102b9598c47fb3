"""What `lgmt build lgmt` says about a source build (issue 28): progress, empty relations, drops told apart.

Before: a requested relation that yielded 0 groups (`--source logicnli --mr MR-P5`) got no warning; the LogicNLI
source stage printed nothing for about two minutes; the last line mixed dropped source records with dropped groups
("6 groups from a candidate pool of 156; 87 dropped"); and one drop reason had two wordings (FOLIO's `gold label
disagrees with prover`, LogicNLI's `prover label differs from gold`). A real build on the first records of the shared
LogicNLI dev file (real reader, real Z3).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.sources import logicnli
from lgmt_tasks.sources.common import SKIP_GOLD_DISAGREES

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
RECORDS = 60


@pytest.fixture
def small_logicnli(tmp_path: Path) -> Path:
    source = DATA / "logicnli" / "logicnli_dev.jsonl"
    if not source.is_file():
        pytest.skip("../shared/data is absent")
    folder = tmp_path / "logicnli"
    folder.mkdir()
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)[:RECORDS]
    (folder / "logicnli_dev.jsonl").write_text("".join(lines), encoding="utf-8")
    return folder


def test_a_logicnli_build_reports_progress_empty_relations_and_drops_apart(
    small_logicnli: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(logicnli, "PROGRESS_EVERY", 1)  # a line every tenth of the 60 problems
    out = tmp_path / "out"
    args = ["build", "lgmt", "--source", "logicnli", "--source-path", str(small_logicnli)]
    result = CliRunner().invoke(main, [*args, "--mr", "MR-P5", "--mr", "MR-E1.1", "--per-mr", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output

    assert f"checking {RECORDS} LogicNLI problems with Z3" in result.output
    assert len(re.findall(rf"LogicNLI: \d+ of {RECORDS} problems checked, \d+ usable so far", result.output)) == 10

    warnings = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and warnings[0].startswith("Warning: MR-P5 yielded no groups")

    stats = json.loads((out / "build_stats.json").read_text(encoding="utf-8"))
    source_drops = sum(stats["dropped"]["source"].values())
    group_drops = sum(sum(reasons.values()) for bucket, reasons in stats["dropped"].items() if bucket != "source")
    assert SKIP_GOLD_DISAGREES in stats["dropped"]["source"]
    assert "prover label differs from gold" not in json.dumps(stats)
    assert (
        f"dropped: {source_drops} source records (unusable or not proven), {group_drops} candidate groups"
        in result.output
    )
