"""The answers of LGMT's few-shot CoT demonstrations, written once for the prompt that shows them and the parser.

`solvers/prompts.py` puts them into the few-shot CoT system prompt; `scorers/answers.py` must recognise a reply that
merely repeats one of them as an echo of the prompt, not as the model's answer. Solvers and scorers may not import
each other (`tests/test_layout.py`), so the strings live here, below both.
"""

from __future__ import annotations

LGMT_COT_DEMO_ANSWERS: tuple[str, ...] = (
    '{ "reasoning": "Premise 1 establishes a conditional statement (If A then B). Premise 2 affirms the antecedent A. '
    'By Modus Ponens, we conclude B.", "label": "True" }',
    '{ "reasoning": "Premise 1 states birds and mammals are disjoint. Premise 2 states bat is a mammal. Therefore bat '
    'cannot be a bird.", "label": "False" }',
    '{ "reasoning": "Affirming the consequent is invalid. Alice may have a private office for other reasons.", '
    '"label": "Unknown" }',
)
"""One per demonstration, in order (True, False, Unknown), exactly as the prompt shows them."""
