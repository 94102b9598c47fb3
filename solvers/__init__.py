"""Inspect solvers of lgmt-tasks (imported as `lgmt_tasks.solvers`)."""
