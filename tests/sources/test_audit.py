"""`lgmt audit-source` and the audit logic, on real files with the real prover."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from lgmt_tasks.cli import main
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.sources.audit import SUMMARY_KEYS, agreement_markdown, audit_source, symbol_hints

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"

pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"source data folder {DATA} is absent")

REQUIRED_KEYS = {"records", "unparsable", "decided", "undecided", "contradictory", "agree", "agreement"}


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["audit-source", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_json_summary_and_report(tmp_path: Path) -> None:
    report = tmp_path / "disagreements.jsonl"
    out = _run(
        "folio", str(DATA / "folio" / "folio_v0_validation.jsonl"), "--json", "--no-progress", "--report", str(report)
    )
    summary = json.loads(out)  # exactly one JSON object on stdout
    assert REQUIRED_KEYS <= set(summary) and set(SUMMARY_KEYS) <= set(summary)
    assert summary["records"] == 204
    assert summary["decided"] + summary["undecided"] + summary["contradictory"] == summary["problems"]
    assert summary["agreement"] == pytest.approx(summary["agree"] / summary["with_gold"], abs=1e-4)
    every = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert {line["kind"] for line in every} == {"disagreement", "unusable"}
    lines = [line for line in every if line["kind"] == "disagreement"]
    assert len(lines) == summary["disagree"] == summary["with_gold"] - summary["agree"]
    unusable = [line for line in every if line["kind"] == "unusable"]
    assert len(unusable) == summary["unparsable"] + sum(summary["skipped"].values())
    for line in lines:
        assert {"id", "gold", "ours", "premises_fol", "conclusion_fol"} <= set(line)
        assert line["gold"] != line["ours"]
        assert isinstance(line["premises_fol"], list)
    assert {line["id"] for line in lines} == set(summary["disagreement_ids"])


def test_cli_text_output_groups_unparsable_reasons() -> None:
    out = _run("folio", str(DATA / "folio" / "folio_v2_validation.jsonl"), "--no-progress")
    assert "records: 203" in out
    assert "unparsable: 51" in out  # 72 before the slips with one reading were repaired
    assert "repaired:" in out
    assert "free variable" in out and "syntax error: expected ')'" in out
    assert "agreement with gold:" in out


def test_cli_limit_timeout_and_raw_layout() -> None:
    out = _run(
        "proverqa",
        str(DATA / "proverqa" / "raw" / "hard.json"),
        "--json",
        "--no-progress",
        "--limit",
        "5",
        "--timeout-ms",
        "20000",
    )
    summary = json.loads(out)
    assert summary["records"] == 5 and summary["options"]["timeout_ms"] == 20000


def test_cli_rejects_bad_arguments() -> None:
    result = CliRunner().invoke(main, ["audit-source", "lgmt", str(DATA)])
    assert result.exit_code != 0 and "Invalid value" in result.output
    result = CliRunner().invoke(main, ["audit-source", "folio", str(DATA / "nope.jsonl")])
    assert result.exit_code != 0


def test_unify_constants_is_opt_in_and_raises_folio_v2_agreement() -> None:
    path = DATA / "folio" / "folio_v2_validation.jsonl"
    plain = audit_source("folio", path)
    unified = audit_source("folio", path, unify_constants="case+numeric")
    assert plain.options["unify_constants"] == "none"
    assert unified.agree > plain.agree
    fixed = {d.id for d in plain.disagreements} - {d.id for d in unified.disagreements}
    assert {"folio_v2_validation_289", "folio_v2_validation_905", "folio_v2_validation_906"} <= fixed


def test_logicnli_audit_shows_inconsistent_stories() -> None:
    """As given, every LogicNLI problem has unsatisfiable premises; the loader's selections repair that."""
    path = DATA / "logicnli" / "logicnli_dev.jsonl"
    as_given = audit_source("logicnli", path, limit=60)
    assert as_given.contradictory == as_given.problems == 60 and as_given.decided == 0
    assert as_given.agreement is None
    subset = audit_source("logicnli", path, limit=60, logicnli_premises="consistent-subset")
    assert subset.contradictory == 0 and subset.decided == 60
    assert subset.with_gold == 45  # the 15 Paradox statements have no usable gold label
    trace = audit_source("logicnli", path, limit=60, logicnli_premises="trace")
    assert trace.skipped["no proof trace"] == 15  # the Unknown statements


def test_parallel_audit_gives_the_same_result() -> None:
    path = DATA / "proverqa" / "proverqa_dev_easy.jsonl"
    serial = audit_source("proverqa", path, limit=40)
    parallel = audit_source("proverqa", path, limit=40, workers=2)
    assert serial.summary() | {"seconds": 0, "options": 0} == parallel.summary() | {"seconds": 0, "options": 0}


def test_symbol_hints_point_at_annotation_errors() -> None:
    premises = [
        parse("Leads(roderickStrong, diamondMine)"),
        parse("∀x (Meeting(x) → AppearInCompany(x))"),
        parse("∀x (Invertebrate(x) ⊕ Vertebrate(x))"),
    ]
    hints = symbol_hints(premises, parse("∃x (Leads(roderickstrong, x) ∧ Meetings(x))"))
    assert "constant spelt 2 ways: roderickStrong / roderickstrong" in hints
    assert "similar predicate names: Meeting / Meetings" in hints
    assert "conclusion predicate(s) not in any premise: Meetings" in hints
    assert not any("Vertebrate" in h for h in hints)  # opposites are not misspellings


def test_agreement_markdown_lists_every_disagreement() -> None:
    result = audit_source("folio", DATA / "folio" / "folio_v0_validation.jsonl")
    text = agreement_markdown({"FOLIO v0 validation": result}, {"FOLIO v0 validation": 0.95})
    assert "≥ 95%" in text
    for d in result.disagreements:
        assert f"`{d.id}` | {d.gold} | {d.ours} |" in text
