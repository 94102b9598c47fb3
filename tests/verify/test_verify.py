"""`lgmt verify`: every suite's default build re-proven by E (and by Z3), corrupted and malformed rows reported."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from lgmt_tasks.cli import main
from lgmt_tasks.verify.check import COUNT_KEYS
from lgmt_tasks.verify.dataset import sample_indices
from tests.eprover_support import require_eprover
from tests.slices import SUITES
from tests.verify.conftest import DATA

SAMPLE = 30
"""Rows per suite re-proven by E: E is one process per query, so the E checks use a sample."""

SUMMARY_KEYS = {
    "suite",
    "prover",
    "checked",
    "agree",
    "disagree",
    "undecided_by_prover",
    "unparsable",
    "disagreements",
    "sample",
    "seed",
}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["verify", *args, "--no-progress"], catch_exceptions=False)


def summary(result: Result) -> dict[str, Any]:
    """The one JSON object `--json` prints (stdout holds nothing else)."""
    out: dict[str, Any] = json.loads(result.stdout)
    assert SUMMARY_KEYS <= set(out)
    assert out["checked"] == out["agree"] + out["disagree"] + out["undecided_by_prover"] + out["unparsable"]
    for counts in out["by_claim"].values():
        assert counts["checked"] == sum(counts[k] for k in COUNT_KEYS[1:])
    return out


def data_file(repo: Path) -> Path:
    """The repository's one data file (JSON Lines, gzip-compressed or not)."""
    (path,) = (repo / "data" / "default").glob("test.jsonl*")
    return path


def read_lines(repo: Path) -> list[str]:
    raw = data_file(repo).read_bytes()
    return (gzip.decompress(raw) if data_file(repo).suffix == ".gz" else raw).decode("utf-8").splitlines()


def read_rows(repo: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in read_lines(repo)]


def write_lines(repo: Path, lines: list[str]) -> None:
    raw = ("\n".join(lines) + "\n").encode("utf-8")
    data_file(repo).write_bytes(gzip.compress(raw) if data_file(repo).suffix == ".gz" else raw)


def rewrite_row(src: Path, dst: Path, index: int, **changes: Any) -> dict[str, Any]:
    """Copy a built repository and change some columns of one row of its data file; return the changed row."""
    if not dst.exists():
        shutil.copytree(src, dst)
    lines = read_lines(dst)
    row = json.loads(lines[index])
    row.update(changes)
    lines[index] = json.dumps(row, ensure_ascii=False)
    write_lines(dst, lines)
    return row


COMMITTED = Path(__file__).resolve().parents[2] / "datasets"


@pytest.mark.parametrize("suite", SUITES)
def test_e_agrees_with_every_decided_claim_of_each_default_build(suite: str) -> None:
    """A seeded sample of the committed default build (`datasets/<suite>`, what `lgmt publish` pushes)."""
    require_eprover()
    result = run(str(COMMITTED / suite), "--json", "--sample", str(SAMPLE), "--seed", "1", "--timeout-s", "5")
    out = summary(result)
    assert result.exit_code == 0, out["disagreements"]
    assert (out["suite"], out["prover"], out["sample"], out["seed"]) == (suite, "eprover", SAMPLE, 1)
    assert out["rows_checked"] == min(SAMPLE, out["rows"])
    assert out["disagree"] == 0 and out["disagreements"] == []
    assert out["unparsable"] == 0
    assert out["agree"] > 0
    # E may leave a claim undecided within its limit; the count is reported (and each one listed by id)
    assert out["undecided_by_prover"] == len(out["undecided"]) >= 0
    expected_claims = {
        "lgmt": {"source label", "follow-up label"},
        "logicasker": {"answer", "premise needed"},
        "divlogiceval": {"answer key", "construction"},
        "qmfol": {"label", "label without distractors"},
        "lexical": {"source label"},
    }[suite]
    assert expected_claims <= set(out["by_claim"])


@pytest.mark.parametrize("suite", SUITES)
def test_z3_reproves_every_claim_of_each_default_build(built: dict[str, Path], suite: str) -> None:
    """Z3 made the build, so re-reading every row's claims from its strings must decide and confirm all of them."""
    out = summary(run(str(built[suite]), "--json", "--prover", "z3"))
    assert out["rows_checked"] == out["rows"] > 0
    assert out["checked"] == out["agree"] > 0


def test_lgmt_checks_the_equivalence_of_formula_level_follow_ups(built: dict[str, Path]) -> None:
    out = summary(run(str(built["lgmt"]), "--json", "--prover", "z3"))
    rows = read_rows(built["lgmt"])
    rewriting = sum(r["category"] in ("MR-E", "MR-C") for r in rows)
    assert rewriting > 0
    assert out["by_claim"]["follow-up equivalence"]["checked"] == rewriting
    assert out["by_claim"]["follow-up label"]["checked"] == len(rows)


def seed_sampling(n: int, index: int, size: int, *, contains: bool) -> int:
    """A seed whose sample of `size` out of `n` rows contains (or misses) row `index`."""
    return next(s for s in range(1000) if (index in sample_indices(n, size, s)) == contains)


def test_a_flipped_answer_is_a_disagreement_named_by_its_id(built: dict[str, Path], tmp_path: Path) -> None:
    require_eprover()
    rows = read_rows(built["logicasker"])
    index = next(i for i, r in enumerate(rows) if r["answer"] == "yes" and r["logic"] == "propositional")
    corrupted = tmp_path / "logicasker"
    row = rewrite_row(built["logicasker"], corrupted, index, answer="no")
    seed = seed_sampling(len(rows), index, 10, contains=True)
    result = run(str(corrupted), "--json", "--sample", "10", "--seed", str(seed))
    out = summary(result)
    assert result.exit_code == 1
    assert out["disagree"] == 1
    assert out["disagreements"] == [
        {
            "id": row["id"],
            "claim": "answer no: premises do not entail the conclusion",
            "expected": "not entailed",
            "got": "entailed",
        }
    ]


def test_a_flipped_lgmt_label_fails_both_label_claims_of_its_row(built: dict[str, Path], tmp_path: Path) -> None:
    rows = read_rows(built["lgmt"])
    index = len(rows) // 2
    label = rows[index]["label"]
    wrong = "Unknown" if label != "Unknown" else "True"
    corrupted = tmp_path / "lgmt"
    row = rewrite_row(built["lgmt"], corrupted, index, label=wrong)
    result = run(str(corrupted), "--json", "--prover", "z3")
    out = summary(result)
    assert result.exit_code == 1
    found = {(d["id"], d["claim"].split(" (")[0], d["expected"], d["got"]) for d in out["disagreements"]}
    assert found == {(row["id"], "source label", wrong, label), (row["id"], "follow-up label", wrong, label)}
    text = run(str(corrupted), "--prover", "z3")
    assert text.exit_code == 1
    assert f"{row['id']}  source label: expected {wrong}, got {label}" in text.stdout


def test_malformed_rows_are_unparsable_with_their_ids_never_a_crash(built: dict[str, Path], tmp_path: Path) -> None:
    broken = tmp_path / "lgmt"
    bad_formula = rewrite_row(built["lgmt"], broken, 0, conclusion_fol="P(a) ∧")
    bad_label = rewrite_row(built["lgmt"], broken, 1, label="Maybe")
    result = run(str(broken), "--json", "--prover", "z3")
    out = summary(result)
    assert result.exit_code == 0 and out["disagree"] == 0
    by_id: dict[str, list[str]] = {}
    for item in out["unparsable_items"]:
        by_id.setdefault(item["id"], []).append(item["reason"])
    assert set(by_id) == {bad_formula["id"], bad_label["id"]}
    assert any("'P(a) ∧'" in reason for reason in by_id[bad_formula["id"]])
    assert all("'Maybe'" in reason for reason in by_id[bad_label["id"]])
    assert out["unparsable"] == len(out["unparsable_items"]) >= 3  # the source label claim of each, and more
    assert out["agree"] == out["checked"] - out["unparsable"]


def test_the_suite_is_recognised_and_a_wrong_suite_or_folder_is_refused(built: dict[str, Path], tmp_path: Path) -> None:
    wrong = CliRunner().invoke(main, ["verify", str(built["lgmt"]), "--suite", "qmfol", "--no-progress"])
    assert wrong.exit_code == 2 and "facts_fol" in wrong.output and "rules_fol" in wrong.output
    empty = CliRunner().invoke(main, ["verify", str(tmp_path), "--no-progress"])
    assert empty.exit_code == 2 and "no README.md card" in empty.output
    both = CliRunner().invoke(main, ["verify", str(tmp_path), "--suite", "lgmt", "--source", "folio"])
    assert both.exit_code == 2 and "--source" in both.output


def test_sample_indices_are_seeded_sorted_and_bounded() -> None:
    assert sample_indices(100, 10, 4) == sample_indices(100, 10, 4) == sorted(sample_indices(100, 10, 4))
    assert sample_indices(100, 10, 4) != sample_indices(100, 10, 5)
    assert sample_indices(5, 10, 0) == sample_indices(5, None, 0) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="sample=-1"):
        sample_indices(5, -1, 0)


def test_the_sample_decides_which_rows_are_checked(built: dict[str, Path], tmp_path: Path) -> None:
    """A corrupted row is reported exactly when the seeded sample contains it."""
    corrupted = tmp_path / "logicasker"
    rows = read_rows(built["logicasker"])
    index = len(rows) // 2
    row = rewrite_row(built["logicasker"], corrupted, index, answer="no" if rows[index]["answer"] == "yes" else "yes")
    hit = seed_sampling(len(rows), index, 10, contains=True)
    miss = seed_sampling(len(rows), index, 10, contains=False)
    found = summary(run(str(corrupted), "--json", "--prover", "z3", "--sample", "10", "--seed", str(hit)))
    assert [d["id"] for d in found["disagreements"]] == [row["id"]]
    missed = summary(run(str(corrupted), "--json", "--prover", "z3", "--sample", "10", "--seed", str(miss)))
    assert missed["disagreements"] == [] and missed["rows_checked"] == 10
    assert missed["by_claim"]["answer"]["checked"] == 10  # plus one "premise needed" claim per yes-premise


SOURCES = [
    ("folio", DATA / "folio" / "folio_v2_validation.jsonl"),
    ("proverqa", DATA / "proverqa"),
]


@pytest.mark.parametrize(("source", "path"), SOURCES, ids=[s for s, _ in SOURCES])
def test_z3_and_e_give_source_problems_the_same_label(source: str, path: Path) -> None:
    require_eprover()
    result = run("--source", source, str(path), "--json", "--sample", "25", "--seed", "2", "--timeout-s", "5")
    out = json.loads(result.stdout)
    assert result.exit_code == 0, out["disagreements"]
    assert (out["source"], out["prover"], out["reference"]) == (source, "eprover", "z3")
    assert out["checked"] == (
        out["agree"] + out["disagree"] + out["undecided_by_prover"] + out["undecided_by_z3"] + out["unparsable"]
    )
    assert out["checked"] + sum(out["skipped"].values()) == 25
    assert out["disagree"] == 0 and out["agree"] > 0
    assert out["unparsable"] == len(out["unparsable_ids"])
    assert out["gold"]["with_gold"] == out["agree"]  # every usable problem of these files has a gold label


def test_a_missing_e_is_a_usage_error_that_says_how_to_install_it(
    built: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no `eprover` on PATH
    result = CliRunner().invoke(main, ["verify", str(built["logicasker"]), "--no-progress"])
    assert result.exit_code == 2
    assert "apt-get install eprover" in result.output and "--prover z3" in result.output


@pytest.mark.parametrize("suite", SUITES)
def test_the_shortcut_battery_runs_on_every_row_of_the_committed_build(suite: str) -> None:
    """Form-only heuristics scored on every row (the sample only limits the prover), each near chance."""
    from lgmt_tasks.suites import suite as registry_entry

    out = summary(run(str(COMMITTED / suite), "--json", "--prover", "z3", "--sample", "0"))
    assert out["checked"] == 0  # no row sampled, no claim proven: the battery still reads them all
    if not registry_entry(suite).shortcut_battery:
        assert out["shortcuts"] == []
        return
    overall = [s for s in out["shortcuts"] if s["group"] == "all"]
    assert overall and all(s["rows"] == out["rows"] for s in overall)
    assert any(s["name"].startswith("always-") for s in overall)  # the constant answers are always there
    assert [s for s in out["shortcuts"] if not s["within"]] == []
    text = run(str(COMMITTED / suite), "--prover", "z3", "--sample", "0").stdout
    assert "shortcut battery" in text and "0 above" in text
