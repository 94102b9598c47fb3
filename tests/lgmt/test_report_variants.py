"""The LGMT report on logs that hold more than one variant of the laws, relations without groups, and per-case accuracy.

One real run: the `mr_e` task on a build of the MR-E relations without MR-E2.3 (so that relation has no group, as in
the paper's Table 9), two groups per relation, answered by the scripted mock model of `tests/report/scripted.py`.
Copies of its log then carry the sample metadata a run of another version would: every group `variant: paper`; the
second group of each relation in one of our variants (`introduction` or `extended`); or, as logs written before the
`variant` key, only `direction`. Expected numbers are counted here from the script and the metadata written, never
read from the report.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.log import EvalSample, read_eval_log, write_eval_log
from PIL import Image

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.dataset import MR_SETS
from lgmt_tasks.lgmt.report import MIXED, NO_VARIANT, VARIANT_NOTE, eval_report_section, suite_report
from lgmt_tasks.report.eval_report import eval_report
from lgmt_tasks.report.suite_report import write_tables
from tests.report.scripted import MODEL_A, Script

RUN = (MODEL_A, "zero_shot")
ABSENT = "MR-E2.3"
"""The relation left out of the build: no group, as in the paper."""
OURS = {"MR-E1.6": "extended", "MR-E2.4": "extended"}
"""The variant of the second group of these relations; every other relation's second group is `introduction`."""

Metadata = Callable[[EvalSample], dict[str, Any]]


def copy_log(source: str, target: Path, metadata: Metadata) -> str:
    """A copy of a log whose samples carry new metadata, with its own eval, run and sample ids (a separate run)."""
    log = read_eval_log(source)
    log.eval.eval_id, log.eval.run_id = uuid.uuid4().hex, uuid.uuid4().hex
    for sample in log.samples or []:
        sample.uuid = uuid.uuid4().hex
        sample.metadata = metadata(sample)
    write_eval_log(log, str(target))
    return str(target)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig
    from lgmt_tasks.lgmt.task import mr_e

    root = tmp_path_factory.mktemp("variants")
    relations = tuple(mr for mr in MR_SETS["mr_e"] if mr != ABSENT)
    write_lgmt_repo(build_lgmt(LgmtConfig(per_mr=2, seed=0, mrs=relations)), root / "dataset")
    task = mr_e(dataset=str(root / "dataset"), prompting=RUN[1])
    script = Script(list(task.dataset))
    [log] = eval(task, model=script.model(RUN), log_dir=str(root / "logs"), display="none", max_tokens=64)
    assert log.status == "success", log.error

    by_relation: dict[str, list[str]] = {}
    for sample in script.samples:
        by_relation.setdefault(sample.metadata["mr"], []).append(str(sample.id))
    variant = {
        group: "paper" if i == 0 else OURS.get(mr, "introduction")
        for mr, groups in by_relation.items()
        for i, group in enumerate(groups)
    }
    legacy = {"paper": "forward", "introduction": "introduction", "extended": "extended"}

    def paper(s: EvalSample) -> dict[str, Any]:
        return {**s.metadata, "variant": "paper"}

    def older(s: EvalSample) -> dict[str, Any]:  # a log written before `variant`: one direction only
        return {**{k: v for k, v in s.metadata.items() if k != "variant"}, "direction": "forward"}

    def mixed(s: EvalSample) -> dict[str, Any]:
        return {**s.metadata, "variant": variant[str(s.id)]}

    def older_mixed(s: EvalSample) -> dict[str, Any]:
        kept = {k: v for k, v in s.metadata.items() if k != "variant"}
        return {**kept, "direction": legacy[variant[str(s.id)]]}

    right = {str(s.id) for s in script.samples if script.source_answer[s.metadata["members"][0]] == s.target}

    def shared(s: EvalSample) -> dict[str, Any]:  # every group with a right source answer on one source case
        return {**paper(s), "source_id": "shared"} if str(s.id) in right else paper(s)

    logs = {"run": str(log.location)}
    for name, change in (
        ("paper", paper),
        ("older", older),
        ("mixed", mixed),
        ("older_mixed", older_mixed),
        ("shared", shared),
    ):
        logs[name] = copy_log(str(log.location), root / f"{name}.eval", change)
    return {"script": script, "logs": logs, "variant": variant, "right": right, "relations": relations}


def expected(runs: dict[str, Any], keep: Callable[[Any], bool]) -> dict[str, int]:
    """Groups, parsed groups and violations of the groups `keep` selects, counted from the script."""
    outcomes = runs["script"].outcomes[RUN]
    chosen = [outcomes[str(s.id)] for s in runs["script"].samples if keep(s)]
    return {
        "groups": len(chosen),
        "parsed": sum(o["parsed"] for o in chosen),
        "violations": sum(o["violation"] for o in chosen),
    }


def test_the_run_has_relations_with_two_variants(runs):
    per_relation = Counter(s.metadata["mr"] for s in runs["script"].samples)
    assert set(per_relation) == set(runs["relations"])
    assert sum(n > 1 for n in per_relation.values()) >= 3  # so that the split has something to split
    assert set(runs["variant"].values()) == {"paper", "introduction", "extended"}


def test_mixed_variants_give_a_row_per_relation_and_variant_whose_counts_add_up(runs):
    variant = runs["variant"]
    split = suite_report([runs["logs"]["mixed"]], None).tables
    whole = suite_report([runs["logs"]["paper"]], None).tables

    relations = split["relations"]
    assert list(relations.columns[:5]) == ["model", "prompting", "settings", "relation", "variant"]
    pairs = {(s.metadata["mr"], variant[str(s.id)]) for s in runs["script"].samples}
    for mr, name in pairs:
        [row] = relations[(relations["relation"] == mr) & (relations["variant"] == name)].to_dict("records")
        want = expected(runs, lambda s, m=mr, n=name: s.metadata["mr"] == m and variant[str(s.id)] == n)
        assert {k: row[k] for k in want} == want
    for mr in runs["relations"]:  # the variants of a relation add up to the relation
        parts = relations[relations["relation"] == mr]
        [total] = whole["relations"][whole["relations"]["relation"] == mr].to_dict("records")
        assert len(parts) == len({n for m, n in pairs if m == mr})
        for count in ("groups", "parsed", "violations"):
            assert parts[count].sum() == total[count]

    table9 = split["table9_relations"]
    assert list(table9.columns) == ["prompting", "settings", "relation", "variant", "Avg. MVR", MODEL_A]
    assert len(table9) == len(pairs) + 1  # and MR-E2.3's row without groups
    for mr, name in pairs:
        [row] = table9[(table9["relation"] == mr) & (table9["variant"] == name)].to_dict("records")
        want = expected(runs, lambda s, m=mr, n=name: s.metadata["mr"] == m and variant[str(s.id)] == n)
        mvr = want["violations"] / want["parsed"] if want["parsed"] else math.nan
        assert row[MODEL_A] == pytest.approx(mvr, nan_ok=True) and row["Avg. MVR"] == pytest.approx(mvr, nan_ok=True)
    assert list(table9["variant"][table9["relation"] == "MR-E1.1"]) == ["paper", "introduction"]  # paper first

    table4 = split["table4_effectiveness"]
    assert list(table4["variant"]) == ["paper", "introduction", "extended", MIXED]
    mixed = table4[table4["variant"] == MIXED].iloc[0]
    parts = table4[table4["variant"] != MIXED]
    [unsplit] = whole["table4_effectiveness"].to_dict("records")
    for count in ("groups", "parsed", "violations"):
        assert parts[count].sum() == mixed[count] == unsplit[count]
    assert mixed["mvr"] == pytest.approx(unsplit["mvr"])  # the pooled row is the log's headline, labelled as a mix
    for name in ("paper", "introduction", "extended"):
        row = table4[table4["variant"] == name].iloc[0]
        want = expected(runs, lambda s, n=name: variant[str(s.id)] == n)
        assert (row["groups"], row["parsed"], row["violations"]) == (want["groups"], want["parsed"], want["violations"])
    for stem in ("table6_static_vs_lgmt", "table8_prompting"):
        assert list(split[stem]["variant"]) == ["paper", "introduction", "extended", MIXED]

    table7 = split["table7_categories"]
    assert list(table7.columns) == ["prompting", "settings", "category", "variant", "Avg. MVR", MODEL_A]
    assert list(zip(table7["category"], table7["variant"])) == [
        ("MR-E", "paper"),
        ("MR-E", "introduction"),
        ("MR-E", "extended"),
    ]
    counts = [
        expected(runs, lambda s, n=n: variant[str(s.id)] == n)["groups"] for n in ("paper", "introduction", "extended")
    ]
    assert list(split["categories"]["groups"]) == counts


def test_titles_and_markdown_name_the_split(runs, tmp_path):
    report = suite_report([runs["logs"]["mixed"]], None)
    assert all(title.endswith(VARIANT_NOTE) for title in report.titles.values())
    write_tables(report, tmp_path)
    table9 = (tmp_path / "lgmt" / "table9_relations.md").read_text(encoding="utf-8")
    assert "| relation   | variant      |" in table9
    rows = [line for line in table9.splitlines() if line.startswith("| zero_shot ")]
    assert any("| MR-E1.1    | paper " in line for line in rows)
    assert any("| MR-E1.1    | introduction " in line for line in rows)


def test_a_single_variant_report_is_unchanged(runs, tmp_path):
    """One variant (every group `paper`, or an older log whose groups are all `forward`): no variant column or row,
    and the same bytes whichever it is."""
    folders = {}
    for name in ("paper", "older"):
        report = suite_report([runs["logs"][name]], None)
        assert all("variant" not in table.columns for table in report.tables.values())
        assert not any(VARIANT_NOTE in title for title in report.titles.values())
        assert list(report.tables["table4_effectiveness"]["model"]) == [MODEL_A]  # one row, no split
        folders[name] = tmp_path / name
        write_tables(report, folders[name])
        assert eval_report_section(runs["logs"][name]) == ""
    files = sorted(p.name for p in (folders["paper"] / "lgmt").iterdir())
    assert files and files == sorted(p.name for p in (folders["older"] / "lgmt").iterdir())
    for name in files:
        assert (folders["paper"] / "lgmt" / name).read_bytes() == (folders["older"] / "lgmt" / name).read_bytes()
    assert "Per variant" not in eval_report(runs["logs"]["paper"])


def test_older_logs_split_by_direction(runs):
    relations = suite_report([runs["logs"]["older_mixed"]], None).tables["relations"]
    assert set(relations["variant"]) == {"forward", "introduction", "extended", NO_VARIANT}
    assert list(relations["variant"][relations["relation"] == "MR-E1.6"]) == ["forward", "extended"]


def test_a_relation_without_groups_prints_a_dash(runs, tmp_path):
    for name in ("paper", "mixed"):
        report = suite_report([runs["logs"][name]], None)
        table9, relations = report.tables["table9_relations"], report.tables["relations"]
        assert list(dict.fromkeys(table9["relation"])) == list(MR_SETS["mr_e"])  # in the paper's order
        [row] = table9[table9["relation"] == ABSENT].to_dict("records")
        assert math.isnan(row["Avg. MVR"]) and math.isnan(row[MODEL_A])
        [row] = relations[relations["relation"] == ABSENT].to_dict("records")
        assert (row["groups"], row["parsed"], row["violations"]) == (0, 0, 0) and math.isnan(row["mvr"])
        if name == "mixed":
            assert row["variant"] == NO_VARIANT
        write_tables(report, tmp_path / name)
        for stem in ("table9_relations", "relations"):
            [line] = [
                line
                for line in (tmp_path / name / "lgmt" / f"{stem}.md").read_text(encoding="utf-8").splitlines()
                if f"| {ABSENT} " in line
            ]
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            assert "nan" not in line and "0.000" not in line
            assert cells[cells.index(ABSENT) + (2 if name == "mixed" else 1) :][:2] == (
                ["–", "–"] if stem == "table9_relations" else ["0", "0"]
            )
        csv = pd.read_csv(tmp_path / name / "lgmt" / "table9_relations.csv")
        assert csv.loc[csv["relation"] == ABSENT, "Avg. MVR"].isna().all()  # an empty cell in the CSV


def test_eval_report_splits_a_mixed_log(runs):
    variant = runs["variant"]
    text = eval_report(runs["logs"]["mixed"])
    assert "**Per variant of the laws:**" in text
    assert text.index("**Per variant of the laws:**") < text.index("**Deviations from the paper:**")
    lines = text.split("| relation | variant | groups | parsed | violations |", 1)[1].split("\n\n", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines.splitlines()[2:]]
    cells = {(row[0], row[1]): row[2:] for row in rows}
    pairs = {(s.metadata["mr"], variant[str(s.id)]) for s in runs["script"].samples}
    assert len(rows) == len(cells)
    assert set(cells) == {("all", n) for n in ("paper", "introduction", "extended")} | pairs | {(ABSENT, NO_VARIANT)}
    for name in ("paper", "introduction", "extended"):
        want = expected(runs, lambda s, n=name: variant[str(s.id)] == n)
        assert cells[("all", name)][:3] == [str(want["groups"]), str(want["parsed"]), str(want["violations"])]
    assert sum(int(cells[("all", n)][0]) for n in ("paper", "introduction", "extended")) == len(variant)
    assert cells[(ABSENT, NO_VARIANT)][:4] == ["0", "0", "0", "–"]
    result = CliRunner().invoke(main, ["report", runs["logs"]["mixed"], "--eval-report"])
    assert result.exit_code == 0 and "**Per variant of the laws:**" in result.output


def test_plots_have_a_bar_per_relation_and_variant(runs, tmp_path):
    heights = {}
    for name in ("paper", "mixed"):
        report = suite_report([runs["logs"][name]], tmp_path / name)
        plot = next(p for p in report.plots if p.name.startswith("mvr_relations_"))
        with Image.open(plot) as image:
            heights[name] = image.size[1]
        assert {p.name for p in report.plots} >= {"prompting_comparison.png", plot.name}
    assert heights["mixed"] > heights["paper"]  # one bar per (relation, variant): more bars, a taller figure


def test_acc_static_per_case_counts_each_source_case_once(runs):
    # every group whose source answer is right is put on one source case ("shared"); the others keep theirs
    samples = runs["script"].samples
    right = runs["right"]
    wrong_cases = {(s.metadata["source_dataset"], s.metadata["source_id"]) for s in samples if str(s.id) not in right}
    assert len(right) > 1 and wrong_cases
    by_group, by_case = len(right) / len(samples), 1 / (1 + len(wrong_cases))
    assert by_group != pytest.approx(by_case)
    report = suite_report([runs["logs"]["shared"]], None)
    for stem in ("table6_static_vs_lgmt", "table8_prompting"):
        [row] = report.tables[stem].to_dict("records")
        assert row["acc_static"] == pytest.approx(by_group)
        assert row["acc_static_per_case"] == pytest.approx(by_case)
    # on the run itself (its own source ids), the report's figure is the scorer's logged metric
    [row] = suite_report([runs["logs"]["run"]], None).tables["table6_static_vs_lgmt"].to_dict("records")
    logged = read_eval_log(runs["logs"]["run"], header_only=True).results
    assert logged is not None
    metrics = {name: m.value for name, m in logged.scores[0].metrics.items()}
    assert row["acc_static_per_case"] == pytest.approx(metrics["acc_static_per_case"])
    assert row["acc_static_per_case_stderr"] == pytest.approx(metrics["acc_static_per_case_stderr"])
    cases = Counter((s.metadata["source_dataset"], s.metadata["source_id"]) for s in samples)
    per_case = {case: [] for case in cases}
    for s in samples:
        per_case[(s.metadata["source_dataset"], s.metadata["source_id"])].append(str(s.id) in right)
    assert row["acc_static_per_case"] == pytest.approx(sum(sum(v) / len(v) for v in per_case.values()) / len(cases))


def test_the_plain_report_splits_a_mixed_log_and_leaves_a_single_variant_log_alone(runs):
    """`lgmt report LOG` (no `--out`): the log's per-relation metrics pool the variants, so a mixed log gets the
    split table after them; a one-variant log prints no such table."""
    mixed = CliRunner().invoke(main, ["report", runs["logs"]["mixed"]])
    assert mixed.exit_code == 0, mixed.output
    assert "Per variant of the laws" in mixed.output
    assert "| MR-E1.1 | introduction |" in mixed.output
    single = CliRunner().invoke(main, ["report", runs["logs"]["paper"]])
    assert single.exit_code == 0, single.output
    assert "Per variant of the laws" not in single.output
