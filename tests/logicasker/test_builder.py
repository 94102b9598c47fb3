"""The LogicAsker builder: every shipped answer re-proven, balance, determinism, chains, the repository and the CLI."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.cli import main
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entails, satisfiable
from lgmt_tasks.logicasker.build import build_logicasker, plan
from lgmt_tasks.logicasker.catalogue import answer_of, catalogue, get_skill
from lgmt_tasks.logicasker.config import LogicAskerConfig, parse_lengths
from lgmt_tasks.logicasker.english import question
from lgmt_tasks.logicasker.generate import Rejected, generate, negate, unrelated
from tests.logicasker.conftest import SMALL_RULES


def test_every_shipped_answer_is_reproven(default_build):
    """Independently of the build: parse the FOL columns and ask Z3 again (yes iff entailed, premises consistent)."""
    rows = default_build.dataset
    assert len(rows) == 92 * 4
    for row in rows:
        premises = [parse(p) for p in row["premises_fol"]]
        conclusion = parse(row["conclusion_fol"])
        assert entails(premises, conclusion) is (row["answer"] == "yes"), row["id"]
        if row["answer"] == "yes":  # a "no" already has a model of the premises (one that refutes the conclusion)
            assert satisfiable(premises) is True, row["id"]


def test_default_build_is_balanced_and_covers_every_leaf(default_build):
    rows = default_build.dataset
    per_skill = Counter((r["rule"], r["length"], r["answer"]) for r in rows)
    for skill in catalogue():
        assert per_skill[(skill.name, 1, "yes")] == per_skill[(skill.name, 1, "no")] == 2, skill.name
    leaves = {(r["rule"], r["problem_type"]) for r in rows}
    every = {(s.name, t) for s in catalogue() for t in s.problem_types}  # all 257 leaves
    # An unrelated slot that found no independent literal in the premises' words became a contradiction, counted.
    fallen = {s.name for s in catalogue() if default_build.stats.counts.get(s.id, {}).get("unrelated_as_contradiction")}
    assert leaves == every - {(name, "unrelated") for name in fallen if (name, "unrelated") not in leaves}
    assert leaves >= {leaf for leaf in every if leaf[1] != "unrelated"}
    assert sum(1 for leaf in leaves if leaf[1] == "unrelated") > len(fallen) / 2  # most skills still have some
    assert default_build.stats.notes["yes"] == default_build.stats.notes["no"] == 184
    assert sum(c.get("unfilled", 0) for c in default_build.stats.counts.values()) == 0


def test_rows_are_consistent(default_build):
    ids = set()
    for row in default_build.dataset:
        skill = get_skill(row["rule"])
        assert (row["logic"], row["category"]) == (skill.logic, skill.category)
        assert row["answer"] == answer_of(row["problem_type"]) and row["problem_type"] in skill.problem_types
        assert row["id"].startswith(skill.id + "-") and row["id"] not in ids
        ids.add(row["id"])
        assert len(row["premises"]) == len(row["premises_fol"]) >= 1
        assert row["question"] == question(row["premises"], row["conclusion"])
        assert all(s[0].isupper() and s.endswith(".") for s in [*row["premises"], row["conclusion"]])


def test_same_seed_same_rows_and_subsets_match_the_full_build(default_build):
    config = LogicAskerConfig(rules=("modus ponens", "existential fallacy", "quantifier commutation"))
    first, second = build_logicasker(config), build_logicasker(config)
    assert first.dataset.to_list() == second.dataset.to_list()
    names = {"modus ponens", "existential fallacy", "quantifier commutation"}
    full = [r for r in default_build.dataset.to_list() if r["rule"] in names]
    assert sorted(first.dataset.to_list(), key=lambda r: r["id"]) == sorted(full, key=lambda r: r["id"])
    other = build_logicasker(LogicAskerConfig(rules=config.rules, seed=1))
    assert {r["id"] for r in other.dataset}.isdisjoint({r["id"] for r in first.dataset})


@pytest.mark.parametrize("name", ["modus ponens", "existential disjunctive syllogism", "undistributed middle",
                                  "quantifier distribution", "universal De Morgan's laws"])  # fmt: skip
def test_chains_of_length_seven(name):
    skill = get_skill(name)
    for problem_type in skill.problem_types:
        reasons = set()
        for attempt in range(30):
            result = generate(skill, problem_type, 7, random.Random(attempt))
            if not isinstance(result, Rejected):
                break
            reasons.add(result.reason)
        else:
            if reasons == {"no unrelated conclusion in the premises' words"}:
                continue  # a modus ponens chain decides every literal it mentions; the builder uses a contradiction
            pytest.fail(f"no length-7 test of {name} ({problem_type}): {reasons}")
        assert result.effective_depth == 7
        assert result.length == 7 and len(result.steps) == 6
        assert result.answer == answer_of(problem_type)
        assert entails(result.premises_fol, result.conclusion_fol) is (result.answer == "yes")


def test_false_kinds():
    assert negate(parse("∀x (P(x) → Q(x))")) == parse("∃x (¬(P(x) → Q(x)))")
    assert negate(parse("¬∃x (¬P(x))")) == parse("∃x (¬P(x))")
    assert negate(parse("p ∨ q")) == parse("¬(p ∨ q)")
    from lgmt_tasks.logicasker.generate import Symbols

    fresh = unrelated(parse("∃x (P(x) ∧ Q(x))"), random.Random(0), Symbols())
    assert isinstance(fresh, type(parse("∃x (P(x))"))) and "pred='P'" not in repr(fresh)
    ground = unrelated(parse("P(a)"), random.Random(1), Symbols())
    assert "Const(name='a')" in repr(ground)


def test_plan_balances_and_alternates_the_odd_slot():
    skill = get_skill("modus ponens")
    assert sorted(plan(skill, 1, 4, 0)) == ["contradiction", "unrelated", "valid", "valid"]
    assert plan(get_skill("illicit major"), 3, 2, 0) == ["valid", "fallacy"]
    odd = Counter(t == "valid" for s in catalogue() for t in plan(s, 1, 3, 0))
    assert abs(odd[True] - odd[False]) <= 1  # the extra slot alternates over the catalogue
    unbalanced = Counter(t for s in catalogue() if not s.is_fallacy for t in plan(s, 1, 30, 5, balanced=False))
    assert set(unbalanced) == {"valid", "contradiction", "unrelated"}


def test_config_validation():
    assert parse_lengths("1..7") == (1, 2, 3, 4, 5, 6, 7)
    assert parse_lengths("5,1,3") == (1, 3, 5) and parse_lengths(2) == (2,) and parse_lengths("2-3") == (2, 3)
    for bad in ("0", "1..8", "x", ""):
        with pytest.raises(ValueError, match="length"):
            parse_lengths(bad)
    with pytest.raises(ValueError, match="per_skill"):
        LogicAskerConfig(per_skill=0)
    with pytest.raises(ValueError, match="no skill matches"):
        LogicAskerConfig(logic=("propositional",), rules=("universal modus ponens",))
    assert LogicAskerConfig(rules=("hypothetical syllogism",)).rules == ("transitivity",)


def test_repository_and_card(small_repo, small_config):
    rows = load_dataset_repo(small_repo)
    assert len(rows) == 4 * 2 * 4
    assert set(rows["rule"]) == set(SMALL_RULES) and set(rows["length"]) == {1, 2}
    card = (small_repo / "README.md").read_text(encoding="utf-8")
    assert "| propositional | 1 / 3 | 0 / 0 | 1 / 2 | 2 / 5 |" in card
    assert "lgmt build logicasker --rule affirming_the_consequent" in card and "--seed 3" in card
    stats = json.loads((small_repo / "build_stats.json").read_text(encoding="utf-8"))
    assert stats["notes"]["tests"] == 32 and stats["config"]["per_skill"] == 4


def test_cli_build_prints_counts_and_writes(tmp_path):
    runner = CliRunner()
    out = tmp_path / "la"
    result = runner.invoke(main, ["build", "logicasker", "--rule", "modus ponens", "--per-skill", "2", "--length",
                                  "1..2", "--seed", "4", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "| total | 1 / 3 | 0 / 0 | 0 / 0 | 1 / 3 |" in result.output
    assert "4 tests (2 yes, 2 no) for 1 skills at lengths 1, 2" in result.output
    assert len(load_dataset_repo(out)) == 4
    listed = runner.invoke(main, ["build", "logicasker", "--list", "--logic", "propositional"])
    assert listed.exit_code == 0 and "de_morgans_laws\tDe Morgan's laws\tpropositional\tequivalence" in listed.output
    bad = runner.invoke(main, ["build", "logicasker", "--rule", "modus pones", "--out", str(out)])
    assert bad.exit_code == 2 and "did you mean modus ponens" in bad.output


def test_fill_slot_counts_rejections():
    from lgmt_tasks.logicasker.build import fill_slot

    stats = BuildStats()
    problem = fill_slot(get_skill("affirming the consequent"), "fallacy", 5, 0, 0, stats)
    assert problem is not None and problem.answer == "no"
    assert stats.counts["affirming_the_consequent"]["attempts"] == 1 + stats.total_dropped()
