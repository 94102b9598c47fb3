"""`lgmt report --compare` and the leaderboard's tied-with-the-best marks, on real Inspect runs of scripted models.

Three runs of `mr_e` (the shipped default build, 10 relations; `--limit 100` is 10 groups per relation, round-robin):

- `mockllm/perfect` answers every member with its gold label;
- `mockllm/flawed` does the same, except that every follow-up of relation `WRONG` gets another label (all 10 of
  that relation's groups are violations and not consistently correct);
- `mockllm/slight` (`--limit 60`) is wrong on the follow-up of one group of `WRONG` only.

Expected: perfect vs flawed differs on exactly `WRONG` (b = 0, c = 10: p = 2 / 2^10, times 10 relations by Holm =
0.0195 < 0.05), and overall; perfect vs slight differs nowhere (b = 0, c = 1: p = 1). Every number below is counted
from this script, never read back from the report.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.cli import main
from lgmt_tasks.report.compare import compare_logs
from lgmt_tasks.report.leaderboard import leaderboard
from lgmt_tasks.report.significance import mcnemar_exact
from lgmt_tasks.scorers.intervals import newcombe_paired_difference

LABELS = ("True", "False", "Unknown")
PER_RELATION, LIMIT_SLIGHT = 10, 60
PERFECT, FLAWED, SLIGHT = "mockllm/perfect", "mockllm/flawed", "mockllm/slight"


def other(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % 3]


def scripted(name: str, answers: dict[str, str]) -> Any:
    """A mock model answering each member (the last user message) from `answers` (prompt → label)."""

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = [m.text for m in messages if m.role == "user"][-1]
        out = ModelOutput.from_content(name, json.dumps({"label": answers[prompt]}))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model(name, custom_outputs=outputs, memoize=False)


def gold_answers(samples: list[Any]) -> dict[str, str]:
    answers: dict[str, str] = {}
    for sample in samples:
        for prompt in sample.metadata["members"]:
            assert answers.setdefault(prompt, sample.target) == sample.target  # a prompt never has two golds
    return answers


def run(task: Any, model: Any, log_dir: Path, limit: int) -> str:
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none", limit=limit, max_tokens=16)
    assert log.status == "success", log.error
    return str(log.location)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from lgmt_tasks.lgmt.task import mr_e

    root = tmp_path_factory.mktemp("compare")
    task = mr_e(prompting="zero_shot")
    samples: list[Any] = list(task.dataset)[: 10 * PER_RELATION]
    relations = list(dict.fromkeys(s.metadata["mr"] for s in samples))
    assert len(relations) == 10 and all(sum(s.metadata["mr"] == r for s in samples) == PER_RELATION for r in relations)
    wrong = relations[0]
    gold = gold_answers(samples)
    flawed = dict(gold)
    for sample in samples:
        if sample.metadata["mr"] == wrong:
            for prompt in sample.metadata["members"][1:]:
                flawed[prompt] = other(sample.target)
    first_wrong = next(s for s in samples if s.metadata["mr"] == wrong)
    slight = dict(gold)
    slight[first_wrong.metadata["members"][1]] = other(first_wrong.target)
    logs = {
        PERFECT: run(task, scripted(PERFECT, gold), root, 10 * PER_RELATION),
        FLAWED: run(task, scripted(FLAWED, flawed), root, 10 * PER_RELATION),
        SLIGHT: run(task, scripted(SLIGHT, slight), root, LIMIT_SLIGHT),
    }
    return {"root": root, "logs": logs, "wrong": wrong, "relations": relations, "gold": gold}


def rows(table: Any, first: str, second: str, metric: str) -> dict[str, dict[str, Any]]:
    chosen = table[(table["first"] == first) & (table["second"] == second) & (table["metric"] == metric)]
    return {row["relation"]: row for row in chosen.to_dict("records")}


def test_compare_flags_exactly_the_wrong_relation(runs):
    comparison = compare_logs([runs["logs"][PERFECT], runs["logs"][FLAWED]])
    wrong = runs["wrong"]
    p = 2 / 2**PER_RELATION  # every one of the 10 discordant pairs goes the same way
    for metric, (perfect_rate, flawed_rate) in {"mvr": (0.0, 1.0), "acc_cons": (1.0, 0.0)}.items():
        found = rows(comparison.table, PERFECT, FLAWED, metric)
        assert list(found) == ["all", *sorted(runs["relations"])]  # MR-E1.1 ... MR-E2.4: plain order is natural here
        significant = [relation for relation, row in found.items() if row["significant"]]
        assert significant == ["all", wrong]
        row = found[wrong]
        assert row["groups"] == PER_RELATION
        assert (row["first_rate"], row["second_rate"]) == (perfect_rate, flawed_rate)
        assert (row["b"], row["c"]) == ((0, PER_RELATION) if metric == "mvr" else (PER_RELATION, 0))
        assert row["p_value"] == pytest.approx(p)
        assert row["p_holm"] == pytest.approx(10 * p)  # Holm: the smallest of 10 p-values times 10
        # Newcombe's interval, not a point (a bootstrap gave [-1, -1] / [1, 1] here): 10 of 10 discordant one way
        _, low, high = newcombe_paired_difference(0, 0, PER_RELATION, PER_RELATION)
        expected = (low, high) if metric == "mvr" else (-high, -low)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(expected)
        assert row["ci_low"] < row["ci_high"]
        assert (row["ci_high"] < 0) if metric == "mvr" else (row["ci_low"] > 0)  # significant: 0 excluded
        overall = found["all"]
        assert overall["groups"] == 10 * PER_RELATION and overall["p_holm"] == pytest.approx(p)
        assert overall["difference"] == pytest.approx((perfect_rate - flawed_rate) / 10)
        assert overall["ci_low"] <= overall["difference"] <= overall["ci_high"]
        for relation in set(runs["relations"]) - {wrong}:
            assert (found[relation]["b"], found[relation]["c"], found[relation]["p_value"]) == (0, 0, 1.0)
    assert comparison.notes == []  # same 100 ids in both


def test_compare_pairs_only_shared_ids_and_names_the_rest(runs):
    logs = runs["logs"]
    comparison = compare_logs([logs[PERFECT], logs[FLAWED], logs[SLIGHT]])
    assert {(r["first"], r["second"]) for r in comparison.table.to_dict("records")} == {
        (PERFECT, FLAWED),
        (PERFECT, SLIGHT),
        (FLAWED, SLIGHT),
    }
    assert len(comparison.notes) == 2
    assert all(f"{LIMIT_SLIGHT} groups in both; {100 - LIMIT_SLIGHT} only in" in note for note in comparison.notes)
    found = rows(comparison.table, PERFECT, SLIGHT, "mvr")
    assert found["all"]["groups"] == LIMIT_SLIGHT
    assert (found[runs["wrong"]]["b"], found[runs["wrong"]]["c"]) == (0, 1)
    assert found[runs["wrong"]]["p_value"] == pytest.approx(mcnemar_exact(0, 1)) == 1.0
    assert not any(row["significant"] for row in found.values())


def test_leaderboard_marks_runs_tied_with_the_best(runs):
    logs = runs["logs"]
    board = leaderboard([logs[PERFECT], logs[FLAWED], logs[SLIGHT]]).set_index("model")
    # best MVR 0 and acc_cons 1: perfect. flawed: p = 2/2^10 per metric, Holm over 2 others -> 0.0039: not tied.
    # slight: b + c = 1, p = 1: tied.
    for column in ("mvr_tied_best", "acc_cons_tied_best"):
        assert board.loc[PERFECT, column] is True
        assert board.loc[FLAWED, column] is False
        assert board.loc[SLIGHT, column] is True
    alone = leaderboard([logs[FLAWED]])
    assert alone.loc[0, "mvr_tied_best"] is None  # nothing to compare with


def test_cli_compare_writes_tables_and_links_them(runs, tmp_path):
    out = tmp_path / "report"
    result = CliRunner().invoke(
        main, ["report", "--compare", runs["logs"][PERFECT], runs["logs"][FLAWED], "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "McNemar exact" in result.output and runs["wrong"] in result.output
    with (out / "compare.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    flagged = {(r["metric"], r["relation"]) for r in table if r["significant"] == "True"}
    assert flagged == {(m, r) for m in ("mvr", "acc_cons") for r in ("all", runs["wrong"])}
    assert "(compare.md)" in (out / "report.md").read_text(encoding="utf-8")
    assert (out / "compare.md").read_text(encoding="utf-8").count("| *") == 4
    with (out / "leaderboard.csv").open(encoding="utf-8") as handle:
        marks = {r["model"]: r["mvr_tied_best"] for r in csv.DictReader(handle)}
    assert marks == {PERFECT: "True", FLAWED: "False"}


def test_compare_refuses_other_datasets_and_tasks(runs, tmp_path, monkeypatch):
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig
    from lgmt_tasks.lgmt.task import lgmt, mr_e

    monkeypatch.setenv("LGMT_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    write_lgmt_repo(build_lgmt(LgmtConfig(mrs=(runs["wrong"],), per_mr=2, seed=0)), folder)
    task = mr_e(prompting="zero_shot", dataset=str(folder))
    gold = gold_answers(list(task.dataset))
    other_dataset = run(task, scripted(PERFECT, gold), tmp_path / "logs", 2)
    perfect = runs["logs"][PERFECT]
    result = CliRunner().invoke(main, ["report", "--compare", perfect, other_dataset])
    assert result.exit_code == 1
    [line] = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert perfect in line and other_dataset in line and "different datasets (fingerprint sha256:" in line
    all_relations = lgmt(prompting="zero_shot")
    other_task = run(all_relations, scripted(PERFECT, gold_answers(list(all_relations.dataset)[:4])), tmp_path, 4)
    with pytest.raises(ValueError, match=r"different tasks \(mr_e vs lgmt\)"):
        compare_logs([perfect, other_task])
    result = CliRunner().invoke(main, ["report", "--compare", perfect])
    assert result.exit_code == 2 and "two or more logs" in result.output


def test_compare_rates_are_over_paired_groups(runs):
    comparison = compare_logs([runs["logs"][FLAWED], runs["logs"][PERFECT]])
    found = rows(comparison.table, FLAWED, PERFECT, "mvr")
    assert found["all"]["first_rate"] == pytest.approx(PER_RELATION / 100)
    assert found["all"]["difference"] > 0 and not math.isnan(found["all"]["p_value"])


def test_compare_reads_lexical_logs_with_the_same_keys(tmp_path):
    """The lexical suite's scorer shares the pairwise keys, so its logs compare the same way, per LLMorph relation."""
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.lexical.task import lexical

    task = lexical()
    samples: list[Any] = list(task.dataset)[:26]
    prompts = {p for s in samples for p in s.metadata["members"]}
    steady = run(task, scripted("mockllm/steady", dict.fromkeys(prompts, "True")), tmp_path, 26)
    followups = {p for s in samples for p in s.metadata["members"][1:]} - {s.metadata["members"][0] for s in samples}
    answers = {p: ("False" if p in followups else "True") for p in prompts}
    flipping = run(task, scripted("mockllm/flipping", answers), tmp_path, 26)
    comparison = compare_logs([steady, flipping])
    found = rows(comparison.table, "mockllm/steady", "mockllm/flipping", "mvr")
    assert set(found) == {"all"} | {s.metadata["mr"] for s in samples}
    scored = [
        {str(s.id): s.scores["lexical_consistency"].value for s in read_eval_log(path).samples or []}
        for path in (steady, flipping)
    ]
    both = [i for i in scored[0] if scored[0][i]["parsed"] and scored[1][i]["parsed"]]
    b = sum(scored[0][i]["violation"] > scored[1][i]["violation"] for i in both)
    c = sum(scored[1][i]["violation"] > scored[0][i]["violation"] for i in both)
    assert (found["all"]["groups"], found["all"]["b"], found["all"]["c"]) == (len(both), b, c)
    assert c > 0  # the follow-ups answered False violate the equivalence relations
