"""The `MetricInfo` every module of ours returns from `_info`: one place for the fields they share."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import datasets
import evaluate

REFERENCE_URLS = ["https://pypi.org/project/lgmt-tasks/"]
"""Where the package (and the pure functions behind every module) lives."""

STRING = datasets.Value("string")
INDEX = datasets.Value("int32")
ROTATIONS = datasets.Sequence(INDEX)
"""The predicted original option index of each of a question's four rotations (DivLogicEval)."""


def module_info(
    description: str, citation: str, inputs_description: str, columns: Mapping[str, Any]
) -> evaluate.MetricInfo:
    """A module's `MetricInfo`: its card texts and its input columns (name → `datasets` feature)."""
    return evaluate.MetricInfo(
        description=description,
        citation=citation,
        inputs_description=inputs_description,
        features=datasets.Features(dict(columns)),
        reference_urls=REFERENCE_URLS,
    )
