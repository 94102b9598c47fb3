"""The logic core: FOL syntax, parser and printer, the Z3 and E provers, normal forms and template English.

`syntax`, `parse`, `printer`; `prover` (Z3, with `z3_context` and `malloc_tuning`; its default limits in `limits`, which
imports no Z3); `eprover` and `tptp` (the second prover); `normal_forms`; template English: `lexicon` (built from
`phrasing` and `grammar_words`, proven unambiguous by `ambiguity` over a `constant_trie`), `realize` and its exact
reader `read`. It imports nothing else of ours (ARCHITECTURE.md, rule 3).
"""
