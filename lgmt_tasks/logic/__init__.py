"""The logic core: FOL syntax, parser and printer, the Z3 prover, normal forms and the English realiser.

It imports nothing else of ours (see DESIGN.md: one direction only).
"""
