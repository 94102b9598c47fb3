"""Tests that need the E prover binary: skipped on a machine without it, failed in CI (env ``CI`` set).

CI installs E (``make eprover``, called by ``make test``), so a missing binary there is a broken setup that must
not pass as a green run with skipped cross-checks. Use it as a decorator, or call `require_eprover()` at the
start of a test or fixture::

    from tests.eprover_support import requires_eprover

    @requires_eprover
    def test_something() -> None: ...
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from lgmt_tasks.logic.eprover import DEBIAN_PACKAGE, eprover_available

F = TypeVar("F", bound=Callable[..., Any])


def require_eprover() -> None:
    """Return if E is installed; otherwise fail under CI and skip elsewhere."""
    if eprover_available():
        return
    message = f"E prover (`eprover`) is not installed: apt-get install -y {DEBIAN_PACKAGE}, or `make eprover` as root"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI must run the E cross-checks, not skip them", pytrace=False)
    pytest.skip(message)


def requires_eprover(test: F) -> F:
    """Decorate a test (sync or async, plain or hypothesis) so that it runs only with E installed (see module)."""
    if inspect.iscoroutinefunction(test):

        @functools.wraps(test)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            require_eprover()
            return await test(*args, **kwargs)

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        require_eprover()
        return test(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
