"""`lgmt card` on real Inspect logs of all five suites: sections, numbers, intervals, schema, eval-results YAML.

The logs are `tests.card.runs`' scripted runs (12 samples of each suite's committed build, answers from a hash of the
prompt; `five_suite_logs`), all of one model, `mockllm/gpt-4o`: a name the DivLogicEval paper reports a figure for,
and the other papers do not. Every number checked here is read back from the logs' own metrics, never recomputed.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai.log import EvalLog

from lgmt_tasks.card import content as card_content
from lgmt_tasks.card import write_cards
from lgmt_tasks.card.content import SECTION_IDS
from lgmt_tasks.card.json_card import CARD_SCHEMA_VERSION, schema, validate
from lgmt_tasks.report.headline import log_metrics
from lgmt_tasks.suites import SUITE_NAMES
from tests.card.runs import LIMIT, MODEL


@pytest.fixture(scope="module")
def logs(five_suite_logs: dict[str, EvalLog]) -> dict[str, EvalLog]:
    return five_suite_logs


@pytest.fixture(scope="module")
def card(logs: dict[str, EvalLog], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("cards")
    [folder] = write_cards([str(log.location) for log in logs.values()], out)
    return {
        "out": out,
        "folder": folder,
        "json": json.loads((folder / "card.json").read_text(encoding="utf-8")),
        "md": (folder / "card.md").read_text(encoding="utf-8"),
        "html": (folder / "card.html").read_text(encoding="utf-8"),
        "yaml": yaml.safe_load((folder / ".eval_results" / "lgmt-tasks.yaml").read_text(encoding="utf-8")),
    }


def rows_of(card: dict[str, Any], suite: str) -> list[dict[str, Any]]:
    return [row for row in card["json"]["suites"] if row["suite"] == suite]


def estimates_in(data: Any) -> list[dict[str, Any]]:
    """Every Estimate in card data (a dict with `value`, `low`, `high` and `method`), however deep."""
    if isinstance(data, dict):
        found = [data] if {"value", "low", "high", "method"} <= set(data) else []
        return found + [e for value in data.values() for e in estimates_in(value)]
    if isinstance(data, list):
        return [e for value in data for e in estimates_in(value)]
    return []


def test_one_folder_per_model_with_the_four_files(card):
    folder: Path = card["folder"]
    assert folder == card["out"] / "mockllm_gpt-4o"
    for name in ("card.md", "card.html", "card.json", ".eval_results/lgmt-tasks.yaml"):
        assert (folder / name).is_file(), name


def test_every_section_is_present_in_each_rendering_in_order(card):
    html_ids = re.findall(r'<section id="([^"]+)"', card["html"])
    assert html_ids == list(SECTION_IDS)
    headings = [line for line in card["md"].splitlines() if line.startswith("## ")]
    assert len(headings) == len(SECTION_IDS)
    assert headings[0] == "## Provenance" and headings[-1] == "## Not comparable"
    for suite, heading in zip(SUITE_NAMES, headings[2:-1], strict=True):
        assert heading.startswith(f"## {suite}: ")
    assert set(SUITE_NAMES) <= set(card["json"])


def test_every_registry_suite_has_a_card_field_and_a_section_builder():
    from lgmt_tasks.card.sections import HEADLINES, SECTION_BUILDERS
    from lgmt_tasks.card.tables import BLOCK_TABLES

    fields = {f.name for f in dataclasses.fields(card_content.Card)}
    assert set(SUITE_NAMES) <= fields
    assert set(SECTION_BUILDERS) == set(HEADLINES) == set(BLOCK_TABLES) == set(SUITE_NAMES)


def test_the_headlines_equal_the_logs_metrics(card, logs):
    metric = {
        "lgmt": "mvr",
        "logicasker": "accuracy",
        "divlogiceval": "acc",
        "qmfol": "accuracy",
        "lexical": "mvr_proven",
    }
    for suite, log in logs.items():
        [row] = rows_of(card, suite)
        assert row["status"] == "run" and row["metric"] == metric[suite]
        assert row["estimate"]["value"] == pytest.approx(log_metrics(log)[metric[suite]]), suite
        assert row["samples"] == LIMIT and row["total"] == log.eval.dataset.samples
        if "unparsed_rate" in log_metrics(log):
            assert row["unparsed_rate"] == pytest.approx(log_metrics(log)["unparsed_rate"]), suite


def test_the_sections_numbers_equal_the_logs_metrics(card, logs):
    metrics = {suite: log_metrics(log) for suite, log in logs.items()}
    [strip] = card["json"]["lgmt"]
    for relation in strip["relations"]:
        if relation["parsed"]:
            assert relation["mvr"]["value"] == pytest.approx(metrics["lgmt"][f"mvr_{relation['relation']}"])
    [block] = card["json"]["divlogiceval"]
    overall = block["rows"][-1]
    assert overall["question_type"] == "all"
    for key, name in (("accuracy", "acc"), ("circular", "circular"), ("partial_circular", "partial_circular")):
        assert overall[key]["value"] == pytest.approx(metrics["divlogiceval"][name])
    [asker] = card["json"]["logicasker"]
    assert asker["response_accuracy"]["value"] == pytest.approx(metrics["logicasker"]["response_accuracy"])
    [lexical] = card["json"]["lexical"]
    bases = {b["basis"]: b["mvr"]["value"] for b in lexical["bases"]}
    assert bases["all"] == pytest.approx(metrics["lexical"]["mvr"])
    assert bases["assumed"] == pytest.approx(metrics["lexical"]["mvr_assumed"])
    [heatmap] = card["json"]["qmfol"]
    for cell in heatmap["cells"]:
        assert cell["accuracy"]["value"] == pytest.approx(
            metrics["qmfol"][f"accuracy_d{cell['depth']}_w{cell['width']}"]
        )


def test_every_interval_holds_its_estimate_and_stays_in_bounds(card):
    found = estimates_in(card["json"])
    assert len(found) > 40
    for estimate in found:
        if estimate["value"] is None or estimate["low"] is None:
            continue
        assert estimate["low"] - 1e-12 <= estimate["value"] <= estimate["high"] + 1e-12, estimate
        if estimate["method"] != "newcombe":  # a difference of rates may be negative
            assert 0.0 <= estimate["low"] <= estimate["high"] <= 1.0, estimate


def test_the_strips_simultaneous_intervals_are_wider_than_each_relations_own(card):
    [strip] = card["json"]["lgmt"]
    assert strip["adjustment"] == "bonferroni"
    shown = [r for r in strip["relations"] if r["parsed"]]
    assert strip["family"] == len(shown) > 1
    for relation in shown:
        joint, own = relation["mvr"], relation["mvr_unadjusted"]
        assert joint["method"] == "wilson-bonferroni" and joint["family"] == strip["family"]
        assert joint["low"] <= own["low"] and joint["high"] >= own["high"]
        assert joint["high"] - joint["low"] > own["high"] - own["low"]


def test_card_json_validates_against_its_schema(card):
    data = card["json"]
    assert data["schema_version"] == CARD_SCHEMA_VERSION
    validate(data)
    broken = json.loads(json.dumps(data))
    broken["suites"][0]["estimate"]["method"] = "guess"
    with pytest.raises(ValueError, match="suites/0/estimate/method"):
        validate(broken)


def test_the_schema_names_every_field_of_the_card():
    definitions = schema()["$defs"]
    for cls in (
        card_content.Estimate,
        card_content.DatasetRecord,
        card_content.RunRecord,
        card_content.Provenance,
        card_content.PaperFigure,
        card_content.SuiteRow,
        card_content.RelationRow,
        card_content.AdaptiveRecord,
        card_content.LgmtStrip,
        card_content.SkillRow,
        card_content.LogicAskerBlock,
        card_content.QuestionTypeRow,
        card_content.DivLogicEvalBlock,
        card_content.HeatCell,
        card_content.QmfolHeatmap,
        card_content.BasisRow,
        card_content.LexicalBlock,
        card_content.Caveat,
    ):
        assert list(definitions[cls.__name__]["properties"]) == [f.name for f in dataclasses.fields(cls)], cls
    assert list(schema()["properties"]) == [f.name for f in dataclasses.fields(card_content.Card)]
    methods = definitions["Estimate"]["properties"]["method"]["enum"]
    assert set(methods) == set(card_content.METHODS)


def test_the_eval_results_yaml_loads_with_huggingface_hubs_parser(card, logs):
    hub = pytest.importorskip("huggingface_hub")
    parse = getattr(hub, "parse_eval_result_entries", None)
    data = card["yaml"]
    assert isinstance(data, list) and len(data) == len(SUITE_NAMES)  # one headline per suite
    if parse is None:  # an older huggingface_hub without the .eval_results format: the documented keys
        assert all({"dataset", "value"} <= set(item) and {"id", "task_id"} <= set(item["dataset"]) for item in data)
        return
    entries = parse(data)
    rows = [row for row in card["json"]["suites"] if row["status"] == "run"]
    for entry, row in zip(entries, rows, strict=True):
        assert entry.dataset_id == f"UNPUBLISHED/{row['suite']}"  # built on the fly: on no Hub repository
        assert entry.task_id == row["tasks"][0]
        assert entry.value == pytest.approx(row["estimate"]["value"], abs=1e-6)
        assert entry.date == logs[row["suite"]].eval.created
        assert row["metric"] in entry.notes and "sha256:" in entry.notes


def test_the_eval_results_name_a_given_hub_dataset(logs, tmp_path):
    [folder] = write_cards([str(logs["qmfol"].location)], tmp_path, dataset_ids={"qmfol": "my-org/qmfol"})
    [entry] = yaml.safe_load((folder / ".eval_results" / "lgmt-tasks.yaml").read_text(encoding="utf-8"))
    assert entry["dataset"] == {"id": "my-org/qmfol", "task_id": "qmfol"}


def test_a_partial_run_is_flagged_not_comparable(card):
    partial = [c for c in card["json"]["not_comparable"] if c["kind"] == "partial-run"]
    assert {c["suites"][0] for c in partial} == set(SUITE_NAMES)  # every run stopped at --limit 12
    assert all(f"{LIMIT} of " in c["text"] for c in partial)
    assert "partial-run" in card["md"] and 'id="not-comparable"' in card["html"]


def test_a_suite_not_run_is_listed_as_not_run(logs, tmp_path):
    [folder] = write_cards([str(logs["lgmt"].location), str(logs["qmfol"].location)], tmp_path)
    data = json.loads((folder / "card.json").read_text(encoding="utf-8"))
    status = {row["suite"]: row["status"] for row in data["suites"]}
    assert status == {s: ("run" if s in ("lgmt", "qmfol") else "not run") for s in SUITE_NAMES}
    not_run = {c["suites"][0] for c in data["not_comparable"] if c["kind"] == "not-run"}
    assert not_run == {"logicasker", "divlogiceval", "lexical"}
    html = (folder / "card.html").read_text(encoding="utf-8")
    md = (folder / "card.md").read_text(encoding="utf-8")
    for suite in not_run:
        assert f'<section id="{suite}" class="not-run">' in html
        assert f"Not run: no log of {suite} for this model." in md
        assert f"| {suite} | not run |" in md
    assert len(yaml.safe_load((folder / ".eval_results" / "lgmt-tasks.yaml").read_text())) == 2


def test_provenance_names_each_log_relative_to_out_with_its_command_and_dataset(card, logs):
    runs = {run["suite"]: run for run in card["json"]["provenance"]["runs"]}
    assert set(runs) == set(SUITE_NAMES)
    for suite, log in logs.items():
        run = runs[suite]
        assert not Path(run["path"]).is_absolute()
        assert (card["out"] / run["path"]).resolve() == Path(log.location).resolve()
        assert run["command"].startswith(f"inspect eval {log.eval.task} --model {MODEL}")
        assert run["task_version"] == log.eval.task_version and run["inspect_version"]
        assert run["dataset"]["fingerprint"] == log.eval.metadata["dataset"]["fingerprint"]
        assert run["dataset"]["build_config"]  # the committed builds record their parameters
        assert run["path"] in card["md"] and run["command"] in card["md"]


def test_the_papers_figure_is_shown_for_the_same_family_only_and_marked(card):
    papers = {row["suite"]: row["paper"] for row in card["json"]["suites"]}
    assert papers["divlogiceval"]["paper_model"].startswith("GPT-4o")
    assert papers["divlogiceval"]["note"] == "paper, not re-run"
    assert all(papers[s] is None for s in SUITE_NAMES if s != "divlogiceval")
    assert "paper, not re-run" in card["md"] and "paper, not re-run" in card["html"]


def test_the_html_is_self_contained(card):
    html = card["html"]
    assert "<script" not in html.lower()
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "@import" not in html and "url(" not in html and "<link" not in html
    assert html.count("<svg") >= 3  # the headline strip, the LGMT strip, QMFOL's heatmap


def test_every_caveat_kind_written_is_one_the_schema_names():
    import inspect

    import lgmt_tasks.card.caveats as caveats

    written = set(re.findall(r'Caveat\(\s*"([a-z-]+)"', inspect.getsource(caveats)))
    named = set(schema()["$defs"]["Caveat"]["properties"]["kind"]["enum"])
    assert written and written <= named
