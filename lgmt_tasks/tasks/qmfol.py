"""Deprecated: moved to `lgmt_tasks.qmfol.task` in 0.2; this alias will be removed in 0.3."""

import warnings

from lgmt_tasks.qmfol.task import *  # noqa: F403
from lgmt_tasks.qmfol.task import __all__  # noqa: F401

warnings.warn("lgmt_tasks.tasks.qmfol moved to lgmt_tasks.qmfol.task", DeprecationWarning, stacklevel=2)
