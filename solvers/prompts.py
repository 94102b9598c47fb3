"""The LGMT entailment prompts: the paper's four system prompts and its user template (Appendix C.1).

The text is the paper's, word for word. Two things were normalised, because the PDF text is not the prompt itself:

- The paper marks its own line wraps with ↵; those lines are joined back into one line each.
- The extraction is inconsistent about blank lines and leading spaces (the same demonstration appears with and
  without a blank line after `Premises:`). We use one layout throughout: paragraphs and headings separated by one
  blank line, list items on consecutive lines, each premise on its own line, and every demonstration laid out exactly
  like the user template (so a few-shot model sees its question in the same shape as its examples).

The demonstrations of the few-shot variants are part of the system prompt, as in the paper; each few-shot system
prompt ends with "Now please answer the following question:" and the user prompt follows as the user message.
"""

from __future__ import annotations

from collections.abc import Sequence

from lgmt_tasks.demo_answers import LGMT_COT_DEMO_ANSWERS
from lgmt_tasks.vocabulary import PROMPTINGS, Prompting

DEFAULT_PROMPTING: Prompting = "zero_shot_cot"

_PREAMBLE = (
    "You are a strict logical entailment evaluator. Your purpose is to determine if a conclusion logically follows "
    "from a given set of premises."
)
_PREAMBLE_COT = (
    "You are a strict logical entailment evaluator. Your purpose is to determine if a conclusion logically follows "
    "from a given set of premises through step-by-step deduction."
)
_RULE_LOGIC = (
    "1. Pure Formal Logic: Treat all provided premises as absolute truth, regardless of real-world facts. Your "
    "evaluation must rely strictly on formal logical structure."
)
_RULE_DIRECT = (
    "2. Zero Explanation: Do not generate any reasoning, thought processes, or introductory text. Provide only the "
    "final judgment."
)
_RULE_COT = (
    "2. Step-by-Step Deduction: You must perform a rigorous, step-by-step logical deduction. Act like a formal proof "
    "system. Clearly state how the premises interact to evaluate the conclusion. Do not skip logical steps."
)
_FORMAT_DIRECT = (
    'You must output a single, strictly formatted JSON object. The JSON must contain exactly one key: "label". The '
    'value for "label" must be exactly one of the following strings: "True", "False", or "Unknown".'
)
_FORMAT_COT = (
    'You must output a single, strictly formatted JSON object. The JSON must contain exactly two keys: "reasoning" '
    'and "label".\n'
    "\n"
    '- "reasoning" (string): Your step-by-step logical deduction process.\n'
    '- "label" (string): Must be exactly one of: "True", "False", or "Unknown".'
)
_RAW_JSON = "Output raw JSON only. Do not wrap in markdown code blocks."
_NOW = "Now please answer the following question:"

USER_TEMPLATE = (
    "Premises:\n{premises_text}\n\n"
    "Conclusion:\n{conclusion_text}\n\n"
    "Evaluate the logical entailment. Output raw JSON only:"
)
"""The paper's user prompt; `{premises_text}` holds one premise per line."""

# The three demonstrations (premises, conclusion, gold label) shared by both few-shot prompts, and the answer each
# prompt shows for them, verbatim (including the paper's spacing inside the JSON).
_DEMOS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (
        ("If the central server is online, the database syncs.", "The central server is online."),
        "The database syncs.",
        "True",
    ),
    (("No birds are mammals.", "A bat is a mammal."), "A bat is a bird.", "False"),
    (("All managers have a private office.", "Alice has a private office."), "Alice is a manager.", "Unknown"),
)
_DEMO_ANSWERS_DIRECT = ('{"label": "True"}', '{"label": "False"}', '{ "label": "Unknown" }')
_DEMO_ANSWERS_COT = LGMT_COT_DEMO_ANSWERS


def render_user_prompt(premises: Sequence[str], conclusion: str) -> str:
    """Fill the paper's user template: the premises one per line, then the conclusion.

    Args:
        premises: The premises in English, in order.
        conclusion: The conclusion in English.

    Returns:
        The user message the model sees for this case.
    """
    return USER_TEMPLATE.format(premises_text="\n".join(premises), conclusion_text=conclusion)


def _demonstrations(answers: Sequence[str]) -> str:
    blocks = [
        f"--- Example {i} ({label}) ---\n\n{render_user_prompt(premises, conclusion)}\n{answer}"
        for i, ((premises, conclusion, label), answer) in enumerate(zip(_DEMOS, answers, strict=True), start=1)
    ]
    return "Demonstrations:\n\n" + "\n\n".join(blocks)


def _system(preamble: str, rule: str, output_format: str, tail: str) -> str:
    return "\n\n".join(
        [
            preamble,
            "Strict Rules for Evaluation:",
            f"{_RULE_LOGIC}\n{rule}",
            "Output Format:",
            output_format,
            tail,
        ]
    )


ZERO_SHOT = _system(_PREAMBLE, _RULE_DIRECT, _FORMAT_DIRECT, f'{_RAW_JSON} Example:\n{{"label": "True"}}')
"""Zero-Shot Direct System Prompt (Appendix C.1)."""

ZERO_SHOT_COT = _system(
    _PREAMBLE_COT, _RULE_COT, _FORMAT_COT, f'{_RAW_JSON} Example:\n{{"reasoning": "Step 1: ...", "label": "Unknown"}}'
)
"""Zero-Shot CoT System Prompt (Appendix C.1); the paper's default."""

FEW_SHOT = _system(
    _PREAMBLE, _RULE_DIRECT, _FORMAT_DIRECT, f"{_RAW_JSON}\n\n{_demonstrations(_DEMO_ANSWERS_DIRECT)}\n\n{_NOW}"
)
"""Few-Shot Direct System Prompt (Appendix C.1), demonstrations included."""

FEW_SHOT_COT = _system(
    _PREAMBLE_COT, _RULE_COT, _FORMAT_COT, f"{_RAW_JSON}\n\n{_demonstrations(_DEMO_ANSWERS_COT)}\n\n{_NOW}"
)
"""Few-Shot CoT System Prompt (Appendix C.1), demonstrations included."""

SYSTEM_PROMPTS: dict[str, str] = {
    "zero_shot": ZERO_SHOT,
    "zero_shot_cot": ZERO_SHOT_COT,
    "few_shot": FEW_SHOT,
    "few_shot_cot": FEW_SHOT_COT,
}


def check_prompting(prompting: str) -> Prompting:
    """Return `prompting` unchanged if it names one of the four strategies.

    Args:
        prompting: The value a user passed (e.g. with `-T prompting=...`).

    Returns:
        The same value, typed.

    Raises:
        ValueError: If it is not one of `PROMPTINGS`; the message lists them, so a typo is fixed in one step.
    """
    if prompting not in SYSTEM_PROMPTS:
        raise ValueError(f"prompting must be one of {', '.join(PROMPTINGS)}; got {prompting!r}")
    return prompting  # type: ignore[return-value]


def system_prompt(prompting: str) -> str:
    """Return the system prompt of one prompting strategy.

    Args:
        prompting: One of `zero_shot`, `zero_shot_cot`, `few_shot`, `few_shot_cot`.

    Returns:
        The paper's system prompt for it (few-shot variants include their demonstrations).

    Raises:
        ValueError: If `prompting` is not one of the four; the message lists them.
    """
    return SYSTEM_PROMPTS[check_prompting(prompting)]
