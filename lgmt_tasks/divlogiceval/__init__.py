"""DivLogicEval (Chung et al., 2025): proven four-option propositional logic questions in diverse English.

Besides the modules every suite has (ARCHITECTURE.md, rule 1): `logic` (the symbolic side: propositions, options,
questions), `english` (the sentence pool and the realiser), `diversity` (the lexical-diversity statistics of
Table 5), `shortcuts` (the shortcut battery) and `released` (the authors' released data in our row shape).
"""
