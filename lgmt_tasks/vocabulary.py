"""The names and values every layer shares: labels, option letters, prompting and source names, task-store keys.

The task-state keys are how solvers hand answers to scorers. Defined once here, in a module that imports nothing of
ours, so that solvers and scorers (which must not import each other, the builders or the tasks) and the suites all agree
on them.
"""

from __future__ import annotations

from typing import Literal, get_args

TRUTH_LABELS: tuple[str, str, str] = ("True", "False", "Unknown")
"""The three-valued entailment labels (True iff Γ ⊨ q, False iff Γ ⊨ ¬q, Unknown otherwise)."""

YES_NO_LABELS: tuple[str, str] = ("yes", "no")
"""LogicAsker's answers."""

OPTION_LETTERS: str = "ABCD"
"""DivLogicEval's four option letters, in presentation order."""

UNPARSED: str = "unparsed"
"""The recorded answer when a reply cannot be read: never a label, never a violation."""

Prompting = Literal["zero_shot", "zero_shot_cot", "few_shot", "few_shot_cot"]
"""LGMT's four prompting strategies (paper Appendix C.1); the lexical suite uses the same prompts."""

PROMPTINGS: tuple[str, ...] = get_args(Prompting)

Source = Literal["generated", "folio", "proverqa", "logicnli", "qmfol", "logicasker"]
"""Where LGMT and lexical source cases come from (`qmfol`: QMFOL problems of a depth × width grid, made on the fly;
`logicasker`: LogicAsker's predicate-logic chains of chosen lengths, made on the fly)."""

SOURCES: tuple[str, ...] = get_args(Source)

LgmtSource = Literal[Source, "paper"]
"""What LGMT's `source` takes: a `Source`, or `paper`, the paper's pooled evaluation set (FOLIO, LogicNLI, ProverQA)
read from one folder (`lgmt_tasks.sources.paper`)."""

LGMT_SOURCES: tuple[str, ...] = get_args(LgmtSource)

RESPONSES_KEY = "responses"
"""`TaskState.store` key: the completion of every member of a group, in member order (written by the solvers)."""

CONTROL_RESPONSE_KEY = "control_response"
"""`TaskState.store` key: with LGMT's `-T control=true`, the source asked again unchanged (written by the group solver,
read by the LGMT scorer; not a member, so `RESPONSES_KEY` keeps member order)."""

Control = Literal["none", "repeat", "render"]
"""LGMT's `-T control`: no control member (`none`, the default), the source asked again unchanged (`repeat`, the noise
floor), or the source re-rendered from its own FOL by the template realiser (`render`, the style control)."""

CONTROLS: tuple[str, ...] = get_args(Control)

CONTROL_FLAGS: dict[bool, str] = {False: "none", True: "repeat"}
"""The control a boolean `-T control` asks for (`false` and `true`, the option's values before `render` existed)."""


def control_kind(value: object) -> str:
    """The control of a `-T control` value (or a log's recorded task argument): one of `CONTROLS`.

    `None`, `False` and `True` map by `CONTROL_FLAGS`; a string is one of `CONTROLS` or true / false in any case.

    Raises:
        ValueError: On any other value, naming the allowed ones.
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return CONTROL_FLAGS[value]
    if isinstance(value, str):
        text = value.strip().lower()
        if text in CONTROLS:
            return text
        if text in ("true", "false"):
            return CONTROL_FLAGS[text == "true"]
    raise ValueError(f"control={value!r}: expected one of {', '.join(CONTROLS)} (or true = repeat, false = none)")


RENDER_PROMPT_KEY = "control_member"
"""Sample metadata key: with LGMT's `-T control=render`, the user prompt of the control member (the source case with
every sentence re-rendered from its FOL by the template realiser), written by the task, asked by the group solver."""

TRANSFORM_KEY = "lexical_transform"
"""`TaskState.store` key: the lexical solver's record of an LLM-based transformation (read by the lexical scorer)."""
