"""Inspect entry point: a flat list of every `@task` this package registers (`lgmt_tasks/<name>`).

Inspect only warns when a plugin fails to import, so `tests/test_registry.py` checks that every name here is
visible to Inspect.
"""

from lgmt_tasks.divlogiceval.task import divlogiceval
from lgmt_tasks.lexical.task import lexical
from lgmt_tasks.lgmt.task import lgmt, mr_c, mr_e, mr_e1, mr_e2, mr_p, mr_s
from lgmt_tasks.logicasker.task import logicasker
from lgmt_tasks.models import smollm2  # noqa: F401  (registers the `lgmt/smollm2` model provider)
from lgmt_tasks.qmfol.task import qmfol

__all__ = ["divlogiceval", "lexical", "lgmt", "logicasker", "mr_c", "mr_e", "mr_e1", "mr_e2", "mr_p", "mr_s", "qmfol"]
