"""Sharded LGMT builds: shards 0/3, 1/3 and 2/3, merged, are the unsharded build, byte for byte.

Through the command, as a job array would run it: each shard into its own folder, then `--merge-shards`. With
`--per-mr all` the relations are cut into runs of candidates (`RUN_SIZE`, lowered here so that even this small
build has many units); with a cap, a relation is one unit.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.parallel import Shard, assign_shards
from lgmt_tasks.cli.build import build
from lgmt_tasks.lgmt import build as lgmt_build

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def fingerprint(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run(args: list[str]) -> str:
    result = CliRunner().invoke(build, ["lgmt", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def folio(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("src") / "folio.jsonl"
    lines = (DATA / "folio" / "folio_v2_validation.jsonl").read_text(encoding="utf-8").splitlines()[:40]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def config_args(folio: str, per_mr: str) -> list[str]:
    args = ["--source", "generated", "--source", "folio", "--source-path", folio, "--generated-cases", "12"]
    args += ["--seed", "7", "--per-mr", per_mr]
    for mr in ("MR-E1.1", "MR-E2.1", "MR-S1", "MR-P1", "MR-C1"):
        args += ["--mr", mr]
    return args


@pytest.mark.parametrize("per_mr", ["all", "3"])
def test_three_shards_merged_are_the_unsharded_build(
    per_mr: str, folio: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lgmt_build, "RUN_SIZE", 4)
    args = config_args(folio, per_mr)
    run([*args, "--out", str(tmp_path / "whole")])
    for i in range(3):
        run([*args, "--shard", f"{i}/3", "--out", str(tmp_path / f"shard{i}")])
    merge = [a for i in (2, 0, 1) for a in ("--merge-shards", str(tmp_path / f"shard{i}"))]  # any order
    run([*merge, "--out", str(tmp_path / "merged")])
    whole = fingerprint(tmp_path / "whole")
    assert whole == fingerprint(tmp_path / "merged")
    # every shard did part of the work, and none is the whole build
    for i in range(3):
        assert fingerprint(tmp_path / f"shard{i}") != whole


def test_the_run_size_does_not_change_the_build(folio: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = config_args(folio, "all")
    run([*args, "--out", str(tmp_path / "default")])
    monkeypatch.setattr(lgmt_build, "RUN_SIZE", 3)
    run([*args, "--out", str(tmp_path / "small-runs")])
    assert fingerprint(tmp_path / "default") == fingerprint(tmp_path / "small-runs")


def test_a_missing_or_foreign_shard_is_refused(folio: str, tmp_path: Path) -> None:
    args = config_args(folio, "3")
    for i in range(2):
        run([*args, "--shard", f"{i}/2", "--out", str(tmp_path / f"s{i}")])
    run([*config_args(folio, "2"), "--shard", "1/2", "--out", str(tmp_path / "other")])
    runner = CliRunner()
    missing = runner.invoke(build, ["lgmt", "--merge-shards", str(tmp_path / "s0"), "--out", str(tmp_path / "m1")])
    assert missing.exit_code == 1 and "missing [1]" in missing.output
    foreign = runner.invoke(
        build,
        [
            "lgmt",
            "--merge-shards",
            str(tmp_path / "s0"),
            "--merge-shards",
            str(tmp_path / "other"),
            "--out",
            str(tmp_path / "m2"),
        ],
    )
    assert foreign.exit_code == 1 and "another config" in foreign.output
    mixed = runner.invoke(
        build, ["lgmt", "--merge-shards", str(tmp_path / "s0"), "--per-mr", "3", "--out", str(tmp_path / "m3")]
    )
    assert mixed.exit_code == 2 and "drop --per-mr" in mixed.output
    for out in ("m1", "m2", "m3"):
        assert not (tmp_path / out).exists()


@pytest.mark.parametrize("text", ["3/3", "1", "a/2", "-1/2", "0/0"])
def test_a_bad_shard_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="shard"):
        Shard.parse(text)


def test_every_unit_goes_to_exactly_one_shard_and_loads_balance() -> None:
    costs = [50, 3, 3, 40, 0, 7, 7, 12, 30, 1]
    owner = assign_shards(costs, 3)
    assert owner == assign_shards(costs, 3)
    assert sorted(set(owner)) == [0, 1, 2]
    loads = [sum(c for c, s in zip(costs, owner) if s == k) for k in range(3)]
    assert max(loads) - min(loads) <= max(costs)
