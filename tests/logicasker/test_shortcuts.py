"""The LogicAsker shortcut battery: near chance on the committed build, and able to catch a planted shortcut."""

from __future__ import annotations

from pathlib import Path

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logicasker.shortcuts import BATTERY, content_words, overlap
from lgmt_tasks.verify.shortcuts import battery_table, run_battery

COMMITTED = Path(__file__).resolve().parents[2] / "datasets" / "logicasker"


def _row(premises: list[str], conclusion: str, answer: str, category: str = "inference") -> dict:
    return {"premises": premises, "conclusion": conclusion, "answer": answer, "category": category}


def test_every_heuristic_is_near_chance_on_the_committed_build():
    rows = list(load_dataset_repo(str(COMMITTED), "default", "test"))
    assert rows
    scores = run_battery(BATTERY, rows)
    # over all rows: chance + 0.05; per category (76-168 rows), the framework adds two standard errors of a chance
    # guesser to the margin (`HeuristicScore.allowance`)
    above = [s for s in scores if not s.within]
    assert not above, battery_table(above)
    assert all(s.allowance == s.margin for s in scores if s.group == "all")


def test_a_planted_unrelated_word_shortcut_is_caught():
    # The paper's unrelated kind: the no answers bring words the premises lack.
    rows = []
    for i in range(20):
        rows.append(_row([f"If Mary{i} is tall, then it is cold.", f"Mary{i} is tall."], "It is cold.", "yes"))
        rows.append(_row([f"If Mary{i} is tall, then it is cold.", f"Mary{i} is tall."], "Tom is a pilot.", "no"))
    failed = {s.name for s in run_battery(BATTERY, rows) if not s.within}
    assert {"new-word->no", "words-present->yes"} <= failed


def test_a_planted_negation_shortcut_is_caught_in_its_group_only():
    rows = [_row(["Anna is rich."], "Anna is rich.", "yes", "fallacy") for _ in range(10)]
    rows += [_row(["Anna is rich."], "Anna is not rich.", "no", "fallacy") for _ in range(10)]
    rows += [_row(["Bob is sad."], "Bob is sad.", a, "inference") for a in ("yes", "no") * 30]
    scores = run_battery(BATTERY, rows)
    bad = {(s.group, s.name) for s in scores if not s.within}
    assert ("fallacy", "negated->no") in bad
    assert ("inference", "negated->no") not in bad


def test_content_words_ignore_logic_words_and_inflection():
    assert content_words("For all x, either x drives or x is not a pilot.") == {"driv", "pilot"}
    assert overlap(_row(["Karen drives."], "Karen is driving.", "yes")) == 1.0
