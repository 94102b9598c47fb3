"""lm-eval configs of DivLogicEval: YAML written by `_generate.py`, the code in `utils.py`."""
