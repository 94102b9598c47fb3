"""Which logs a report reads: readable ones, of finished runs, and with `--latest` the newest of each run.

A folder of logs is rarely clean. One `.eval` truncated by a killed run must not hide the good logs beside it, so an
unreadable log is skipped and named, never fatal. A run that did not finish (status `started`, `error` or
`cancelled`) has no or partial results; reported beside finished runs it would read as a model scoring 0 on 0
samples, so such logs are left out of the tables unless asked for (`include_incomplete`), and named when left out.

With `latest`, one log is kept per run: per (task, model, task arguments), the newest (`eval.created`). Keeping one
log per folder instead would drop every task but one from a folder holding several.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

COMPLETE_STATUS = "success"
"""The status of a run that finished; every other status (`started`, `error`, `cancelled`) is incomplete."""


def run_key(log: EvalLog) -> tuple[str, str, str]:
    """What makes two logs the same run for `--latest`: task, model and every task argument (as canonical JSON)."""
    return log.eval.task, log.eval.model, json.dumps(log.eval.task_args or {}, sort_keys=True, default=str)


def find_logs(paths: Iterable[str | Path]) -> list[str]:
    """Files as given and the logs inside folders (searched recursively, newest first).

    Raises:
        FileNotFoundError: If a path does not exist (names it).
    """
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(_local(info.name) for info in list_eval_logs(str(path), recursive=True))
        elif path.exists():
            out.append(str(path))
        else:
            raise FileNotFoundError(f"no log at {p}")
    return out


def _local(name: str) -> str:
    """A log location as a plain path when it is a local file (`file:///x/y.eval` → `/x/y.eval`)."""
    return url2pathname(urlparse(name).path) if name.startswith("file://") else name


def newest_per_run(logs: Iterable[tuple[str, EvalLog]]) -> list[tuple[str, EvalLog]]:
    """The newest (`eval.created`) of each run (`run_key`) among (path, header) pairs, in the order given."""
    found = list(logs)
    newest: dict[tuple[str, str, str], tuple[str, EvalLog]] = {}
    for path, header in found:
        key = run_key(header)
        if key not in newest or _created(header) > _created(newest[key][1]):
            newest[key] = (path, header)
    kept = {path for path, _ in newest.values()}
    return [(path, header) for path, header in found if path in kept]


def _created(log: EvalLog) -> datetime:
    """When the run started, comparable across time zones."""
    return datetime.fromisoformat(log.eval.created)


def _reason(error: BaseException) -> str:
    """One line saying why a log could not be read (the exception's class and first line)."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


@dataclass
class LogSelection:
    """The logs a report reads, and those it left out and why.

    Attributes:
        paths: The logs to report, in the order found.
        unreadable: (log, reason) of every log that could not be read (skipped).
        incomplete: (log, status) of every log of an unfinished run left out (none with `include_incomplete`).
        superseded: Logs dropped by `latest` because a newer log of the same run was found.
        errored: (log, errored, run) of every reported log some of whose samples errored (`errored_samples`).
    """

    paths: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    incomplete: list[tuple[str, str]] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    errored: list[tuple[str, int, int]] = field(default_factory=list)

    def warnings(self) -> list[str]:
        """One line per log left out that the user did not ask to leave out, and per reported log with errors."""
        lines = [f"warning: skipped unreadable log {path} ({reason})" for path, reason in self.unreadable]
        lines += [
            f"warning: left out log {path} of an unfinished run (status: {status}; --include-incomplete shows it)"
            for path, status in self.incomplete
        ]
        lines += [
            f"warning: {errored} of the {run} samples of {path} errored and are in none of its metrics "
            "(the run went on past errors); `inspect eval-retry` runs them again"
            for path, errored, run in self.errored
        ]
        return lines


def errored_samples(log: EvalLog) -> int:
    """Sample-epochs of a run that ended in an error and were not scored (a run with `fail_on_error` off).

    Inspect counts them as run (`results.total_samples`) but not completed (`results.completed_samples`), and reports
    the metrics of the completed ones only, with status `success`: a figure over 11 of 30 groups looks like one
    over 30 unless this count is shown beside it.
    """
    if log.results is None:
        return 0
    return unscored(log.results.total_samples - early_stopped(log), log.results.completed_samples)


def early_stopped(log: EvalLog) -> int:
    """Sample-epochs an early-stopping manager skipped (an adaptive run's groups of decided relations).

    Inspect counts them in `results.total_samples`; they never ran, so they are not errors.
    """
    stopping = log.results.early_stopping if log.results is not None else None
    return len(stopping.early_stops) if stopping is not None else 0


def unscored(run: float, completed: float) -> int:
    """Sample-epochs run but not completed: the errored ones.

    `errored_samples` reads the two counts from a log; the leaderboard reads them from `evals_df` columns.
    """
    return max(0, int(run) - int(completed))


def read_header(path: str) -> EvalLog:
    """A log's header (no samples).

    Raises:
        ValueError: If the file cannot be read as an Inspect log; the message names the file and the cause.
    """
    try:
        header = read_eval_log(path, header_only=True)
        if path.endswith(".json") and Path(path).is_file():
            # A JSON log's header parses even when the file was cut off after it; the samples would then fail
            # later, in the middle of a table. Parsing the whole text (no validation) is fast and catches that.
            json.loads(Path(path).read_bytes())
        return header
    except Exception as error:  # a truncated zip, bad JSON, a schema error: all mean "not a readable log"
        raise ValueError(f"{path}: not a readable Inspect log ({_reason(error)})") from error


def select_logs(paths: Iterable[str | Path], *, latest: bool = False, include_incomplete: bool = False) -> LogSelection:
    """The logs to report among files and folders (searched recursively), reading each header once.

    Args:
        paths: Log files and folders.
        latest: Keep only the newest log of each run (task, model, task arguments).
        include_incomplete: Keep logs of unfinished runs (status other than `success`).

    Raises:
        FileNotFoundError: If a path does not exist.
    """
    selection = LogSelection()
    found: list[tuple[str, EvalLog]] = []
    for path in find_logs(paths):
        try:
            header = read_header(path)
        except ValueError as error:
            selection.unreadable.append((path, _reason(error.__cause__ or error)))
            continue
        if header.status != COMPLETE_STATUS and not include_incomplete:
            selection.incomplete.append((path, str(header.status)))
            continue
        found.append((path, header))
    if latest:
        kept = newest_per_run(found)
        names = {path for path, _ in kept}
        selection.superseded = [path for path, _ in found if path not in names]
        found = kept
    selection.paths = [path for path, _ in found]
    counted = [(path, errored_samples(header), header) for path, header in found]
    selection.errored = [
        (path, errored, header.results.total_samples if header.results else 0)
        for path, errored, header in counted
        if errored
    ]
    return selection


def complete_logs(paths: Iterable[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Split logs into those of finished runs and (log, status) of the others (reads headers).

    Raises:
        ValueError: If a log cannot be read (names it).
    """
    complete: list[str] = []
    incomplete: list[tuple[str, str]] = []
    for path in paths:
        status = str(read_header(path).status)
        if status == COMPLETE_STATUS:
            complete.append(path)
        else:
            incomplete.append((path, status))
    return complete, incomplete
