"""The `logicasker` source: LogicAsker's predicate-logic chains of requested lengths as proven LGMT source cases.

Also end to end: `mr_c(source="logicasker", depth=…)` built and run on scripted models (`perfect` answers every
member's proven label; `shallow` the same except on the follow-ups of depth-3 sources), and the report's
difficulty table, whose LogicAsker cells have a depth and no width.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.difficulty import NO_WIDTH, with_difficulty
from lgmt_tasks.lgmt.task import mr_c
from lgmt_tasks.logic.prover import Label, entailment
from lgmt_tasks.sources.logicasker import ATTEMPTS, depth_cases, depth_values, difficulty_of, skills, slot
from lgmt_tasks.sources.pipeline import SourceConfig, load_source_cases, ordered_candidates
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import TaskParameterError
from tests.difficulty_models import LABELS, PERFECT, SHALLOW, scripted


@pytest.fixture(scope="module")
def cases():
    config = SourceConfig(source="logicasker", depths=(5, 1), per_cell=6, seed=3)
    stats = BuildStats()
    return config, load_source_cases(config, stats), stats


def test_cases_carry_the_requested_depths_in_order_and_are_predicate_logic_chains(cases):
    config, loaded, stats = cases
    assert config.depths == (1, 5)
    depths = [difficulty_of(c.source_id) for c in loaded]
    assert depths == sorted(depths) and set(depths) == {1, 5}
    counts = stats.counts["source"]
    dropped = sum(stats.dropped.get("source", {}).values())
    assert counts["records"] == 12 and counts["loaded"] == len(loaded) == 12 - dropped
    predicate = {s.id for s in skills()}
    assert len(predicate) == 65 and all(s.logic == "predicate" for s in skills())
    for case in loaded:
        skill_id = case.source_id.split("/", 1)[1].rsplit("-", 1)[0]
        assert skill_id in predicate, case.source_id
    assert {c.source_dataset for c in loaded} == {"logicasker"}


def test_the_chain_length_of_each_case_is_its_depth(cases):
    """Regenerated through LogicAsker's own builder: the test of the id has the id's length and effective depth."""
    config, loaded, stats = cases
    build = suite("logicasker").module("build")
    by_id = {c.source_id: c for c in loaded}
    matched = 0
    for depth in config.depths:
        for n in range(config.per_cell):
            skill, problem_type = slot(depth, n, config.seed)
            tries = build.UNRELATED_ATTEMPTS if problem_type == "unrelated" else ATTEMPTS
            problem = build.fill_slot(skill, problem_type, depth, config.seed, n, BuildStats(), attempts=tries)
            if problem is None:
                continue  # an unrelated slot that fell back to a contradiction
            assert problem.length == problem.effective_depth == depth
            assert by_id[f"d{depth}/{problem.id}"].premises == problem.premises
            matched += 1
    assert matched == len(loaded) - stats.counts["source"]["unrelated_as_contradiction"] > 0


def test_every_label_is_z3s_three_valued_one_and_all_three_occur(cases):
    _, loaded, _ = cases
    for case in loaded:
        result = entailment(case.premises_fol, case.conclusion_fol)
        assert isinstance(result, Label) and result.value == case.label, case.source_id
    assert set(Counter(c.label for c in loaded)) == set(LABELS)


def test_a_gold_answer_z3_disagrees_with_is_dropped_with_its_reason(monkeypatch):
    """LogicAsker's yes must be Z3's True: a test whose yes/no is flipped is never kept with a guessed label."""
    build = suite("logicasker").module("build")
    real = build.fill_slot

    def flipped(*args: Any, **kwargs: Any) -> Any:
        problem = real(*args, **kwargs)
        return None if problem is None else replace(problem, answer="no" if problem.answer == "yes" else "yes")

    monkeypatch.setattr(build, "fill_slot", flipped)
    kept, stats = depth_cases((1, 3, 0, 10_000))
    assert kept == []
    reasons = stats.dropped["source"]
    assert sum(reasons.values()) == 3
    assert set(reasons) <= {
        "logicasker: gold no disagrees with Z3 True",
        "logicasker: gold yes disagrees with Z3 False",
        "logicasker: gold yes disagrees with Z3 Unknown",
    }


def test_difficulty_of_reads_only_logicasker_ids():
    assert difficulty_of("d3/universal_modus_ponens-1a2b3c4d5e6f") == 3
    assert difficulty_of("d3-w2/Food_d3_w2_0_1_distract0") is None
    assert difficulty_of("gen-0007") is None


def test_candidates_are_stratified_over_depths_as_well_as_labels(cases):
    _, loaded, _ = cases
    first = ordered_candidates(loaded, "MR-C1", seed=0)
    strata = {(difficulty_of(c.source_id), c.label) for c in loaded}
    head = first[: len(strata)]
    assert {(difficulty_of(c.source_id), c.label) for c in head} == strata


def test_the_same_seed_gives_byte_identical_rows_and_another_seed_other_rows():
    def rows(seed: int) -> str:
        config = LgmtConfig(
            source="logicasker", mrs=("MR-E1.2", "MR-S2", "MR-P3"), per_mr=3, depths=(1, 2), per_cell=3, seed=seed
        )
        return json.dumps(build_lgmt(config).dataset.to_list(), sort_keys=True, ensure_ascii=False)

    first = rows(0)
    assert first == rows(0)
    assert first != rows(1)
    assert '"source_dataset": "logicasker"' in first


def test_two_processes_give_the_same_cases_as_one():
    from lgmt_tasks.builders.parallel import process_pool

    config = SourceConfig(source="logicasker", depths=(1, 2), per_cell=3, seed=1)
    serial = load_source_cases(config, BuildStats())
    with process_pool(2) as workers:
        parallel = load_source_cases(config, BuildStats(), workers)
    assert parallel == serial and len(serial) == 6


def test_depths_and_per_cell_are_in_the_cache_key_of_a_logicasker_build_only():
    key = LgmtConfig(source="logicasker").key()
    assert (key["depths"], key["per_cell"]) == ((1, 2, 3), 24) and "widths" not in key
    assert LgmtConfig(source="logicasker", depths=(3, 1, 2)).key() == key
    assert LgmtConfig(source="logicasker", depths=(1, 3)).key() != key
    assert LgmtConfig.from_key(json.loads(json.dumps(key))) == LgmtConfig(source="logicasker")
    assert not {"depths", "widths", "per_cell"} & set(LgmtConfig().key())
    assert "widths" in LgmtConfig(source="qmfol").key()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: depth_values(8), "depth=8: 8 outside the range; expected integers from 1 to 7"),
        (lambda: depth_values("0,3"), "depth='0,3': 0 outside the range; expected integers from 1 to 7"),
        (lambda: LgmtConfig(source="logicasker", depths=(9,)), "depth=(9,): 9 outside the range; expected integers"),
        (lambda: LgmtConfig(source="logicasker", widths=(1,)), "width=1: source=logicasker has no width"),
        (lambda: SourceConfig(source="logicasker", source_path="x.jsonl"), "source='logicasker' builds its problems"),
        (lambda: mr_c(source="logicasker", depth=8), "mr_c: depth=8: 8 outside the range; expected integers from 1"),
        (lambda: mr_c(source="logicasker", width="1"), "mr_c: width='1': source=logicasker has no width"),
    ],
)
def test_a_bad_depth_or_a_width_is_one_clear_error(make, message, tmp_path, monkeypatch):
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises((ValueError, TaskParameterError)) as raised:
        make()
    assert str(raised.value).startswith(message)


def test_the_cli_refuses_a_width_and_a_long_depth_for_logicasker(tmp_path):
    out = str(tmp_path / "out")
    result = CliRunner().invoke(main, ["build", "lgmt", "--source", "logicasker", "--width", "1", "--out", out])
    assert result.exit_code == 2 and "--source logicasker has no width" in result.output
    result = CliRunner().invoke(main, ["build", "lgmt", "--source", "logicasker", "--depth", "8", "--out", out])
    assert result.exit_code == 2 and "8 outside the range; expected integers from 1 to 7" in result.output


def test_logicasker_cells_have_no_width_and_keep_apart_from_qmfol_cells():
    import pandas as pd

    groups = pd.DataFrame(
        {
            "source_dataset": ["qmfol", "logicasker", "generated"],
            "source_id": ["d3-w2/Food_d3_w2_0_1_distract0", "d3/universal_addition-0123456789ab", "gen-1"],
        }
    )
    cells = with_difficulty(groups)
    assert list(zip(cells["depth"], cells["width"], strict=True)) == [(3, 2), (3, NO_WIDTH)]


# --------------------------------------------------------------------------- end to end


def _with_usage(output: ModelOutput) -> Any:
    """Outputs of a mock model with usage set (so Inspect needs no tokenizer download)."""

    def outputs(*_: Any, **__: Any) -> ModelOutput:
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    return outputs


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("logicasker-difficulty")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LGMT_CACHE_DIR", str(root / "cache"))
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("HF_DATASETS_OFFLINE", "1")
        task = mr_c(source="logicasker", depth=[3, 1], per_mr=6)
        samples = list(task.dataset)
        mockllm = get_model("mockllm/model", custom_outputs=_with_usage(ModelOutput.from_content("mockllm/model", "")))
        (mock,) = eval(task, model=mockllm, limit=4, log_dir=str(root / "mock"), display="none")
        assert mock.status == "success", mock.error
        for name in (PERFECT, SHALLOW):
            (log,) = eval(
                task, model=scripted(name, samples, difficulty_of), log_dir=str(root / "logs"), display="none"
            )
            assert log.status == "success", log.error
        result = CliRunner().invoke(main, ["report", str(root / "logs"), "--out", str(root / "report")])
    assert result.exit_code == 0, result.output
    with (root / "report" / "lgmt" / "difficulty_depth_width.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    return {"samples": samples, "table": table, "folder": root / "report" / "lgmt", "mock": mock}


def test_the_task_runs_end_to_end_on_groups_of_the_requested_depths_only(report):
    assert report["mock"].results is not None and report["mock"].results.completed_samples == 4
    depths = Counter(difficulty_of(s.metadata["source_id"]) for s in report["samples"])
    # per_mr=6 over 3 relations, candidates stratified over depths and labels: 3 groups per depth and relation
    assert depths == Counter({1: 9, 3: 9})
    assert {s.metadata["source_dataset"] for s in report["samples"]} == {"logicasker"}


def test_the_report_has_one_row_per_model_and_depth_with_no_width(report):
    depths = Counter(difficulty_of(s.metadata["source_id"]) for s in report["samples"])
    rows = {(r["model"], int(r["depth"])): r for r in report["table"]}
    assert set(rows) == {(m, d) for m in (PERFECT, SHALLOW) for d in depths}
    for (_, depth), row in rows.items():
        assert row["width"] == NO_WIDTH
        assert int(row["groups"]) == depths[depth] == int(row["parsed"])


def test_a_perfect_model_has_mvr_zero_and_a_shallow_one_violates_at_depth_3_only(report):
    perfect = [r for r in report["table"] if r["model"] == PERFECT]
    assert perfect and all(float(r["mvr"]) == 0.0 and float(r["acc_cons"]) == 1.0 for r in perfect)
    shallow = {int(r["depth"]): r for r in report["table"] if r["model"] == SHALLOW}
    assert float(shallow[1]["mvr"]) == 0.0
    assert float(shallow[3]["mvr"]) == 1.0 and int(shallow[3]["violations"]) == int(shallow[3]["groups"])


def test_the_report_draws_one_heatmap_per_model(report):
    images = sorted(p.name for p in report["folder"].glob("difficulty_*.png"))
    assert images == ["difficulty_mockllm_perfect_zero_shot_cot.png", "difficulty_mockllm_shallow_zero_shot_cot.png"]
    assert "| –" in (report["folder"] / "difficulty_depth_width.md").read_text(encoding="utf-8")


def test_the_card_command_rebuilds_the_same_depths() -> None:
    """A card's reproduce command spells out a logicasker build's depths and per-cell count, and no width."""
    from lgmt_tasks.builders.schema import reproduce_command
    from lgmt_tasks.lgmt.config import LgmtConfig

    config = LgmtConfig(source="logicasker", depths=(2, 5), per_cell=9, mrs=("MR-C1",))
    command = reproduce_command("lgmt", config, "out")
    assert "--source logicasker" in command
    assert "--depth 2,5" in command
    assert "--per-cell 9" in command
    assert "--width" not in command
