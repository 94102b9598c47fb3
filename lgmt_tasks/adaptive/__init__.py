"""Adaptive testing (issue #37): spend a model's calls on the relations whose question is still open.

`sequences` holds the anytime-valid confidence sequence of a Bernoulli rate, `design` the decision rules on it
(`threshold`, `weakest`), `simulate` their expected cost. They import nothing of Inspect's, so `lgmt plan --adaptive`
and the lm-eval loop use them too. `stopping` is the Inspect side (the early-stopping manager the LGMT and lexical
tasks get with `-T adaptive`) and `report` reads its summary back from a log for `lgmt report`; `lm_eval_loop` is
`lgmt adaptive-next`, the same designs run as rounds of lm-eval.
"""
