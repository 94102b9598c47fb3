"""The LLMorph baseline: lexical (text-level) metamorphic relations on the same source cases as LGMT.

Besides the modules every suite has (ARCHITECTURE.md, rule 1): `catalogue` (the relations by their Table II ids,
selection helpers), `transforms` (the seeded function-based transformations), `llm` and `llm_prompts` (the LLM-based
transformations: the prompts as data, output clean-up, and the calls to any Inspect model as transformer),
`expectations` (a follow-up's expected answer: proven, assumed or unproven), `drift` (how far follow-ups drift
from their source's logical content, measured where the label is assumed), `log_samples` (logs read into one row per
sample) and `flakiness` (LLMorph's Table XI). Its solver and scorer are `solvers/lexical.py` and `scorers/lexical.py`.
"""
