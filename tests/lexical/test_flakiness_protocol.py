"""LLMorph's flakiness protocol end to end, next to ours.

Real runs of `lgmt_tasks/lexical` (`-T mr=MR-49,MR-1 -T part=premises -T per_mr=3`: three MR-1 and three MR-49
groups on the same three source cases) on mockllm/model with scripted answers: a first run, `lgmt failing-groups` on
its log, a re-run of the failing groups with `sample_id` and 9 epochs, then `llmorph_flakiness` and
`lgmt report --flakiness`. A run of every group over 10 epochs gives our protocol's table for comparison.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from inspect_ai.util import store

from lgmt_tasks.cli import main
from lgmt_tasks.lexical.catalogue import resolve_mrs, resolve_parts
from lgmt_tasks.lexical.dataset import load_lexical_rows
from lgmt_tasks.lexical.flakiness import (
    failing_groups,
    flakiness_table,
    llmorph_flakiness,
    llmorph_flakiness_report,
    llmorph_group_counts,
)
from lgmt_tasks.solvers.prompts import render_user_prompt
from tests.lexical.helpers import other, output

TASK = "lgmt_tasks/lexical"
MR, PART, PER_MR = "MR-49,MR-1", "premises", 3
TASK_ARGS: dict[str, Any] = {"mr": MR, "part": PART, "per_mr": PER_MR}
RERUN_EPOCHS = 9
RUNS = 1 + RERUN_EPOCHS

# Each group's follow-up answer, run by run: the first run, then the 9 re-run epochs. `same` is the source's label
# (the relation holds), `differ` another label (a violation), `unparsed` no label (the group is not compared).
PLAN: dict[tuple[str, str], list[str]] = {
    ("MR-1", "True"): ["differ"] * 10,  # fails 10 of 10 runs
    ("MR-1", "Unknown"): ["differ"] * 5 + ["same"] * 5,  # 5 of 10
    ("MR-1", "False"): ["same"] + ["differ"] * 2 + ["same"] * 7,  # passes the first run: never re-run (ours: 2 of 10)
    ("MR-49", "True"): ["differ"] + ["same"] * 9,  # 1 of 10
    ("MR-49", "Unknown"): ["differ"] * 9 + ["unparsed"],  # unreadable in one re-run epoch: left out
    ("MR-49", "False"): ["unparsed"] + ["differ"] * 9,  # not compared in the first run: not failing
}
FAILING = {("MR-1", "True"), ("MR-1", "Unknown"), ("MR-49", "True"), ("MR-49", "Unknown")}


def answer(label: str) -> ModelOutput:
    return output(f'{{"reasoning": "By the premises.", "label": "{label}"}}')


class Scripted:
    """The model under test: a source answered with its gold label, a follow-up by its group's plan from `start`.

    MR-1's follow-up prompts are its own. MR-49 asks its source prompt twice, and that prompt is also the source of the
    MR-1 group on the same case: the second time a sample-epoch asks it (counted in the sample's store, so epochs
    and groups may interleave freely), it is MR-49's follow-up. A group's behaviours are used in call order; only
    their counts matter to the tables.
    """

    def __init__(self, rows: list[dict[str, Any]], start: int) -> None:
        self.gold: dict[str, str] = {}
        self.followups: dict[str, tuple[str, str, list[str]]] = {}
        self.repeats: dict[str, tuple[str, str, list[str]]] = {}
        for row in rows:
            source = render_user_prompt(row["premises"], row["conclusion"])
            followup = render_user_prompt(row["followup_premises"], row["followup_conclusion"])
            self.gold[source] = row["label"]
            plan = (row["id"], row["label"], PLAN[(row["mr"], row["label"])][start:])
            if followup == source:
                self.repeats[source] = plan
            else:
                self.followups[followup] = plan
        self.used: Counter[str] = Counter()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = messages[-1].text
        key = "asked/" + hashlib.sha256(prompt.encode()).hexdigest()[:16]
        asked = store().get(key, 0)
        store().set(key, asked + 1)
        if prompt in self.followups or (asked == 1 and prompt in self.repeats):
            group, gold, plan = self.followups.get(prompt) or self.repeats[prompt]
            behaviour = plan[self.used[group]]
            self.used[group] += 1
            if behaviour == "unparsed":
                return output("It could be True or False.")
            return answer(gold if behaviour == "same" else other(gold))
        return answer(self.gold[prompt])


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return [dict(r) for r in load_lexical_rows(resolve_mrs(MR), resolve_parts(PART), per_mr=PER_MR)]


def run_task(rows: list[dict[str, Any]], log_dir: Path, start: int, **options: Any) -> EvalLog:
    model = get_model("mockllm/model", custom_outputs=Scripted(rows, start), memoize=False)
    [log] = eval(TASK, task_args=TASK_ARGS, model=model, log_dir=str(log_dir), display="none", **options)
    assert log.status == "success", log.error
    return log


def ids_of(rows: list[dict[str, Any]], groups: set[tuple[str, str]]) -> set[str]:
    return {r["id"] for r in rows if (r["mr"], r["label"]) in groups}


@pytest.fixture(scope="module")
def first_log(rows: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory, cache_dirs: None) -> EvalLog:
    log = run_task(rows, tmp_path_factory.mktemp("first"), start=0)
    assert {str(s.id) for s in log.samples or []} == {r["id"] for r in rows} and len(rows) == 6
    return log


@pytest.fixture(scope="module")
def failing_ids(first_log: EvalLog) -> list[str]:
    """Step 2: the failing groups, as `lgmt failing-groups FIRST_LOG` prints them for `--sample-id`."""
    result = CliRunner().invoke(main, ["failing-groups", str(first_log.location)])
    assert result.exit_code == 0, result.output
    assert "4 of 5 compared groups violated" in result.stderr
    [line] = result.stdout.splitlines()
    return line.split(",")


@pytest.fixture(scope="module")
def rerun_log(rows: list[dict[str, Any]], failing_ids: list[str], tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """Step 3: the failing groups re-run 9 more times (`--sample-id ... --epochs 9`)."""
    return run_task(rows, tmp_path_factory.mktemp("rerun"), start=1, sample_id=failing_ids, epochs=RERUN_EPOCHS)


@pytest.fixture(scope="module")
def all_groups_log(rows: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory, cache_dirs: None) -> EvalLog:
    """Our protocol: every group over 10 epochs, each group answering as over LLMorph's 10 runs."""
    return run_task(rows, tmp_path_factory.mktemp("all-groups"), start=0, epochs=RUNS)


def test_failing_groups_are_the_compared_violations(rows, first_log, failing_ids):
    assert set(failing_ids) == ids_of(rows, FAILING)
    assert failing_ids == failing_groups(first_log)  # the log's sample order
    # MR-1/False held; MR-49/False was unreadable, so its relation was not tested: neither is re-run
    assert not set(failing_ids) & ids_of(rows, {("MR-1", "False"), ("MR-49", "False")})


def test_failing_groups_lines_and_out(first_log, failing_ids, tmp_path):
    runner = CliRunner()
    lines = runner.invoke(main, ["failing-groups", str(first_log.location), "--lines"])
    assert lines.exit_code == 0 and lines.stdout.splitlines() == failing_ids
    out = tmp_path / "ids.txt"
    written = runner.invoke(main, ["failing-groups", str(first_log.location), "--out", str(out)])
    assert written.exit_code == 0 and written.stdout == ""
    assert out.read_text(encoding="utf-8") == ",".join(failing_ids) + "\n"
    assert f"written to {out}" in written.stderr


def test_failing_groups_warns_past_the_argument_limit(first_log, failing_ids, monkeypatch):
    import lgmt_tasks.lexical.flakiness as flakiness

    monkeypatch.setattr(flakiness, "ARG_MAX_BYTES", 40)  # Linux's is 131072: ~5,000 lexical ids
    result = CliRunner().invoke(main, ["failing-groups", str(first_log.location)])
    assert result.exit_code == 0 and result.stdout == ",".join(failing_ids) + "\n"
    assert "over Linux's 40-byte limit on one command-line argument" in result.stderr
    assert "sample_id=failing_groups(LOG)" in result.stderr


def test_rerun_by_sample_id_runs_exactly_the_failing_groups(rerun_log, failing_ids):
    assert rerun_log.eval.config.epochs == RERUN_EPOCHS
    assert Counter(str(s.id) for s in rerun_log.samples or []) == dict.fromkeys(failing_ids, RERUN_EPOCHS)


def test_llmorph_group_counts(rows, first_log, rerun_log):
    counts = llmorph_group_counts(first_log, rerun_log).set_index("id")
    by_plan = {(r["mr"], r["label"]): r["id"] for r in rows}
    assert set(counts["runs"]) == {RUNS}
    expected = {  # (violated, compared) over the 10 runs
        ("MR-1", "True"): (10, 10),
        ("MR-1", "Unknown"): (5, 10),
        ("MR-49", "True"): (1, 10),
        ("MR-49", "Unknown"): (9, 9),  # unreadable in one re-run epoch
    }
    for group, (violated, compared) in expected.items():
        row = counts.loc[by_plan[group]]
        assert (row["mr"], row["violated"], row["compared"]) == (group[0], violated, compared)
    assert len(counts) == len(expected)


def test_llmorph_flakiness_is_table_xi(first_log, rerun_log):
    table = llmorph_flakiness(first_log, rerun_log)
    assert list(table.columns) == ["relation", "groups", "left_out", *(f"{k}/{RUNS}" for k in range(1, RUNS + 1))]
    table = table.set_index("relation")
    assert list(table.index) == ["all", "MR-1", "MR-49"]
    shares = {name: {k: table.loc[name, f"{k}/{RUNS}"] for k in range(1, RUNS + 1)} for name in table.index}
    # all: the three groups compared in every run failed 1, 5 and 10 times; MR-49/Unknown is left out
    assert (table.loc["all", "groups"], table.loc["all", "left_out"]) == (3, 1)
    assert shares["all"] == {k: pytest.approx(1 / 3) if k in (1, 5, 10) else 0.0 for k in range(1, RUNS + 1)}
    assert (table.loc["MR-1", "groups"], table.loc["MR-1", "left_out"]) == (2, 0)
    assert shares["MR-1"] == {k: 0.5 if k in (5, 10) else 0.0 for k in range(1, RUNS + 1)}
    assert (table.loc["MR-49", "groups"], table.loc["MR-49", "left_out"]) == (1, 1)
    assert shares["MR-49"] == {k: 1.0 if k == 1 else 0.0 for k in range(1, RUNS + 1)}


def test_our_protocol_counts_groups_that_passed_their_first_run(all_groups_log, first_log, rerun_log):
    ours = flakiness_table(all_groups_log).set_index("relation")
    # every group over 10 epochs: MR-1/False (passed its first run, failed 2 of 10) enters too
    assert ours.loc["all", "failing"] == 4
    assert {k: ours.loc["all", f"{k}/{RUNS}"] for k in (1, 2, 5, 10)} == dict.fromkeys((1, 2, 5, 10), 0.25)
    theirs = llmorph_flakiness(first_log, rerun_log).set_index("relation")
    assert theirs.loc["all", f"2/{RUNS}"] == 0.0 and theirs.loc["all", f"1/{RUNS}"] == pytest.approx(1 / 3)


def test_refuses_mismatched_logs(rows, first_log, rerun_log, all_groups_log, tmp_path):
    other_model = rerun_log.model_copy(deep=True)
    other_model.eval.model = "openai/gpt-4o"
    with pytest.raises(ValueError, match="different model"):
        llmorph_flakiness(first_log, other_model)
    other_task = rerun_log.model_copy(deep=True)
    other_task.eval.task = "lgmt_tasks/lgmt"
    with pytest.raises(ValueError, match="different task"):
        llmorph_flakiness(first_log, other_task)
    other_args = rerun_log.model_copy(deep=True)
    other_args.eval.task_args = {**other_args.eval.task_args, "prompting": "zero_shot"}
    with pytest.raises(ValueError, match=r"task argument \(-T\) prompting: 'zero_shot_cot' vs 'zero_shot'"):
        llmorph_flakiness(first_log, other_args)
    # `inspect eval -T mr=MR-49,MR-1` records a list where inspect_ai.eval records the string: the same run
    cli_form = rerun_log.model_copy(deep=True)
    cli_form.eval.task_args = {**cli_form.eval.task_args, "mr": ["MR-49", "MR-1"]}
    assert llmorph_flakiness(first_log, cli_form).equals(llmorph_flakiness(first_log, rerun_log))
    hotter = rerun_log.model_copy(deep=True)
    hotter.eval.model_generate_config.temperature = 1.0
    with pytest.raises(ValueError, match="temperature"):
        llmorph_flakiness(first_log, hotter)
    # a real re-run that includes a group that held in the first run
    held = sorted(ids_of(rows, {("MR-1", "False")}))
    extra = run_task(rows, tmp_path / "extra", start=1, sample_id=[*failing_groups(first_log), *held], epochs=1)
    with pytest.raises(ValueError, match=f"1 groups that did not fail.*{held[0]}"):
        llmorph_flakiness(first_log, extra)
    with pytest.raises(ValueError, match="10 epochs: LLMorph's protocol re-runs the failing groups of a first run"):
        llmorph_flakiness(all_groups_log, rerun_log)


def test_failing_groups_command_refuses_multi_epoch_logs(all_groups_log):
    result = CliRunner().invoke(main, ["failing-groups", str(all_groups_log.location)])
    assert result.exit_code == 1 and "has 10 epochs" in result.stderr


def test_report_markdown(first_log, rerun_log):
    text = llmorph_flakiness_report(first_log, rerun_log)
    assert text.startswith("### Flakiness of the first run's failing groups over 10 runs (LLMorph's protocol")
    assert "4 of the 5 groups compared in the first run" in text
    assert "Among the 3 compared in all 10 runs (1 left out" in text
    assert "| all        |        3 |          1 |   0.33 |" in text


def test_lgmt_report_flakiness(all_groups_log, first_log, rerun_log, tmp_path):
    out = tmp_path / "report"
    args = ["report", str(all_groups_log.location), "--flakiness", str(first_log.location), str(rerun_log.location)]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    ours = result.stdout.index("### Flakiness over 10 epochs of every group")
    theirs = result.stdout.index("### Flakiness of the first run's failing groups over 10 runs")
    assert ours < theirs  # LLMorph's table right after ours
    csv = (out / "lexical" / "flakiness_llmorph.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0].startswith("model,log,rerun_log,relation,groups,left_out,1/10,")
    assert csv[1].startswith(f"mockllm/model,{Path(str(first_log.location)).name},") and ",all,3,1," in csv[1]
    assert (out / "lexical" / "flakiness.csv").exists()  # ours, beside it
    index = (out / "report.md").read_text(encoding="utf-8")
    assert "[lexical/flakiness_llmorph.md](lexical/flakiness_llmorph.md)" in index
    # alone (no LOGS), and refused on a mismatched pair
    alone = CliRunner().invoke(main, ["report", "--flakiness", str(first_log.location), str(rerun_log.location)])
    assert alone.exit_code == 0 and alone.stdout.startswith("### Flakiness of the first run's failing groups")
    swapped = CliRunner().invoke(main, ["report", "--flakiness", str(rerun_log.location), str(first_log.location)])
    assert swapped.exit_code == 1 and "9 epochs" in swapped.stderr


def test_shares_are_nan_without_compared_groups(first_log, rows, tmp_path):
    # a re-run where the only failing group re-run is unreadable in its one epoch: nothing is compared in every run
    [mr49_unknown] = ids_of(rows, {("MR-49", "Unknown")})
    scripted = Scripted(rows, start=9)  # MR-49/Unknown's last behaviour: unparsed
    model = get_model("mockllm/model", custom_outputs=scripted, memoize=False)
    [log] = eval(
        TASK, task_args=TASK_ARGS, model=model, sample_id=[mr49_unknown], log_dir=str(tmp_path), display="none"
    )
    table = llmorph_flakiness(first_log, log).set_index("relation")
    assert (table.loc["all", "groups"], table.loc["all", "left_out"]) == (0, 4)  # the 3 absent groups are left out too
    assert all(math.isnan(v) for v in table.loc["all", ["1/2", "2/2"]])
