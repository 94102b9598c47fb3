"""Check the `-T` arguments of our `@task` functions against their annotations, and report bad ones in one line.

Inspect reads every `-T name=value` as YAML and passes the result on unchecked: `-T per_mr=abc` arrives as the
string "abc" (and fails deep in a build with a `TypeError`), `-T prefill=maybe` as the string "maybe" (which is
truthy, so it silently meant true), and any `ValueError` a task raises while it is being created ends the run in a
traceback of some 280 lines whose last line is the only useful one. `validated_args`, applied under `@task`, checks
and coerces the given arguments before the task body runs (so before any build), and re-raises every `ValueError`
of task creation as a `TaskParameterError`: an `LgmtError` (`lgmt_tasks.errors`), which `inspect eval` prints as one
`Error:` line.

What each annotation accepts (only the arguments actually given are checked; defaults are trusted):

- `int`: an int, or a string of digits (`-T per_mr="5"`, or a Python caller); not a bool, not a float.
- `float`: an int or a float, or a string `float()` reads (YAML reads `1e-1` as a string).
- `bool`: a bool, 0 / 1, or true / false / yes / no / on / off in any case; anything else (`maybe`) is refused.
- `str`: a string; an int is taken as its digits (YAML reads `-T mr=84` as 84); a list of strings is joined with
  commas again, undoing Inspect's comma shorthand (`-T logic=propositional,predicate` arrives as a list, and our
  string parameters document comma-separated values); a float, bool or null is refused (YAML reads `1.10` as 1.1
  and `yes` as true, so their text is lost: quote such a value, `-T revision='"1.10"'`).
- `Literal[...]`: exactly one of the choices.
- `X | Y`: a value that already is one of the members is kept; otherwise the members' coercions are tried in order.
- `list[X]` / `Sequence[X]`: a list or tuple whose items are checked as `X`.
- `None`: null (`-T name=null` or `-T name=`).
- Any other class (e.g. `Model`): an instance of it; anything else (e.g. `Any`): unchecked.

A converted `ValueError` keeps its cause (`raise ... from`), so calling the task function from Python still shows
the full traceback; the CLI shows only the message.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from inspect_ai import Task

from lgmt_tasks.errors import LgmtError

TaskFunction = TypeVar("TaskFunction", bound=Callable[..., Task])

Values = int | str | Sequence[int] | Sequence[str] | None
"""What a multi-valued parameter accepts: one value, a list (`-T depth=[5,10]`), or a string `"5,10"` / `"5 10"`.

Declared here, beside the checks, so that a task module's signature needs no import of its suite's loader (QMFOL's
`depth`, `width`, ...; see `lgmt_tasks.qmfol.task`)."""

TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS = frozenset({"false", "no", "off", "0"})
INTEGER = re.compile(r"[+-]?\d+")


class TaskParameterError(LgmtError):
    """A bad task argument: printed by `inspect eval` as one line, and still a `ValueError` for Python callers.

    Not Inspect's `PrerequisiteError`, which Inspect prints the same way but keeps private (issue 38): the one line
    comes from `lgmt_tasks.errors`, through Python's public `sys.excepthook`.
    """


class _Refused(Exception):
    """A value an annotation does not accept (internal: becomes one `TaskParameterError` naming the argument)."""


def _describe(annotation: Any) -> str:
    """What an annotation accepts, in words for the error message."""
    origin, members = get_origin(annotation), get_args(annotation)
    if annotation is type(None) or annotation is None:
        return "null"
    if origin is Literal:
        return "one of " + ", ".join(str(m) for m in members)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(m) for m in members)
    if origin in (list, tuple, Sequence) and members:
        plurals = {int: "integers", float: "numbers", bool: "booleans", str: "strings"}
        return f"a list of {plurals.get(members[0], _describe(members[0]))}"
    names = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}
    if annotation in names:
        return names[annotation]
    return f"a {getattr(annotation, '__name__', annotation)}"


def _is_exactly(value: Any, annotation: Any) -> bool:
    """Whether `value` already is of `annotation`, with no coercion (a bool is not an int here)."""
    origin, members = get_origin(annotation), get_args(annotation)
    if annotation is Any:
        return True
    if annotation is type(None) or annotation is None:
        return value is None
    if origin is Literal:
        return any(value == m and type(value) is type(m) for m in members)
    if origin in (Union, types.UnionType):
        return any(_is_exactly(value, m) for m in members)
    if origin in (list, tuple, Sequence):
        return isinstance(value, (list, tuple)) and (not members or all(_is_exactly(v, members[0]) for v in value))
    if annotation in (int, float):
        return isinstance(value, annotation) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    return True


def _coerce(value: Any, annotation: Any) -> Any:
    """`value` as `annotation` asks, or `_Refused`."""
    if _is_exactly(value, annotation):
        return value
    origin, members = get_origin(annotation), get_args(annotation)
    if origin in (Union, types.UnionType):
        for member in members:
            try:
                return _coerce(value, member)
            except _Refused:
                continue
        raise _Refused
    if origin in (list, tuple, Sequence) and isinstance(value, (list, tuple)):
        return [_coerce(v, members[0]) for v in value] if members else list(value)
    if annotation is int:
        if isinstance(value, str) and INTEGER.fullmatch(value.strip()):
            return int(value)
    elif annotation is float:
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
    elif annotation is bool:
        word = str(value).strip().lower() if isinstance(value, (str, int)) else None
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    elif annotation is str:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
            return ",".join(value)
    raise _Refused


def check_args(name: str, hints: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The given arguments, coerced to their annotations.

    Args:
        name: The task's name (for the message).
        hints: The task function's resolved annotations.
        given: The arguments given (by name).

    Returns:
        The arguments, each as its annotation asks.

    Raises:
        TaskParameterError: Naming the first argument its annotation does not accept, its value and what is accepted.
    """
    checked: dict[str, Any] = {}
    for arg, value in given.items():
        annotation = hints.get(arg, Any)
        try:
            checked[arg] = _coerce(value, annotation)
        except _Refused:
            raise TaskParameterError(f"{name}: {arg}={value!r}: expected {_describe(annotation)}") from None
    return checked


def validated_args(fn: TaskFunction) -> TaskFunction:
    """Check and coerce a task function's arguments, and report its `ValueError`s as one-line `TaskParameterError`s.

    Apply under `@task` (or before `task(name=...)`): `functools.wraps` keeps the signature, so Inspect's registry
    still sees the parameters and records the task arguments.

    Args:
        fn: The task function (its annotations are resolved now, so a wrong one fails at import, not at a run).

    Returns:
        The checking wrapper.
    """
    name = fn.__name__
    signature = inspect.signature(fn)
    hints = get_type_hints(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Task:
        bound = signature.bind(*args, **kwargs)
        bound.arguments.update(check_args(name, hints, dict(bound.arguments)))
        try:
            return fn(*bound.args, **bound.kwargs)
        except TaskParameterError:
            raise
        except ValueError as error:
            raise TaskParameterError(f"{name}: {error}") from error

    return typing.cast(TaskFunction, wrapper)


__all__ = ["TaskParameterError", "check_args", "validated_args"]
