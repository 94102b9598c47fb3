"""`scores_df` / `expand_scores`: each suite's dict score as one numeric column per key, on real logs of two suites.

The LGMT log is the scripted model-A zero-shot run (`tests/report/scripted.py`); the QMFOL log is a real run of a
small QMFOL build on `mockllm/model` answering `{"label": "True"}` to every task, so a task is correct exactly when
its gold label is True.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.qmfol.build import build_qmfol
from lgmt_tasks.qmfol.card import write_qmfol_repo
from lgmt_tasks.qmfol.config import QmfolConfig
from lgmt_tasks.qmfol.task import qmfol
from lgmt_tasks.report.frame import expand_scores, scores_df
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS
from lgmt_tasks.suites import suite
from tests.report.scripted import MODEL_A

LGMT = suite("lgmt").scorer
QMFOL = suite("qmfol").scorer


@pytest.fixture(scope="module")
def qmfol_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], EvalLog]:
    config = QmfolConfig(depths=(3,), widths=(2,), distractors=(0,), topics=("Food",), seeds=2)
    repo = tmp_path_factory.mktemp("qmfol-scores") / "repo"
    write_qmfol_repo(build_qmfol(config), repo)

    def always_true(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=json.dumps({"label": "True"}))
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    [log] = eval(
        qmfol(dataset=str(repo)),
        model=get_model("mockllm/model", custom_outputs=always_true),
        log_dir=str(tmp_path_factory.mktemp("qmfol-logs")),
        display="none",
    )
    assert log.status == "success", log.error
    return [dict(r) for r in load_dataset_repo(repo)], log


def want_groups(runs: dict[str, Any]) -> int:
    return int(runs["script"].expected((MODEL_A, "zero_shot"))["groups"])


def test_scores_df_expands_the_dict_scores_of_two_suites(runs, qmfol_run):
    rows, qmfol_log = qmfol_run
    lgmt_log = runs["logs"][(MODEL_A, "zero_shot")]
    frame = scores_df([str(lgmt_log.location), str(qmfol_log.location)])

    assert f"score_{LGMT}" not in frame and f"score_{QMFOL}" not in frame  # the JSON columns are replaced
    lgmt_rows = frame[frame["eval_id"] == lgmt_log.eval.eval_id]
    qmfol_rows = frame[frame["eval_id"] == qmfol_log.eval.eval_id]
    assert len(lgmt_rows) == want_groups(runs) and len(lgmt_rows) + len(qmfol_rows) == len(frame)
    want = runs["script"].expected((MODEL_A, "zero_shot"))
    for key in OUTCOME_KEYS:
        assert pd.api.types.is_numeric_dtype(frame[f"score_{LGMT}_{key}"])
    assert lgmt_rows[f"score_{LGMT}_violation"].sum() == want["violations"]
    assert lgmt_rows[f"score_{LGMT}_parsed"].sum() == want["parsed"]
    assert qmfol_rows[f"score_{LGMT}_violation"].isna().all()  # another suite's keys are empty, not zero

    assert len(qmfol_rows) == len(rows)
    assert qmfol_rows[f"score_{QMFOL}_correct"].sum() == sum(r["label"] == "True" for r in rows)
    assert qmfol_rows[f"score_{QMFOL}_parsed"].sum() == len(rows)
    assert lgmt_rows[f"score_{QMFOL}_correct"].isna().all()


def test_expand_scores_keeps_scalars_and_refuses_a_mixed_column():
    frame = pd.DataFrame(
        {
            "id": [1, 2, 3],
            "score_a": ['{"x": 1, "y": 0}', '{"x": 0}', None],
            "score_b": [1.0, 0.0, 1.0],
        }
    )
    out = expand_scores(frame)
    assert list(out.columns) == ["id", "score_a_x", "score_a_y", "score_b"]
    assert list(out["score_a_x"][:2]) == [1, 0] and math.isnan(out["score_a_y"][1]) and math.isnan(out["score_a_x"][2])
    with pytest.raises(ValueError, match="score_c"):
        expand_scores(pd.DataFrame({"score_c": ['{"x": 1}', "C"]}))
