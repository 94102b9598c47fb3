"""Real Inspect logs of all five suites on scripted mock models, made once per test module (`tests/card/conftest.py`).

Each suite's task reads its committed default build (`-T dataset=datasets/<suite>`, no build) and runs `LIMIT`
samples. The scripted model answers every prompt from a hash of the prompt, in the suite's answer format, and leaves
every seventh prompt unanswered (an unparsed reply), so the logs hold violations, wrong and unparsed answers: enough
for every number of the card to be checked against the log's own metrics, which is what the card tests do (they never
recompute a rate). `tests/card/conftest.py::five_suite_logs` makes one log per suite once per test process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 12
MODEL = "mockllm/gpt-4o"
"""The model of the shared logs (`tests/card/conftest.py`): a name the DivLogicEval paper reports a figure for."""
LABELS = ("True", "False", "Unknown")


def pick(prompt: str, choices: int) -> int | None:
    """A choice among `choices` from the prompt's hash; None (no answer) for one prompt in seven."""
    digest = hashlib.sha256(prompt.encode("utf-8")).digest()
    return None if digest[0] % 7 == 0 else digest[1] % choices


def label_reply(prompt: str) -> str:
    choice = pick(prompt, 3)
    return "I cannot tell." if choice is None else f'{{"label": "{LABELS[choice]}"}}'


def yes_no_reply(prompt: str) -> str:
    choice = pick(prompt, 2)
    return "I cannot tell." if choice is None else ("Yes." if choice == 0 else "No.")


def letter_reply(prompt: str) -> str:
    choice = pick(prompt, 4)
    return "I cannot tell." if choice is None else f"Answer: {'ABCD'[choice]}"


REPLIES: dict[str, Callable[[str], str]] = {
    "lgmt": label_reply,
    "logicasker": yes_no_reply,
    "divlogiceval": letter_reply,
    "qmfol": label_reply,
    "lexical": label_reply,
}
TASKS = {
    "lgmt": "mr_e",
    "logicasker": "logicasker",
    "divlogiceval": "divlogiceval",
    "qmfol": "qmfol",
    "lexical": "lexical",
}


def scripted(model: str, reply: Callable[[str], str]) -> Any:
    """A mock model answering the last user message with `reply` (token counts set: no tokenizer download)."""

    def outputs(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = [m.text for m in messages if m.role == "user"][-1]
        out = ModelOutput.from_content(model, reply(prompt))
        out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return out

    return get_model(model, custom_outputs=outputs, memoize=False)


def run_suite(
    suite: str,
    model: str,
    log_dir: Path,
    limit: int | None = LIMIT,
    reply: Callable[[str], str] | None = None,
    **task_args: Any,
) -> EvalLog:
    """Run one suite's task on its committed build with a scripted model (`reply`: by default the suite's
    `REPLIES`); return the log (status success)."""
    from lgmt_tasks.suites import suite as record

    function = getattr(record(suite).module("task"), TASKS[suite])
    task = function(dataset=str(ROOT / "datasets" / suite), **task_args)
    [log] = eval(
        task,
        model=scripted(model, reply or REPLIES[suite]),
        log_dir=str(log_dir),
        display="none",
        limit=limit,
        max_tokens=16,
    )
    assert log.status == "success", log.error
    return log
