"""The README's main job, for real: `inspect eval lgmt_tasks/mr_e` on the embedded model, offline, then a report."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

BIN = Path(sys.executable).parent
RATES = ("mvr", "acc_static", "acc_cons", "hdr", "fur", "unparsed_rate")


@pytest.mark.slow
def test_main_job_on_embedded_model(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    cmd = [
        str(BIN / "inspect"),
        "eval",
        "lgmt_tasks/mr_e",
        "--model",
        "lgmt/smollm2",
        "--limit",
        "3",
        "-T",
        "per_mr=2",
        "-T",
        "prompting=zero_shot",
        "-T",
        "prefill=true",
        "--max-tokens",
        "8",
        "--log-dir",
        str(tmp_path),
        "--display",
        "none",
    ]
    subprocess.run(cmd, env=env, check=True, timeout=900)
    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info.name)
    assert log.status == "success"
    assert log.eval.model == "lgmt/smollm2"
    assert log.results is not None and log.results.completed_samples == 3
    metrics = log.results.scores[0].metrics
    for rate in RATES:
        assert rate in metrics and f"{rate}_stderr" in metrics, rate
    assert 0.0 <= metrics["unparsed_rate"].value <= 1.0
    for sample in log.samples or []:
        responses = sample.store["responses"]
        assert len(responses) == 2 and all(r.startswith('{"label": "') for r in responses)
    assert log.stats.model_usage["lgmt/smollm2"].output_tokens > 0

    report = subprocess.run(
        [str(BIN / "lgmt"), "report", str(tmp_path), "--latest"], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert "mr_e" in report and "lgmt/smollm2" in report and "unparsed_rate" in report
