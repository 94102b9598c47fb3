"""Deprecated: moved to `lgmt_tasks.lgmt.task` in 0.2; this alias will be removed in 0.3."""

import warnings

from lgmt_tasks.lgmt.task import *  # noqa: F403
from lgmt_tasks.lgmt.task import __all__  # noqa: F401

warnings.warn("lgmt_tasks.tasks.lgmt moved to lgmt_tasks.lgmt.task", DeprecationWarning, stacklevel=2)
