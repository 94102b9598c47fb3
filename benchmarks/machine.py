"""The machine a benchmark ran on, written once for the benchmarks that record it (date, versions, cores, load).

A figure in `benchmarks/results/` means little without the machine and the load it was measured under, so every
result file carries this block; the scripts import it (`benchmarks/` is on `sys.path` when a script runs).
"""

from __future__ import annotations

import os
import platform
from datetime import datetime, timezone
from typing import Any

import z3

from lgmt_tasks import __version__


def machine_info(**extra: Any) -> dict[str, Any]:
    """Date (UTC), lgmt-tasks, Python, platform, Z3, cores and the load average now, plus `extra` entries."""
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "version": __version__,
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "z3": z3.get_version_string(),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        **extra,
    }
