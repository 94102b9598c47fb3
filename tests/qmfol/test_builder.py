"""The QMFOL builder: the quality bars on a seeded sub-grid, determinism, ids, the card, and `lgmt build qmfol`.

The full default grid (2,880 tasks) takes about 90 s to build and re-check on two cores, so the suite checks a
sub-grid that includes the largest configuration (depth 20, width 20, 20 distractors) with the same verifier;
`benchmarks/verify_qmfol_grid.py` runs it on the full grid.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.hub.repo import data_file, load_dataset_repo, read_data_file
from lgmt_tasks.qmfol.build import FEATURES, QmfolBuild, build_qmfol, task_id
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.cli import expand_multi_values
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.proofs import grid_problems, verify_rows

SUB_GRID = QmfolConfig(depths=(1, 20), widths=(0, 20), distractors=(0, 20), seeds=1, seed=7)
"""2 × 2 × 2 × 3 labels × 4 topics = 96 tasks, corners of the paper's grid and beyond (depth 1, width 0)."""


@pytest.fixture(scope="module")
def sub_grid() -> QmfolBuild:
    return build_qmfol(SUB_GRID)


def test_sub_grid_meets_every_quality_bar(sub_grid: QmfolBuild) -> None:
    rows = [dict(r) for r in sub_grid.dataset]
    assert len(rows) == SUB_GRID.size() == 96
    report = verify_rows(rows)  # ids, depth/width measured, minimality, both proofs, English read back
    cfg = SUB_GRID
    problems = grid_problems(rows, cfg.depths, cfg.widths, cfg.distractors, cfg.labels, cfg.topics, cfg.seed_values)
    assert report.problems + problems == []
    assert report.labels == {"False": 32, "True": 32, "Unknown": 32}
    assert report.proofs == 24  # 24 logical tasks; a basic task's obligation is its D0 task's (topics share)
    assert sub_grid.stats.total_dropped() == 0


def test_verifier_catches_a_wrong_label_and_a_wrong_width(sub_grid: QmfolBuild) -> None:
    row = dict(sub_grid.dataset[0])
    flipped = {**row, "label": "True" if row["label"] != "True" else "False"}
    flipped["id"] = task_id(row["topic"], row["depth"], row["width"], row["seed"], flipped["label"], row["distractors"])
    wider = {**row, "width": row["width"] + 1, "id": "x"}
    problems = verify_rows([flipped, wider]).problems
    assert any("basic task proves" in p for p in problems)
    assert any("measured depth" in p for p in problems) and any("id differs" in p for p in problems)


def test_same_config_gives_identical_rows_and_bytes(sub_grid: QmfolBuild, tmp_path: Path) -> None:
    small = QmfolConfig(depths=(3,), widths=(4,), distractors=(0, 5), topics=("Food", "Animal"), seeds=2)
    first, second = build_qmfol(small), build_qmfol(small, workers=1)
    assert first.dataset.to_list() == second.dataset.to_list()
    write_qmfol_repo(first, tmp_path / "a")
    write_qmfol_repo(second, tmp_path / "b")
    data = data_file("default", "test")
    assert read_data_file(tmp_path / "a" / data) == read_data_file(tmp_path / "b" / data)
    assert (
        build_qmfol(
            QmfolConfig(depths=(3,), widths=(4,), distractors=(0, 5), topics=("Food", "Animal"), seeds=2, seed=1)
        ).dataset.to_list()
        != first.dataset.to_list()
    )


def test_rows_have_the_paper_ids_and_share_their_logic(sub_grid: QmfolBuild) -> None:
    rows = {r["id"]: r for r in sub_grid.dataset}
    assert set(sub_grid.dataset.features) == set(FEATURES)
    d0, d20 = rows["Food_d20_w20_7_0_distract0"], rows["Food_d20_w20_7_0_distract20"]
    assert d0["rules_fol"] == d20["rules_fol"] and d0["facts_fol"] == d20["facts_fol"]  # corresponding tasks
    assert set(d0["premises"]) <= set(d20["premises"])  # the same English for the same formulas
    assert len(d20["distractors_fol"]) == 20
    math_row = rows["Mathematics_d20_w20_7_0_distract20"]
    assert math_row["premises_fol"] == d20["premises_fol"]  # one logical task in every topic, in the same order
    assert math_row["premises"] != d20["premises"] and math_row["entity"] == "natural number"
    assert {r["label"] for r in rows.values() if r["id"].endswith("_1_distract0")} == {"False"}


def test_config_is_normalised_and_validated() -> None:
    cfg = QmfolConfig(depths=(10, 5, 5), labels=("Unknown", "True"), topics=("Mathematics", "Food"))
    assert cfg.depths == (5, 10) and cfg.labels == ("True", "Unknown") and cfg.topics == ("Food", "Mathematics")
    assert QmfolConfig().size() == 2880
    for bad, message in [
        ({"depths": (0,)}, "depths"),
        ({"labels": ("Maybe",)}, "Maybe"),
        ({"topics": ("Sports",)}, "Sports"),
        ({"distractors": (60,)}, "predicates"),
        ({"seeds": 0}, "seeds"),
        ({"translator": "model"}, "translator_model"),
        ({"translator_model": "openai/gpt-4o"}, "only used"),
    ]:
        with pytest.raises(ValueError, match=message):
            QmfolConfig(**bad)


def test_card_and_repository(sub_grid: QmfolBuild, tmp_path: Path) -> None:
    out = write_qmfol_repo(sub_grid, tmp_path / "repo")
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "lgmt build qmfol --depth 1 20 --width 0 20 --distractors 0 20 --per-config 1 --seed 7" in card
    assert "96 tasks of 96 requested" in card and "arXiv:2606.20227" in card
    assert load_dataset_repo(out).to_list() == sub_grid.dataset.to_list()
    assert reproduce_command("qmfol", QmfolConfig(), "d") == "lgmt build qmfol --out d"


def test_multi_value_options_are_expanded() -> None:
    args = ["--depth", "5", "10", "--seeds", "2", "--label", "True", "Unknown", "--out", "x"]
    assert expand_multi_values(args, ("--depth", "--label")) == [
        "--depth",
        "5",
        "--depth",
        "10",
        "--seeds",
        "2",
        "--label",
        "True",
        "--label",
        "Unknown",
        "--out",
        "x",
    ]


def test_lgmt_build_qmfol(tmp_path: Path) -> None:
    from lgmt_tasks.cli import main

    out = tmp_path / "qmfol"
    args = [
        "build",
        "qmfol",
        "--depth",
        "2",
        "3",
        "--width",
        "1",
        "--distractors",
        "0",
        "--label",
        "True",
        "False",
        "--topic",
        "University",
        "--seeds",
        "1",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "4 tasks of 4 requested; 0 dropped" in result.output
    assert sorted(load_dataset_repo(out)["id"]) == [
        "University_d2_w1_0_0_distract0",
        "University_d2_w1_0_1_distract0",
        "University_d3_w1_0_0_distract0",
        "University_d3_w1_0_1_distract0",
    ]
    bad = CliRunner().invoke(main, ["build", "qmfol", "--depth", "0", "--out", str(out)])
    assert bad.exit_code != 0 and "depths" in bad.output
    no_model = CliRunner().invoke(main, ["build", "qmfol", "--translator", "model", "--out", str(out)])
    assert no_model.exit_code != 0 and "--translator-model" in no_model.output
