"""DivLogicEval's shortcut battery: at chance on the committed default build, and able to catch a planted shortcut."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.divlogiceval.shortcuts import BATTERY
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.verify.shortcuts import battery_table, run_battery

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
