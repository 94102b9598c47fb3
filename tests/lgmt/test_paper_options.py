"""Issue #25's task options: `-T direction=`, `-T p4=` (and issue #36's `-T p5=`) on every LGMT task and lm-eval, the
`variant` and `law` columns, temperature 0 by default, and the relation options `lgmt shrink` reads back from a log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.lgmt.build import FEATURES, LgmtBuild, build_lgmt
from lgmt_tasks.lgmt.card import write_lgmt_repo
from lgmt_tasks.lgmt.config import DIRECTIONS, LgmtConfig
from lgmt_tasks.lgmt.dataset import load_lgmt, record_to_sample
from lgmt_tasks.lgmt.shrink.logs import relation_options
from lgmt_tasks.lgmt.task import lgmt, mr_c, mr_e, mr_p
from lgmt_tasks.suites import suite
from lgmt_tasks.task_configs.lgmt import utils as lgmt_utils
from lgmt_tasks.task_params import TaskParameterError


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))


class Answers:
    """A mock model answering True, recording the temperature of every call it receives."""

    def __init__(self) -> None:
        self.temperatures: list[float | None] = []

    def __call__(self, messages: Any, tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        self.temperatures.append(config.temperature)
        output = ModelOutput.from_content("mockllm/model", json.dumps({"label": "True"}))
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
        return output


# --- the parameters -------------------------------------------------------------------------------------------


def test_defaults_are_the_papers() -> None:
    config = LgmtConfig()
    assert (config.direction, config.p4, config.p5) == ("paper", "add", "add")
    assert config.key()["direction"] == "paper" and config.key()["p4"] == "add" and config.key()["p5"] == "add"
    assert DIRECTIONS[0] == "paper" and {"forward", "introduction", "any", "counts"} <= set(DIRECTIONS)
    assert LgmtConfig(direction="any", p4="replace").key() != config.key()
    assert LgmtConfig(p5="replace").key() != config.key()
    assert LgmtConfig(direction="counts").key() != config.key()


def test_the_version_is_bumped_for_the_changed_results() -> None:
    """Results of 4-A are not comparable with 3-B: the direction default, MR-P4 and temperature changed.

    (LGMT moved on to 5-A when its follow-up English changed, issue #26; the lexical suite's data did not change. Every
    suite moved on once more when the answer reader changed, issue #38: lexical 5-A.)
    """
    assert int(suite("lgmt").version.split("-")[0]) >= 4 and suite("lexical").version == "5-A"


@pytest.mark.parametrize("name, value", [("direction", "sideways"), ("p4", "merge"), ("p5", "merge")])
def test_a_bad_value_is_refused_naming_the_allowed_ones(name: str, value: str) -> None:
    allowed = ", ".join(DIRECTIONS) if name == "direction" else "add, replace"
    message = f"{name}={value!r}: expected one of {allowed}"
    with pytest.raises(TaskParameterError, match=message):
        mr_e(**{name: value})
    with pytest.raises(ValueError, match=message):
        LgmtConfig(**{name: value})
    with pytest.raises(ValueError, match=message):
        lgmt_utils.load_docs(relation_set="mr_e", **{name: value})


def test_a_bad_direction_is_refused_even_with_a_dataset(built_dataset: str) -> None:
    with pytest.raises(TaskParameterError, match="direction='sideways': expected one of paper"):
        mr_c(dataset=built_dataset, direction="sideways")


# --- direction --------------------------------------------------------------------------------------------------


def test_mr_e_with_direction_forward_evaluates_forward_groups_only(tmp_path: Path) -> None:
    answers = Answers()
    (log,) = eval(
        "lgmt_tasks/mr_e",
        task_args={"direction": "forward", "per_mr": 2, "prompting": "zero_shot"},
        model=get_model("mockllm/model", custom_outputs=answers),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.samples
    assert log.eval.task_args["direction"] == "forward" and log.eval.task_args["p4"] == "add"
    assert {s.metadata["direction"] for s in log.samples} == {"forward"}
    assert {s.metadata["category"] for s in log.samples} == {"MR-E"}
    assert {s.metadata["variant"] for s in log.samples} == {"paper"}  # every forward site is in the paper's reading
    assert all(s.metadata["law"] for s in log.samples)


def test_direction_introduction_gives_no_forward_group() -> None:
    task = mr_e(direction="introduction", per_mr=2)
    assert {s.metadata["direction"] for s in task.dataset} <= {"introduction", "extended"}
    assert all(s.metadata["variant"] != "paper" or s.metadata["direction"] == "extended" for s in task.dataset)


def test_the_default_build_records_variant_and_law_on_every_row_and_follow_up() -> None:
    build = build_lgmt(LgmtConfig(mrs=("MR-E1.1", "MR-E1.4", "MR-P4"), per_mr=3, followups=2))
    rows = build.dataset.to_list()
    assert {"variant", "law"} <= set(FEATURES) and rows
    for row in rows:
        assert row["variant"] == "paper" and row["law"]  # the default keeps the paper's sites only
        assert len(row["extra_followups"]) == 1
        for extra in row["extra_followups"]:
            assert extra["variant"] == "paper" and extra["law"]


# --- p4 -----------------------------------------------------------------------------------------------------------


def _p4_rows(p4: str) -> list[dict[str, Any]]:
    rows = build_lgmt(LgmtConfig(mrs=("MR-P4",), per_mr=5, p4=p4)).dataset.to_list()
    assert rows
    return sorted(rows, key=lambda r: r["source_id"])


def test_p4_add_keeps_every_premise_and_adds_the_conjunction_replace_drops_the_pair() -> None:
    added, replaced = _p4_rows("add"), _p4_rows("replace")
    for row in added:
        source, followup = row["premises_fol"], row["followup_premises_fol"]
        assert len(followup) == len(source) + 1
        extra = list(followup)
        for premise in source:
            extra.remove(premise)  # every source premise is kept, verbatim
        [fused] = extra
        assert "∧" in fused
        assert row["law"] == "premise fusion (add)"
    for row in replaced:
        assert len(row["followup_premises_fol"]) == len(row["premises_fol"]) - 1
        assert row["law"] == "premise fusion (replace)"
    assert [r["followup_premises_fol"] for r in added] != [r["followup_premises_fol"] for r in replaced]


def _p5_rows(p5: str) -> list[dict[str, Any]]:
    rows = build_lgmt(LgmtConfig(mrs=("MR-P5",), per_mr=5, p5=p5)).dataset.to_list()
    assert rows
    return sorted(rows, key=lambda r: r["source_id"])


def test_p5_add_keeps_the_conjunction_and_adds_its_conjuncts_replace_splits_it_in_place() -> None:
    added, replaced = _p5_rows("add"), _p5_rows("replace")
    for row in added:
        source, followup = row["premises_fol"], row["followup_premises_fol"]
        extra = list(followup)
        for premise in source:
            extra.remove(premise)  # every source premise is kept, verbatim, the conjunction too
        assert len(extra) >= 2 and all(e in " ".join(source) for e in extra)
        assert row["law"] == "premise decomposition (add)" and row["variant"] == "paper"
    for row in replaced:
        assert len(row["followup_premises_fol"]) > len(row["premises_fol"])
        assert not set(row["premises_fol"]) <= set(row["followup_premises_fol"])  # the conjunction is gone
        assert row["law"] == "premise decomposition (replace)"


def test_p5_reaches_the_task_and_lm_eval() -> None:
    from lgmt_tasks.task_configs._params import dataset_params

    added = mr_p(per_mr=3, seed=1)
    replaced = mr_p(per_mr=3, seed=1, p5="replace")
    assert {s.metadata["law"] for s in added.dataset if s.metadata["mr"] == "MR-P5"} == {"premise decomposition (add)"}
    laws = {s.metadata["law"] for s in replaced.dataset if s.metadata["mr"] == "MR-P5"}
    assert laws == {"premise decomposition (replace)"}
    params = dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_p"}, {"p5": "replace"})
    assert params["p5"] == "replace"
    assert dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_p"}, {})["p5"] == "add"


def test_p4_reaches_the_task() -> None:
    added = mr_p(per_mr=3, seed=1)
    replaced = mr_p(per_mr=3, seed=1, p4="replace")
    laws = {s.metadata["law"] for s in added.dataset if s.metadata["mr"] == "MR-P4"}
    assert laws == {"premise fusion (add)"}
    assert {s.metadata["law"] for s in replaced.dataset if s.metadata["mr"] == "MR-P4"} == {"premise fusion (replace)"}


# --- lm-eval -----------------------------------------------------------------------------------------------------


def test_the_lm_eval_direction_key_reaches_the_build() -> None:
    forward = lgmt_utils.load_docs(relation_set="mr_e", direction="forward", per_mr=2)["test"]
    introduction = lgmt_utils.load_docs(relation_set="mr_e", direction="introduction", per_mr=2)["test"]
    assert set(forward["direction"]) == {"forward"}
    assert "forward" not in set(introduction["direction"])
    assert {"variant", "law"} <= set(forward.column_names)


def test_the_lm_eval_metadata_keys_include_direction_and_p4() -> None:
    from lgmt_tasks.task_configs._params import dataset_params

    params = dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_e"}, {"direction": "forward", "p4": "replace"})
    assert params["direction"] == "forward" and params["p4"] == "replace"
    assert dataset_params(lgmt_utils.PARAMS, {"relation_set": "mr_e"}, {})["direction"] == "paper"


# --- datasets built before the columns ------------------------------------------------------------------------


def test_a_dataset_without_variant_and_law_still_loads(built_dataset: str, tmp_path: Path) -> None:
    new = load_lgmt(("MR-E1.1", "MR-S1"), dataset=built_dataset).rows
    old_rows = new.remove_columns(["variant", "law"])
    old = write_lgmt_repo(LgmtBuild(old_rows, BuildStats(), LgmtConfig()), tmp_path / "old")
    rows = load_lgmt(("MR-E1.1", "MR-S1"), dataset=str(old)).rows
    assert rows["variant"] == rows["direction"] and set(rows["law"]) == {""}
    record = old_rows[0]
    sample = record_to_sample(record)
    assert sample.metadata is not None
    assert sample.metadata["variant"] == record["direction"] and sample.metadata["law"] == ""
    task = mr_e(dataset=str(old))
    assert all(s.metadata["variant"] == s.metadata["direction"] for s in task.dataset)


# --- temperature ----------------------------------------------------------------------------------------------


def test_the_tasks_decode_at_temperature_0(built_dataset: str) -> None:
    for make in (mr_c, lgmt):
        task = make(dataset=built_dataset)
        assert task.config.temperature == 0.0


def test_temperature_0_reaches_the_model_and_a_run_setting_wins(built_dataset: str, tmp_path: Path) -> None:
    """Inspect merges the run's generate config over the task's (`task.config.merge(...)`): `--temperature` wins."""
    default, chosen = Answers(), Answers()
    (log,) = eval(
        mr_c(dataset=built_dataset),
        model=get_model("mockllm/model", custom_outputs=default),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.plan.config.temperature == 0.0
    assert default.temperatures and set(default.temperatures) == {0.0}
    (log,) = eval(
        mr_c(dataset=built_dataset),
        model=get_model("mockllm/model", custom_outputs=chosen),
        log_dir=str(tmp_path),
        temperature=0.7,
        display="none",
    )
    assert log.plan.config.temperature == 0.7
    assert chosen.temperatures and set(chosen.temperatures) == {0.7}


# --- lgmt shrink ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, version, expected",
    [
        ({}, "3-B", ("any", "replace")),
        ({}, 0, ("any", "replace")),
        ({}, "4-A", ("paper", "add")),
        ({"direction": "forward", "p4": "replace"}, "4-A", ("forward", "replace")),
        ({"direction": "introduction"}, "3-B", ("introduction", "replace")),
        ({"direction": "counts", "p5": "add"}, "5-A", ("counts", "add")),
    ],
)
def test_shrink_reads_the_logs_relation_options(args: dict[str, Any], version: object, expected: tuple) -> None:
    options = relation_options({"names": "natural", **args}, version)
    assert (options["direction"], options["fuse"]) == expected and options["names"] == "natural"
    assert options["split"] == str(args.get("p5", "replace"))  # a log without p5 predates it: MR-P5 replaced
