"""`lgmt report --sample-violations`: the CSV rows are exactly the reported violations of a scripted eval.

The log comes from a real run of the `mr_c` task (3 groups per relation, built into a temporary cache) on a
scripted `mockllm/model`: every source prompt is answered True, follow-ups of every other group False (a violation),
one follow-up is unreadable (not a violation: the pair is not compared), the rest True.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.cli import main
from lgmt_tasks.lgmt.violations import (
    CSV_COLUMNS,
    REVIEW_COLUMNS,
    VIOLATIONS_CSV,
    cochran_size,
    sample_violations,
    violations,
)


def test_cochran_size_on_the_papers_numbers():
    assert cochran_size() == 385  # the paper's "N >= 385" (n0 = 384.15)
    assert cochran_size(4613) == 355  # finite-population corrected; the paper rounded up to 360
    assert cochran_size(76_298) == 383
    assert cochran_size(10) == 10 and cochran_size(1) == 1 and cochran_size(0) == 0
    assert cochran_size(4613, margin=0.1) == 95
    with pytest.raises(ValueError):
        cochran_size(-1)


def test_sampling_is_seeded_and_keeps_the_original_order():
    rows = [{"id": str(i)} for i in range(50)]
    a = sample_violations(rows, n=10, seed=3)
    assert a == sample_violations(rows, n=10, seed=3)
    assert a != sample_violations(rows, n=10, seed=4)
    assert [int(r["id"]) for r in a] == sorted(int(r["id"]) for r in a)
    assert len(sample_violations(rows, seed=0)) == cochran_size(50) == 45
    assert sample_violations(rows, n=500) == rows


class Scripted:
    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=self.answers[messages[-1].text])
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
        return output


@pytest.fixture(scope="module")
def scripted_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    root = tmp_path_factory.mktemp("violations")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LGMT_CACHE_DIR", str(root / "cache"))
        from lgmt_tasks.lgmt.task import mr_c

        task = mr_c(per_mr=3)
    samples = sorted(task.dataset, key=lambda s: str(s.id))
    assert len(samples) == 9
    answers: dict[str, str] = {}
    expected: dict[str, dict[str, Any]] = {}
    for k, sample in enumerate(samples):
        source, followup = sample.metadata["members"]
        assert followup not in answers  # follow-up prompts are distinct from each other and from sources
        answers[source] = '{"reasoning": "...", "label": "True"}'
        if k % 2 == 0:
            answers[followup] = '{"reasoning": "...", "label": "False"}'
            expected[str(sample.id)] = {"sample": sample, "followup": answers[followup]}
        elif k == 1:
            answers[followup] = "I cannot tell."
        else:
            answers[followup] = '{"reasoning": "...", "label": "True"}'
    model = get_model("mockllm/model", custom_outputs=Scripted(answers), memoize=False)
    [log] = eval(task, model=model, log_dir=str(root / "logs"), display="none")
    assert log.status == "success", log.error
    assert log.location
    return Path(log.location), expected


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_default_sample_is_every_violation_with_the_review_columns(scripted_log, tmp_path):
    log, expected = scripted_log
    result = CliRunner().invoke(main, ["report", str(log), "--sample-violations", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "5 of 5 reported violations sampled (Cochran's size, seed 0)" in result.output  # cochran_size(5) == 5
    text = (tmp_path / VIOLATIONS_CSV).read_text(encoding="utf-8")
    rows = read_csv(text)
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["id"] for r in rows] == sorted(expected)
    for row in rows:
        sample = expected[row["id"]]["sample"]
        meta = sample.metadata
        assert row["mr"] == meta["mr"] and row["category"] == "MR-C" and row["gold"] == sample.target
        assert (row["source_answer"], row["followup_answers"], row["parsed_how"]) == ("True", "False", "strict; strict")
        assert row["source_response"] == '{"reasoning": "...", "label": "True"}'
        assert row["followup_responses"] == expected[row["id"]]["followup"]
        assert row["premises"] == "\n".join(f"{i}. {p}" for i, p in enumerate(meta["premises"], start=1))
        assert row["premises_fol"] == "\n".join(f"{i}. {p}" for i, p in enumerate(meta["premises_fol"], start=1))
        assert row["conclusion"] == meta["conclusion"] and row["conclusion_fol"] == meta["conclusion_fol"]
        assert row["followup_conclusion"] == meta["followup_conclusion"]
        assert row["followup_conclusion_fol"] == meta["followup_conclusion_fol"]
        assert row["followup_premises_fol"].startswith("1. ")
        assert row["epoch"] == "1" and row["model"] == "mockllm/model" and row["translator"] == "template"
        assert all(row[c] == "" for c in REVIEW_COLUMNS)


def test_seeded_subset_to_standard_output(scripted_log):
    log, expected = scripted_log
    runner = CliRunner()
    first = runner.invoke(main, ["report", str(log), "--sample-violations", "2", "--seed", "7"])
    again = runner.invoke(main, ["report", str(log), "--sample-violations", "2", "--seed", "7"])
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    ids = [r["id"] for r in read_csv(first.stdout)]
    assert len(ids) == 2 and set(ids) <= set(expected)
    assert ids == [r["id"] for r in sample_violations(violations([log]), n=2, seed=7)]
    assert "2 of 5 reported violations sampled (requested size, seed 7)" in first.stderr


def test_headline_report_is_unchanged_and_bad_sizes_are_refused(scripted_log):
    log, _ = scripted_log
    runner = CliRunner()
    headline = runner.invoke(main, ["report", str(log)])
    assert headline.exit_code == 0, headline.output
    assert "mvr" in headline.output and "semantic_drift" not in headline.output
    bad = runner.invoke(main, ["report", "--sample-violations", str(log)])
    assert bad.exit_code == 2 and "give a whole number or 'cochran'" in bad.output
    zero = runner.invoke(main, ["report", str(log), "--sample-violations", "0"])
    assert zero.exit_code == 2
