"""`lgmt card` as a user runs it: two models and `--compare`, lm-eval results, controls and adaptive runs, bad input.

Logs are `tests.card.runs`' scripted runs of `mr_e` on the committed LGMT build (12 groups each, the same first 12
groups for every model: the task serves them in a fixed order; the second model says True to everything), and copies
of them with one header field changed (`tests.report.scripted.copy_with`, or the dataset's size), as a run of another
kind would have written them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from lgmt_tasks.cli import main
from lgmt_tasks.report.headline import log_metrics
from tests.card.runs import MODEL, run_suite
from tests.report.scripted import copy_with

FIRST, SECOND = MODEL, "mockllm/second"
FOLDER = "mockllm_gpt-4o"


@pytest.fixture(scope="module")
def logs(five_suite_logs: dict[str, EvalLog], tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    folder = tmp_path_factory.mktemp("card-run-logs")
    return {
        "first": five_suite_logs["lgmt"],
        "second": run_suite("lgmt", SECOND, folder / "second", reply=lambda _: '{"label": "True"}'),
        "asker": five_suite_logs["logicasker"],
        "control": run_suite("lgmt", FIRST, folder / "control", control="true"),
        "adaptive": run_suite("lgmt", FIRST, folder / "adaptive", limit=40, adaptive="threshold"),
    }


def card_json(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "card.json").read_text(encoding="utf-8"))


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["card", *args])


def test_compare_with_two_models_writes_the_compare_page(logs, tmp_path):
    out = tmp_path / "cards"
    paths = [str(logs[name].location) for name in ("first", "second", "asker")]
    result = invoke(*paths, "--out", str(out), "--compare")
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == {FOLDER, "mockllm_second", "compare.md", "compare.html"}
    page = (out / "compare.md").read_text(encoding="utf-8")
    assert "| suite | setting | headline | mockllm/gpt-4o | mockllm/second |" in page
    assert "| logicasker |" in page and "| not run |" in page  # only the first model ran LogicAsker
    assert "### mr_e (dataset sha256:" in page
    # the second model says True to every member of every group: no violation, against the first's 6 of 9 parsed
    # groups (McNemar b = 6, c = 0: p = 2 / 2^6 < 0.05): two tie groups of one model each, no rank
    assert f"- mvr: tied with the best: {SECOND}; significantly worse than the best: {FIRST}." in page
    assert "- acc_cons: tied with the best: " in page
    assert "| mockllm/gpt-4o | mockllm/second | mvr | all |" in page  # the overall paired row, McNemar and Holm
    html = (out / "compare.html").read_text(encoding="utf-8")
    assert '<section id="paired">' in html and "<script" not in html
    assert '<a href="mockllm_gpt-4o/card.html">' in html
    first = card_json(out / FOLDER)
    assert first["suites"][0]["estimate"]["value"] == pytest.approx(log_metrics(logs["first"])["mvr"])


def test_compare_needs_two_models(logs, tmp_path):
    result = invoke(str(logs["first"].location), "--out", str(tmp_path / "one"), "--compare")
    assert result.exit_code == 1
    assert result.output.strip() == "Error: --compare needs runs of two or more models; found 1 (mockllm/gpt-4o)"
    assert not (tmp_path / "one").exists()  # nothing written


def test_bad_input_ends_with_one_line(logs, tmp_path):
    missing = invoke(str(tmp_path / "nope.eval"), "--out", str(tmp_path / "o"))
    assert missing.exit_code == 2 and "does not exist" in missing.output
    junk = tmp_path / "notes.json"
    junk.write_text("{}", encoding="utf-8")
    not_a_log = invoke(str(junk), "--out", str(tmp_path / "o"))
    lines = not_a_log.output.strip().splitlines()  # the skipped file named on stderr, then the one error line
    assert not_a_log.exit_code == 1 and lines[-1].startswith("Error: no finished run of an lgmt-tasks task")
    assert [line for line in lines if not line.startswith("warning: skipped")] == lines[-1:]
    not_results = invoke("--lm-eval-results", str(junk), "--out", str(tmp_path / "o"))
    assert not_results.exit_code == 1 and "not an lm-eval results file" in not_results.output
    bad_id = invoke(str(logs["first"].location), "--out", str(tmp_path / "o"), "--dataset-id", "lgmtt=a/b")
    assert bad_id.exit_code == 2 and "must be one of lgmt" in bad_id.output
    nothing = invoke("--out", str(tmp_path / "o"))
    assert nothing.exit_code == 2 and "give Inspect logs" in nothing.output
    assert not (tmp_path / "o").exists()


def test_the_noise_floor_and_an_adaptive_run_get_their_own_strips(logs, tmp_path):
    paths = [str(logs[name].location) for name in ("control", "adaptive")]
    result = invoke(*paths, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = card_json(tmp_path / FOLDER)
    strips = {("control" if s["control"] else "adaptive"): s for s in data["lgmt"]}
    controlled = strips["control"]
    assert controlled["control"] == "repeat" and controlled["adaptive"] == []
    rows = [r for r in controlled["relations"] if r["parsed"]]
    assert rows and all(r["control_rate"] is not None and r["above_control"] in ("yes", "no") for r in rows)
    assert all(r["excess"]["method"] == "newcombe" for r in rows)
    adaptive = strips["adaptive"]
    assert adaptive["adjustment"] == "confidence-sequence"
    [design] = adaptive["adaptive"]
    assert design["design"] == "threshold" and design["groups_run"] + design["groups_skipped"] <= 40
    for relation in adaptive["relations"]:
        assert relation["mvr"]["method"] == "confidence-sequence" and relation["decision"]
    rows = {r["setting"]: r for r in data["suites"] if r["suite"] == "lgmt"}
    [pooled] = [r for r in rows.values() if "adaptive=threshold" in r["setting"]]
    assert pooled["estimate"]["method"] == "confidence-sequence-pooled"
    assert pooled["estimate"]["value"] == pytest.approx(log_metrics(logs["adaptive"])["mvr"])
    assert pooled["estimate"]["low"] <= pooled["estimate"]["value"] <= pooled["estimate"]["high"]
    assert any(c["kind"] == "adaptive" for c in data["not_comparable"])
    md = (tmp_path / FOLDER / "card.md").read_text(encoding="utf-8")
    assert "control rate (repeat)" in md and "| decision |" in md


def test_a_whole_run_is_not_partial_and_old_versions_and_unfinished_logs_are_named(logs, tmp_path):
    whole = read_eval_log(str(logs["first"].location))
    whole.eval.dataset.samples = whole.results.completed_samples  # as if the dataset held exactly these 12 groups
    write_eval_log(whole, str(tmp_path / "whole.eval"))
    old = copy_with(str(logs["asker"].location), tmp_path / "old.eval", task_version="5-A")
    unfinished = copy_with(str(logs["second"].location), tmp_path / "unfinished.eval", status="error")
    out = tmp_path / "cards"
    result = invoke(str(tmp_path / "whole.eval"), str(old), str(unfinished), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"warning: left out log {unfinished} of an unfinished run (status: error;" in result.output  # stderr
    data = card_json(out / FOLDER)
    kinds = {(c["kind"], tuple(c["suites"])) for c in data["not_comparable"]}
    assert ("partial-run", ("lgmt",)) not in kinds and ("partial-run", ("logicasker",)) in kinds
    assert ("task-version", ("logicasker",)) in kinds
    assert ("unfinished", ()) in kinds
    assert data["provenance"]["left_out"] == ["../unfinished.eval: unfinished run (status error)"]  # relative to out
    assert [p.name for p in out.iterdir()] == [FOLDER]  # the unfinished run's model gets no card


def test_lm_eval_results_make_rows_of_their_models_card(tmp_path):
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            {
                "results": {
                    "lgmt_mr_e": {"alias": "lgmt_mr_e", "mvr,none": 0.25, "unparsed_rate,none": 0.2},
                    "lgmt_qmfol": {"alias": "lgmt_qmfol", "accuracy,none": 0.5},
                },
                "configs": {"lgmt_mr_e": {"metadata": {"prompting": "zero_shot"}}, "lgmt_qmfol": {"metadata": {}}},
                "versions": {"lgmt_mr_e": "7-A", "lgmt_qmfol": "6-A"},
                "n-samples": {
                    "lgmt_mr_e": {"original": 200, "effective": 40},
                    "lgmt_qmfol": {"original": 96, "effective": 96},
                },
                "config": {"model": "hf", "model_args": "pretrained=HuggingFaceTB/SmolLM2-135M-Instruct", "limit": 40},
                "lm_eval_version": "0.4.13",
                "date": 1795000000.0,
            }
        ),
        encoding="utf-8",
    )
    result = invoke("--lm-eval-results", str(results), "--out", str(tmp_path / "cards"))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "cards" / "hf_HuggingFaceTB_SmolLM2-135M-Instruct"
    data = card_json(folder)
    rows = {r["suite"]: r for r in data["suites"] if r["status"] == "run"}
    assert set(rows) == {"lgmt", "qmfol"}
    assert rows["lgmt"]["harness"] == "lm-eval" and rows["lgmt"]["estimate"]["value"] == 0.25
    assert rows["lgmt"]["estimate"]["n"] == pytest.approx(40 * 0.8)  # MVR is over the parsed documents
    assert rows["qmfol"]["estimate"]["n"] == 96
    [run] = [r for r in data["provenance"]["runs"] if r["task"] == "mr_e"]
    assert run["lm_eval_version"] == "0.4.13" and run["samples"] == 40 and run["total"] == 200
    assert run["command"].startswith("lm_eval --model hf --model_args pretrained=HuggingFaceTB/SmolLM2-135M-Instruct")
    assert "--tasks lgmt_mr_e --include_path $(lgmt lm-eval-path) --limit 40" in run["command"]
    kinds = {c["kind"] for c in data["not_comparable"]}
    assert {"harness", "partial-run", "not-run"} <= kinds
    assert len(yaml.safe_load((folder / ".eval_results" / "lgmt-tasks.yaml").read_text())) == 2


def test_a_log_mixing_variants_of_the_laws_is_split_per_variant(logs, tmp_path):
    mixed = read_eval_log(str(logs["first"].location))
    for index, sample in enumerate(mixed.samples or []):
        if index % 2:
            sample.metadata["variant"] = "extended"  # as a `-T direction=any` run records its converse sites
    write_eval_log(mixed, str(tmp_path / "mixed.eval"))
    result = invoke(str(tmp_path / "mixed.eval"), "--out", str(tmp_path / "cards"))
    assert result.exit_code == 0, result.output
    data = card_json(tmp_path / "cards" / FOLDER)
    rows = {r["setting"].rsplit("variant ", 1)[-1]: r for r in data["suites"] if r["suite"] == "lgmt"}
    assert set(rows) == {"paper", "extended", "all (mixed)"}
    assert rows["all (mixed)"]["estimate"]["value"] == pytest.approx(log_metrics(logs["first"])["mvr"])
    assert rows["all (mixed)"]["samples"] == 12 and rows["all (mixed)"]["total"] == logs["first"].eval.dataset.samples
    assert rows["paper"]["samples"] + rows["extended"]["samples"] == 12 and rows["paper"]["total"] is None
    [strip] = data["lgmt"]
    assert {r["variant"] for r in strip["relations"]} == {"paper", "extended"}
    assert any(c["kind"] == "variants" for c in data["not_comparable"])
