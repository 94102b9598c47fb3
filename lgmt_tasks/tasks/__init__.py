"""Deprecated location of the Inspect tasks (0.1): they moved to `lgmt_tasks.<suite>.task` in 0.2.

`lgmt_tasks.tasks.<suite>` still imports, with a `DeprecationWarning`, and will be removed in 0.3.
"""
