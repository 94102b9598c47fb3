"""The paper's prompts (Appendix C.1): wording kept, placeholders present, lookup checked."""

from __future__ import annotations

import json
import re

import pytest

from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.solvers.prompts import (
    FEW_SHOT,
    FEW_SHOT_COT,
    PROMPTINGS,
    USER_TEMPLATE,
    ZERO_SHOT,
    ZERO_SHOT_COT,
    render_user_prompt,
    system_prompt,
)

ALL = {"zero_shot": ZERO_SHOT, "zero_shot_cot": ZERO_SHOT_COT, "few_shot": FEW_SHOT, "few_shot_cot": FEW_SHOT_COT}

# Sentences of Appendix C.1, with the ↵ wraps joined, that must appear verbatim.
COMMON = [
    "Strict Rules for Evaluation:",
    "1. Pure Formal Logic: Treat all provided premises as absolute truth, regardless of real-world facts. Your "
    "evaluation must rely strictly on formal logical structure.",
    "Output Format:",
    "Output raw JSON only. Do not wrap in markdown code blocks.",
]
DIRECT = [
    "You are a strict logical entailment evaluator. Your purpose is to determine if a conclusion logically follows "
    "from a given set of premises.\n",
    "2. Zero Explanation: Do not generate any reasoning, thought processes, or introductory text. Provide only the "
    "final judgment.",
    'The JSON must contain exactly one key: "label". The value for "label" must be exactly one of the following '
    'strings: "True", "False", or "Unknown".',
]
COT = [
    "from a given set of premises through step-by-step deduction.",
    "2. Step-by-Step Deduction: You must perform a rigorous, step-by-step logical deduction. Act like a formal proof "
    "system. Clearly state how the premises interact to evaluate the conclusion. Do not skip logical steps.",
    '- "reasoning" (string): Your step-by-step logical deduction process.\n'
    '- "label" (string): Must be exactly one of: "True", "False", or "Unknown".',
]
FEW = [
    "--- Example 1 (True) ---",
    "--- Example 2 (False) ---",
    "--- Example 3 (Unknown) ---",
    "Premises:\nNo birds are mammals.\nA bat is a mammal.\n\nConclusion:\nA bat is a bird.",
]


@pytest.mark.parametrize(
    ("name", "phrases"),
    [
        ("zero_shot", COMMON + DIRECT + ['Example:\n{"label": "True"}']),
        ("zero_shot_cot", COMMON + COT + ['Example:\n{"reasoning": "Step 1: ...", "label": "Unknown"}']),
        ("few_shot", COMMON + DIRECT + FEW),
        ("few_shot_cot", COMMON + COT + FEW + ["By Modus Ponens, we conclude B.", "Therefore bat cannot be a bird."]),
    ],
)
def test_paper_wording(name: str, phrases: list[str]) -> None:
    for phrase in phrases:
        assert phrase in ALL[name], phrase
    assert "↵" not in ALL[name] and "\n\n\n" not in ALL[name] and ALL[name] == ALL[name].strip()


@pytest.mark.parametrize("name", ["few_shot", "few_shot_cot"])
def test_demonstrations_are_valid_json_with_their_labels(name: str) -> None:
    prompt = ALL[name]
    assert prompt.endswith("\n\nNow please answer the following question:")
    answers = re.findall(r"Output raw JSON only:\n(\{.*\})", prompt)
    assert [json.loads(a)["label"] for a in answers] == ["True", "False", "Unknown"]
    # A reply in the demonstrations' format is read strictly. A reply that copies a CoT demonstration word for word
    # repeats the prompt and has not answered (issue #26; the direct ones are also what a real answer looks like).
    own = [json.dumps({**json.loads(a), "reasoning": "My own steps."}) if "reasoning" in a else a for a in answers]
    assert [parse_label(a).how for a in own] == ["strict"] * 3
    if name == "few_shot_cot":
        assert [parse_label(a).label for a in answers] == [None] * 3


def test_demonstrations_have_the_user_template_layout() -> None:
    demo = render_user_prompt(
        ["All managers have a private office.", "Alice has a private office."], "Alice is a manager."
    )
    assert demo + '\n{ "label": "Unknown" }' in FEW_SHOT


def test_user_template_and_rendering() -> None:
    assert USER_TEMPLATE.count("{premises_text}") == 1 and USER_TEMPLATE.count("{conclusion_text}") == 1
    assert render_user_prompt(["A is B.", "B is C."], "A is C.") == (
        "Premises:\nA is B.\nB is C.\n\nConclusion:\nA is C.\n\nEvaluate the logical entailment. Output raw JSON only:"
    )


def test_rendering_keeps_braces_in_sentences() -> None:
    assert "{x}" in render_user_prompt(["Set {x} is empty."], "{y}")


def test_system_prompt_lookup() -> None:
    assert PROMPTINGS == ("zero_shot", "zero_shot_cot", "few_shot", "few_shot_cot")
    assert {p: system_prompt(p) for p in PROMPTINGS} == ALL
    with pytest.raises(ValueError, match="zero_shot, zero_shot_cot, few_shot, few_shot_cot; got 'cot'"):
        system_prompt("cot")
