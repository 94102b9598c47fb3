"""Helpers of the lexical tests: the scripted transformer and model under test, and the expected metrics.

Three generated source cases (gold False, True, Unknown) are used by every variant but MR-152 on the conclusion,
whose groups have sources False, True, False (negating an Unknown conclusion keeps it Unknown, so the builder drops
those groups). The model under test answers each source the same way in every group (correctly for False and
Unknown, wrongly for True), and each follow-up as scripted in `PLAN`, so that every LLMorph confusion-matrix cell, an
unparsed answer and a discarded LLM follow-up (MR-152 made at eval time by a scripted transformer that leaves the
True source's conclusion unchanged) occur a known number of times.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.solvers.prompts import render_user_prompt

LABELS = ("True", "False", "Unknown")
VARIANTS = {
    ("MR-1", "premises"),
    ("MR-49", "none"),
    ("MR-84", "premises"),
    ("MR-102", "conclusion"),
    ("MR-152", "conclusion"),
}
WRONG_SOURCE = "True"  # the gold label whose source the model answers wrongly

# Follow-up behaviour per variant and source gold label: same (as the source), differ, gold (the row's proven
# follow-up label), unparsed, or fail (the transformer returns the text unchanged, so the group is discarded).
PLAN = {
    ("MR-1", "False"): "differ",  # ③
    ("MR-1", "True"): "same",  # ②
    ("MR-1", "Unknown"): "same",  # ①
    ("MR-49", "False"): "same",  # ①
    ("MR-49", "True"): "same",  # ②
    ("MR-49", "Unknown"): "same",  # ①
    ("MR-84", "False"): "same",  # ①
    ("MR-84", "True"): "unparsed",
    ("MR-84", "Unknown"): "differ",  # ③
    ("MR-102", "False"): "differ",  # ③
    ("MR-102", "True"): "differ",  # ④
    ("MR-102", "Unknown"): "same",  # ①
    ("MR-152", "False"): "gold",  # ① twice (the proven follow-up label True: the answer changed correctly)
    ("MR-152", "True"): "fail",  # discarded
}

COMPARED = 13
TESTED = 14  # every group but the discarded one; the unparsed group's source (gold True) is answered wrongly
EXPECTED = {
    "mvr": 4 / COMPARED,
    "acc_static": 10 / TESTED,
    "acc_cons": 7 / TESTED,
    "acc_static_parsed": 10 / COMPARED,
    "acc_cons_parsed": 7 / COMPARED,
    "hdr": 3 / COMPARED,
    "fur": 2 / COMPARED,
    "unparsed_rate": 2 / 15,
    "cm_pass_correct": 7 / COMPARED,
    "cm_pass_wrong": 2 / COMPARED,
    "cm_fail_correct": 3 / COMPARED,
    "cm_fail_wrong": 1 / COMPARED,
    "discarded_rate": 1 / 15,
    "mvr_MR-1": 1 / 3,
    "mvr_MR-49": 0.0,
    "mvr_MR-84": 1 / 2,
    "mvr_MR-102": 2 / 3,
    "mvr_MR-152": 0.0,
    "hdr_MR-1": 1 / 3,
    "hdr_MR-49": 0.0,
    "hdr_MR-84": 1 / 2,
    "hdr_MR-102": 1 / 3,
    "hdr_MR-152": 0.0,
    "mvr_premises": 2 / 5,
    "mvr_conclusion": 2 / 5,
    "mvr_none": 0.0,
    "mvr_proven": 1 / 4,  # MR-84 (one of two compared) and MR-152 (none of two)
    "mvr_assumed": 3 / 9,  # MR-1, MR-49, MR-102
}


def other(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % len(LABELS)]


def negate(text: str) -> str:
    return "It is not the case that " + text[0].lower() + text[1:]


def output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)  # no tokenizer download
    return out


class Transformer:
    """Negates a sentence; returns one given sentence unchanged (a failed transformation)."""

    def __init__(self, unchanged: str) -> None:
        self.unchanged = unchanged
        self.calls = 0

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.calls += 1
        text = messages[-1].text.split('"')[1]
        return output(f'"{text}"' if text == self.unchanged else negate(text))


class Answerer:
    """The model under test: answers each user prompt from a script built from the dataset rows."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.script: dict[str, str] = {}
        for row in rows:
            gold = row["label"]
            source_answer = other(gold) if gold == WRONG_SOURCE else gold
            source = render_user_prompt(row["premises"], row["conclusion"])
            self.script[source] = f'{{"reasoning": "By the premises.", "label": "{source_answer}"}}'
            conclusion = negate(row["conclusion"]) if row["pending"] else row["followup_conclusion"]
            followup = render_user_prompt(row["followup_premises"], conclusion)
            behaviour = PLAN[(row["mr"], gold)]
            if behaviour == "same":
                self.script[followup] = f"Step 1: ...\nThe answer is {source_answer}."
            elif behaviour == "differ":
                self.script[followup] = f'{{"label": "{other(source_answer)}"}}'
            elif behaviour == "gold":
                self.script[followup] = f'{{"label": "{row["followup_label"]}"}}'
            elif behaviour == "unparsed":
                self.script[followup] = "It could be True or False."
        self.calls: Counter[str] = Counter()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        user = messages[-1].text
        self.calls[user] += 1
        return output(self.script[user])


def run(repo: str, tmp_path: Path, rows: list[dict[str, Any]], **task_args: Any) -> tuple[EvalLog, Answerer, Any]:
    unchanged = next(r for r in rows if r["mr"] == "MR-152" and r["label"] == "True")["conclusion"]
    transformer = Transformer(unchanged)
    answerer = Answerer(rows)
    task = lexical(
        dataset=repo,
        mr="MR-1,MR-49,MR-84,MR-102,MR-152",
        part="premises,conclusion",
        transformer_model=get_model("mockllm/model", custom_outputs=transformer),
        **task_args,
    )
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=answerer), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    return log, answerer, transformer


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}
