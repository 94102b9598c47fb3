"""lm-eval configs of the lexical suite (YAML written by `_generate.py`; the code is `utils.py`)."""
