"""`lgmt shrink` finds the smallest violating group, proves every step, counts what it cannot prove, keeps its budget.

The model is scripted (registered here as a model API, so the shrinker re-creates it from the log by name): it
answers "True" to every prompt except one whose text says that Tom is not not a cat — the English the template
realiser writes for the double negation ¬¬Cat(tom) — which it answers "False". So a group violates exactly when
its follow-up double-negates `Cat(tom)` and its source does not, and the minimal group is known: the one premise
`Cat(tom)` (every other premise removable, the conjunct `Happy(tom)` removable), a conclusion shrunk to one atom
with short symbols, and the follow-up `¬¬Cat(tom)`.

The groups are written by hand with the builder's own `checked_row` (a real, proven MR-E1.2 follow-up at a chosen
site) and evaluated with the real `mr_e` task on that folder (`-T dataset=`), so the log is a real LGMT log.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import read_eval_log, write_eval_log

from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.build import FEATURES, LgmtBuild, checked_row
from lgmt_tasks.lgmt.card import write_lgmt_repo
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.lgmt.relations import RELATIONS, Case, Options
from lgmt_tasks.lgmt.relations.check import verify
from lgmt_tasks.lgmt.shrink.candidates import SHORT_CONSTANTS, SHORT_PREDICATES, Shape, candidates
from lgmt_tasks.lgmt.shrink.command import shrink_log
from lgmt_tasks.lgmt.shrink.logs import ShrinkInputError
from lgmt_tasks.lgmt.shrink.output import DIGEST_FILE, TRACE_FILE
from lgmt_tasks.lgmt.shrink.report import shrink_table
from lgmt_tasks.logic.lexicon import lexicon_for
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entailment
from lgmt_tasks.logic.realize import realize
from lgmt_tasks.logic.syntax import Atom
from tests.scripted_api import register_scripted_api

MODEL = "lgmt_shrinktest/model"
TRIGGER = "it is not the case that it is not the case that tom is a cat"
"""The realiser's English for ¬¬Cat(tom) (checked by `test_the_trigger_is_the_double_negation_of_the_premise`)."""
CALLS: list[str] = []


def _answer(prompt: str) -> str:
    return json.dumps({"label": "False" if TRIGGER in prompt.lower() else "True"})


register_scripted_api("lgmt_shrinktest", _answer, CALLS)  # answers True, but False where ¬¬Cat(tom) is


def _group(source_id: str, premises: list[str], conclusion: str, mr: str, target: int, path: tuple[int, ...]) -> dict:
    """A proven group made as the builder makes one, with the relation applied at a chosen site."""
    prem = [parse(p) for p in premises]
    concl = parse(conclusion)
    lexicon = lexicon_for([*prem, concl], style="natural")
    label = entailment(prem, concl)
    case = Case(
        tuple(prem),
        concl,
        tuple(realize(p, lexicon) for p in prem),
        realize(concl, lexicon),
        str(label.value),  # type: ignore[union-attr]
        "generated",
        source_id,
    )
    relation = RELATIONS[mr]
    # direction "any": the introduction sites of MR-E1.2 (φ ⇝ ¬¬φ), which the default `paper` reading leaves out; the
    # log's task records its own default, so the shrinker finds the options that give these rows (`derive.replay`)
    site = next(s for s in relation.sites(case, direction="any") if s.target == target and s.path == path)
    followup = relation._apply_at(case, site, random.Random(0), Options())
    assert followup is not None and verify(case, followup, source_label=case.label).proven
    return checked_row(case, [followup])[0]


VIOLATING = _group(
    "g1",
    ["Cat(tom) ∧ Happy(tom)", "∀x (Dog(x) → Animal(x))", "Dog(rex)", "∀x (Cat(x) → Pet(x))"],
    "Animal(rex)",
    "MR-E1.2",
    0,
    (0,),
)
CONSISTENT = _group("g2", ["∀x (Dog(x) → Animal(x))", "Dog(rex)"], "Animal(rex)", "MR-E1.2", 1, ())


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A hand-made LGMT folder of two groups and the real `mr_e` log of the scripted model on it."""
    root = tmp_path_factory.mktemp("shrink")
    mp = pytest.MonkeyPatch()
    mp.setenv("LGMT_CACHE_DIR", str(root / "cache"))
    mp.setenv("HF_HUB_OFFLINE", "1")
    mp.setenv("HF_DATASETS_OFFLINE", "1")
    build = LgmtBuild(dataset_from_rows([VIOLATING, CONSISTENT], FEATURES), BuildStats(), LgmtConfig(mrs=("MR-E1.2",)))
    data = write_lgmt_repo(build, root / "groups")
    (log,) = eval(
        "lgmt_tasks/mr_e",
        task_args={"dataset": str(data), "prompting": "zero_shot"},
        model=MODEL,
        log_dir=str(root / "logs"),
        display="none",
    )
    assert log.status == "success"
    yield {"root": root, "log": Path(log.location)}
    mp.undo()


def _trace(folder: Path) -> dict[str, Any]:
    return json.loads((folder / TRACE_FILE).read_text(encoding="utf-8"))


def test_the_trigger_is_the_double_negation_of_the_premise():
    assert TRIGGER in " ".join(VIOLATING["followup_premises"]).lower()
    assert TRIGGER not in " ".join(VIOLATING["premises"]).lower()
    assert not any(TRIGGER in s.lower() for s in (*CONSISTENT["premises"], *CONSISTENT["followup_premises"]))


def test_shrinks_to_exactly_the_triggering_premise_and_proves_every_accepted_step(env):
    out = env["root"] / "minimal"
    result = CliRunner().invoke(main, ["shrink", str(env["log"]), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    trace = _trace(out)
    (summary,) = trace["groups"]  # only the violating group of the two
    assert summary["group"] == VIOLATING["id"] and summary["reproduced"]
    rows = [json.loads(line) for line in _data_lines(out)]
    (row,) = rows
    assert row["id"] == f"{VIOLATING['id']}:min:{summary['calls']}"
    assert row["premises_fol"] == ["Cat(tom)"]
    assert row["followup_premises_fol"] == ["¬¬Cat(tom)"]
    conclusion = parse(row["conclusion_fol"])
    assert _short_atom(conclusion)
    assert row["label"] == str(entailment([parse("Cat(tom)")], conclusion).value)  # type: ignore[union-attr]
    steps = trace["steps"]
    accepted = [s for s in steps if s["decision"] == "accepted"]
    assert accepted and all(s["prover"] == "proven" for s in accepted)
    assert all(s["answers"] == ["True", "False"] for s in accepted)  # the follow-up alone holds the trigger
    # 1-minimal: in the last round nothing was accepted, and every proven candidate was asked and rejected.
    last_round = max(s["round"] for s in steps)
    final = [s for s in steps if s["round"] == last_round]
    assert final and all(s["decision"] in ("rejected", "refuted", "undecided") for s in final)
    assert all(s["decision"] == "rejected" for s in final if s["prover"] == "proven")
    assert not summary["budget_exhausted"] and summary["calls"] == len(_traced_calls(out))
    digest = (out / DIGEST_FILE).read_text(encoding="utf-8")
    assert "### MR-E1.2" in digest and "`Cat(tom)`" in digest and f"{summary['calls']} model calls" in digest


def _short_atom(formula: Any) -> bool:
    """Whether a formula is one atom whose predicate and arguments are one character each (nothing to shrink)."""
    return isinstance(formula, Atom) and len(formula.pred) == 1 and all(len(a.name) == 1 for a in formula.args)


def _traced_calls(folder: Path) -> list[str]:
    """The model replies the trace records (one per model call)."""
    return [r for s in _trace(folder)["steps"] if s["responses"] for r in s["responses"]]


def _data_lines(folder: Path) -> list[str]:
    import gzip

    (data,) = list((folder / "data").rglob("*.jsonl*"))
    raw = gzip.decompress(data.read_bytes()) if data.name.endswith(".gz") else data.read_bytes()
    return [line for line in raw.decode().splitlines() if line.strip()]


def test_the_minimal_group_is_complete_and_the_search_is_1_minimal_on_premises(env):
    out = env["root"] / "minimal-api"
    folder, outcomes = shrink_log(str(env["log"]), str(out))
    (outcome,) = outcomes
    assert outcome.minimal is not None
    shape = outcome.minimal.case
    # Every one-step simplification of the minimal group was tried and none kept the violation.
    smaller = candidates(Shape(shape.premises_fol, shape.conclusion_fol, (0,)))
    assert smaller, "a one-premise case still has candidates (the conclusion, renamings)"
    asked = {tuple(s["premises_fol"]) + (s["conclusion_fol"],): s for s in _trace(folder)["steps"]}
    for candidate in smaller:
        premises, conclusion = candidate.shape.key()
        step = asked[(*premises, conclusion)]
        assert step["decision"] != "accepted"


def test_undecided_candidates_are_counted_and_never_used(env):
    # A resource limit of 1 makes Z3 give up on every candidate's source label (a real undecided, no mock).
    out = env["root"] / "undecided"
    folder, (outcome,) = shrink_log(str(env["log"]), str(out), rlimit=1)
    steps = _trace(folder)["steps"]
    undecided = [s for s in steps if s["prover"] == "undecided"]
    assert undecided and all(s["decision"] == "undecided" and s["answers"] is None for s in undecided)
    assert outcome.count("accepted") == 0 and outcome.calls == 2  # only the original group was asked
    (row,) = [json.loads(line) for line in _data_lines(folder)]
    assert row["premises_fol"] == VIOLATING["premises_fol"]
    stats = json.loads((folder / "build_stats.json").read_text(encoding="utf-8"))
    assert stats["counts"]["MR-E1.2"]["undecided candidates"] == len(undecided)


@pytest.mark.parametrize("max_calls", [2, 5, 8])
def test_max_calls_is_respected(env, max_calls):
    out = env["root"] / f"budget-{max_calls}"
    folder, (outcome,) = shrink_log(str(env["log"]), str(out), max_calls=max_calls)
    assert outcome.calls <= max_calls and outcome.exhausted
    assert len(_traced_calls(folder)) == outcome.calls
    assert outcome.reproduced


def test_the_shrunk_folder_reruns_as_an_lgmt_dataset_and_still_violates(env):
    out = env["root"] / "rerun"
    shrink_log(str(env["log"]), str(out))
    (log,) = eval(
        "lgmt_tasks/lgmt",
        task_args={"dataset": str(out), "prompting": "zero_shot"},
        model=MODEL,
        log_dir=str(env["root"] / "rerun-logs"),
        display="none",
    )
    assert log.status == "success" and log.samples
    (sample,) = log.samples
    assert str(sample.id).startswith(VIOLATING["id"] + ":min:")
    (score,) = sample.scores.values()
    assert score.value["violation"] == 1


def test_a_log_of_another_suite_is_refused_with_the_log_named(env, tmp_path):
    log = read_eval_log(str(env["log"]))
    log.eval.task = "lgmt_tasks/lexical"
    other = tmp_path / "lexical.eval"
    write_eval_log(log, str(other))
    with pytest.raises(
        ShrinkInputError, match=r"lexical\.eval: task 'lgmt_tasks/lexical' is not an LGMT task.*English"
    ):
        shrink_log(str(other), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_an_output_folder_with_foreign_files_is_refused_before_any_model_call(env, tmp_path):
    out = tmp_path / "taken"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = len(CALLS)
    result = CliRunner().invoke(main, ["shrink", str(env["log"]), "--out", str(out)])
    assert result.exit_code == 1 and "not empty" in result.output
    assert len(CALLS) == before and (out / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_lgmt_report_adds_the_minimal_groups_table_and_the_digest(env):
    shrunk = env["root"] / "for-report"
    shrink_log(str(env["log"]), str(shrunk))
    report_dir = env["root"] / "report"
    result = CliRunner().invoke(
        main, ["report", str(env["log"]), "--out", str(report_dir), "--shrink", str(shrunk)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    table = (report_dir / "lgmt" / "minimal_counterexamples.md").read_text(encoding="utf-8")
    assert VIOLATING["id"] in table and "1-minimal" in table
    digest = report_dir / "lgmt" / "shrink_digest_for-report.md"
    assert digest.read_text(encoding="utf-8") == (shrunk / DIGEST_FILE).read_text(encoding="utf-8")
    refused = CliRunner().invoke(main, ["report", str(env["log"]), "--shrink", str(shrunk)])
    assert refused.exit_code == 2 and "--out" in refused.output


def test_lgmt_report_names_a_folder_that_is_not_a_shrink_folder(env, tmp_path):
    result = CliRunner().invoke(
        main, ["report", str(env["log"]), "--out", str(tmp_path / "r"), "--shrink", str(tmp_path)]
    )
    assert result.exit_code == 1 and f"--shrink {tmp_path}: no trace.json" in result.output


def test_a_budget_spent_before_any_step_says_not_shrunk_and_writes_no_minimal_row(env):
    # Issue #28: with the budget gone after the confirming re-ask, the command said "1 minimal groups" and wrote the
    # original group under the id `:min:2`.
    out = env["root"] / "no-budget-left"
    result = CliRunner().invoke(
        main, ["shrink", str(env["log"]), "--max-calls", "2", "--out", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "0 minimal groups, 1 not shrunk (budget" in result.output
    assert "-> not shrunk (budget)" in result.output
    (summary,) = _trace(out)["groups"]
    assert summary["reproduced"] and summary["ended"] == "not shrunk (budget)"
    assert summary["minimal_id"] is None and summary["minimal_size"] is None
    assert _data_lines(out) == [] or not any(":min:" in line for line in _data_lines(out))
    assert "not shrunk (budget)" in (out / DIGEST_FILE).read_text(encoding="utf-8")
    table = shrink_table([out])
    assert list(table["ended"]) == ["not shrunk (budget)"]


def test_renamed_constants_cannot_read_as_english_words():
    # Issue #28: `alice` renamed to `a` read "Either a has property P or ...".
    assert not {"a", "i", "o"} & set(SHORT_CONSTANTS) and "A" not in SHORT_PREDICATES
    shape = Shape((parse("Cat(alice) ∨ Dog(alice)"),), parse("Pet(alice)"), (0,))
    steps = [c.step for c in candidates(shape) if c.step.startswith("rename constant")]
    assert steps == ["rename constant alice → b"]
