"""lgmt-tasks: logic-grounded metamorphic testing of LLM reasoning for Inspect AI and lm-evaluation-harness."""

__version__ = "0.1.0"
