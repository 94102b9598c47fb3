"""A run's settings besides its model and prompting, so that paper tables never pool runs that differ.

Two runs of the same task and model with `-T source=folio` and `-T source=proverqa` (or another dataset, seed or
any other task argument) measure different things. A paper table that keyed its rows on (model, prompting) alone
would pool them into one row that no run produced. The tables therefore key on `settings_key`: every task argument
the log records (`eval.task_args`, defaults included) except the prompting argument, which has its own column.

That key is exact but long, so tables show `settings_labels` instead: only the arguments whose values differ between
the runs being reported, as `name=value` joined by `, ` (`source=folio`). Runs with the same key get the same label;
runs with different keys get different labels; when every run agrees, the label is empty.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from lgmt_tasks import suites as registry

UNSET = "(unset)"
"""How a label shows an argument one run recorded and another did not (that run used the task's default)."""


def _arguments(suite: str, task_args: Mapping[str, Any] | str | None, exclude: Iterable[str]) -> dict[str, Any]:
    args = json.loads(task_args) if isinstance(task_args, str) else dict(task_args or {})
    prompting = registry.suite(suite).prompting_arg
    skip = {prompting, *exclude} if prompting else set(exclude)
    return {name: value for name, value in args.items() if name not in skip}


def settings_key(suite: str, task_args: Mapping[str, Any] | str | None, exclude: Iterable[str] = ()) -> str:
    """A run's task arguments without its prompting argument (and `exclude`), as canonical JSON.

    Args:
        suite: The suite (its registry record names the prompting argument).
        task_args: The log's `eval.task_args` (a dict, or JSON text as `samples_df` gives it).
        exclude: Further arguments the table already shows in its own columns.
    """
    return json.dumps(_arguments(suite, task_args, exclude), sort_keys=True, default=str)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def settings_labels(keys: Iterable[str]) -> dict[str, str]:
    """Settings key → its label: the arguments whose values differ between the keys, `name=value, ...` (sorted)."""
    decoded = {key: json.loads(key) for key in dict.fromkeys(keys)}
    names = sorted({name for args in decoded.values() for name in args})
    varying = [
        name for name in names if len({_text(args[name]) if name in args else UNSET for args in decoded.values()}) > 1
    ]
    return {
        key: ", ".join(f"{name}={_text(args[name]) if name in args else UNSET}" for name in varying)
        for key, args in decoded.items()
    }
