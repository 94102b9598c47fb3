"""DivLogicEval's Table 9 from Inspect logs: ACC, Circular and PartialCircular per question type and setting.

The paper (Appendix K, Table 9) reports, per model and setting (0-shot, 3-shot), the three metrics of §2.2 over the
whole test set and over each question type (3e1c, 3c1e, missing premise). Each `divlogiceval` sample's score is the
per-instance outcome of `scorers.divlogiceval_arithmetic.instance_outcome` (one per instance and epoch); every number
here is the mean of those outcomes with `divlogiceval_arithmetic.mean` / `stderr`, exactly as the logged metrics are,
so the table and `log.results` cannot disagree. The overall column pools all instances (the paper's test set is
balanced, so this is also the mean of the three types).

Numbers are fractions in [0, 1]; the paper prints percentages. PartialCircular is PC_α with the run's `-T alpha`
(the paper's PartialCircular at α = 1, the default); a run with another α is labelled so in its setting, as are
runs of s-DivLogicEval (`-T form=symbolic`, Table 7) and of the NoLR prompt (`-T instruction=no_reasoning`, Table 4).
Any other task argument that differs between the logs reported (another `-T dataset=`, `question_type`, `seed`, ...)
is appended to the setting as `name=value` (`lgmt_tasks.report.settings`), so runs that differ are never pooled.

Run-to-run variation (Tables 2-3): when a model and setting has several runs, each epoch of each log being one run
(`inspect eval --epochs 5`, or five separate logs), `run_variation` gives ACC, CIR and PC per run and their
coefficient of variation, CV = standard deviation over the runs / their mean, in percent. The standard deviation is
the population one (divided by the number of runs): with it the runs printed in Table 3 give the paper's CV for ACC
(3.3) and CIR (6.3); the sample one gives 3.7 and 7.1. For PC the printed runs give 2.9 against the paper's 3.1,
which their rounding to 0.1 allows (at most 3.1). The authors' public code computes no CV.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalLog

from lgmt_tasks.divlogiceval.config import QUESTION_TYPES
from lgmt_tasks.report.settings import settings_key, settings_labels
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.report.suite_tools import LogLike, load_logs, pyplot, save_png, slug
from lgmt_tasks.scorers.divlogiceval_arithmetic import OUTCOME_KEYS, mean, metric_values, stderr

TABLE_9_TYPES: tuple[str, ...] = tuple(sorted(QUESTION_TYPES, key=lambda question_type: question_type != "3e1c"))
"""The question types in Table 9's column order: 3e1c first, then the others in §2.1's order (3c1e, missing)."""

METRICS: tuple[tuple[str, str], ...] = (("acc", "ACC"), ("circular", "CIR"), ("partial_circular", "PC"))
"""Table 9's metrics: (name in the logs and `divlogiceval_arithmetic`, the paper's abbreviation)."""

EXTRA: tuple[tuple[str, str], ...] = (("rotation_acc", "accuracy over rotations (c/4)"), ("unparsed_rate", "unparsed"))
"""The further per-type numbers of the `by_question_type` table."""


LATER_KEYS: frozenset[str] = frozenset({"original_parsed"})
"""Outcome keys that logs of task version 1 lack; such logs are still read, with these keys NaN."""


def _outcome(sample: Any) -> Mapping[str, float] | None:
    """The sample's DivLogicEval outcome dict (a log of an earlier version: the keys it has, the later ones NaN)."""
    for score in (sample.scores or {}).values():
        value = score.value
        if isinstance(value, Mapping) and all(
            isinstance(value.get(k), int | float) for k in OUTCOME_KEYS if k not in LATER_KEYS
        ):
            return {**dict.fromkeys(LATER_KEYS, math.nan), **value}
    return None


SETTING_ARGS: tuple[str, ...] = ("shots", "form", "instruction", "alpha")
"""The task arguments `setting_of` names itself."""


def setting_of(log: EvalLog) -> str:
    """The run's setting label: `0-shot` or `3-shot` (`-T shots`), then any of the non-default settings.

    Those are `symbolic` (`-T form=symbolic`), `NoLR` (`-T instruction=no_reasoning`) and `α=…` (PartialCircular
    with another alpha than 1), joined by commas: `3-shot, symbolic`.
    """
    args = log.eval.task_args or {}
    parts = [f"{int(args.get('shots') or 0)}-shot"]
    if args.get("form", "natural") == "symbolic":
        parts.append("symbolic")
    if args.get("instruction", "standard") == "no_reasoning":
        parts.append("NoLR")
    alpha = float(args.get("alpha", 1.0))
    if alpha != 1.0:
        parts.append(f"α={alpha:g}")
    return ", ".join(parts)


def outcome_frame(logs: Iterable[LogLike]) -> pd.DataFrame:
    """One row per DivLogicEval instance and epoch: model, setting, question type and the outcome keys.

    Logs of other tasks (no DivLogicEval score) contribute no rows. The setting is `setting_of` the log, followed by
    the other task arguments that differ between the DivLogicEval logs given.
    """
    rows = []
    loaded = [log for log in load_logs(logs) if any(_outcome(sample) is not None for sample in log.samples or [])]
    keys = [settings_key("divlogiceval", log.eval.task_args, exclude=SETTING_ARGS) for log in loaded]
    labels = settings_labels(keys)
    for log, key in zip(loaded, keys, strict=True):
        setting = ", ".join(part for part in (setting_of(log), labels[key]) if part)
        for sample in log.samples or []:
            value = _outcome(sample)
            question_type = (sample.metadata or {}).get("question_type")
            if value is None or question_type is None:
                continue
            rows.append(
                {
                    "model": log.eval.model,
                    "setting": setting,
                    "log": str(log.location),
                    "id": sample.id,
                    "epoch": sample.epoch,
                    "question_type": str(question_type),
                    **{key: float(value[key]) for key in OUTCOME_KEYS},
                }
            )
    return pd.DataFrame(rows, columns=["model", "setting", "log", "id", "epoch", "question_type", *OUTCOME_KEYS])


def _summary(chunk: pd.DataFrame) -> dict[str, float]:
    outcomes = chunk[list(OUTCOME_KEYS)].to_dict("records")
    out: dict[str, float] = {"instances": float(len(chunk))}
    for name, _ in (*METRICS, *EXTRA):
        values = metric_values(outcomes, name)
        out[name], out[f"{name}_stderr"] = mean(values), stderr(values)
    return out


def _type_order(question_type: str) -> int:
    return TABLE_9_TYPES.index(question_type) if question_type in TABLE_9_TYPES else len(TABLE_9_TYPES)


def by_question_type(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (model, setting) and question type (then `all`): instances, ACC, CIR, PC, c/4, unparsed, with stderrs."""
    rows = []
    for (model, setting), part in frame.groupby(["model", "setting"], sort=True):
        types = sorted(part["question_type"].unique(), key=lambda t: (_type_order(t), t))
        chunks = [(t, part[part["question_type"] == t]) for t in types] + [("all", part)]
        for question_type, chunk in chunks:
            rows.append({"model": model, "setting": setting, "question_type": question_type, **_summary(chunk)})
    table = pd.DataFrame(rows)
    if not table.empty:
        table["instances"] = table["instances"].astype(int)
    return table


def table9(per_type: pd.DataFrame) -> pd.DataFrame:
    """Table 9's shape: one row per (model, setting, metric), columns Test, Test-3e1c, Test-3c1e, Test-missing."""
    rows = []
    for (model, setting), part in per_type.groupby(["model", "setting"], sort=True):
        values = part.set_index("question_type")
        for name, abbreviation in METRICS:
            row: dict[str, Any] = {"model": model, "setting": setting, "metric": abbreviation}
            row["Test"] = values.loc["all", name]
            for question_type in TABLE_9_TYPES:
                row[f"Test-{question_type}"] = (
                    values.loc[question_type, name] if question_type in values.index else math.nan
                )
            rows.append(row)
    return pd.DataFrame(rows)


def coefficient_of_variation(values: Sequence[float]) -> float:
    """Population standard deviation / mean, in percent (Table 3); NaN for no values or a zero mean."""
    if not values:
        return math.nan
    average = sum(values) / len(values)
    if average == 0:
        return math.nan  # CV is undefined when every run scores 0 on average
    spread = math.sqrt(sum((v - average) ** 2 for v in values) / len(values))
    return 100 * spread / average


def run_variation(frame: pd.DataFrame) -> pd.DataFrame:
    """Tables 2-3's shape: per (model, setting) with two or more runs, ACC / CIR / PC of each run, mean and CV (%).

    A run is one epoch of one log, numbered in the order of the logs, then of the epochs (`run1`, `run2`, ...); each
    run's metric is the mean over its instances, computed like every other number of the report. Models and settings
    with a single run give no rows; an empty frame when none has more.
    """
    rows = []
    for (model, setting), part in frame.groupby(["model", "setting"], sort=True):
        runs = [chunk for _, chunk in part.groupby(["log", "epoch"], sort=True)]
        if len(runs) < 2:
            continue
        for name, abbreviation in METRICS:
            per_run = [mean(metric_values(chunk[list(OUTCOME_KEYS)].to_dict("records"), name)) for chunk in runs]
            row: dict[str, Any] = {"model": model, "setting": setting, "metric": abbreviation}
            row.update({f"run{k + 1}": value for k, value in enumerate(per_run)})
            row["mean"] = sum(per_run) / len(per_run)
            row["CV (%)"] = coefficient_of_variation(per_run)
            rows.append(row)
    if not rows:
        return pd.DataFrame()
    table = pd.DataFrame(rows)
    runs_columns = sorted((c for c in table.columns if c.startswith("run")), key=lambda c: int(c[3:]))
    return table[["model", "setting", "metric", *runs_columns, "mean", "CV (%)"]]


def type_plots(per_type: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Figure 2's view: ACC, CIR and PC per question type, with ±1.96 standard errors; one PNG per model and setting."""
    plt = pyplot()
    written = []
    for (model, setting), part in per_type.groupby(["model", "setting"], sort=True):
        groups = list(part["question_type"])
        fig, ax = plt.subplots(figsize=(7, 3.6))
        width = 0.8 / len(METRICS)
        for k, (name, abbreviation) in enumerate(METRICS):
            xs = [i + (k - 1) * width for i in range(len(groups))]
            values = [0.0 if math.isnan(v) else v for v in part[name]]
            errors = [0.0 if math.isnan(e) else 1.96 * e for e in part[f"{name}_stderr"]]
            ax.bar(xs, values, width=width, yerr=errors, capsize=2, label=abbreviation)
        ax.set_xticks(range(len(groups)), ["overall" if g == "all" else g for g in groups])
        ax.set_ylim(0, 1)
        ax.set_ylabel("score (fraction)")
        ax.set_title(f"DivLogicEval: {model} ({setting})", fontsize=10)
        ax.legend(fontsize=8)
        fig.tight_layout()
        written.append(save_png(fig, out_dir / f"question_types_{slug(str(model))}_{slug(str(setting))}.png"))
    return written


def suite_report(paths: Sequence[LogLike], out_dir: Path | None = None) -> SuiteReport:
    """DivLogicEval's Table 9 from Inspect logs.

    Tables (stems): `table9` (the paper's shape: per model, setting and metric ACC / CIR / PC; columns Test and one
    per question type), `by_question_type` (one row per model, setting and question type, with the number of
    instances, the accuracy over all rotations c/4, the unparsed rate, and standard errors over instances) and, when
    some model and setting has several runs (epochs or logs), `run_variation` (Table 3: per run, mean, CV in %).
    Plot: `question_types_<model>_<setting>.png`, ACC / CIR / PC per question type with 95% normal intervals.

    Args:
        paths: Log files or folders (logs of other tasks are skipped), or loaded logs.
        out_dir: The report folder; plots go to `out_dir/divlogiceval/` (None: no plots).

    Returns:
        A `SuiteReport` (no tables when no DivLogicEval log is among `paths`).
    """
    frame = outcome_frame(paths)
    if frame.empty:
        return SuiteReport("divlogiceval")
    per_type = by_question_type(frame)
    tables = {"table9": table9(per_type), "by_question_type": per_type}
    titles = {
        "table9": "Table 9: ACC, Circular (CIR) and PartialCircular (PC) per question type (fractions)",
        "by_question_type": "Table 9 per question type, with instances, c/4, unparsed rate and standard errors",
        "run_variation": "Table 3: ACC, CIR and PC per run (epoch of a log) and their coefficient of variation (%)",
    }
    variation = run_variation(frame)
    if not variation.empty:
        tables["run_variation"] = variation
    plots = type_plots(per_type, Path(out_dir) / "divlogiceval") if out_dir is not None else []
    return SuiteReport("divlogiceval", tables=tables, plots=plots, titles=titles)
