"""Inspect scorers and the pure metric arithmetic of lgmt-tasks (imported as `lgmt_tasks.scorers`)."""
