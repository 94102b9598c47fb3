"""Deprecated: moved to `lgmt_tasks.divlogiceval.task` in 0.2; this alias will be removed in 0.3."""

import warnings

from lgmt_tasks.divlogiceval.task import *  # noqa: F403
from lgmt_tasks.divlogiceval.task import __all__  # noqa: F401

warnings.warn("lgmt_tasks.tasks.divlogiceval moved to lgmt_tasks.divlogiceval.task", DeprecationWarning, stacklevel=2)
