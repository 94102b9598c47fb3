"""Errors whose message is the whole story, which a command line prints as one `Error:` line, not a traceback.

`inspect eval`, `lm_eval` and `python -c` print an uncaught exception with its traceback: some 280 lines for a bad
`-T` argument, 60 for an unwritable `LGMT_CACHE_DIR` under lm-eval, of which only the last line helps. Inspect prints
its own `PrerequisiteError` without a traceback, but that class is private (`inspect_ai._util.error`, which any release
may move; issue 38), and lm-eval and Python have no such class. What all three do call is Python's documented hook for
an uncaught exception, `sys.excepthook`. So the first `LgmtError` made in a process installs a hook that prints an
uncaught `LgmtError` as `Error: <message>` on stderr and hands every other exception to the hook it replaced (Inspect's
own, or Python's). The process still ends with exit status 1, as after any uncaught exception.

Why on the first error and not at import: the Inspect plugin entry point imports us in every `inspect eval`, including
runs that never use our tasks, and a process that never makes one of our errors should keep its hook untouched. A
caught `LgmtError` is an ordinary `ValueError` (its cause kept), and IPython and pytest, which do not call
`sys.excepthook`, show its whole traceback. `tests/test_errors.py` runs `lm_eval` and `python -c`, and
`tests/tasks/test_task_params.py` runs `inspect eval`, to check the one line.

This module imports only the standard library: the task modules and the model provider import it at registration.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]

_installed = False


class LgmtError(ValueError):
    """A bad input (a task argument, a cache folder) whose one-line message names it and what to do instead.

    Uncaught at the top of a program it is printed as that line alone (see the module docstring); from Python it is a
    `ValueError`.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        install_one_line_hook()


def one_line_hook(previous: ExceptHook) -> ExceptHook:
    """An excepthook printing an `LgmtError` as `Error: <message>` on stderr, and leaving any other to `previous`."""

    def hook(kind: type[BaseException], error: BaseException, traceback: TracebackType | None) -> object:
        if isinstance(error, LgmtError):
            print(f"Error: {error}", file=sys.stderr, flush=True)
            return None
        return previous(kind, error, traceback)

    return hook


def install_one_line_hook() -> None:
    """Put `one_line_hook` in front of the current `sys.excepthook`, once per process."""
    global _installed
    if not _installed:
        sys.excepthook = one_line_hook(sys.excepthook)
        _installed = True


__all__ = ["LgmtError", "install_one_line_hook", "one_line_hook"]
