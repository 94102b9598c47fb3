"""`lgmt adaptive-next`: the lm-eval rounds of an adaptive run decide as the design says, on files lm-eval writes.

Most tests plant outcomes in samples files of lm-eval's layout over a small synthetic pool (the command's `load_pool`
replaced), so that a whole run of rounds takes milliseconds; one runs real lm-eval rounds (`simple_evaluate` with
`--samples` and lm-eval's own `EvaluationTracker` writing the files) with a scripted model on the shipped build.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from lgmt_tasks.adaptive import lm_eval_loop
from lgmt_tasks.adaptive.design import Settings
from lgmt_tasks.adaptive.lm_eval_loop import (
    Pool,
    adaptive_next_command,
    merge,
    model_of,
    next_round,
    pool_of,
    samples_files,
    samples_json,
)
from lgmt_tasks.errors import LgmtError

TASK = "lgmt"
DATES = [f"2026-01-01T00-00-{second:02d}.000000" for second in range(60)]


def synthetic_pool(sizes: Mapping[str, int]) -> Pool:
    """A pool ordered round-robin over relations, as the task orders its documents; group ids `<relation>-<k>`."""
    order: list[tuple[str, int]] = []
    for k in range(max(sizes.values())):
        order += [(relation, k) for relation, size in sizes.items() if k < size]
    return pool_of(TASK, [relation for relation, _ in order], [f"{relation}-{k}" for relation, k in order])


def sample_line(pool: Pool, doc_id: int, *, parsed: bool = True, violation: bool = False) -> str:
    """One line as lm-eval's `save_results_samples` writes it for our task (the keys that matter, and a few more)."""
    outcome = {"violation": int(parsed and violation), "parsed": int(parsed), "tested": 1, "source_correct": 1}
    doc = {"id": pool.groups[doc_id], "mr": pool.relations[doc_id], "label": "True"}
    sample = {
        "doc_id": doc_id,
        "doc": doc,
        "target": "True",
        "arguments": {"gen_args_0": {"arg_0": "prompt"}},
        "resps": [["x"], ["y"]],
        "filtered_resps": ["x", "y"],
        "filter": "none",
        "metrics": ["mvr", "acc_static"],
        "mvr": outcome,
        "acc_static": outcome,
    }
    return json.dumps(sample)


def write_round(folder: Path, date: str, lines: Sequence[str], task: str = TASK) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"samples_{task}_{date}.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def run_rounds(
    pool: Pool, planted: Mapping[str, float], folder: Path, settings: Settings, batch: int, seed: int = 0
) -> tuple[lm_eval_loop.Round, list[list[int]]]:
    """Run rounds until done: each writes a samples file with outcomes drawn at the planted rates, then is read back."""
    rng = random.Random(seed)
    rounds: list[list[int]] = []
    while True:
        seen = merge(samples_files([folder], TASK)) if folder.exists() else {}
        round_ = next_round(settings, pool, seen, batch)
        if round_.done:
            return round_, rounds
        rounds.append(round_.next_docs)
        lines = [sample_line(pool, d, violation=rng.random() < planted[pool.relations[d]]) for d in round_.next_docs]
        write_round(folder / "model", DATES[len(rounds)], lines)


# --- the loop over planted rates -----------------------------------------------------------------------------------


def test_rounds_decide_clean_below_half_above_and_an_exhausted_pool_undecided(tmp_path):
    pool = synthetic_pool({"MR-A": 300, "MR-B": 300, "MR-C": 10})
    planted = {"MR-A": 0.0, "MR-B": 0.5, "MR-C": 0.10}
    final, rounds = run_rounds(pool, planted, tmp_path / "out", Settings("threshold"), batch=10)
    decisions = {relation: state.decision for relation, state in final.states.items()}
    assert decisions == {"MR-A": "below", "MR-B": "above", "MR-C": "undecided"}
    assert final.run["MR-C"] == 10 and final.states["MR-C"].exhausted
    every = [d for docs in rounds for d in docs]
    assert len(every) == len(set(every))  # no document asked twice
    assert all(docs == sorted(docs) for docs in rounds)  # lm-eval logs an unsorted --samples list under wrong ids
    # a relation stops being asked once decided: the 50% one long before the clean one
    assert final.run["MR-B"] < final.run["MR-A"] < 300


def test_each_round_takes_the_next_unseen_documents_of_open_relations_in_task_order():
    pool = synthetic_pool({"MR-A": 50, "MR-B": 50})
    first = next_round(Settings("threshold"), pool, {}, batch=3)
    assert first.next_docs == [0, 1, 2, 3, 4, 5]  # round-robin order: A0 B0 A1 B1 A2 B2
    assert samples_json(TASK, first.next_docs) == '{"lgmt": [0, 1, 2, 3, 4, 5]}'


def test_weakest_design_ends_with_the_weakest_relation(tmp_path):
    pool = synthetic_pool({"MR-A": 400, "MR-B": 400, "MR-C": 400})
    planted = {"MR-A": 0.05, "MR-B": 0.6, "MR-C": 0.1}
    final, _ = run_rounds(pool, planted, tmp_path / "out", Settings("weakest"), batch=10)
    assert final.states["MR-B"].decision == "weakest"
    assert {final.states[r].decision for r in ("MR-A", "MR-C")} <= {"eliminated", "tied"}


# --- reading the files ---------------------------------------------------------------------------------------------


def test_a_document_in_two_files_counts_once_from_the_earlier_file(tmp_path):
    pool = synthetic_pool({"MR-A": 20})
    write_round(tmp_path / "m", DATES[2], [sample_line(pool, 0, violation=False), sample_line(pool, 1)])
    write_round(tmp_path / "m", DATES[3], [sample_line(pool, 0, violation=True)])  # a round run again
    seen = merge(samples_files([tmp_path], TASK))
    assert sorted(seen) == [0, 1] and not seen[0].violation
    round_ = next_round(Settings("threshold"), pool, seen, batch=5)
    assert (round_.states["MR-A"].interval.n, round_.states["MR-A"].interval.violations) == (2, 0)


def test_an_unparsed_group_uses_its_document_but_not_the_interval(tmp_path):
    pool = synthetic_pool({"MR-A": 5})
    write_round(tmp_path, DATES[1], [sample_line(pool, 0, parsed=False, violation=True), sample_line(pool, 1)])
    round_ = next_round(Settings("threshold"), pool, merge(samples_files([tmp_path], TASK)), batch=10)
    assert round_.states["MR-A"].interval.n == 1 and round_.run["MR-A"] == 2
    assert round_.next_docs == [2, 3, 4]


def test_folders_are_searched_for_the_tasks_files_only(tmp_path):
    pool = synthetic_pool({"MR-A": 5})
    mine = write_round(tmp_path / "a", DATES[1], [sample_line(pool, 0)])
    write_round(tmp_path / "a", DATES[1], [sample_line(pool, 1)], task="lgmt_mr_e")
    (tmp_path / "a" / f"results_{DATES[1]}.json").write_text("{}", encoding="utf-8")
    assert samples_files([tmp_path], TASK) == [mine]
    with pytest.raises(LgmtError, match="samples of task lgmt_mr_e, not of lgmt"):
        samples_files([tmp_path / "a" / f"samples_lgmt_mr_e_{DATES[1]}.jsonl"], TASK)
    with pytest.raises(LgmtError, match="no samples_lgmt_mr_s_<date>.jsonl"):
        samples_files([tmp_path], "lgmt_mr_s")


def test_rounds_of_two_models_are_refused(tmp_path):
    pool = synthetic_pool({"MR-A": 5})
    for k, (folder, args) in enumerate([("a", "pretrained=org/one,dtype=float32"), ("b", {"pretrained": "org/two"})]):
        write_round(tmp_path / folder, DATES[k], [sample_line(pool, k)])
        config = {"model": "hf", "model_args": args}
        (tmp_path / folder / f"results_{DATES[k]}.json").write_text(json.dumps({"config": config}), encoding="utf-8")
    with pytest.raises(LgmtError, match="samples of 2 models: hf:org/one"):
        merge(samples_files([tmp_path], TASK))
    # lm-eval's own model_name is a random word when the arguments name no model: the type is the model then
    assert model_of({"model": "dummy", "model_args": {}}) == "dummy"


# --- the command ---------------------------------------------------------------------------------------------------


@pytest.fixture
def small_pool(monkeypatch: pytest.MonkeyPatch) -> Pool:
    pool = synthetic_pool({"MR-A": 100, "MR-B": 100, "MR-C": 4})
    monkeypatch.setattr(lm_eval_loop, "load_pool", lambda task, metadata: pool)
    return pool


def table_of(output: str) -> dict[str, list[str]]:
    """The decisions table the command prints, by relation (the rows after the header line)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split() == list(HEADER))
    return {line.split()[0]: line.split() for line in lines[start + 1 :]}


HEADER = ("relation", "groups", "violations", "lower", "upper", "decision")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(adaptive_next_command, list(args))


def test_without_results_the_command_prints_the_first_round(small_pool):
    result = invoke("--batch", "2")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {TASK: [0, 1, 2, 3, 4, 5]}


def test_the_command_writes_the_next_round_then_done_with_the_decisions(small_pool, tmp_path):
    out, next_file = tmp_path / "out", tmp_path / "next.json"
    rng = random.Random(1)
    planted = {"MR-A": 0.0, "MR-B": 0.5, "MR-C": 0.0}
    result = invoke("--out", str(next_file), "--batch", "10")
    for k in range(1, 40):
        assert result.exit_code == 0, result.output
        if result.stdout.startswith("done"):
            break
        docs = json.loads(next_file.read_text(encoding="utf-8"))[TASK]
        lines = [sample_line(small_pool, d, violation=rng.random() < planted[small_pool.relations[d]]) for d in docs]
        write_round(out / "model", DATES[k], lines)
        result = invoke(str(out), "--out", str(next_file), "--batch", "10")
    assert result.stdout.startswith("done\n") and not next_file.exists()  # `while [ -f next.json ]` ends
    table = table_of(result.stdout)
    assert {relation: row[-1] for relation, row in table.items()} == {
        "MR-A": "below",
        "MR-B": "above",
        "MR-C": "undecided",
    }
    assert table["MR-C"][1:3] == ["4", "0"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{\n  "results": {}\n}\n', "not lm-eval samples output (not a JSON line"),
        ('{"doc_id": 0, "doc": {"id": "x", "mr": "MR-A"}}\n', "group outcome under 'mvr'"),
        ("", "no sample in it"),
    ],
)
def test_a_file_that_is_not_samples_output_is_one_error_line(small_pool, tmp_path, content, message):
    bad = tmp_path / "results.json"
    bad.write_text(content, encoding="utf-8")
    result = invoke(str(bad))
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("Error: ")
    assert message in result.output and "Traceback" not in result.output


def test_results_of_another_dataset_are_refused(small_pool, tmp_path):
    other = pool_of(TASK, list(small_pool.relations), [f"other-{k}" for k in range(len(small_pool.relations))])
    write_round(tmp_path, DATES[1], [sample_line(other, 3)])
    result = invoke(str(tmp_path))
    assert result.exit_code == 1
    assert "doc_id 3 is group other-3, but document 3 of task lgmt is" in result.output
    assert "--metadata the rounds were run with" in result.output


def test_bad_settings_are_usage_errors(small_pool):
    result = invoke("--tau", "1.5")
    assert result.exit_code == 2 and "tau=1.5" in result.output
    result = invoke("--metadata", "[1]")
    assert result.exit_code == 2 and "expected a JSON object" in result.output


# --- real lm-eval rounds -------------------------------------------------------------------------------------------

VIOLATING_CATEGORY = "MR-P"
"""The scripted model answers every follow-up of these relations with a wrong label, and every other member right."""


def test_real_lm_eval_rounds_with_log_samples(
    tmp_path: Path, offline_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1 from the command, run by lm-eval (`samples=`) and written by its `EvaluationTracker`; round 2 reads it.

    About 7 s on two cores, mostly loading the shipped build three times (the command twice, lm-eval once).
    """
    from lm_eval import simple_evaluate
    from lm_eval.api.instance import Instance
    from lm_eval.api.model import LM
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    import lgmt_tasks.task_configs as configs
    from lgmt_tasks.task_configs._label_groups import LABELS

    class Planted(LM):
        def generate_until(self, requests: list[Instance], disable_tqdm: bool = False) -> list[str]:
            replies = []
            for request in requests:
                gold: str = request.doc["label"]
                wrong = request.idx > 0 and request.doc["category"] == VIOLATING_CATEGORY
                label = LABELS[(LABELS.index(gold) + 1) % len(LABELS)] if wrong else gold
                replies.append(json.dumps({"reasoning": "scripted", "label": label}))
            return replies

        def loglikelihood(self, requests: Any, disable_tqdm: bool = False) -> Any:
            raise NotImplementedError

        def loglikelihood_rolling(self, requests: Any, disable_tqdm: bool = False) -> Any:
            raise NotImplementedError

    pools: list[Pool] = []  # the pools the command loads (for real), kept to check its choice
    load = lm_eval_loop.load_pool

    def loading(task: str, metadata: Mapping[str, Any]) -> Pool:
        pools.append(load(task, metadata))
        return pools[-1]

    monkeypatch.setattr(lm_eval_loop, "load_pool", loading)

    first = CliRunner().invoke(adaptive_next_command, ["--batch", "3"])
    assert first.exit_code == 0, first.output
    chosen: dict[str, list[int]] = json.loads(first.stdout)
    assert len(chosen[TASK]) == 20 * 3

    out = tmp_path / "out"
    tracker = EvaluationTracker(output_path=str(out))
    manager = TaskManager(include_path=str(Path(configs.__file__).parent), include_defaults=False)
    results = simple_evaluate(
        model=Planted(),
        tasks=[TASK],
        task_manager=manager,
        samples=chosen,
        log_samples=True,
        evaluation_tracker=tracker,
    )
    assert results is not None
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    tracker.save_results_samples(task_name=TASK, samples=samples[TASK])
    written = list(out.rglob(f"samples_{TASK}_*.jsonl"))
    assert len(written) == 1

    second = CliRunner().invoke(adaptive_next_command, [str(out), "--batch", "3", "--out", str(tmp_path / "n.json")])
    assert second.exit_code == 0, second.output
    table = table_of(second.stdout)
    assert len(table) == 20
    # three violating groups of 3 decide a relation `above`; three clean ones leave it open
    above = {relation for relation, row in table.items() if row[-1] == "above"}
    assert above == {relation for relation in table if relation.startswith(VIOLATING_CATEGORY)}
    assert all(row[-1] == "open" and row[1:3] == ["3", "0"] for r, row in table.items() if r not in above)
    following: list[int] = json.loads((tmp_path / "n.json").read_text(encoding="utf-8"))[TASK]
    assert following == sorted(following) and not set(following) & set(chosen[TASK])
    seen = {json.loads(line)["doc_id"]: json.loads(line)["doc"]["mr"] for line in written[0].read_text().splitlines()}
    assert sorted(seen) == chosen[TASK]
    asked = [pools[-1].relations[d] for d in following]
    assert set(asked) == set(table) - above and all(asked.count(r) == 3 for r in set(asked))
