"""`leaderboard.csv` is a file for sharing: no machine paths, a status on every row, one prompting vocabulary.

Before (issue 28): lm-eval rows read `hf//<absolute cache path>` with an empty `status`, and the `prompting` column
said `0` (DivLogicEval), `none` (LogicAsker), empty (QMFOL) and `zero_shot` (LGMT) for the same idea. The results
files here have the keys lm-eval's `EvaluationTracker` writes (tests/lgmt/test_suite_report.py writes one with
lm-eval itself).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lgmt_tasks.report.leaderboard import ZERO_SHOT, leaderboard, leaderboard_prompting, lm_eval_rows

HUB_SNAPSHOT = "/root/.cache/huggingface/hub/models--HuggingFaceTB--SmolLM2-135M-Instruct/snapshots/0123abcd"


def _results(tmp_path: Path, pretrained: str, tasks: dict[str, dict[str, object]]) -> Path:
    path = tmp_path / "results.json"
    data = {
        "results": {name: {"alias": name, "acc,none": 0.5} for name in tasks},
        "configs": {name: {"metadata": metadata} for name, metadata in tasks.items()},
        "versions": dict.fromkeys(tasks, "1-A"),
        "n-samples": {name: {"original": 10, "effective": 4} for name in tasks},
        "config": {"model": "hf", "model_args": f"pretrained={pretrained},dtype=float32"},
        "date": 1795000000.0,
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_hub_cache_snapshot_is_named_by_its_hub_id(tmp_path: Path) -> None:
    [row] = lm_eval_rows(_results(tmp_path, HUB_SNAPSHOT, {"lgmt_qmfol": {}}))
    assert row["model"] == "hf/HuggingFaceTB/SmolLM2-135M-Instruct"
    assert row["status"] == "success"


def test_a_local_folder_is_named_by_its_config_or_its_name(tmp_path: Path) -> None:
    named = tmp_path / "converted" / "943f058a"
    named.mkdir(parents=True)
    (named / "config.json").write_text(json.dumps({"_name_or_path": "HuggingFaceTB/SmolLM2-135M"}), encoding="utf-8")
    [row] = lm_eval_rows(_results(tmp_path, str(named), {"lgmt_qmfol": {}}))
    assert row["model"] == "hf/HuggingFaceTB/SmolLM2-135M"
    plain = tmp_path / "my-model"
    plain.mkdir()
    [row] = lm_eval_rows(_results(tmp_path, str(plain), {"lgmt_qmfol": {}}))
    assert row["model"] == "hf/my-model" and str(tmp_path) not in json.dumps(row["model"])
    [row] = lm_eval_rows(_results(tmp_path, "HuggingFaceTB/SmolLM2-135M-Instruct", {"lgmt_qmfol": {}}))
    assert row["model"] == "hf/HuggingFaceTB/SmolLM2-135M-Instruct"  # a Hub id is kept as given


def test_no_row_of_the_written_file_holds_a_machine_path_or_an_empty_status(tmp_path: Path) -> None:
    tasks: dict[str, dict[str, object]] = {
        "lgmt_qmfol": {},
        "lgmt_logicasker": {},
        "lgmt_divlogiceval": {"shots": 0},
        "lgmt_mr_e": {},
    }
    frame = leaderboard(lm_eval_files=[_results(tmp_path, HUB_SNAPSHOT, tasks)])
    assert len(frame) == 4
    assert set(frame["status"]) == {"success"}
    assert not frame["model"].str.contains("//|/root/", regex=True).any()
    prompting = dict(zip(frame["suite"], frame["prompting"], strict=True))
    assert prompting["qmfol"] == prompting["logicasker"] == prompting["divlogiceval"] == ZERO_SHOT


@pytest.mark.parametrize(
    ("suite", "args", "expected"),
    [
        ("logicasker", {}, ZERO_SHOT),
        ("logicasker", {"demonstrations": "none"}, ZERO_SHOT),
        ("logicasker", {"demonstrations": "weakness"}, "few_shot_weakness"),
        ("divlogiceval", {"shots": 0}, ZERO_SHOT),
        ("divlogiceval", {"shots": "0"}, ZERO_SHOT),
        ("divlogiceval", {"shots": 3}, "few_shot_3"),
        ("qmfol", {}, ZERO_SHOT),
        ("lgmt", {"prompting": "zero_shot"}, ZERO_SHOT),
        ("lgmt", {"prompting": "few_shot_cot"}, "few_shot_cot"),
        ("lexical", {"prompting": "zero_shot"}, ZERO_SHOT),
    ],
)
def test_prompting_has_one_word_for_no_worked_examples(suite: str, args: dict[str, object], expected: str) -> None:
    assert leaderboard_prompting(suite, args) == expected
