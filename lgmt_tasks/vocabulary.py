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

RESPONSES_KEY = "responses"
"""`TaskState.store` key: the completion of every member of a group, in member order (written by the solvers)."""

CONTROL_RESPONSE_KEY = "control_response"
"""`TaskState.store` key: with LGMT's `-T control=true`, the source asked again unchanged (written by the group solver,
read by the LGMT scorer; not a member, so `RESPONSES_KEY` keeps member order)."""

TRANSFORM_KEY = "lexical_transform"
"""`TaskState.store` key: the lexical solver's record of an LLM-based transformation (read by the lexical scorer)."""
