"""Inspect entry point: a flat list of every `@task` this package registers (`lgmt_tasks/<name>`)."""
