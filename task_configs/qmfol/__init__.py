"""lm-eval config of QMFOL (`lgmt_qmfol.yaml`, written by `_generate.py`)."""
