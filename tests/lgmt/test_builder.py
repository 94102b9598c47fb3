"""The LGMT builder: proven groups, byte-identical rebuilds, a Hub repository `load_dataset` reads back."""

from pathlib import Path

import datasets
import pytest

from lgmt_tasks.hub.repo import data_file, load_dataset_repo, read_data_file
from lgmt_tasks.lgmt.build import FEATURES, build_lgmt
from lgmt_tasks.lgmt.card import write_lgmt_repo
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entailment

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
SMALL = LgmtConfig(per_mr=2, generated_cases=45, seed=3)


@pytest.fixture(scope="module")
def small_build():
    return build_lgmt(SMALL)


def test_every_relation_yields_proven_groups(small_build):
    ds = small_build.dataset
    assert ds.features == FEATURES
    per_mr = {mr: ds["mr"].count(mr) for mr in RELATIONS}
    assert per_mr == {mr: 2 for mr in RELATIONS}
    for mr in RELATIONS:
        assert small_build.stats.counts[mr]["proven"] == 2
        assert small_build.stats.counts[mr]["candidates"] >= 2


def test_labels_are_reproven_for_source_and_followup(small_build):
    """Independent check of what the builder claims: both cases have the row's label under Z3."""
    for row in small_build.dataset:
        for premises, conclusion in (
            (row["premises_fol"], row["conclusion_fol"]),
            (row["followup_premises_fol"], row["followup_conclusion_fol"]),
        ):
            label = entailment([parse(p) for p in premises], parse(conclusion))
            assert getattr(label, "value", None) == row["label"], (row["id"], label)


def test_unchanged_premises_keep_their_sentences(small_build):
    for row in small_build.dataset:
        if row["mr"] in ("MR-C1", "MR-C2", "MR-C3"):
            assert row["followup_premises"] == row["premises"]
            assert row["realised_conclusion"] is True
        if row["mr"] == "MR-P1":
            assert sorted(row["followup_premises"]) == sorted(row["premises"])
            assert row["realised_premises"] == []


def test_same_seed_gives_identical_bytes(tmp_path):
    config = LgmtConfig(per_mr=1, generated_cases=30, seed=11, mrs=("MR-E1.1", "MR-S1", "MR-P4", "MR-C3"))
    a = write_lgmt_repo(build_lgmt(config), tmp_path / "a")
    b = write_lgmt_repo(build_lgmt(config), tmp_path / "b")
    data_a = read_data_file(a / data_file("default", "test"))
    assert data_a == read_data_file(b / data_file("default", "test"))
    other = write_lgmt_repo(build_lgmt(LgmtConfig(**{**config.key(), "seed": 12})), tmp_path / "c")
    assert data_a != read_data_file(other / data_file("default", "test"))


def test_repository_loads_with_declared_features(tmp_path, monkeypatch, small_build):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    folder = write_lgmt_repo(small_build, tmp_path / "repo")
    card = (folder / "README.md").read_text()
    assert card.startswith("---\n") and "configs:" in card and "license: mit" in card
    assert (folder / "build_stats.json").exists()
    loaded = datasets.load_dataset(str(folder), split="test", cache_dir=str(tmp_path / "hf"))
    assert loaded.features == FEATURES
    assert loaded["id"] == small_build.dataset["id"]


def test_rebuilt_folder_is_not_read_from_a_stale_cache(tmp_path, monkeypatch):
    """`datasets` caches a local folder by its name; our loader must see the new contents."""
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    one = LgmtConfig(per_mr=1, generated_cases=30, seed=1, mrs=("MR-C1",))
    two = LgmtConfig(per_mr=2, generated_cases=30, seed=1, mrs=("MR-C1", "MR-C2"))
    write_lgmt_repo(build_lgmt(one), tmp_path / "x" / "built")
    write_lgmt_repo(build_lgmt(two), tmp_path / "y" / "built")
    assert len(load_dataset_repo(tmp_path / "x" / "built")) == 1
    assert len(load_dataset_repo(tmp_path / "y" / "built")) == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"source": "wikipedia"}, "source='wikipedia'"),
        ({"mrs": ("MR-X9",)}, "MR-X9"),
        ({"per_mr": 0}, "per_mr=0"),
        ({"compose": 4}, "compose=4"),
        ({"source": "folio"}, "needs source_path"),
    ],
)
def test_bad_config_names_the_field(change, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        LgmtConfig(**change)


def test_folio_source_build_skips_and_counts():
    if not DATA.exists():
        pytest.skip("../shared/data is absent")
    config = LgmtConfig(
        source="folio",
        source_path=str(DATA / "folio" / "folio_v0_validation.jsonl"),
        per_mr=1,
        mrs=("MR-E1.1", "MR-S2", "MR-C2"),
    )
    build = build_lgmt(config)
    assert len(build.dataset) == 3
    assert set(build.dataset["source_dataset"]) == {"folio"}
    dropped = build.stats.dropped["source"]
    assert dropped["gold label disagrees with prover"] > 0  # FOLIO's annotation errors are reported, not shipped
    assert sum(dropped.values()) > 0


def test_rows_are_mixed_across_relations(small_build):
    """`--limit N` takes the first N rows: they must not all come from one relation."""
    first = small_build.dataset["mr"][:10]
    assert len(set(first)) >= 5
