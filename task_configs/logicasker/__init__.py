"""LogicAsker lm-eval task YAMLs (package data; a package so that setuptools ships them in the wheel)."""
