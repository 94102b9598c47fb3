"""`lgmt report --out`, the LGMT paper tables, the leaderboard (Inspect logs and lm-eval results) and eval reports.

The logs come from real runs of the `lgmt` task (all 20 relations, one group each, built once into a folder) on
scripted mock models (`tests/report/scripted.py`, which describes the script). Runs: model A zero_shot, model A
few_shot, model B zero_shot with `--limit 12`.
Expected numbers are counted here from that script, never read from the report.
"""

from __future__ import annotations

import csv
import json
import math
import shlex

import pytest
from click.testing import CliRunner
from PIL import Image

from lgmt_tasks import __version__
from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.report import suite_report
from lgmt_tasks.report.eval_report import eval_report
from lgmt_tasks.report.leaderboard import LEADERBOARD_COLUMNS, lm_eval_rows
from lgmt_tasks.report.suites import group_by_suite, suite_report_function
from lgmt_tasks.suites import suite as registry_entry
from tests.report.scripted import LIMIT_B, MODEL_A, MODEL_B, RUNS, keep_for, paths

LGMT_VERSION = registry_entry("lgmt").version


def test_script_exercises_every_outcome(runs):
    expected = runs["script"].expected((MODEL_A, "zero_shot"))
    assert 0 < expected["violations"] < expected["parsed"] < expected["groups"]
    assert 0 < expected["hdr"] and 0 < expected["fur"] and 0 < expected["acc_cons"]


def test_tables_4_6_8_match_the_script(runs):
    report = suite_report(paths(runs), None)
    table4 = report.tables["table4_effectiveness"]
    assert list(zip(table4["model"], table4["prompting"])) == [
        (MODEL_A, "zero_shot"),
        (MODEL_A, "few_shot"),
        (MODEL_B, "zero_shot"),
    ]
    table6, table8 = report.tables["table6_static_vs_lgmt"], report.tables["table8_prompting"]
    for i, run in enumerate(RUNS):
        want = runs["script"].expected(run, keep_for(runs, run))
        assert table4.loc[i, "violations"] == want["violations"] and table4.loc[i, "parsed"] == want["parsed"]
        assert table4.loc[i, "groups"] == want["groups"]
        for metric in ("mvr", "unparsed_rate"):
            assert table4.loc[i, metric] == pytest.approx(want[metric])
        for metric in ("acc_static", "acc_cons", "hdr"):
            assert table6.loc[i, metric] == pytest.approx(want[metric])
        for metric in ("acc_static", "acc_cons", "hdr", "mvr", "fur"):
            assert table8.loc[i, metric] == pytest.approx(want[metric])
        low, high = table4.loc[i, "mvr_low"], table4.loc[i, "mvr_high"]
        assert 0 <= low < want["mvr"] < high <= 1
        logged = {k: v.value for k, v in runs["logs"][run].results.scores[0].metrics.items()}
        assert table4.loc[i, "mvr_stderr"] == pytest.approx(logged["mvr_stderr"])  # the scorer's own stderr


def test_tables_7_and_9_pool_models_per_prompting(runs):
    report = suite_report(paths(runs), None)
    script = runs["script"]
    table7, table9 = report.tables["table7_categories"], report.tables["table9_relations"]
    assert list(table7.columns) == ["prompting", "settings", "category", "Avg. MVR", MODEL_A, MODEL_B]
    assert set(table7["settings"]) == {""}  # the three runs differ only in model and prompting
    zero = table7[table7["prompting"] == "zero_shot"]
    assert list(zero["category"]) == ["MR-E", "MR-S", "MR-P", "MR-C"]
    assert list(table7[table7["prompting"] == "few_shot"]["category"]) == ["MR-E", "MR-S", "MR-P", "MR-C"]
    for key, table, column in (("category", table7, "category"), ("mr", table9, "relation")):
        for value in sorted({s.metadata[key] for s in script.samples}):
            row = table[(table["prompting"] == "zero_shot") & (table[column] == value)].iloc[0]
            pooled_v = pooled_n = 0
            for run in ((MODEL_A, "zero_shot"), (MODEL_B, "zero_shot")):
                keep = keep_for(runs, run)
                if not any(s.metadata[key] == value and keep(s) for s in script.samples):
                    assert math.isnan(row[run[0]])  # model B's --limit left this relation out
                    continue
                want = script.expected(run, lambda s, k=key, v=value, kp=keep: s.metadata[k] == v and kp(s))
                pooled_v, pooled_n = pooled_v + want["violations"], pooled_n + want["parsed"]
                assert row[run[0]] == pytest.approx(want["mvr"], nan_ok=True)
            assert row["Avg. MVR"] == pytest.approx(pooled_v / pooled_n if pooled_n else math.nan, nan_ok=True)
    assert len(table9[table9["prompting"] == "few_shot"]) == len({s.metadata["mr"] for s in script.samples})


def test_report_folder_tables_plots_index_and_leaderboard(runs, tmp_path):
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["report", *paths(runs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    for stem in (
        "table4_effectiveness",
        "table6_static_vs_lgmt",
        "table7_categories",
        "table8_prompting",
        "table9_relations",
        "categories",
        "relations",
    ):
        assert (out / "lgmt" / f"{stem}.csv").is_file()
        assert (out / "lgmt" / f"{stem}.md").read_text(encoding="utf-8").startswith("## Table") or stem in (
            "categories",
            "relations",
        )
    index = (out / "report.md").read_text(encoding="utf-8")
    assert "[leaderboard.csv](leaderboard.csv)" in index and "(lgmt/table9_relations.md)" in index
    pngs = sorted((out / "lgmt").glob("*.png"))
    assert {p.name for p in pngs} == {
        "prompting_comparison.png",
        *(f"mvr_{by}_{m.replace('/', '_')}_{p}.png" for (m, p) in RUNS for by in ("relations", "categories")),
    }
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png.relative_to(out).as_posix()})" in index
        with Image.open(png) as image:
            image.verify()
    with Image.open(out / "lgmt" / "prompting_comparison.png") as image:
        assert image.size == (1650, 374)  # 15 × 3.4 inches at 110 dpi
    sizes = {}
    for png in pngs:
        with Image.open(png) as image:
            sizes[png.name] = image.size
    bars = {name: size for name, size in sizes.items() if name.startswith("mvr_")}
    assert len({w for w, _ in bars.values()}) == 1  # the shared bar-chart layout (suite_tools.interval_bars)
    relations, categories = (
        bars["mvr_relations_mockllm_model_zero_shot.png"],
        bars["mvr_categories_mockllm_model_zero_shot.png"],
    )
    assert relations[1] > categories[1] >= 2.2 * 110  # 20 bars are taller than 4; at least 2.2 in at 110 dpi
    again = tmp_path / "again"
    suite_report(paths(runs), again)
    assert all((again / "lgmt" / p.name).read_bytes() == p.read_bytes() for p in pngs)  # deterministic

    rows = list(csv.DictReader((out / "leaderboard.csv").open(encoding="utf-8")))
    assert tuple(rows[0]) == LEADERBOARD_COLUMNS
    by_run = {(r["model"], r["prompting"]): r for r in rows}
    assert set(by_run) == set(RUNS)
    for run in RUNS:
        row, want = by_run[run], runs["script"].expected(run, keep_for(runs, run))
        assert (row["suite"], row["task"], row["harness"], row["harness_task"], row["status"]) == (
            "lgmt",
            "lgmt",
            "inspect",
            "lgmt_tasks/lgmt",
            "success",
        )
        for metric in ("mvr", "acc_static", "acc_cons", "acc_static_parsed", "acc_cons_parsed", "hdr", "fur"):
            assert float(row[metric]) == pytest.approx(want[metric])
        assert float(row["unparsed_rate"]) == pytest.approx(want["unparsed_rate"])
        assert row["accuracy"] == row["circular"] == row["macro_f1"] == ""
        assert int(row["samples"]) == want["groups"] and int(row["total"]) == len(runs["script"].samples)
        assert (row["task_version"], row["package_version"], row["epochs"]) == (LGMT_VERSION, __version__, "1")
        assert json.loads(row["task_args"]) == {"dataset": str(runs["dataset"]), "prompting": run[1]}
        assert row["log"] == str(runs["logs"][run].location) and row["date"].startswith("20")


def test_eval_report_fields(runs):
    log = runs["logs"][(MODEL_B, "zero_shot")]
    text = eval_report(str(log.location))
    command = text.split("**Command:** `", 1)[1].split("`", 1)[0]
    assert shlex.split(command) == [
        "inspect",
        "eval",
        "lgmt_tasks/lgmt",
        "--model",
        MODEL_B,
        "-T",
        "prompting=zero_shot",
        "-T",
        f"dataset={runs['dataset']}",
        "--limit",
        str(LIMIT_B),
        "--max-tokens",
        "64",
        "--temperature",  # the task's own generate config (temperature 0, as in the paper), recorded in the log
        "0.0",
    ]
    assert f"- **Model:** `{MODEL_B}`" in text
    assert f"- **Samples:** {LIMIT_B} of {len(runs['script'].samples)}, dataset" in text
    assert f"Run on {log.eval.created[:10]}, lgmt-tasks {__version__}, task version `{LGMT_VERSION}`" in text
    want = runs["script"].expected((MODEL_B, "zero_shot"), keep_for(runs, (MODEL_B, "zero_shot")))
    header, _, values = text.split("| mvr |", 1)[1].splitlines()[:3]
    assert f"| {want['mvr']:.3f} ± " in "| " + values.split("| ", 1)[1]
    assert "**Deviations from the paper:**" in text and "- Every follow-up is proven" in text
    result = CliRunner().invoke(main, ["report", str(log.location), "--eval-report"])
    assert result.exit_code == 0 and text in result.output


def test_lm_eval_results_give_leaderboard_rows(runs, tmp_path):
    from lm_eval import simple_evaluate
    from lm_eval.loggers import EvaluationTracker

    from tests.lgmt.test_lmeval import PLAN as LM_PLAN
    from tests.lgmt.test_lmeval import ScriptedLM, manager

    limit = 5
    results = simple_evaluate(
        model=ScriptedLM(),
        tasks=["lgmt_mr_e"],
        limit=limit,
        task_manager=manager(str(runs["dataset"]), prompting="zero_shot"),
    )
    tracker = EvaluationTracker(output_path=str(tmp_path / "lm"))
    tracker.save_results_aggregated(results=results, samples=None)  # lm-eval's own JSON writer
    [path] = (tmp_path / "lm").rglob("results_*.json")

    # Expected from the scripted plan by document position: (source, follow-up) answers against the gold label.
    answers = [LM_PLAN[i % len(LM_PLAN)]("True") for i in range(limit)]
    parsed = [a for a in answers if None not in a]
    violations = sum(a[0] != a[1] for a in parsed)
    mr_e = sum(1 for s in runs["script"].samples if s.metadata["category"] == "MR-E")

    [row] = lm_eval_rows(path)
    assert (row["suite"], row["task"], row["prompting"], row["harness"], row["harness_task"]) == (
        "lgmt",
        "mr_e",
        "zero_shot",
        "lm-eval",
        "lgmt_mr_e",
    )
    assert row["model"] == "ScriptedLM"
    assert row["variant"] == "paper"  # the run's direction: lm-eval's results cannot split its groups (#38)
    assert row["mvr"] == pytest.approx(violations / len(parsed))
    assert row["acc_static"] == pytest.approx(sum(a[0] == "True" for a in answers) / limit)
    assert row["unparsed_rate"] == pytest.approx(1 - len(parsed) / limit)
    assert (row["samples"], row["total"]) == (limit, mr_e)
    assert row["task_version"] == LGMT_VERSION and row["date"].startswith("20")

    out = tmp_path / "board"
    result = CliRunner().invoke(main, ["report", "--lm-eval-results", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "lgmt_mr_e" in result.output
    [written] = list(csv.DictReader((out / "leaderboard.csv").open(encoding="utf-8")))
    assert float(written["mvr"]) == pytest.approx(row["mvr"]) and written["accuracy"] == ""


def test_logs_are_grouped_by_suite_and_missing_report_modules_are_tolerated(runs, tmp_path):
    by_suite, foreign = group_by_suite(paths(runs))
    assert by_suite == {"lgmt": paths(runs)} and foreign == []
    assert suite_report_function("lgmt") is suite_report
    with pytest.raises(ValueError, match="expected one of lgmt, logicasker"):
        suite_report_function("nope")
    bad = tmp_path / "not-results.json"
    bad.write_text("{}", encoding="utf-8")
    result = CliRunner().invoke(main, ["report", "--lm-eval-results", str(bad)])
    assert result.exit_code == 1 and "not an lm-eval results file" in result.output
    assert CliRunner().invoke(main, ["report"]).exit_code == 2
