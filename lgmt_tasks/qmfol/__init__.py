"""QMFOL (Zheng et al., 2026): monadic FOL reasoning tasks with controlled depth, width, label and distractors.

`construction` (paper §3.1: Algorithm 1 basic rules, the implicit rule R_imp of Eq. 1, the True / False / Unknown1 /
Unknown2 fact–conclusion pairs of Eqs. 2–4, quantified by default or on an object constant, with surfaces balanced
across labels, Algorithm 2 distractors), `english` (the topic
lexicons of `data/` and the paper's §3.2 conversion rules as a deterministic realiser with an exact reader) and
`translate` (the optional LLM translator of §3.2 with its round trip proven by Z3), `lexicons` (the independence and
family checks of the topic lexicons), `shortcuts` (the shortcut battery) and `proofs` (built rows re-checked from
their columns alone). The builder that turns these into a dataset is `lgmt_tasks.qmfol.build`, with its config in
`config`.
"""
