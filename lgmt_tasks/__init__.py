"""lgmt-tasks: logic-grounded metamorphic testing of LLM reasoning for Inspect AI and lm-evaluation-harness."""

__version__ = "0.3.0"
"""The package version, declared once: `pyproject.toml` reads it (`[tool.setuptools.dynamic]`)."""
