"""`-T prefill=true` on the `lexical` task: LGMT's prefill for the model under test, refused with output=text.

Six function-based groups (MR-1 on the premises and MR-49, three source cases each). The scripted model answers
every source correctly; it changes its answer on MR-1's follow-ups and keeps it on MR-49's, so mvr = 3/6 exactly.
When the conversation ends with an opening it writes only the continuation; otherwise the whole JSON.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from lgmt_tasks.lexical.catalogue import resolve_mrs
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.solvers.group import PREFILLS, RESPONSES_KEY
from lgmt_tasks.solvers.prompts import render_user_prompt
from tests.lexical.helpers import metrics, other, output

MRS = "MR-1,MR-49"


class Continuer:
    """Answers from a script keyed by user prompt; continues a trailing assistant opening if there is one."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.script: dict[str, dict[str, str]] = {}
        for row in rows:
            gold = row["label"]
            self.script[render_user_prompt(row["premises"], row["conclusion"])] = {"reasoning": "R.", "label": gold}
            followup = other(gold) if row["mr"] == "MR-1" else gold
            self.script[render_user_prompt(row["followup_premises"], row["followup_conclusion"])] = {
                "reasoning": "R.",
                "label": followup,
            }
        self.openings: list[str | None] = []
        self.whole: dict[str, str] = {}  # user prompt -> the whole answer the model meant (opening included)

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        opening = messages[-1].text if messages[-1].role == "assistant" else None
        self.openings.append(opening)
        user = next(m.text for m in messages if m.role == "user")
        answer = self.script[user]
        whole = json.dumps(answer if (opening or "").startswith('{"reasoning"') else {"label": answer["label"]})
        self.whole[user] = whole
        if opening is None:
            return output(whole)
        assert whole.startswith(opening), (whole, opening)
        return output(whole[len(opening) :])


def run(repo: str, rows: list[dict[str, Any]], tmp_path: Any, **task_args: Any) -> tuple[EvalLog, Continuer]:
    model = Continuer(rows)
    task = lexical(dataset=repo, mr=MRS, part="premises", **task_args)
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=model), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 6
    return log, model


@pytest.fixture(scope="module")
def rows(build: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in build.dataset if r["mr"] in resolve_mrs(MRS)]


@pytest.mark.parametrize("prompting", ["zero_shot", "zero_shot_cot"])
def test_prefill_opens_each_answer_and_the_stored_response_is_the_whole_json(repo, rows, tmp_path, prompting):
    log, model = run(repo, rows, tmp_path, prompting=prompting, prefill=True)
    assert model.openings == [PREFILLS[prompting]] * 12
    for sample in log.samples or []:
        responses = sample.store[RESPONSES_KEY]
        assert responses == [model.whole[m] for m in sample.metadata["members"]]
        assert all(r.startswith(PREFILLS[prompting]) for r in responses)
        assert sample.scores is not None and sample.scores["lexical_consistency"].metadata is not None
        assert sample.scores["lexical_consistency"].metadata["parsed_how"] == ["strict", "strict"]
    values = metrics(log)
    assert values["mvr"] == 3 / 6 and values["mvr_MR-1"] == 1.0 and values["mvr_MR-49"] == 0.0
    assert values["acc_static"] == 1.0 and values["unparsed_rate"] == 0.0


def test_without_prefill_the_conversation_ends_with_the_question(repo, rows, tmp_path):
    log, model = run(repo, rows, tmp_path, prompting="zero_shot")
    assert model.openings == [None] * 12
    for sample in log.samples or []:
        assert sample.store[RESPONSES_KEY] == [model.whole[m] for m in sample.metadata["members"]]
        assert [m.role for m in sample.messages] == ["system", "user", "assistant"]
    assert metrics(log)["mvr"] == 3 / 6


def test_prefill_is_refused_with_text_outputs(repo):
    with pytest.raises(ValueError, match=r"prefill=true with output='text'.*output=label with prefill=true"):
        lexical(dataset=repo, mr=MRS, part="premises", output="text", prefill=True)
