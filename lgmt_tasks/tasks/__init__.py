"""Inspect `@task` definitions, one module per suite; they only compose dataset + solver + scorer."""
