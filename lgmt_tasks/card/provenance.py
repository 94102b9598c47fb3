"""The card's provenance: for each run, what ran, on which rows, with which versions, and how to run it again.

An Inspect log records all of it (`eval.packages`, `eval.task_version`, the task arguments, the eval and generate
configuration, and the rows' fingerprint and build parameters that `lgmt_tasks.builders.load` writes into
`eval.metadata["dataset"]`); the command is rebuilt from them as the README's evaluation reports rebuild it
(`lgmt_tasks.report.eval_report.command`). An lm-eval results file records the model, its arguments, the limit and
lm-eval's version; its rows' counts and metrics come from the leaderboard's reader (`lm_eval_rows`), so the card and
`leaderboard.csv` read a results file the same way.

Paths are written relative to the card's `--out` folder (the parent of the model folders), so a card folder can be
moved with its logs and a card says which files it was made from without naming the machine's directories.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from lgmt_tasks import __version__
from lgmt_tasks import suites as registry
from lgmt_tasks.adaptive.report import adaptive_summary
from lgmt_tasks.builders.load import METADATA_KEY
from lgmt_tasks.card.content import DatasetRecord, RunRecord
from lgmt_tasks.report.eval_report import EMBEDDED_MODELS, command
from lgmt_tasks.report.leaderboard import leaderboard_prompting, portable_model
from lgmt_tasks.report.logs import errored_samples
from lgmt_tasks.report.suites import suite_of, task_name

GENERATED_BY = f"lgmt-tasks {__version__}"
"""What every card says wrote it."""


def relative(path: str | Path, out: Path) -> str:
    """A path relative to `out`, with `/` separators (absolute when on another drive, as on Windows)."""
    try:
        return Path(os.path.relpath(Path(path).resolve(), out.resolve())).as_posix()
    except ValueError:
        return Path(path).resolve().as_posix()


def full_model_name(model: str) -> str:
    """The full name of a model our own provider serves (the embedded model), else the name as given."""
    return EMBEDDED_MODELS.get(model, model)


def dataset_record(log: EvalLog) -> DatasetRecord:
    """What a log says about the rows it evaluated (the loader's `eval.metadata["dataset"]`, and Inspect's name)."""
    recorded = (log.eval.metadata or {}).get(METADATA_KEY)
    data: Mapping[str, Any] = recorded if isinstance(recorded, Mapping) else {}
    found = data.get("source")
    source: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    kind = str(source.get("kind", ""))
    revision = source.get("revision") if kind == "hub" else source.get("build_revision")
    config = data.get("build_config")
    return DatasetRecord(
        name=str(log.eval.dataset.name or ""),
        source=kind,
        hub_id=str(source["id"]) if kind == "hub" and source.get("id") else None,
        revision=None if revision is None else str(revision),
        fingerprint=str(data["fingerprint"]) if data.get("fingerprint") else None,
        rows=int(data["rows"]) if isinstance(data.get("rows"), int) else None,
        selected=int(data["selected"]) if isinstance(data.get("selected"), int) else None,
        build_config=dict(config) if isinstance(config, Mapping) else {},
    )


def inspect_run(path: str, log: EvalLog, out: Path) -> RunRecord:
    """The provenance of one Inspect log (read with or without its samples)."""
    spec = log.eval
    suite = suite_of(spec.task) or ""
    epochs = spec.config.epochs or 1
    summary = adaptive_summary(log)
    packages = spec.packages or {}
    return RunRecord(
        path=relative(path, out),
        harness="inspect",
        suite=suite,
        task=task_name(spec.task),
        harness_task=spec.task,
        task_version=str(spec.task_version),
        current_version=registry.suite(suite).version if suite else "",
        package_version=str(packages.get("lgmt-tasks", "")),
        inspect_version=str(packages.get("inspect_ai", "")),
        lm_eval_version="",
        command=command(log),
        created=spec.created,
        status=str(log.status),
        samples=log.results.completed_samples if log.results else 0,
        errored=errored_samples(log),
        total=(spec.dataset.samples or 0) * epochs if spec.dataset.samples is not None else None,
        prompting=leaderboard_prompting(suite, spec.task_args) if suite else "",
        task_args=dict(spec.task_args_passed or {}),
        adaptive=summary.design if summary is not None else None,
        dataset=dataset_record(log),
    )


def lm_eval_run(row: Mapping[str, Any], out: Path) -> RunRecord:
    """The provenance of one lm-eval task or group (a `lm_eval_rows` row), with its results file's versions."""
    data = _results_file(str(row["log"]))
    task_args = json.loads(row["task_args"]) if isinstance(row.get("task_args"), str) else {}
    suite = str(row["suite"])
    return RunRecord(
        path=relative(str(row["log"]), out),
        harness="lm-eval",
        suite=suite,
        task=str(row["task"]),
        harness_task=str(row["harness_task"]),
        task_version=str(row.get("task_version") or ""),
        current_version=registry.suite(suite).version,
        package_version="",
        inspect_version="",
        lm_eval_version=str(data.get("lm_eval_version") or ""),
        command=lm_eval_command(data, str(row["harness_task"]), str(row["model"])),
        created=str(row.get("date") or ""),
        status=str(row.get("status") or ""),
        samples=_count(row.get("samples")),
        errored=None,
        total=_count(row.get("total")),
        prompting=str(row.get("prompting") or ""),
        task_args=task_args,
        adaptive=None,
        dataset=DatasetRecord(name=str(row["harness_task"])),
    )


def _count(value: Any) -> int | None:
    try:
        return None if value is None or value != value else int(value)
    except (TypeError, ValueError):
        return None


def _results_file(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def lm_eval_command(data: Mapping[str, Any], task: str, model: str) -> str:
    """The `lm_eval` command of a results file's run of `task`, with a local model folder named portably.

    The model arguments are those recorded, except a `pretrained` folder, shown as the leaderboard names the model
    (`portable_model`); `--include_path` is our configs' folder (`lgmt lm-eval-path`).
    """
    config = data.get("config") if isinstance(data.get("config"), Mapping) else {}
    model_type = str(config.get("model") or "") if config else ""
    args = config.get("model_args") if config else None
    pairs = dict(part.split("=", 1) for part in args.split(",") if "=" in part) if isinstance(args, str) else {}
    if isinstance(args, Mapping):
        pairs = {str(k): str(v) for k, v in args.items()}
    if "pretrained" in pairs:
        pairs["pretrained"] = portable_model("", pairs["pretrained"])
    parts = ["lm_eval", "--model", model_type or model]
    if pairs:
        parts += ["--model_args", ",".join(f"{k}={v}" for k, v in pairs.items())]
    parts += ["--tasks", task, "--include_path", "$(lgmt lm-eval-path)"]
    limit = config.get("limit") if config else None
    if limit is not None:
        parts += ["--limit", str(limit)]
    return shlex.join(parts).replace("'$(lgmt lm-eval-path)'", "$(lgmt lm-eval-path)")
