"""Issue #38: `--compare`, the leaderboard, the headline and the depth × width table never pool variants of the laws.

Two real runs of `mr_e` on the shipped build (`--limit 20`: 2 groups of each of the 10 relations, round-robin):
`mockllm/perfect` answers every member with its gold label; `mockllm/flawed` does the same except on the follow-up
of each relation's second group, which it answers wrongly. Copies of both logs then carry the metadata a run of
several variants writes: each relation's first group `variant: paper`, its second `extended`. So, counted here from
the script and never read back from the report: on the `paper` groups the two runs agree (MVR 0 and 0), on the
`extended` groups the flawed run violates all 10 (MVR 1). A third copy (the perfect run, every group `extended`) is
a log of one variant. The depth × width table is checked on a frame of QMFOL-sourced groups made here.
"""

from __future__ import annotations

import csv
import math
import uuid
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from inspect_ai.log import EvalSample, read_eval_log, write_eval_log

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.difficulty import difficulty_table
from lgmt_tasks.lgmt.report import MIXED
from lgmt_tasks.report.compare import compare_logs
from lgmt_tasks.report.headline import headline_table
from lgmt_tasks.report.leaderboard import leaderboard
from lgmt_tasks.report.significance import mcnemar_exact
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS
from tests.report.test_compare import gold_answers, other, run, scripted

PERFECT, FLAWED = "mockllm/perfect", "mockllm/flawed"
RELATIONS, PER_RELATION = 10, 2


def with_variants(source: str, target: Path, variant_of_id: dict[str, str]) -> str:
    """A copy of a log whose samples carry `variant` metadata, with its own eval, run and sample ids."""
    log = read_eval_log(source)
    log.eval.eval_id, log.eval.run_id = uuid.uuid4().hex, uuid.uuid4().hex
    sample: EvalSample
    for sample in log.samples or []:
        sample.uuid = uuid.uuid4().hex
        sample.metadata = {**(sample.metadata or {}), "variant": variant_of_id[str(sample.id)]}
    write_eval_log(log, str(target))
    return str(target)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from lgmt_tasks.lgmt.task import mr_e

    root = tmp_path_factory.mktemp("variant_split")
    task = mr_e(prompting="zero_shot")
    samples: list[Any] = list(task.dataset)[: RELATIONS * PER_RELATION]
    seen: dict[str, int] = {}
    variant = {}
    for sample in samples:  # each relation's first group is the paper's reading, its second ours
        n = seen[sample.metadata["mr"]] = seen.get(sample.metadata["mr"], 0) + 1
        variant[str(sample.id)] = "paper" if n == 1 else "extended"
    assert sorted(seen.values()) == [PER_RELATION] * RELATIONS
    gold = gold_answers(samples)
    flawed = dict(gold)
    for sample in samples:
        if variant[str(sample.id)] == "extended":
            flawed[sample.metadata["members"][1]] = other(sample.target)
    raw = root / "raw"
    perfect_log = run(task, scripted(PERFECT, gold), raw, len(samples))
    flawed_log = run(task, scripted(FLAWED, flawed), raw, len(samples))
    mixed = root / "mixed"
    mixed.mkdir()
    return {
        "root": root,
        "variant": variant,
        PERFECT: with_variants(perfect_log, mixed / "perfect.eval", variant),
        FLAWED: with_variants(flawed_log, mixed / "flawed.eval", variant),
        "extended_only": with_variants(perfect_log, root / "extended_only.eval", dict.fromkeys(variant, "extended")),
    }


def test_compare_splits_every_row_by_variant(logs: dict[str, Any]) -> None:
    table = compare_logs([logs[PERFECT], logs[FLAWED]]).table
    assert list(table.columns).index("variant") == list(table.columns).index("relation") + 1
    for metric, (first, second) in {"mvr": (0.0, 1.0), "acc_cons": (1.0, 0.0)}.items():
        rows = table[table["metric"] == metric]
        assert set(rows["variant"]) == {"paper", "extended"}  # and no row pools them
        assert list(dict.fromkeys(rows["variant"])) == ["paper", "extended"]  # the paper's reading first
        overall = {r["variant"]: r for r in rows[rows["relation"] == "all"].to_dict("records")}
        assert {v: r["groups"] for v, r in overall.items()} == {"paper": RELATIONS, "extended": RELATIONS}
        assert (overall["paper"]["first_rate"], overall["paper"]["second_rate"]) == (first, first)
        assert (overall["extended"]["first_rate"], overall["extended"]["second_rate"]) == (first, second)
        p = mcnemar_exact(0, RELATIONS)  # 10 discordant groups, all one way
        assert overall["extended"]["p_value"] == pytest.approx(p)
        assert overall["extended"]["p_holm"] == pytest.approx(2 * p)  # Holm over the two variants' `all` rows
        assert overall["extended"]["significant"] and not overall["paper"]["significant"]
        per_relation = rows[rows["relation"] != "all"]
        assert len(per_relation) == 2 * RELATIONS and set(per_relation["groups"]) == {1}  # one group each
        assert not per_relation["significant"].any()  # 20 relation rows, 1 discordant group each


def test_compare_of_one_variant_has_no_variant_column(logs: dict[str, Any], tmp_path: Path) -> None:
    other_run = with_variants(logs[FLAWED], tmp_path / "flawed_extended.eval", dict.fromkeys(logs["variant"], "x"))
    table = compare_logs(
        [with_variants(logs[PERFECT], tmp_path / "p.eval", dict.fromkeys(logs["variant"], "x")), other_run]
    ).table
    assert "variant" not in table.columns and set(table["relation"]) >= {"all"}
    assert table[(table["metric"] == "mvr") & (table["relation"] == "all")]["groups"].tolist() == [2 * RELATIONS]


def test_the_leaderboard_has_a_row_per_variant_and_marks_ties_within_a_variant(logs: dict[str, Any]) -> None:
    frame = leaderboard([logs[PERFECT], logs[FLAWED], logs["extended_only"]])
    assert list(frame.columns).index("variant") == list(frame.columns).index("prompting") + 1
    rows = {(r["log"], r["variant"]): r for r in frame.to_dict("records")}
    assert set(rows) == {
        *((logs[m], v) for m in (PERFECT, FLAWED) for v in (MIXED, "paper", "extended")),
        (logs["extended_only"], "extended"),  # a log of one variant: one row, named
    }
    flawed = {v: rows[(logs[FLAWED], v)] for v in (MIXED, "paper", "extended")}
    assert (flawed[MIXED]["mvr"], flawed["paper"]["mvr"], flawed["extended"]["mvr"]) == (0.5, 0.0, 1.0)
    assert (flawed["paper"]["samples"], flawed["extended"]["samples"]) == (RELATIONS, RELATIONS)
    assert flawed[MIXED]["samples"] == 2 * RELATIONS and flawed[MIXED]["total"] is not None
    assert flawed["extended"]["total"] is None or math.isnan(flawed["extended"]["total"])
    # tied with the best within each variant: the flawed run ties on the paper's groups, not on ours nor on the mix
    assert (flawed[MIXED]["mvr_tied_best"], flawed["paper"]["mvr_tied_best"]) == (False, True)
    assert flawed["extended"]["mvr_tied_best"] is False
    assert rows[(logs[PERFECT], "extended")]["mvr_tied_best"] is True
    assert rows[(logs["extended_only"], "extended")]["mvr_tied_best"] is True


def test_lgmt_report_writes_the_split_leaderboard_and_labels_the_headline(logs: dict[str, Any]) -> None:
    out = logs["root"] / "report"
    paths = [logs[PERFECT], logs[FLAWED], logs["extended_only"]]
    result = CliRunner().invoke(main, ["report", *paths, "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "leaderboard.csv").open(encoding="utf-8") as handle:
        variants = [(row["model"], row["variant"]) for row in csv.DictReader(handle)]
    assert variants.count((FLAWED, "extended")) == 1 and variants.count((PERFECT, "extended")) == 2
    with (out / "headline.csv").open(encoding="utf-8") as handle:
        headline = list(csv.DictReader(handle))
    assert sorted(row["variant"] for row in headline) == sorted([MIXED, MIXED, "extended"])
    assert list(headline_table([logs[FLAWED]])["variant"]) == [MIXED]  # one log pooling two variants says so
    single = headline_table([logs["extended_only"]])
    assert "variant" not in single.columns  # one variant in every log reported: nothing changes


def cell_groups(variant: str, depth: int, violations: int, groups: int) -> list[dict[str, Any]]:
    """Groups of one depth × width cell of QMFOL sources, `violations` of them violated."""
    rows = []
    for k in range(groups):
        outcome = dict.fromkeys(OUTCOME_KEYS, 1.0)
        outcome.update(violation=float(k < violations), consistent_correct=float(k >= violations))
        rows.append(
            {
                "model": "mockllm/m",
                "prompting": "zero_shot",
                "settings": "",
                "mr": "MR-E1.1",
                "variant": variant,
                "source_dataset": "qmfol",
                "source_id": f"d{depth}-w1/Food_d{depth}_w1_{k}_0_distract0",
                **outcome,
            }
        )
    return rows


def test_the_depth_width_table_has_a_row_per_variant() -> None:
    groups = pd.DataFrame(
        [
            *cell_groups("paper", 1, 0, 4),
            *cell_groups("extended", 1, 3, 3),
            *cell_groups("paper", 3, 1, 2),
            *cell_groups("extended", 3, 2, 2),
        ]
    )
    table = difficulty_table(groups)
    assert list(table.columns[:5]) == ["model", "prompting", "settings", "variant", "depth"]
    found = {(r["variant"], r["depth"]): (r["groups"], r["violations"], r["mvr"]) for r in table.to_dict("records")}
    assert found == {
        ("paper", 1): (4, 0, 0.0),
        ("extended", 1): (3, 3, 1.0),
        ("paper", 3): (2, 1, 0.5),
        ("extended", 3): (2, 2, 1.0),
    }
    assert list(zip(table["variant"], table["depth"], strict=True)) == [  # per setting, variant, then cell
        ("paper", 1),
        ("paper", 3),
        ("extended", 1),
        ("extended", 3),
    ]
    one = difficulty_table(groups[groups["variant"] == "paper"])
    assert "variant" not in one.columns and list(one["groups"]) == [4, 2]  # one variant: no column, as before
