"""DivLogicEval's shortcut battery: at chance on the committed default build, and able to catch a planted shortcut."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.divlogiceval.shortcuts import BATTERY, ROLE_FEATURES, ROLE_KEYS, roles
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.verify.shortcuts import Battery, FittedOption, battery_table, run_battery

COMMITTED = Path(__file__).parents[2] / "datasets" / "divlogiceval"


@pytest.fixture(scope="module")
def committed_rows() -> list[dict[str, Any]]:
    """The rows of the committed default build (900 questions)."""
    return list(load_dataset_repo(COMMITTED, "default", "test"))


def test_every_heuristic_stays_near_chance_on_the_default_build(committed_rows):
    scores = run_battery(BATTERY, committed_rows)
    assert {s.group for s in scores} == {"all", "3c1e", "3e1c", "missing"}
    outliers = [s for s in scores if not s.within]
    assert not outliers, battery_table(outliers)


def test_every_cell_is_within_chance_plus_five_points_on_the_default_build(committed_rows):
    """The bound of issue #27 for every cell, per question type too (tighter than the battery's group allowance)."""
    scores = run_battery(BATTERY, committed_rows)
    assert {s.name for s in scores} >= {name for name, _, _ in ROLE_KEYS}
    over = [s for s in scores if s.accuracy > s.chance + 0.05]
    assert not over, battery_table(over)


def _row(question_type: str, options_logic: list[str], answer: int, **extra: Any) -> dict[str, Any]:
    """A hand-made row: option texts, templates and content filled in neutrally unless given."""
    row: dict[str, Any] = {
        "question_type": question_type,
        "content": "Some content.",
        "content_logic": ["A → B", "(B ∨ C) → D"],
        "options": [f"Option number {k}." for k in range(4)],
        "options_logic": options_logic,
        "option_templates": ["imp-if-then"] * 4,
        "conclusion_logic": "",
        "answer": answer,
    }
    row.update(extra)
    return row


def _planted(make_row) -> list[dict[str, Any]]:
    rng = random.Random(0)
    return [make_row(rng.randrange(4)) for _ in range(80)]


def _score(rows: list[dict[str, Any]], name: str, group: str = "all") -> float:
    (score,) = [s for s in run_battery(BATTERY, rows) if s.name == name and s.group == group]
    return score.accuracy


def test_a_consequent_copied_from_the_conclusion_is_caught():
    def make(answer: int) -> dict[str, Any]:
        options = ["A → C", "B → C", "D → C", "A → D"]
        options[answer], options[3] = options[3], options[answer]  # only the answer ends in the conclusion's D
        return _row("missing", options, answer, conclusion_logic="A → D")

    assert _score(_planted(make), "most-conclusion-consequent", "missing") == 1.0


def test_a_new_variable_and_an_odd_co_occurrence_are_caught():
    def new_variable(answer: int) -> dict[str, Any]:
        options = ["A → B", "B → D", "A → D", "A → D"]
        options[answer] = "A → G"  # G is absent from the content
        return _row("3c1e", options, answer)

    def odd_pair(answer: int) -> dict[str, Any]:
        options = ["A → D", "C → A", "D → A", "A → C"]
        options[answer] = "B → A"  # the only option whose variables occur together in one proposition
        return _row("3e1c", options, answer)

    assert _score(_planted(new_variable), "most-new-variables") == 1.0
    assert _score(_planted(odd_pair), "odd-co-occurring", "3e1c") == 1.0


def test_length_polarity_and_template_giveaways_are_caught():
    def longest(answer: int) -> dict[str, Any]:
        texts = ["Short one.", "Short two.", "Short six.", "Short ten."]
        texts[answer] = "A much longer option than all of the others."
        return _row("3c1e", ["A → D"] * 4, answer, options=texts)

    def negated(answer: int) -> dict[str, Any]:
        options = ["A → D", "C → D", "B → D", "A → B"]
        options[answer] = "A → ¬D"
        return _row("3e1c", options, answer)

    def template(answer: int) -> dict[str, Any]:
        templates = ["imp-if-then"] * 4
        templates[answer] = "imp-unless"
        return _row("3c1e", ["A → D"] * 4, answer, option_templates=templates)

    rows = _planted(longest)
    assert _score(rows, "most-words") == _score(rows, "most-characters") == 1.0
    assert not all(s.within for s in run_battery(BATTERY, rows))
    assert _score(_planted(negated), "most-formula-negations") == 1.0
    assert _score(_planted(template), "odd-template") == 1.0


def test_a_heuristic_without_preference_scores_chance():
    rows = _planted(lambda answer: _row("3c1e", ["A → D", "B → D", "C → A", "D → A"], answer))
    assert _score(rows, "odd-template") == pytest.approx(0.25)


def test_the_role_family_is_fitted_per_feature_pair_and_vector_beside_the_direct_rules():
    fitted = {f.name for f in BATTERY.fitted_options}
    assert {f"roles-by-{feature}" for feature in ROLE_FEATURES} <= fitted
    assert {"roles-by-vector", "roles-by-linked", "roles-by-antecedent+consequent"} <= fitted
    assert fitted == {name for name, _, _ in ROLE_KEYS}
    direct = {h.name for h in BATTERY.heuristics if "-role-" in h.name}
    assert direct == {
        f"{side}-role-{rule}"
        for side in ("most", "least")
        for rule in ("consequent-literal", "antecedent-to-consequent", "feeds-conclusion")
    }


def test_roles_read_antecedents_consequents_facts_and_the_conclusion():
    row = _row(
        "missing",
        ["B", "¬A", "D → B", "¬(A ∧ C) → B"],
        0,
        content_logic=["A → B", "¬(B ∧ C) → D", "C"],
        conclusion_logic="D",
    )
    # antecedent, consequent, antecedent-literal, consequent-literal, fact, feeds-conclusion, in-conclusion
    assert roles(row, 0) == ((1, 1, 0, 1, 0, 1, 0),)  # B: concluded by A → B, and ¬B fires the rule giving D
    assert roles(row, 1) == ((1, 0, 0, 0, 0, 0, 0),)  # ¬A: A is an antecedent, but the rule fires on A, not ¬A
    assert roles(row, 3) == ((1, 0, 0, 0, 0, 0, 0), (1, 0, 1, 0, -1, 1, 0), (1, 1, 0, 1, 0, 1, 0))


def _role_leak(answer: int, seed: int) -> dict[str, Any]:
    """A 3c1e row whose answer is the only option that some rule concludes (its form otherwise like the others)."""
    options = ["A", "C", "E", "F"]
    options[answer] = "B"
    return _row("3c1e", options, answer, content_logic=["A → B", "(C ∨ E) → G", "¬(F ∧ C) → H"], seed=seed)


def test_the_role_family_catches_an_answer_that_is_always_a_rule_consequent():
    rng = random.Random(1)
    rows = [_role_leak(rng.randrange(4), i % 3) for i in range(90)]
    scores = {(s.name, s.group): s.accuracy for s in run_battery(BATTERY, rows)}
    assert scores[("roles-by-consequent", "all")] == 1.0
    assert scores[("roles-by-vector", "3c1e")] == 1.0
    assert scores[("most-role-consequent-literal", "all")] == 1.0
    assert scores[("roles-by-fact", "all")] == pytest.approx(0.25)  # no option is a fact: no preference


def test_one_seed_is_split_into_folds_by_row_id():
    rng = random.Random(2)
    rows = [{**_role_leak(rng.randrange(4), 0), "id": f"row-{i}"} for i in range(60)]
    (score,) = [s for s in run_battery(BATTERY, rows) if s.name == "roles-by-consequent" and s.group == "all"]
    assert score.accuracy == 1.0


def test_options_sharing_their_roles_leave_the_family_at_chance():
    rng = random.Random(3)
    rows = [
        _row(
            "3c1e",
            ["A", "B", "C", "E"],
            rng.randrange(4),
            content_logic=["A → D", "B → D", "C → D", "E → D"],
            seed=i % 3,
        )
        for i in range(60)
    ]
    for s in run_battery(BATTERY, rows):
        if s.name in {name for name, _, _ in ROLE_KEYS}:
            assert s.accuracy == pytest.approx(0.25), s.name


def test_an_option_key_is_fitted_on_the_other_folds_only():
    """A key's gold rate comes from the other folds: a lean confined to one fold is not seen when scoring it."""
    battery = Battery(
        answers=lambda row: (0, 1),
        gold=lambda row: row["gold"],
        heuristics=(),
        fitted_options=(FittedOption("by-mark", "the option's mark", lambda row, a: row["marks"][a]),),
        fold=lambda row: row["fold"],
    )
    leaning = [{"gold": g, "marks": ["x", "y"] if g == 0 else ["y", "x"], "fold": f} for f in (0, 1) for g in (0, 1)]
    (score,) = [s for s in run_battery(battery, leaning * 5) if s.name == "by-mark"]
    assert score.accuracy == 1.0  # "x" is gold in both folds
    unseen = [{"gold": 0, "marks": ["p", "q"], "fold": 0}, {"gold": 1, "marks": ["r", "s"], "fold": 1}]
    (score,) = [s for s in run_battery(battery, unseen) if s.name == "by-mark"]
    assert score.accuracy == 0.5  # each key unseen in the other fold: no preference


# ------------------------------------------------------------------------------- the construction shares roles


@pytest.fixture(scope="module")
def multi_seed_rows() -> list[dict[str, Any]]:
    """Small builds of three seeds (the frame pool: no download), as the battery reads them."""
    from lgmt_tasks.divlogiceval.build import build_divlogiceval
    from lgmt_tasks.divlogiceval.config import DivLogicEvalConfig

    rows: list[dict[str, Any]] = []
    for seed in (0, 1, 2):
        rows += [dict(r) for r in build_divlogiceval(DivLogicEvalConfig(per_type=4, seed=seed, pool="frames")).dataset]
    return rows


def test_3c1e_options_share_the_batterys_whole_role_vector(multi_seed_rows):
    from lgmt_tasks.divlogiceval.shortcuts import linked

    for row in multi_seed_rows:
        if row["question_type"] == "3c1e":
            assert len({(roles(row, k), linked(row, k)) for k in range(4)}) == 1, row["id"]


def test_the_builders_role_reading_is_the_batterys(multi_seed_rows):
    from lgmt_tasks.divlogiceval.logic import LITERAL_ROLES, RoleTable, role_key
    from lgmt_tasks.divlogiceval.shortcuts import linked
    from lgmt_tasks.logic.parse import parse

    assert LITERAL_ROLES == ROLE_FEATURES
    for row in multi_seed_rows:
        conclusion = parse(row["conclusion_logic"]) if row["conclusion_logic"] else None
        table = RoleTable.of([parse(p) for p in row["content_logic"]], conclusion)
        for k, option in enumerate(row["options_logic"]):
            assert role_key(parse(option), table) == (roles(row, k), bool(linked(row, k)))


def test_the_balance_reads_the_batterys_role_keys_and_rules(multi_seed_rows):
    from lgmt_tasks.divlogiceval.balance import _reading
    from lgmt_tasks.divlogiceval.logic import RoleTable
    from lgmt_tasks.divlogiceval.shortcuts import ROLE_RULES, reading
    from lgmt_tasks.logic.parse import parse

    for row in multi_seed_rows:
        conclusion = parse(row["conclusion_logic"]) if row["conclusion_logic"] else None
        table = RoleTable.of([parse(p) for p in row["content_logic"]], conclusion)
        for k, option in enumerate(row["options_logic"]):
            keys, rules = _reading(parse(option), table)
            assert keys == tuple(view(reading(row, k)) for _, _, view in ROLE_KEYS)
            assert rules == tuple(rule(reading(row, k)) for _, rule in ROLE_RULES)


def test_a_choice_whose_options_share_every_key_costs_nothing_and_an_odd_answer_costs_more():
    from lgmt_tasks.divlogiceval.balance import RoleBalance

    balance = RoleBalance()
    same = ((("k",) * len(ROLE_KEYS), (1.0, 0.0, 0.0)),) * 4
    odd = [(("a",) * len(ROLE_KEYS), (1.0, 0.0, 0.0)), *same[1:]]
    assert balance.cost(same) == 0
    assert balance.cost(odd) > 0
    balance.add(odd)  # the answer's key "a" now has no distractors: a distractor with it lowers the imbalance
    assert balance.cost([(("k",) * len(ROLE_KEYS), (1.0, 0.0, 0.0)), *odd]) < balance.cost(same)


def test_choosing_in_instance_order_balances_the_answer_and_distractor_roles():
    """Over 40 3e1c instances the balanced choice leaves the whole role vector's answer share nearer 1/4 than taking
    each instance's first admissible item does (the per-item construction without the balance)."""
    from collections import Counter

    from lgmt_tasks.divlogiceval.balance import RoleBalance, _reading
    from lgmt_tasks.divlogiceval.build import as_item, choose_items, draw_menus
    from lgmt_tasks.divlogiceval.config import DivLogicEvalConfig
    from lgmt_tasks.divlogiceval.logic import RoleTable

    config = DivLogicEvalConfig(per_type=40, seed=5)
    menus, _ = draw_menus(("3e1c", tuple(range(40)), config))
    vector = [name for name, _, _ in ROLE_KEYS].index("roles-by-vector")

    def imbalance(items) -> int:
        answers: Counter = Counter()
        distractors: Counter = Counter()
        for item in items:
            table = RoleTable.of(item.content, None)
            answers[_reading(item.answer, table)[0][vector]] += 1
            for option in item.distractors:
                distractors[_reading(option, table)[0][vector]] += 1
        return sum(abs(3 * answers[k] - distractors[k]) for k in answers | distractors)

    balanced = choose_items("3e1c", menus, config.seed)
    first = [as_item(RoleBalance().choose(offered[:1], random.Random(0))[0]) for offered in menus]  # type: ignore[index]
    assert all(item is not None for item in balanced)
    assert imbalance(balanced) < imbalance(first) / 2


def test_each_further_pass_leaves_the_objective_no_higher():
    """A re-choice takes the item of least added imbalance given all the others, so a pass never raises the total."""
    from lgmt_tasks.divlogiceval.balance import RoleBalance, balanced_choices, readings
    from lgmt_tasks.divlogiceval.build import draw_menus
    from lgmt_tasks.divlogiceval.config import DivLogicEvalConfig

    menus, _ = draw_menus(("3e1c", tuple(range(30)), DivLogicEvalConfig(per_type=30, seed=9)))
    totals = []
    for passes in (1, 2, 3):
        balance = RoleBalance()
        for choice in balanced_choices(menus, lambda index: random.Random(index), passes):
            assert choice is not None
            balance.add(readings(choice))
        totals.append(balance.imbalance())
    assert totals[1] <= totals[0] + 1e-6 and totals[2] <= totals[1] + 1e-6  # floating-point sums of the drift
    assert totals[0] > 0
