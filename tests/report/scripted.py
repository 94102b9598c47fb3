"""The scripted LGMT runs that the report tests read: a real `lgmt` build and real Inspect runs on mock models.

Every source answer is the gold label, except for sources whose position among the distinct source prompts is a
multiple of 3 (answered with the next label: wrong). Follow-up k (groups in id order) follows `PLAN[(k + shift) % 4]`:
the source's answer, another label (a violation), an unreadable reply, the source's answer. Runs: model A zero_shot
(shift 0), model A few_shot (shift 1), model B zero_shot (shift 2, `--limit 12`). The `runs` fixture
(`tests/report/conftest.py`; `tests/lgmt/conftest.py` for the LGMT report tests) runs them once per session.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.solvers.prompts import system_prompt

LABELS = ("True", "False", "Unknown")
PLAN = ("same", "other", "unreadable", "same")
MODEL_A, MODEL_B = "mockllm/model", "mockllm/second"
RUNS = {(MODEL_A, "zero_shot"): 0, (MODEL_A, "few_shot"): 1, (MODEL_B, "zero_shot"): 2}
LIMIT_B = 12


def nxt(label: str) -> str:
    return LABELS[(LABELS.index(label) + 1) % 3]


def reply(label: str | None) -> str:
    return "I cannot tell." if label is None else json.dumps({"label": label})


class Script:
    """The answers of every run, by (model, prompting) and user prompt; and the expected outcome of every group."""

    def __init__(self, samples: list[Any]) -> None:
        self.samples = sorted(samples, key=lambda s: str(s.id))
        sources = sorted({s.metadata["members"][0] for s in self.samples})
        self.source_answer = {}
        for s in self.samples:
            gold, prompt = s.target, s.metadata["members"][0]
            self.source_answer[prompt] = nxt(gold) if sources.index(prompt) % 3 == 0 else gold
        self.answers: dict[tuple[str, str], dict[str, str]] = {}
        self.outcomes: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
        for run, shift in RUNS.items():
            answers = {p: reply(a) for p, a in self.source_answer.items()}
            outcomes: dict[str, dict[str, int]] = {}
            for k, s in enumerate(self.samples):
                source, followup = s.metadata["members"]
                plan = PLAN[(k + shift) % 4]
                said = self.source_answer[source]
                answer = {"same": said, "other": nxt(said), "unreadable": None}[plan]
                answers[followup] = reply(answer)
                outcomes[str(s.id)] = self._outcome(s.target, said, plan)
            self.answers[run], self.outcomes[run] = answers, outcomes

    @staticmethod
    def _outcome(gold: str, said: str, plan: str) -> dict[str, int]:
        parsed = plan != "unreadable"
        violation = plan == "other"
        right = said == gold
        return {
            "parsed": int(parsed),
            "violation": int(parsed and violation),
            "source_correct": int(parsed and right),
            "consistent_correct": int(parsed and right and not violation),
            "hidden_defect": int(parsed and right and violation),
            "false_unreported": int(parsed and not right and not violation),
            "source_answered_correctly": int(right),  # the source is always readable
            "tested": 1,
        }

    def model(self, run: tuple[str, str]) -> Any:
        answers = self.answers[run]
        system = system_prompt(run[1])

        def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
            assert messages[0].text == system
            out = ModelOutput.from_content(run[0], answers[next(m.text for m in messages if m.role == "user")])
            out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
            return out

        return get_model(run[0], custom_outputs=outputs, memoize=False)

    def expected(self, run: tuple[str, str], keep: Callable[[Any], bool] = lambda s: True) -> dict[str, float]:
        """Counts and rates of the groups of one run that `keep` selects (model B: only its first 12 samples)."""
        ids = {str(s.id) for s in self.samples if keep(s)}
        chosen = [o for i, o in self.outcomes[run].items() if i in ids]
        total = {key: sum(o[key] for o in chosen) for key in chosen[0]}
        parsed = total["parsed"]

        def over(n: int) -> float:
            return n / parsed if parsed else math.nan

        return {
            "groups": len(chosen),
            "parsed": parsed,
            "violations": total["violation"],
            "mvr": over(total["violation"]),
            "acc_static": total["source_answered_correctly"] / len(chosen),
            "acc_cons": total["consistent_correct"] / len(chosen),
            "acc_static_parsed": over(total["source_correct"]),
            "acc_cons_parsed": over(total["consistent_correct"]),
            "hdr": over(total["hidden_defect"]),
            "fur": over(total["false_unreported"]),
            "unparsed_rate": (len(chosen) - parsed) / len(chosen),
        }


def make_runs(root: Path) -> dict[str, Any]:
    """Build the LGMT dataset into `root/dataset` and run the three scripted runs, logs in `root/logs`."""
    from lgmt_tasks.lgmt.build import build_lgmt
    from lgmt_tasks.lgmt.card import write_lgmt_repo
    from lgmt_tasks.lgmt.config import LgmtConfig
    from lgmt_tasks.lgmt.task import lgmt

    folder = root / "dataset"
    write_lgmt_repo(build_lgmt(LgmtConfig(per_mr=1, seed=0)), folder)
    tasks = {run: lgmt(dataset=str(folder), prompting=run[1]) for run in RUNS}
    script = Script(list(tasks[(MODEL_A, "zero_shot")].dataset))
    first_b = {str(s.id) for s in list(tasks[(MODEL_B, "zero_shot")].dataset)[:LIMIT_B]}
    logs: dict[tuple[str, str], EvalLog] = {}
    for run, task in tasks.items():
        limit = LIMIT_B if run[0] == MODEL_B else None
        [log] = eval(
            task, model=script.model(run), log_dir=str(root / "logs"), display="none", limit=limit, max_tokens=64
        )
        assert log.status == "success", log.error
        logs[run] = log
    return {"root": root, "dataset": folder, "script": script, "logs": logs, "first_b": first_b}


def keep_for(runs: dict[str, Any], run: tuple[str, str]) -> Callable[[Any], bool]:
    return (lambda s: str(s.id) in runs["first_b"]) if run[0] == MODEL_B else (lambda s: True)


def paths(runs: dict[str, Any]) -> list[str]:
    return [str(log.location) for log in runs["logs"].values()]


def copy_with(source: str, target: Path, **changes: Any) -> Path:
    """A copy of a log with some header fields changed (`status`, `model`, `created`, `task_args`).

    The copy gets its own eval, run and sample ids, as a separate run would (Inspect's data frames key logs and
    samples by them).
    """
    log = read_eval_log(source)
    log.eval.eval_id, log.eval.run_id = uuid.uuid4().hex, uuid.uuid4().hex
    for sample in log.samples or []:
        sample.uuid = uuid.uuid4().hex
    for name, value in changes.items():
        if name == "status":
            log.status = value
        else:
            setattr(log.eval, name, value)
            if name == "task_args":
                log.eval.task_args_passed = dict(value)
    write_eval_log(log, str(target))
    return target
