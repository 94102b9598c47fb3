"""The LLMorph baseline: lexical (text-level) metamorphic relations on the same source cases as LGMT.

Modules: `catalogue` (the relations by their Table II ids, selection helpers), `transforms` (the seeded
function-based transformations), `llm` (the LLM-based transformations: prompts, output clean-up, and the calls to
any Inspect model as transformer). The builder, loader, task, solver and scorer live where every suite keeps them
(`builders/lexical.py`, `loaders/lexical.py`, `tasks/lexical.py`, `solvers/lexical.py`, `scorers/lexical.py`).
"""
