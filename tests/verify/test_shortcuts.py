"""The shortcut battery framework: expected-accuracy credit, constant heuristics, groups, and its checks."""

from __future__ import annotations

import math

import pytest

from lgmt_tasks.verify.shortcuts import Battery, Fitted, Heuristic, battery_table, credit, run_battery

ROWS = [
    {"gold": "yes", "kind": "a", "text": "short"},
    {"gold": "yes", "kind": "a", "text": "a much longer text"},
    {"gold": "no", "kind": "b", "text": "tiny"},
    {"gold": "no", "kind": "b", "text": "a long text again"},
]


def battery(*heuristics: Heuristic, group: bool = False) -> Battery:
    return Battery(
        answers=lambda row: ("yes", "no"),
        gold=lambda row: row["gold"],
        heuristics=heuristics,
        group=(lambda row: row["kind"]) if group else None,
    )


def by_name(scores, group="all"):  # type: ignore[no-untyped-def]
    return {s.name: s for s in scores if s.group == group}


def test_credit_is_the_expected_accuracy_of_a_uniform_tie_break() -> None:
    assert credit(["yes"], ["yes", "no"], "yes") == 1.0
    assert credit(["yes", "no"], ["yes", "no"], "yes") == 0.5
    assert credit([], ["A", "B", "C", "D"], "C") == 0.25  # no preference is chance
    assert credit(["B"], ["A", "B", "C", "D"], "C") == 0.0
    with pytest.raises(ValueError, match="not among the allowed answers"):
        credit(["maybe"], ["yes", "no"], "yes")


def test_a_planted_shortcut_is_caught_and_a_blind_heuristic_is_chance() -> None:
    rows = [{**row, "text": row["text"] + ("!" if row["gold"] == "yes" else ".")} for row in ROWS]
    planted = Heuristic(
        "exclaims", "yes when the text ends with '!'", lambda r: ("yes",) if "!" in r["text"] else ("no",)
    )
    half = Heuristic("one-word", "yes for a one-word text", lambda r: ("yes",) if " " not in r["text"] else ())
    blind = Heuristic("blind", "no preference", lambda r: ())
    scores = by_name(run_battery(battery(planted, half, blind), rows))
    assert scores["exclaims"].accuracy == 1.0 and not scores["exclaims"].within
    assert scores["blind"].accuracy == 0.5 and scores["blind"].within
    # one-word texts: "short!" (yes, right) and "tiny." (no, wrong); the others have no preference (1/2 each)
    assert scores["one-word"].accuracy == pytest.approx((1 + 0.5 + 0 + 0.5) / 4)
    # constant heuristics are added: a balanced key keeps both at chance
    assert scores["always-yes"].accuracy == scores["always-no"].accuracy == 0.5


def test_an_unbalanced_key_fails_its_constant_heuristic() -> None:
    rows = [*ROWS, {"gold": "yes", "kind": "b", "text": "x"}, {"gold": "yes", "kind": "b", "text": "y"}]
    scores = by_name(run_battery(battery(), rows))
    assert scores["always-yes"].accuracy == pytest.approx(4 / 6) and not scores["always-yes"].within
    assert scores["always-no"].within


def test_groups_are_scored_on_their_own() -> None:
    kind = Heuristic("kind-a-is-yes", "yes for kind a", lambda r: ("yes",) if r["kind"] == "a" else ("no",))
    scores = run_battery(battery(kind, group=True), ROWS * 10)
    assert {s.group for s in scores} == {"all", "a", "b"}
    assert by_name(scores)["kind-a-is-yes"].accuracy == 1.0 and not by_name(scores)["kind-a-is-yes"].within
    # within one group the constant answer is all a heuristic needs: the per-group check catches it, with an
    # allowance of two standard errors of a chance guesser on the group's rows (20 rows: 0.05 + 2 * 0.112)
    group_a = by_name(scores, "a")["always-yes"]
    assert (group_a.accuracy, group_a.rows) == (1.0, 20) and not group_a.within
    assert group_a.allowance == pytest.approx(0.05 + 2 * math.sqrt(0.25 / 20))
    assert by_name(scores)["always-yes"].allowance == 0.05  # over all rows, the flat margin
    # on two rows a group's perfect score is indistinguishable from luck: the allowance says so
    assert by_name(run_battery(battery(kind, group=True), ROWS), "a")["always-yes"].within


def test_errors_name_the_heuristic_and_row() -> None:
    stray = Heuristic("stray", "answers outside the set", lambda r: ("maybe",))
    with pytest.raises(ValueError, match="heuristic stray, row 0"):
        run_battery(battery(stray), ROWS)
    with pytest.raises(ValueError, match="row 0: gold answer 'perhaps'"):
        run_battery(battery(), [{"gold": "perhaps", "kind": "a", "text": ""}])


def test_no_rows_is_nan_and_within() -> None:
    [*scores] = run_battery(battery(), [])
    assert scores == [] or all(math.isnan(s.accuracy) and s.within for s in scores)


def test_table_lists_every_score() -> None:
    scores = run_battery(battery(group=True), ROWS)
    table = battery_table(scores)
    assert table == battery_table([s.as_dict() for s in scores])
    assert len(table.splitlines()) == 1 + len(scores) and "always-yes" in table


FOLDED = [
    {"gold": gold, "seed": seed, "kind": kind}
    for seed in (0, 1, 2)
    for kind, gold in (("a", "yes"), ("a", "yes"), ("a", "no"), ("b", "no"))
]


def fitted_battery(rows_key: str = "kind") -> Battery:
    return Battery(
        answers=lambda row: ("yes", "no"),
        gold=lambda row: row["gold"],
        heuristics=(),
        fitted=(Fitted("majority-by-kind", "the majority answer of the row's kind", lambda row: row[rows_key]),),
        fold=lambda row: row["seed"],
    )


def test_a_fitted_heuristic_learns_each_class_on_the_other_folds() -> None:
    """Kind a leans yes (2 of 3), kind b is always no: learned on two seeds, scored on the third."""
    score = by_name(run_battery(fitted_battery(), FOLDED))["majority-by-kind"]
    assert score.accuracy == pytest.approx((2 + 1) / 4)  # a → yes right 2 of 3, b → no right
    assert not score.within


def test_a_fitted_heuristic_on_balanced_classes_scores_chance() -> None:
    rows = [{"gold": g, "seed": s, "kind": k} for s in (0, 1, 2) for k in "ab" for g in ("yes", "no")]
    assert by_name(run_battery(fitted_battery(), rows))["majority-by-kind"].accuracy == 0.5


def test_a_class_seen_in_one_fold_only_gives_no_preference() -> None:
    rows = [{"gold": "yes", "seed": 0, "kind": "a"}, {"gold": "no", "seed": 1, "kind": "b"}]
    assert by_name(run_battery(fitted_battery(), rows))["majority-by-kind"].accuracy == 0.5


def test_fitted_heuristics_need_a_fold() -> None:
    bad = Battery(
        answers=lambda row: ("yes", "no"),
        gold=lambda row: row["gold"],
        heuristics=(),
        fitted=(Fitted("f", "f", lambda row: row["kind"]),),
    )
    with pytest.raises(ValueError, match="needs a fold"):
        run_battery(bad, FOLDED)
