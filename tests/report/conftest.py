"""The scripted LGMT runs, shared by every report test of the session (`tests/report/scripted.py`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.report.scripted import make_runs


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The dataset, the script and the three logs of `tests.report.scripted.make_runs`."""
    return make_runs(tmp_path_factory.mktemp("lgmt-report"))
