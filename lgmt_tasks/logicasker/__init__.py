"""LogicAsker (Wan et al.): atomic and extended logic skills as proven yes/no tests.

Besides the modules every suite has (ARCHITECTURE.md, rule 1; its `report` is the paper's weakness identification,
per-skill accuracy from Inspect logs): `catalogue` (the skills, from `data/rules.json`), `english` (Appendix D
vocabulary and templates), `generate` (one proven test per call: a rule application, its chain of supporting
inferences and its false kinds), `depth` (a chain's effective depth), `config` (the build config),
`demonstrations` (Appendix E in-context examples) and `shortcuts` (the shortcut battery).
"""
