"""LogicAsker (Wan et al.): atomic and extended logic skills as proven yes/no tests.

`catalogue` (the skills, from `data/rules.json`), `english` (Appendix D vocabulary and templates), `generate` (one
proven test per call: a rule application, its chain of supporting inferences and its false kinds), `weakness`
(per-skill accuracy from an Inspect log) and `demonstrations` (Appendix E in-context examples).
"""
