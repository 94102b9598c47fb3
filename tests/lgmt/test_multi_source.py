"""Several sources in one LGMT build, and `--per-mr all` (no cap: every applicable pair is tried).

Small inputs: the first records of FOLIO v2 validation and ProverQA easy, written to temporary files, and a few
generated cases, over four relations of different categories.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.command import pair_sources
from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.cli.build import build
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.card import card_body, licence_of
from lgmt_tasks.lgmt.config import LgmtConfig

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
MRS = ("MR-E1.1", "MR-S1", "MR-P1", "MR-C1")


def head(source: Path, n: int, target: Path) -> str:
    lines = source.read_text(encoding="utf-8").splitlines()[:n]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(target)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("sources")
    return {
        "folio": head(DATA / "folio" / "folio_v2_validation.jsonl", 30, folder / "folio.jsonl"),
        "proverqa": head(DATA / "proverqa" / "proverqa_dev_easy.jsonl", 30, folder / "proverqa.jsonl"),
    }


@pytest.fixture(scope="module")
def pooled(small: dict[str, str]):
    config = LgmtConfig(
        source="folio",
        source_path=small["folio"],
        extra_sources=(("proverqa", small["proverqa"]), ("generated", None)),
        mrs=MRS,
        per_mr="all",
        generated_cases=12,
        seed=3,
    )
    return build_lgmt(config)


def test_a_pooled_build_has_rows_of_every_source_with_unique_ids(pooled) -> None:
    rows = pooled.dataset.to_list()
    assert {r["source_dataset"] for r in rows} == {"folio", "proverqa", "generated"}
    assert len({r["id"] for r in rows}) == len(rows)


def test_the_pool_per_source_and_relation_adds_up_to_the_build_counts(pooled) -> None:
    notes = pooled.stats.notes
    for mr in MRS:
        per_source = sum(by_mr.get(mr, 0) for by_mr in notes["pool_by_source"].values())
        assert per_source == pooled.stats.counts[mr]["candidates"]
    rows = pooled.dataset.to_list()
    for source, by_mr in notes["groups_by_source"].items():
        for mr, n in by_mr.items():
            assert n == sum(1 for r in rows if r["source_dataset"] == source and r["mr"] == mr)
    assert sum(notes["proven_by_source"].values()) == pooled.stats.counts["source"]["proven"]
    # each source's loading is counted in its own bucket
    assert pooled.stats.counts["source folio"]["records"] == 30
    assert pooled.stats.counts["source proverqa"]["records"] == 30


def test_per_mr_all_tries_every_candidate(pooled) -> None:
    for mr in MRS:
        assert pooled.stats.counts[mr]["tried"] == pooled.stats.counts[mr]["candidates"]
    assert pooled.config.key()["per_mr"] == "all"
    assert "--per-mr all" in reproduce_command("lgmt", pooled.config, "datasets/lgmt")


def test_the_pool_does_not_depend_on_the_order_of_the_sources(small: dict[str, str], pooled) -> None:
    config = LgmtConfig(
        source="generated",
        extra_sources=(("proverqa", small["proverqa"]), ("folio", small["folio"])),
        mrs=MRS,
        per_mr="all",
        generated_cases=12,
        seed=3,
    )
    assert build_lgmt(config).dataset.to_list() == pooled.dataset.to_list()


def test_the_card_names_every_source_and_licence(pooled) -> None:
    licence, text, extra = licence_of(pooled.config)
    assert licence == "other" and extra == {"license_name": "mixed-source-licences"}
    assert "CC BY-SA 4.0" in text and "ProverQA" in text
    body = card_body(pooled, "datasets/lgmt")
    assert body.startswith("# LGMT metamorphic groups (folio + proverqa + generated)")
    assert "### Pool per source" in body
    command = reproduce_command("lgmt", pooled.config, "datasets/lgmt")
    assert command.count("--source ") == 3 and command.count("--source-path ") == 2


def test_a_single_source_key_is_unchanged_and_keys_round_trip(pooled) -> None:
    assert "extra_sources" not in LgmtConfig().key()
    assert "extra_sources" in pooled.config.key()
    round_tripped = json.loads(json.dumps(pooled.config.key()))
    assert LgmtConfig.from_key(round_tripped) == pooled.config


def test_a_source_given_twice_is_refused(small: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="given more than once"):
        LgmtConfig(source="folio", source_path=small["folio"], extra_sources=(("folio", small["folio"]),))


def test_one_record_read_from_two_files_is_refused(small: dict[str, str], tmp_path: Path) -> None:
    copy = tmp_path / "copy.jsonl"
    copy.write_text(Path(small["folio"]).read_text(encoding="utf-8"), encoding="utf-8")
    config = LgmtConfig(source="folio", source_path=small["folio"], extra_sources=(("folio", str(copy)),), mrs=MRS)
    with pytest.raises(ValueError, match="is read both from"):
        build_lgmt(config)


@pytest.mark.parametrize("per_mr", [0, -2, "some", True])
def test_bad_per_mr_is_refused(per_mr: object) -> None:
    with pytest.raises(ValueError, match="per_mr"):
        LgmtConfig(per_mr=per_mr)  # type: ignore[arg-type]


def test_paths_pair_with_the_sources_that_need_one_in_order() -> None:
    pairs = pair_sources(("generated", "folio", "proverqa"), ("A", "B"), pathless=("generated",))
    assert pairs == [("generated", None), ("folio", "A"), ("proverqa", "B")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--source", "folio", "--source", "proverqa", "--source-path", "{folio}"], "need 2 --source-path"),
        (["--source", "generated", "--source-path", "{folio}"], "need 0 --source-path"),
        (["--per-mr", "0"], "expected a positive integer or 'all'"),
        (["--per-mr", "many"], "expected a positive integer or 'all'"),
    ],
)
def test_the_command_refuses_bad_source_pairs_and_per_mr(
    args: list[str], message: str, small: dict[str, str], tmp_path: Path
) -> None:
    args = [a.format(folio=small["folio"]) for a in args]
    result = CliRunner().invoke(build, ["lgmt", *args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "out").exists()


def test_the_command_builds_a_pool_of_two_sources(small: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "pool"
    args = ["lgmt", "--source", "generated", "--source", "folio", "--source-path", small["folio"]]
    args += ["--generated-cases", "8", "--per-mr", "all", "--mr", "MR-E1.1", "--mr", "MR-C1", "--out", str(out)]
    result = CliRunner().invoke(build, args)
    assert result.exit_code == 0, result.output
    stats = json.loads((out / "build_stats.json").read_text(encoding="utf-8"))
    assert stats["config"]["per_mr"] == "all"
    assert stats["config"]["extra_sources"] == [["folio", small["folio"]]]
    assert set(stats["notes"]["pool_by_source"]) == {"generated", "folio"}
