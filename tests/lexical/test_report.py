"""The lexical report: logic-grounded vs lexical relations side by side, the noise floor, and flakiness over epochs."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from lgmt_tasks.lexical.flakiness import flakiness_table, group_flakiness
from lgmt_tasks.lexical.report import (
    basis_rates,
    drift_of_log,
    lexical_report,
    noise_floor,
    relation_rates,
    side_by_side,
    split_logs,
)
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.lgmt.build import build_lgmt
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.dataset import record_to_sample
from lgmt_tasks.scorers.lgmt import metamorphic_consistency
from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import render_user_prompt
from tests.lexical.helpers import EXPECTED, other, output


@pytest.fixture(scope="module")
def lgmt_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """A scripted LGMT run: every answer correct except the follow-up of one MR-E1.2 group (a hidden defect)."""
    rows = [dict(r) for r in build_lgmt(LgmtConfig(mrs=("MR-E1.2", "MR-P1"), per_mr=2, generated_cases=12)).dataset]
    samples = [record_to_sample(r) for r in rows]
    script = {}
    for row, sample in zip(rows, samples, strict=True):
        for prompt in sample.metadata["members"]:  # type: ignore[index]
            script[prompt] = row["label"]
    defect = next(s for r, s in zip(rows, samples, strict=True) if r["mr"] == "MR-E1.2")
    script[defect.metadata["members"][1]] = other(str(defect.target))  # type: ignore[index]

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return output(f'{{"label": "{script[messages[-1].text]}"}}')

    task = Task(dataset=MemoryDataset(samples), solver=group_generate("zero_shot"), scorer=metamorphic_consistency())
    [log] = eval(
        task,
        model=get_model("mockllm/model", custom_outputs=answer),
        log_dir=str(tmp_path_factory.mktemp("lgmt-logs")),
        display="none",
    )
    assert log.status == "success", log.error
    return log


@pytest.fixture(scope="module")
def flaky_log(repo: str, build: Any, tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """Three MR-1 groups over three epochs: follow-ups violate in 3, 1 and 0 epochs."""
    rows = [dict(r) for r in build.dataset if r["mr"] == "MR-1"]
    script: dict[str, list[str]] = {}
    epochs_violating = {"False": 3, "True": 1, "Unknown": 0}
    for row in rows:
        gold = row["label"]
        script[render_user_prompt(row["premises"], row["conclusion"])] = [gold] * 3
        followup = render_user_prompt(row["followup_premises"], row["followup_conclusion"])
        k = epochs_violating[gold]
        script[followup] = [other(gold)] * k + [gold] * (3 - k)
    calls: Counter[str] = Counter()

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = messages[-1].text
        label = script[prompt][calls[prompt]]
        calls[prompt] += 1
        return output(f'{{"label": "{label}"}}')

    task = lexical(dataset=repo, mr="MR-1", part="premises")
    [log] = eval(
        task,
        model=get_model("mockllm/model", custom_outputs=answer),
        epochs=3,
        max_samples=1,
        log_dir=str(tmp_path_factory.mktemp("flaky-logs")),
        display="none",
    )
    assert log.status == "success", log.error
    return log


def test_relation_rates_of_an_lgmt_log(lgmt_log):
    table = relation_rates(lgmt_log).set_index("relation")
    assert list(table.index) == ["MR-E1.2", "MR-P1", "all"]
    assert table.loc["MR-E1.2", ["groups", "mvr", "hdr"]].tolist() == [2.0, 0.5, 0.5]
    assert table.loc["MR-P1", ["groups", "mvr", "hdr"]].tolist() == [2.0, 0.0, 0.0]
    assert table.loc["all", "mvr"] == 0.25 and set(table["family"]) == {"logic-grounded"}


def test_side_by_side_with_the_noise_floor(lgmt_log, label_run):
    log, _, _ = label_run
    table = side_by_side(lgmt_log, log)
    lexical = table[table["family"] == "lexical"].set_index("relation")
    assert list(lexical.index) == ["MR-1", "MR-49", "MR-84", "MR-102", "MR-152", "all"]
    for relation in ("MR-1", "MR-49", "MR-84", "MR-102", "MR-152"):
        assert lexical.loc[relation, "mvr"] == pytest.approx(EXPECTED[f"mvr_{relation}"])
        assert lexical.loc[relation, "hdr"] == pytest.approx(EXPECTED[f"hdr_{relation}"])
    assert lexical.loc["all", "mvr"] == pytest.approx(EXPECTED["mvr"])
    assert lexical.loc["MR-152", "expected"] == "difference" and lexical.loc["MR-1", "kind"] == "function"
    assert set(table["floor"]) == {noise_floor(log)} == {0.0}
    assert (table["mvr_above_floor"] == table["mvr"]).all()
    grounded = table[table["family"] == "logic-grounded"]
    assert list(grounded["relation"]) == ["MR-E1.2", "MR-P1", "all"] and list(grounded["kind"][:2]) == ["MR-E", "MR-P"]
    by_part = side_by_side(lgmt_log, log, by_part=True)
    assert set(by_part.loc[by_part["relation"] == "MR-49", "part"]) == {"none"}


def test_side_by_side_refuses_mismatched_logs(lgmt_log, label_run):
    log, _, _ = label_run
    with pytest.raises(ValueError, match="an LGMT log and a lexical log"):
        side_by_side(log, lgmt_log)
    other_model = log.model_copy(deep=True)
    other_model.eval.model = "openai/gpt-4o"
    with pytest.raises(ValueError, match="different models"):
        side_by_side(lgmt_log, other_model)


def test_flakiness_counts_epochs_per_group(flaky_log):
    per_group = group_flakiness(flaky_log)
    assert sorted(per_group["violated"]) == [0, 1, 3]
    assert set(per_group["epochs"]) == {3} and set(per_group["compared"]) == {3}
    table = flakiness_table(flaky_log).set_index("relation")
    assert list(table.index) == ["all", "MR-1"]
    assert table.loc["all"].to_dict() == {"failing": 2, "1/3": 0.5, "2/3": 0.0, "3/3": 0.5}
    # pooled over epochs: 4 violations in 9 compared sample-epochs, as the logged (mean-reduced) metric says
    assert relation_rates(flaky_log).set_index("relation").loc["MR-1", "mvr"] == pytest.approx(4 / 9)
    assert flaky_log.results is not None
    assert flaky_log.results.scores[0].metrics["mvr"].value == pytest.approx(4 / 9)


def test_flakiness_needs_epochs(label_run):
    with pytest.raises(ValueError, match="--epochs 2 or more"):
        flakiness_table(label_run[0])


def test_report_markdown(lgmt_log, label_run, flaky_log):
    text = lexical_report(label_run[0], lgmt_log)
    assert text.startswith("## Lexical relations: mockllm/model")
    assert "### Logic-grounded vs lexical relations" in text
    assert "| logic-grounded | MR-E1.2    |" in text and "| lexical        | MR-152     |" in text
    assert "Noise floor (MR-49, the same question twice): MVR 0.000." in text
    flaky = lexical_report(flaky_log)
    assert "No MR-49 groups" in flaky and "### Flakiness over 3 epochs" in flaky
    assert not math.isnan(relation_rates(flaky_log)["mvr"].iloc[0])


def test_split_logs(lgmt_log, label_run):
    grounded, lexical_logs = split_logs([lgmt_log, label_run[0]])
    assert grounded == [lgmt_log] and lexical_logs == [label_run[0]]


def test_basis_rates_match_the_logged_breakdown(label_run):
    log = label_run[0]
    rates = basis_rates(log).set_index("basis")
    assert list(rates.index) == ["proven", "assumed", "all"]
    assert rates.loc["proven", "mvr"] == pytest.approx(EXPECTED["mvr_proven"])
    assert rates.loc["assumed", "mvr"] == pytest.approx(EXPECTED["mvr_assumed"])
    assert rates.loc["all", "mvr"] == pytest.approx(EXPECTED["mvr"])


def test_report_headline_is_mvr_on_proven_groups(label_run):
    text = lexical_report(label_run[0])
    head, _, rest = text.partition("### Logic-grounded vs lexical relations")
    lines = [line for line in head.splitlines() if line]
    assert lines[1].startswith("**Headline: MVR on proven groups 0.250 ± ")
    assert lines[1].endswith("(4 compared groups whose follow-up label is proven by Z3).")
    assert lines[2].startswith("Beside it, MVR on assumed groups 0.333 ± ")
    assert "a perfect model gets 0 by construction" in lines[2]
    assert "### What 'assumed' hides" in rest and "key words no longer match" in rest


def test_report_measures_drift_from_the_logged_rows(label_run):
    drift = drift_of_log(label_run[0]).set_index("relation")
    # MR-49 asks the same question twice: nothing drifts; MR-1's typos break the reading of every follow-up
    assert drift.loc["MR-49", ["reading_drift", "keyword_drift"]].tolist() == [0.0, 0.0]
    assert drift.loc["MR-1", "reading_drift"] == 1.0
    assert drift.loc["proven", "reading_drift"] == 0.0
