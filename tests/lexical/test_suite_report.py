"""The lexical suite's tables for `lgmt report --out` (`report.lexical.suite_report`) on the scripted runs.

The runs are the fixtures of `test_report` and `conftest`: an LGMT log in which only the follow-up of one of the two
MR-E1.2 groups is answered wrongly (MVR 1/2 for MR-E1.2, 0 for MR-P1), the scripted lexical run whose per-relation
rates `helpers.EXPECTED` works out by hand from `helpers.PLAN`, and a three-epoch MR-1 run whose three groups
violate in 3, 1 and 0 epochs.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from PIL import Image

from lgmt_tasks.lexical.report import drift_of_log, suite_report
from lgmt_tasks.report.suite_report import write_tables
from lgmt_tasks.report.write import write_report
from tests.lexical.helpers import EXPECTED
from tests.lexical.test_report import flaky_log, lgmt_log  # noqa: F401  (fixtures)

LEXICAL = ("MR-1", "MR-49", "MR-84", "MR-102", "MR-152")


@pytest.fixture(scope="module")
def report(lgmt_log, label_run, flaky_log, tmp_path_factory: pytest.TempPathFactory) -> Any:  # noqa: F811
    out = tmp_path_factory.mktemp("report")
    paths = [str(label_run[0].location), str(lgmt_log.location), str(flaky_log.location)]
    return suite_report(paths, out), out


def test_relations_side_by_side(report, label_run):
    table = report[0].tables["relations"]
    main = table[table["log"] == label_run[0].location.rsplit("/", 1)[-1]].set_index("relation")
    assert list(main.index) == ["MR-E1.2", "MR-P1", "all", *LEXICAL, "all"]
    assert list(main["family"]) == ["logic-grounded"] * 3 + ["lexical"] * 6
    grounded = main[main["family"] == "logic-grounded"]
    assert grounded.loc["MR-E1.2", "mvr"] == 0.5 and grounded.loc["MR-P1", "mvr"] == 0.0
    assert grounded.loc["all", "mvr"] == 0.25
    lexical = main[main["family"] == "lexical"]
    for relation in LEXICAL:
        assert lexical.loc[relation, "mvr"] == pytest.approx(EXPECTED[f"mvr_{relation}"])
        assert lexical.loc[relation, "hdr"] == pytest.approx(EXPECTED[f"hdr_{relation}"])
    assert lexical.loc["all", "mvr"] == pytest.approx(EXPECTED["mvr"])
    # MR-84's True group has an unreadable follow-up, MR-152's Unknown group a failed transformation: not compared
    assert (lexical.loc["MR-84", "groups"], lexical.loc["MR-84", "compared"]) == (3, 2)
    assert lexical.loc["all", "compared"] == 13 and str(table["compared"].dtype).startswith("int")
    assert set(main["floor"]) == {EXPECTED["mvr_MR-49"]} and set(main["model"]) == {"mockllm/model"}


def test_relations_of_the_three_epoch_run(report, flaky_log):  # noqa: F811
    table = report[0].tables["relations"]
    flaky = table[table["log"] == flaky_log.location.rsplit("/", 1)[-1]].set_index("relation")
    lexical = flaky[flaky["family"] == "lexical"]
    assert lexical.loc["MR-1", "mvr"] == pytest.approx((3 + 1 + 0) / 9)  # pooled over the three epochs
    assert flaky["floor"].isna().all()  # no MR-49 in this run: no floor, not a floor of 0


def test_flakiness_is_table_xi(report):
    table = report[0].tables["flakiness"]
    assert set(table["family"]) == {"lexical"}  # the LGMT and label runs have one epoch
    row = table.set_index("relation").loc["all"]
    assert (row["failing"], row["1/3"], row["2/3"], row["3/3"]) == (2, 0.5, 0.0, 0.5)  # groups violating 3, 1, 0 times


def test_drift_is_measured_per_lexical_log(report, label_run, flaky_log):  # noqa: F811
    table = report[0].tables["drift"]
    assert list(table.columns[:3]) == ["model", "log", "relation"]
    for log in (label_run[0], flaky_log):
        name = log.location.rsplit("/", 1)[-1]
        part = table[table["log"] == name].drop(columns=["model", "log"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(part, drift_of_log(log), check_dtype=False)
    main = table[table["log"] == label_run[0].location.rsplit("/", 1)[-1]].set_index("relation")
    assert main.loc["MR-49", ["reading_drift", "keyword_drift"]].tolist() == [0.0, 0.0]
    assert main.loc["MR-1", "reading_drift"] == 1.0 and main.loc["proven", "reading_drift"] == 0.0
    assert table[["reading_drift", "keyword_drift"]].stack().between(0, 1).all()


def test_lgmt_report_out_writes_the_drift_table(label_run, lgmt_log, tmp_path):  # noqa: F811
    written = write_report([str(label_run[0].location), str(lgmt_log.location)], [], tmp_path)
    drift_md = tmp_path / "lexical" / "drift.md"
    assert drift_md in written.files["lexical"] and (tmp_path / "lexical" / "drift.csv") in written.files["lexical"]
    text = drift_md.read_text(encoding="utf-8")
    assert text.startswith("## What 'assumed' hides") and "reading_drift" in text and "| MR-49 " in text
    assert "[lexical/drift.md](lexical/drift.md)" in written.index.read_text(encoding="utf-8")


def test_plots_and_files(report, tmp_path):
    result, out = report
    assert len(result.plots) == 2
    for png in result.plots:
        assert png.parent == out / "lexical" and png.name.startswith("relations_mockllm_model_")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(png) as image:
            assert image.format == "PNG"
    write_tables(result, tmp_path)
    assert (tmp_path / "lexical" / "flakiness.md").read_text(encoding="utf-8").startswith("## LLMorph Table XI")


def test_lgmt_logs_alone_give_no_tables(lgmt_log):  # noqa: F811
    assert suite_report([lgmt_log], None).tables == {}
