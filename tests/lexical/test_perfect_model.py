"""No lexical relation may charge a correct model.

A scripted perfect model answers each member's gold label where it is known: the source's gold, and the follow-up's
`followup_label` (proven by Z3 for MR-19, MR-84 and MR-152; assumed equal to the source's for the other equivalence
relations). It must have MVR 0 on every relation, both in the pure metric arithmetic over every row of the committed
default build and in a real Inspect run over a build that includes LLM-made negations. A model that always repeats
the source's gold label must violate exactly the groups whose proven follow-up label differs from the source's.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, get_model

from lgmt_tasks.lexical.build import LexicalConfig, build_lexical
from lgmt_tasks.lexical.card import write_lexical_repo
from lgmt_tasks.lexical.catalogue import FUNCTION_BASED, LEXICAL_RELATIONS
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.scorers.lexical_arithmetic import label_violation, lexical_outcome
from lgmt_tasks.solvers.prompts import render_user_prompt
from tests.lexical.helpers import negate, output

DEFAULT_BUILD = Path(__file__).resolve().parents[2] / "datasets" / "lexical" / "data" / "default" / "test.jsonl.gz"
"""The committed default build (`tests/hub` proves it is byte-identical to a fresh `lgmt build lexical`)."""


def default_rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(DEFAULT_BUILD.read_bytes()).decode("utf-8").splitlines()]


def test_a_perfect_model_violates_no_relation_of_the_default_build():
    rows = default_rows()
    assert {r["mr"] for r in rows} == set(FUNCTION_BASED)
    per_relation: dict[str, list[int]] = {}
    for row in rows:
        assert row["followup_label"], f"{row['id']}: a function-based follow-up states its gold label"
        outcome = lexical_outcome(
            row["expected"],
            row["label"],
            row["label"],
            row["followup_label"],
            label_violation(row["expected"], row["label"], row["followup_label"]),
            row["followup_label"],
        )
        assert outcome["parsed"] == 1 and outcome["consistent_correct"] == 1
        per_relation.setdefault(row["mr"], []).append(outcome["violation"])
    assert {mr: sum(v) for mr, v in per_relation.items()} == dict.fromkeys(per_relation, 0)
    proven = {r["mr"] for r in rows if r["expectation"] == "proven"}
    assert proven == {"MR-19", "MR-84"}  # the relations with a logical reading are proven, group by group


class Transformer:
    """Negates the quoted sentence for MR-152; writes a fixed sentence for the generation relations (MR-77, MR-78)."""

    def __call__(self, messages: list[ChatMessage], *_: Any) -> Any:
        request = messages[-1].text
        quoted = request.split('"')[1]
        if "negat" in request.lower():
            return output(negate(quoted))
        return output("The statements above hold.")


class Answerer:
    """The model under test, scripted per user prompt: the gold label of each member, or always the source's."""

    def __init__(self, rows: list[dict[str, Any]], perfect: bool) -> None:
        self.script: dict[str, str] = {}
        for row in rows:
            source = render_user_prompt(row["premises"], row["conclusion"])
            followup = render_user_prompt(row["followup_premises"], row["followup_conclusion"])
            self.script[source] = row["label"]
            self.script[followup] = row["followup_label"] if perfect else row["label"]

    def __call__(self, messages: list[ChatMessage], *_: Any) -> Any:
        return output(f'{{"label": "{self.script[messages[-1].text]}"}}')


@pytest.fixture(scope="module")
def negation_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict[str, Any]]]:
    mrs = ("MR-19", "MR-49", "MR-84", "MR-102", "MR-77", "MR-78", "MR-152")
    config = LexicalConfig(mrs=mrs, per_mr=4, generated_cases=24, seed=5, transformer="mockllm/model")
    build = build_lexical(config, transformer=get_model("mockllm/model", custom_outputs=Transformer()))
    folder = write_lexical_repo(build, tmp_path_factory.mktemp("lexical") / "negation")
    rows = list(build.dataset)
    assert {r["mr"] for r in rows} == set(mrs)
    return str(folder), rows


def test_every_negation_group_has_a_proven_different_label(negation_build):
    _, rows = negation_build
    negations = [r for r in rows if r["mr"] == "MR-152"]
    assert {r["part"] for r in negations} == {"premises", "conclusion", "both"}
    for row in negations:
        assert row["expectation"] == "proven"
        assert row["followup_label"] in ("True", "False", "Unknown") and row["followup_label"] != row["label"]
        assert row["followup_conclusion_fol"] and len(row["followup_premises_fol"]) == len(row["premises_fol"])
    # negating an Unknown conclusion keeps it Unknown: no conclusion-only group has an Unknown source
    assert all(r["label"] != "Unknown" for r in negations if r["part"] == "conclusion")
    assert all(r["label"] == "True" for r in rows if r["mr"] in ("MR-77", "MR-78"))


def _run(folder: str, rows: list[dict[str, Any]], perfect: bool, tmp_path: Path) -> dict[str, float]:
    task = lexical(dataset=folder, mr="all", part="all")
    model = get_model("mockllm/model", custom_outputs=Answerer(rows, perfect))
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.results is not None
    [scores] = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


def test_a_perfect_model_has_mvr_zero_on_every_relation_in_a_real_run(negation_build, tmp_path):
    folder, rows = negation_build
    metrics = _run(folder, rows, perfect=True, tmp_path=tmp_path)
    assert metrics["mvr"] == 0.0 and metrics["unparsed_rate"] == 0.0 and metrics["acc_cons"] == 1.0
    for mr in {r["mr"] for r in rows}:
        assert metrics[f"mvr_{mr}"] == 0.0, mr


def test_repeating_the_source_label_violates_exactly_the_proven_changes(negation_build, tmp_path):
    folder, rows = negation_build
    metrics = _run(folder, rows, perfect=False, tmp_path=tmp_path)
    changed = [r for r in rows if r["followup_label"] and r["followup_label"] != r["label"]]
    assert changed and all(LEXICAL_RELATIONS[r["mr"]].expected == "difference" for r in changed)
    assert metrics["mvr"] == pytest.approx(len(changed) / len(rows))
    assert metrics["mvr_MR-152"] == 1.0
    assert all(metrics[f"mvr_{mr}"] == 0.0 for mr in {r["mr"] for r in rows} - {"MR-152"})
