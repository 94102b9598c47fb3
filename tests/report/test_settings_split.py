"""Paper tables never pool runs that differ in source or task arguments (`lgmt_tasks.report.settings`).

Two copies of the scripted model-A zero-shot LGMT log, recorded as run with `-T source=folio` and
`-T source=proverqa`, hold the same groups. Pooled on (model, prompting) alone they would collapse into one row;
they must stay two rows, each equal to the single run's numbers, labelled by the argument that differs. The same
holds for LogicAsker runs recorded with different `-T seed=`.
"""

from __future__ import annotations

from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.lgmt.report import suite_report
from lgmt_tasks.logicasker.build import build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.config import LogicAskerConfig
from lgmt_tasks.logicasker.report import suite_report as logicasker_report
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.report.logs import select_logs
from lgmt_tasks.report.settings import UNSET, settings_key, settings_labels
from lgmt_tasks.suites import suite
from tests.report.scripted import MODEL_A, copy_with

ZERO = (MODEL_A, "zero_shot")


@pytest.fixture(scope="module")
def by_source(runs, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("by-source")
    log = runs["logs"][ZERO]
    out = {}
    for source in ("folio", "proverqa"):
        args = {**(log.eval.task_args or {}), "source": source}
        out[source] = str(copy_with(str(log.location), folder / f"{source}.eval", task_args=args))
    return out


def test_runs_with_different_sources_are_separate_rows(runs, by_source):
    report = suite_report(list(by_source.values()), None)
    want = runs["script"].expected(ZERO)
    table4 = report.tables["table4_effectiveness"]
    assert sorted(table4["settings"]) == ["source=folio", "source=proverqa"]
    for _, row in table4.iterrows():
        assert (row["model"], row["prompting"]) == ZERO
        assert row["groups"] == want["groups"] and row["violations"] == want["violations"]
        assert row["mvr"] == pytest.approx(want["mvr"])
    table7 = report.tables["table7_categories"]
    assert list(table7.columns[:3]) == ["prompting", "settings", "category"]
    assert len(table7) == 2 * table7["category"].nunique()  # every category once per source


def test_the_label_names_only_what_differs(runs, by_source):
    original = str(runs["logs"][ZERO].location)
    report = suite_report([original, by_source["folio"]], None)
    labels = set(report.tables["table4_effectiveness"]["settings"])
    recorded = (runs["logs"][ZERO].eval.task_args or {})["source"]
    assert labels == {f"source={recorded}", "source=folio"}


def test_latest_keeps_one_log_per_source(by_source):
    assert sorted(select_logs(list(by_source.values()), latest=True).paths) == sorted(by_source.values())


def test_settings_keys_and_labels():
    a = settings_key("lgmt", {"prompting": "few_shot", "source": "folio", "seed": 0})
    b = settings_key("lgmt", '{"prompting": "zero_shot", "source": "folio", "seed": 1}')
    c = settings_key("lgmt", {"prompting": "zero_shot", "source": "folio"})
    assert a != b != c and settings_key("lgmt", {"source": "folio", "seed": 0}) == a  # prompting is not a setting
    assert settings_labels([a, b, c]) == {a: "seed=0", b: "seed=1", c: f"seed={UNSET}"}
    assert settings_labels([a, a]) == {a: ""}
    assert settings_key("divlogiceval", {"shots": 3, "form": "symbolic", "seed": 2}, exclude=["form"]) == '{"seed": 2}'


@pytest.fixture(scope="module")
def logicasker_by_seed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], EvalLog]:
    """A real LogicAsker run answering "Yes." to everything, and two copies recorded as `-T seed=1` / `-T seed=2`."""
    config = LogicAskerConfig(rules=("modus ponens", "affirming the consequent"), lengths=(1,), per_skill=2, seed=3)
    repo = tmp_path_factory.mktemp("logicasker") / "repo"
    write_logicasker_repo(build_logicasker(config), repo)

    def yes(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content="Yes.")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    folder = tmp_path_factory.mktemp("logicasker-logs")
    [log] = eval(
        logicasker(dataset=str(repo)),
        model=get_model("mockllm/model", custom_outputs=yes),
        log_dir=str(folder),
        display="none",
    )
    assert log.status == "success", log.error
    copies = {
        seed: str(
            copy_with(str(log.location), folder / f"seed{seed}.eval", task_args={**log.eval.task_args, "seed": seed})
        )
        for seed in (1, 2)
    }
    return {f"seed={seed}": path for seed, path in copies.items()}, log


def test_logicasker_runs_with_different_arguments_are_separate_rows(logicasker_by_seed):
    copies, log = logicasker_by_seed
    report = logicasker_report(list(copies.values()), None)
    overall = report.tables["overall"]
    assert sorted(overall["settings"]) == sorted(copies)
    tests = len(log.samples or [])
    correct = sum(int(s.scores[suite("logicasker").scorer].value["correct"]) for s in log.samples or [])
    for _, row in overall.iterrows():
        assert row["tests"] == tests and row["correct"] == correct  # each row is one run, not the two pooled
    assert set(report.tables["skills"]["settings"]) == set(copies)
