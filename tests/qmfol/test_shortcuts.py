"""The QMFOL shortcut battery: near chance on the committed build, and able to catch planted shortcuts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.shortcuts import BATTERY, consequents, facts, quantifier, top_connective, verb_phrases
from lgmt_tasks.verify.shortcuts import battery_table, run_battery

COMMITTED = Path(__file__).resolve().parents[2] / "datasets" / "qmfol"

RULE = "For every food item, if the food item is sour, then the food item is spicy or the food item is salty."


def _row(conclusion: str, label: str, extra_facts: int = 0, topic: str = "Food") -> dict[str, Any]:
    premises = [RULE, "For every food item, the food item is sour."]
    premises += ["For every food item, the food item is bitter."] * extra_facts
    return {
        "premises": premises,
        "conclusion": conclusion,
        "label": label,
        "topic": topic,
        "depth": 1,
        "entity": "food item",
        "object": "Velmora",
        "seed": 0,
    }


def test_every_heuristic_is_near_chance_on_the_committed_build() -> None:
    rows = list(load_dataset_repo(str(COMMITTED), "default", "test"))
    assert len(rows) == 2880 and {r["form"] for r in rows} == {"quantified"}
    scores = run_battery(BATTERY, rows)
    assert all(s.within for s in scores), battery_table([s for s in scores if not s.within])


def test_the_papers_surface_is_caught() -> None:
    """The paper's constructions: True an if–then, False a conjunction, Unknown with a second fact."""
    rows = []
    for _ in range(10):
        rows.append(_row("For every food item, if the food item is sour, then the food item is spicy.", "True"))
        rows.append(_row("There exists a food item that is sour and is not spicy.", "False"))
        rows.append(_row("For every food item, the food item is spicy.", "Unknown", extra_facts=1))
    failed = {s.name for s in run_battery(BATTERY, rows) if not s.within}
    assert {"if-then->True", "and->False", "two-facts->Unknown"} <= failed


def test_a_planted_quantifier_shortcut_is_caught() -> None:
    rows = [_row("There exists a food item that is spicy.", "False") for _ in range(10)]
    rows += [_row("For every food item, the food item is spicy.", label) for label in ("True", "Unknown") * 10]
    failed = {s.name for s in run_battery(BATTERY, rows) if not s.within}
    assert {"exists->False", "every->True", "every->Unknown"} & failed
    assert "exists->False" in failed


def test_balanced_rows_pass() -> None:
    rows = [
        _row(conclusion, label)
        for conclusion in (
            "For every food item, the food item is spicy.",
            "There exists a food item such that if the food item is sour, then the food item is not salty.",
        )
        for label in ("True", "False", "Unknown")
    ] * 5
    assert all(s.within for s in run_battery(BATTERY, rows))


def test_surface_readers() -> None:
    row = _row("There exists a food item such that if the food item is sour, then the food item is not salty.", "x")
    assert verb_phrases(row["conclusion"], row) == ["is sour", "is not salty"]
    assert facts(row) == ["For every food item, the food item is sour."]
    assert consequents(row) == {"is spicy", "is salty"}
    ground = {**row, "conclusion": "If Velmora is sour, then Velmora is not salty."}
    assert verb_phrases(ground["conclusion"], ground) == ["is sour", "is not salty"]


def test_a_shape_that_leans_differently_per_class_is_caught_by_the_fitted_heuristic() -> None:
    """Issue #27: ∀ with "and" → False, ∃ with "or" → True, else Unknown; each single feature stays near chance."""
    conclusions = {
        "False": "For every food item, the food item is spicy and the food item is salty.",
        "True": "There exists a food item that is spicy or is salty.",
        "Unknown": "For every food item, the food item is spicy or the food item is salty.",
    }
    rows = []
    for seed in range(3):
        for label, conclusion in conclusions.items():
            rows += [{**_row(conclusion, label), "seed": seed}] * 2
        rows.append({**_row("There exists a food item that is spicy and is salty.", "Unknown"), "seed": seed})
    scores = {s.name: s for s in run_battery(BATTERY, rows)}
    assert scores["majority-by-shape"].accuracy > 0.8 and not scores["majority-by-shape"].within


def test_surface_classes() -> None:
    row = _row("There exists a food item such that if the food item is sour, then the food item is not salty.", "x")
    assert (quantifier(row), top_connective(row)) == ("exists", "if-then")
    ground = {**row, "conclusion": "Velmora is sour or Velmora is not salty."}
    assert (quantifier(ground), top_connective(ground)) == ("none", "or")
