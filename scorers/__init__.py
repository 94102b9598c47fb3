"""Inspect scorers and the pure metric arithmetic of lgmt-tasks (imported as `lgmt_tasks.scorers`).

`<suite>.py` is a suite's scorer with its Inspect metrics; `<suite>_arithmetic.py` and `pairwise.py` hold the pure
metric arithmetic (no framework imports) that the Inspect metrics, the lm-eval aggregations and the `evaluate` modules
all call; a `*_metrics.py` module holds Inspect metric factories that several suites share.
"""
