"""`source=paper`: the paper's evaluation set (FOLIO, LogicNLI, ProverQA) from one folder, in one command.

Most tests use a small copy of the shared data folder (the first records of each file, the same layout), so that a
build takes seconds; one slow test builds from the shared data folder itself. All skip without that folder.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.cli.build import build
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.sources.common import SourceDataError
from lgmt_tasks.sources.paper import (
    PAPER_CANDIDATE_POOL,
    PAPER_FILES,
    PAPER_GROUPS,
    PAPER_GROUPS_PER_RELATION,
    paper_folder,
    paper_sources,
)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
MRS = ("MR-C1", "MR-S1", "MR-P1")
HEADS = {"folio": 40, "logicnli": 40, "proverqa": 10}
"""Records copied per file of each dataset (LogicNLI: two stories of 20 statements)."""

pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"needs the source data folder {DATA}")


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder laid out as the shared data folder, each file cut to its first records."""
    root = tmp_path_factory.mktemp("paper-data")
    for source, file in PAPER_FILES:
        target = root / file
        target.parent.mkdir(exist_ok=True)
        lines = (DATA / file).read_text(encoding="utf-8").splitlines()[: HEADS[source]]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def explicit(folder: Path) -> LgmtConfig:
    """The explicit multi-source config of the paper's set in `folder`, with the tests' parameters."""
    (source, path), *rest = [(s, str(folder / f)) for s, f in PAPER_FILES]
    return LgmtConfig(source=source, source_path=path, extra_sources=tuple(rest), mrs=MRS, per_mr=2)


@pytest.fixture(scope="module")
def built(mini: Path):
    return build_lgmt(LgmtConfig(source="paper", source_path=str(mini), mrs=MRS, per_mr=2))


def test_paper_is_the_explicit_pooled_build_of_the_three_datasets(mini: Path) -> None:
    config = LgmtConfig(source="paper", source_path=str(mini), mrs=MRS, per_mr=2)
    assert config == explicit(mini)
    assert config.key() == explicit(mini).key()  # the same cache key: it records the files, not "paper"
    key = config.key()
    assert key["source"] == "folio" and all(source != "paper" for source, _ in key["extra_sources"])
    assert [s for s, _ in config.sources()] == ["folio", "logicnli", "logicnli", "proverqa", "proverqa", "proverqa"]
    assert paper_folder(config.sources()) == str(mini)
    assert LgmtConfig().per_mr == 200  # the paper's cap is the default: the preset build is the paper's sampling


def test_the_paper_build_draws_from_all_three_and_equals_the_explicit_build(mini: Path, built) -> None:
    rows = built.dataset.to_list()
    assert {r["source_dataset"] for r in rows} == {"folio", "logicnli", "proverqa"}
    assert len(rows) == 2 * len(MRS)
    assert build_lgmt(explicit(mini)).dataset.to_list() == rows
    read = built.stats.notes["read_by_source"]
    assert {s: c["records"] for s, c in read.items()} == {"folio": 40, "logicnli": 80, "proverqa": 30}
    assert sum(c["loaded"] for c in read.values()) == sum(
        built.stats.counts[b]["loaded"] for b in built.stats.counts if b.startswith("source ")
    )
    assert set(built.stats.notes["proven_by_source"]) == {"folio", "logicnli", "proverqa"}
    assert built.stats.notes["candidate_pool"] == sum(
        n for by_mr in built.stats.notes["pool_by_source"].values() for n in by_mr.values()
    )


@pytest.mark.parametrize(
    ("remove", "named"),
    [
        ("logicnli", ["the logicnli/ subfolder (logicnli_dev.jsonl, logicnli_test.jsonl)"]),
        ("proverqa/proverqa_dev_hard.jsonl", ["proverqa/proverqa_dev_hard.jsonl"]),
    ],
)
def test_a_folder_lacking_a_dataset_is_refused_naming_it_and_the_layout(
    mini: Path, tmp_path: Path, remove: str, named: list[str]
) -> None:
    folder = tmp_path / "data"
    shutil.copytree(mini, folder)
    target = folder / remove
    shutil.rmtree(target) if target.is_dir() else target.unlink()
    with pytest.raises(SourceDataError) as caught:
        LgmtConfig(source="paper", source_path=str(folder))
    message = str(caught.value)
    for text in named:
        assert text in message
    for _, file in PAPER_FILES:  # the whole expected layout
        assert file in message
    out = tmp_path / "out"
    result = CliRunner().invoke(build, ["lgmt", "--source", "paper", "--source-path", str(folder), "--out", str(out)])
    assert result.exit_code == 2 and "lacks" in result.output and not out.exists()


def test_paper_needs_a_folder() -> None:
    with pytest.raises(SourceDataError, match="needs source_path"):
        LgmtConfig(source="paper")
    with pytest.raises(SourceDataError, match="is not a folder"):
        paper_sources(DATA / "folio" / "folio_v2_validation.jsonl")


def test_the_card_command_says_paper_and_rebuilds_the_same_rows(mini: Path, tmp_path: Path) -> None:
    first, second, third = tmp_path / "first", tmp_path / "second", tmp_path / "third"
    options = [a for mr in MRS for a in ("--mr", mr)] + ["--per-mr", "2"]
    result = CliRunner().invoke(build, ["lgmt", "--source", "paper", "--source-path", str(mini), *options,
                                        "--out", str(first)])  # fmt: skip
    assert result.exit_code == 0, result.output
    for source in ("folio", "logicnli", "proverqa"):  # the per-source summary
        assert f"| {source} | " in result.output
    card = (first / "README.md").read_text(encoding="utf-8")
    command = next(line for line in card.splitlines() if line.startswith("lgmt build lgmt "))
    assert f"--source paper --source-path {mini}" in command
    args = shlex.split(command)[2:]
    args[args.index("--out") + 1] = str(second)
    result = CliRunner().invoke(build, args)
    assert result.exit_code == 0, result.output
    # the explicit six-pair command builds the same, and its card says `--source paper` too
    pairs = [a for s, f in PAPER_FILES for a in ("--source", s, "--source-path", str(mini / f))]
    result = CliRunner().invoke(build, ["lgmt", *pairs, *options, "--out", str(third)])
    assert result.exit_code == 0, result.output
    files = [p.relative_to(first) for p in sorted(first.rglob("*.jsonl.gz"))]
    assert files
    for folder in (second, third):
        for file in files:
            assert (folder / file).read_bytes() == (first / file).read_bytes()
        assert (
            json.loads((folder / "build_stats.json").read_text(encoding="utf-8"))["config"]
            == json.loads((first / "build_stats.json").read_text(encoding="utf-8"))["config"]
        )
    assert f"--source paper --source-path {mini}" in (third / "README.md").read_text(encoding="utf-8")


def test_a_paper_pair_among_other_sources_expands_in_place(mini: Path) -> None:
    config = LgmtConfig(source="generated", extra_sources=(("paper", str(mini)),), mrs=MRS, generated_cases=5)
    assert config.sources()[0] == ("generated", None) and len(config.sources()) == 1 + len(PAPER_FILES)
    assert paper_folder(config.sources()) is None  # not the paper's set alone: the card lists every pair
    assert "--source paper" not in reproduce_command("lgmt", config, "out")


def test_the_lm_eval_key_source_paper_builds_the_set(mini: Path, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from lgmt_tasks.task_configs._params import dataset_params
    from lgmt_tasks.task_configs.lgmt import utils as lgmt_utils

    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    params = dataset_params(
        lgmt_utils.PARAMS, {"relation_set": "mr_c"}, {"source": "paper", "source_path": str(mini), "per_mr": 2}
    )
    docs = lgmt_utils.load_docs(**params)["test"]
    assert len(docs) == 2 * 3 and {d["mr"] for d in docs} == {"MR-C1", "MR-C2", "MR-C3"}


def test_the_inspect_tasks_take_source_paper(mini: Path, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from lgmt_tasks.lgmt.task import mr_c

    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    task = mr_c(source="paper", source_path=str(mini), per_mr=2)
    metadata = [s.metadata or {} for s in task.dataset]
    assert {m["mr"] for m in metadata} == {"MR-C1", "MR-C2", "MR-C3"}
    assert {m["source_dataset"] for m in metadata} <= {"folio", "logicnli", "proverqa"}


def test_the_paper_figures_add_up() -> None:
    assert sum(PAPER_GROUPS_PER_RELATION.values()) == PAPER_GROUPS == 3091
    assert PAPER_CANDIDATE_POOL == 76298
    from lgmt_tasks.lgmt.relations import RELATIONS

    assert list(PAPER_GROUPS_PER_RELATION) == list(RELATIONS)


@pytest.mark.slow
def test_the_shared_data_folder_builds_the_paper_set() -> None:
    mrs = ("MR-C1", "MR-S1", "MR-E1.6")
    result = build_lgmt(LgmtConfig(source="paper", source_path=str(DATA), mrs=mrs, per_mr=2))
    notes = result.stats.notes
    assert {s: c["records"] for s, c in notes["read_by_source"].items()} == {
        "folio": 1001,  # FOLIO v2 train, the paper's 995 cases less its six unparsable records
        "logicnli": 4000,
        "proverqa": 1500,
    }
    assert notes["read_by_source"]["folio"]["loaded"] == 874  # with the slips that have one reading repaired
    assert notes["proven_by_source"] == {"folio": 592, "logicnli": 2252, "proverqa": 1485}
    assert {r["source_dataset"] for r in result.dataset.to_list()} == {"folio", "logicnli", "proverqa"}


def test_the_readme_quotes_the_paper_set_benchmark() -> None:
    """The README's comparison with §4.1 is the table `benchmarks/lgmt_paper_set.py` last wrote, and its totals are
    the JSON's (so a re-run that changes a number fails here until the README is updated)."""
    root = Path(__file__).resolve().parents[2]
    results = root / "benchmarks" / "results"
    lines = (results / "lgmt_paper_set.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| source |"))
    end = next(i for i in range(start, len(lines) + 1) if i == len(lines) or not lines[i].startswith("|"))
    table = "\n".join(lines[start:end])
    assert table in (root / "lgmt_tasks" / "lgmt" / "README.md").read_text(encoding="utf-8")
    totals = json.loads((results / "lgmt_paper_set.json").read_text(encoding="utf-8"))["totals"]
    total_row = lines[end - 1]
    assert f"{totals['candidate_pool']['ours']:,}" in total_row and f"{totals['groups']['ours']:,}" in total_row
