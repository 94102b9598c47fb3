"""`leaderboard.csv`: one row per (model, task, prompting) run, with the suite's headline metrics, ready to append.

Rows come from Inspect logs (read with `inspect_ai.analysis.evals_df`) or from lm-eval `results.json` files (one row
per task or group in the file). The columns are fixed (`LEADERBOARD_COLUMNS`, documented in `COLUMN_DOCS`) so that
files written at different times, by different suites and by both harnesses can be concatenated; a metric that a
suite does not have is left empty.

Variants of the laws (issue #38). An LGMT log whose groups hold more than one variant (`paper`, our `introduction` /
`extended`; `lgmt_tasks.lgmt.frame`) has, besides its own row (the log's metrics, `variant` `all (mixed)`), one row
per variant with the rates recomputed from that variant's groups by the scorer's functions
(`lgmt_tasks.lgmt.report.rates`), as LGMT's Tables 4, 6 and 8 do; a log of one variant names it. The tied-with-the-best
marks compare rows of the same task, dataset and variant, on that variant's groups.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import (
    EvalColumn,
    EvalConfiguration,
    EvalDataset,
    EvalInfo,
    EvalModel,
    EvalResults,
    EvalTask,
    evals_df,
)

from lgmt_tasks.report.headline import log_metrics
from lgmt_tasks.report.logs import COMPLETE_STATUS, early_stopped, unscored
from lgmt_tasks.report.suites import SUITE_METRICS, prompting_of, suite_of, task_name
from lgmt_tasks.suites import SUITE_NAMES, suite

COLUMN_DOCS: dict[str, str] = {
    "model": "Model: Inspect's `provider/name`; for lm-eval `<model type>/<pretrained>` (or the model type alone), "
    "a local `pretrained` folder shown by its Hub id (`ORG/NAME` of a Hub cache folder or of its `config.json`) or "
    "its folder name, never the machine path.",
    "suite": f"{', '.join(SUITE_NAMES[:-1])} or {SUITE_NAMES[-1]}.",
    "task": "Our Inspect task name (`mr_e`, `lgmt`, `logicasker`, …); lm-eval tasks are mapped to it.",
    "prompting": "One vocabulary for every suite: `zero_shot` for a run shown no worked examples (LogicAsker "
    "`demonstrations=none`, DivLogicEval `shots=0`, QMFOL), LGMT/lexical `prompting` as given (`zero_shot_cot`, "
    "`few_shot`, …), `few_shot_random` / `few_shot_weakness` for LogicAsker's demonstrations, `few_shot_<n>` for "
    "DivLogicEval's shots.",
    "variant": "LGMT: the reading of the laws the row's groups apply (`paper`, the paper's; `introduction`, "
    "`extended`, ours); a log holding several has its own row `all (mixed)` and one row per variant, recomputed from "
    "that variant's groups (`errored` and `total` empty). lm-eval: the run's `direction` (its results cannot be split "
    "by group). Empty for the other suites.",
    "harness": "`inspect` or `lm-eval`.",
    "harness_task": "The task name in that harness (`lgmt_tasks/mr_e`, `lgmt_mr_e_loglik`, …).",
    "status": "Inspect log status: `success`, or `started` / `error` / `cancelled` (rows only with "
    "`--include-incomplete`); `success` for lm-eval (it writes a results file only for a finished run).",
    "mvr": "LGMT, lexical: metamorphic violation rate (lower is better).",
    "mvr_stderr": "Its standard error (delta method over groups; empty when the harness does not report it, and for an "
    "adaptive run, `-T adaptive`: its rates are estimates on an adaptively chosen sample, whose intervals are the "
    "log's confidence sequences, `lgmt report LOG`).",
    "acc_static": "LGMT, lexical: accuracy on the source cases (an unparsed source answer is wrong).",
    "acc_cons": "LGMT, lexical: groups with every answer correct (an unparsed answer is not correct).",
    "acc_static_parsed": "LGMT, lexical: `acc_static` over the groups whose answers all parsed.",
    "acc_cons_parsed": "LGMT, lexical: `acc_cons` over the groups whose answers all parsed.",
    "hdr": "LGMT, lexical: hidden defect rate (source correct, relation violated).",
    "fur": "LGMT, lexical: false unreported rate (consistent but wrong).",
    "mvr_tied_best": "LGMT, lexical: True if this run's violations are not significantly different from the best "
    "(lowest-MVR) run's of the same task and dataset (paired McNemar exact, Holm across runs, alpha 0.05; the best "
    "run itself: True); empty when no other Inspect log of that task and dataset is reported.",
    "acc_cons_tied_best": "LGMT, lexical: the same for consistent accuracy (best: highest `acc_cons`).",
    "accuracy": "LogicAsker, QMFOL: correct / all items; DivLogicEval: ACC (`acc`). An unparsed answer is wrong.",
    "accuracy_stderr": "Its standard error (empty for an adaptive run, as `mvr_stderr`).",
    "accuracy_parsed": "The same over the items whose answer parsed (LogicAsker: its paper's response accuracy).",
    "instruction_following_rate": "LogicAsker: replies with a readable yes/no.",
    "circular": "DivLogicEval: Circular (every rotation right).",
    "partial_circular": "DivLogicEval: PartialCircular.",
    "macro_f1": "QMFOL: macro-F1 over True / False / Unknown.",
    "discarded_rate": "lexical: groups whose LLM follow-up could not be made.",
    "unparsed_rate": "Share of groups / items with an answer the parser could not read (every suite but LogicAsker).",
    "samples": "Sample-epochs scored (Inspect: completed samples; lm-eval: effective documents).",
    "errored": "Sample-epochs that ended in an error and are in no metric (Inspect, a run past errors: run − "
    "completed); empty for lm-eval, whose run stops at an error.",
    "total": "Samples in the full dataset × epochs (lm-eval: original documents), i.e. before --limit.",
    "epochs": "Inspect epochs (empty for lm-eval).",
    "task_version": "The task's version (`1-A`: results comparable while the number stays).",
    "package_version": "lgmt-tasks version that ran it (Inspect logs record it; empty for lm-eval).",
    "task_args": "Task arguments given on the command line (Inspect) or the task metadata (lm-eval), as JSON.",
    "date": "When the run started (UTC, ISO 8601).",
    "log": "The log or results file.",
}
"""Every leaderboard column and its meaning (the README lists them)."""

LEADERBOARD_COLUMNS: tuple[str, ...] = tuple(COLUMN_DOCS)
"""The columns of `leaderboard.csv`, in order."""


LEADERBOARD_CSV = "leaderboard.csv"


def _number(value: Any) -> float | None:
    """A metric value as a float; None for missing, non-numeric (lm-eval's "N/A") or NaN values."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)


def _metric_cells(suite: str, metrics: Mapping[str, Any]) -> dict[str, float | None]:
    return {column: _number(metrics.get(name)) for column, name in SUITE_METRICS[suite].items()}


ZERO_SHOT = "zero_shot"
"""The leaderboard's `prompting` of a run shown no worked examples, in every suite."""


def leaderboard_prompting(suite: str, task_args: Mapping[str, Any] | None) -> str:
    """A run's `prompting` cell (see `COLUMN_DOCS`): the suite's own setting, in one vocabulary across suites."""
    value = prompting_of(suite, dict(task_args or {}))
    if suite == "logicasker":
        return ZERO_SHOT if value == "none" else f"few_shot_{value}"
    if suite == "divlogiceval":
        return ZERO_SHOT if value in ("0", "") else f"few_shot_{value}"
    return value or ZERO_SHOT  # QMFOL has no setting: its prompt has no worked example


def portable_model(model: str, pretrained: str) -> str:
    """`<model type>/<pretrained>`, with a local `pretrained` folder named by its Hub id or folder name, not its path.

    lm-eval records `pretrained` as given; a local folder (the Hub cache's snapshot, a converted model) would put
    a machine path (`hf//root/.cache/...`) in a file meant for sharing.
    """
    name = pretrained
    if pretrained.startswith(("/", "~", ".")) or "\\" in pretrained or pretrained.count("/") > 1:
        path = Path(pretrained).expanduser()
        hub = next((part for part in reversed(path.parts) if part.startswith("models--")), None)
        name = "/".join(hub.removeprefix("models--").split("--")) if hub else path.name
        try:
            declared = json.loads((path / "config.json").read_text(encoding="utf-8")).get("_name_or_path")
        except (OSError, ValueError, AttributeError):
            declared = None
        if hub is None and isinstance(declared, str) and declared and not declared.startswith(("/", ".", "~")):
            name = declared
    return f"{model}/{name}" if model else name


def _json(value: Any) -> str:
    return json.dumps(value or {}, sort_keys=True, default=str)


def _package_version(packages: object) -> str:
    found = json.loads(packages) if isinstance(packages, str) else packages
    return str((found or {}).get("lgmt-tasks", "")) if isinstance(found, dict) else ""


def inspect_rows(paths: Sequence[str]) -> list[dict[str, Any]]:
    """Leaderboard rows of Inspect logs (logs of tasks that are not ours are skipped)."""
    if not paths:
        return []
    columns = [
        *EvalInfo,
        *EvalTask,
        *EvalModel,
        *EvalDataset,
        *EvalConfiguration,
        *EvalResults,
        EvalColumn("task_full", path="eval.task", required=True),
        EvalColumn("task_args_given", path="eval.task_args_passed"),
        EvalColumn("task_args_all", path="eval.task_args"),
        EvalColumn("metric_*", path=log_metrics),
        EvalColumn("early_stopped", path=early_stopped),
    ]
    frame = evals_df(list(paths), columns=columns, quiet=True)
    rows: list[dict[str, Any]] = []
    for record in frame.to_dict("records"):
        suite = suite_of(str(record["task_full"]))
        if suite is None:
            continue
        metrics = {k.removeprefix("metric_"): v for k, v in record.items() if k.startswith("metric_")}
        all_args = json.loads(record["task_args_all"]) if isinstance(record["task_args_all"], str) else {}
        given = json.loads(record["task_args_given"]) if isinstance(record["task_args_given"], str) else {}
        epochs = int(record["epochs"]) if _number(record.get("epochs")) else 1
        total = _number(record.get("dataset_samples"))
        cells = _metric_cells(suite, metrics)
        if all_args.get("adaptive") not in (None, "none"):  # no fixed-n error beside an adaptive run's rates
            cells = {name: None if name.endswith("_stderr") else value for name, value in cells.items()}
        rows.append(
            {
                "model": record["model"],
                "suite": suite,
                "task": task_name(str(record["task_full"])),
                "prompting": leaderboard_prompting(suite, all_args),
                "variant": "",
                "harness": "inspect",
                "harness_task": record["task_full"],
                "status": str(record["status"]),
                **cells,
                "samples": int(record["completed_samples"])
                if _number(record.get("completed_samples")) is not None
                else 0,
                "errored": _errored(record),
                "total": int(total) * epochs if total is not None else None,
                "epochs": epochs,
                "task_version": str(record["task_version"]),
                "package_version": _package_version(record.get("packages")),
                "task_args": _json(given),
                "date": pd.Timestamp(record["created"]).tz_convert("UTC").isoformat(),
                "log": record["log"],
            }
        )
    return [split for row in rows for split in variant_rows(row)]


def variant_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """An Inspect row, with its `variant`; for an LGMT log of several variants, also one row per variant.

    A log of one variant gets that variant's name; a log of several keeps its own figures as `all (mixed)` and is
    followed by one row per variant (`variant_rank` order), whose metrics are the scorer's rates over that variant's
    groups (`lgmt_tasks.lgmt.report.rates`), `samples` its scored sample-epochs, `errored` and `total` empty (the log
    records them for the whole run only). Other suites' rows are returned as they are.
    """
    if row["suite"] != "lgmt":
        return [row]
    frame, report = suite("lgmt").module("frame"), suite("lgmt").module("report")  # the registry: no suite import
    VARIANT, log_groups, variant_rank = frame.VARIANT, frame.log_groups, frame.variant_rank  # noqa: N806
    MIXED, rates = report.MIXED, report.rates  # noqa: N806

    groups = log_groups(str(row["log"]))
    variants = sorted(set(groups[VARIANT]), key=variant_rank) if VARIANT in groups else []
    if len(variants) <= 1:
        return [{**row, "variant": variants[0] if variants else ""}]
    split = [{**row, "variant": MIXED}]
    for variant in variants:
        chunk = groups[groups[VARIANT] == variant]
        cells = _metric_cells("lgmt", rates(chunk))
        samples = int(chunk["epochs"].sum())
        split.append({**row, **cells, "variant": variant, "samples": samples, "errored": None, "total": None})
    return split


def _errored(record: Mapping[str, Any]) -> int:
    """Errored sample-epochs of an `evals_df` record (`lgmt_tasks.report.logs.errored_samples`, from its columns)."""
    run, completed = _number(record.get("total_samples")), _number(record.get("completed_samples"))
    run = run - (_number(record.get("early_stopped")) or 0) if run is not None else None  # skipped, not errored
    return unscored(run, completed) if run is not None and completed is not None else 0


def lm_eval_task(name: str) -> tuple[str, str] | None:
    """Our (suite, Inspect task) of an lm-eval task or group name (`lgmt_mr_e_loglik` → (`lgmt`, `mr_e`))."""
    base = name.removesuffix("_loglik")
    task = base if base == "lgmt" else base.removeprefix("lgmt_")
    suite = suite_of(task)
    return None if suite is None or not name.startswith("lgmt") else (suite, task)


def _model_of(results: Mapping[str, Any]) -> str:
    config = results.get("config") or {}
    model = str(config.get("model", "")) or str(results.get("model_name", ""))
    args = config.get("model_args")
    if isinstance(args, str):
        args = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
    pretrained = (args or {}).get("pretrained") if isinstance(args, dict) else None
    return portable_model(model, str(pretrained)) if pretrained else model


def lm_eval_rows(path: str | Path) -> list[dict[str, Any]]:
    """Leaderboard rows of one lm-eval results JSON: one per task or group of ours in its `results`.

    Raises:
        ValueError: If the file is not an lm-eval results file (names the file and the missing key).
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise ValueError(f"{path}: not an lm-eval results file (no 'results' object)")
    model = _model_of(data)
    date = _number(data.get("date"))
    when = datetime.fromtimestamp(date, tz=timezone.utc).isoformat() if date is not None else ""
    configs = data.get("configs") or {}
    n_samples = data.get("n-samples") or {}
    subtasks = data.get("group_subtasks") or {}
    rows: list[dict[str, Any]] = []
    for name, values in data["results"].items():
        found = lm_eval_task(name)
        if found is None:
            continue
        suite, task = found
        metrics = {key.split(",")[0]: value for key, value in values.items() if key.endswith(",none")}
        members = subtasks.get(name) or [name]
        counts = [n_samples[m] for m in members if m in n_samples]
        metadata = dict((configs.get(members[0]) or {}).get("metadata") or {})
        metadata.update((configs.get(name) or {}).get("metadata") or {})
        loaded = dict((configs.get(members[0]) or {}).get("dataset_kwargs") or {})  # the effective parameters
        rows.append(
            {
                "model": model,
                "suite": suite,
                "task": task,
                "prompting": leaderboard_prompting(suite, metadata),
                "variant": str(loaded.get("direction") or metadata.get("direction") or "") if suite == "lgmt" else "",
                "harness": "lm-eval",
                "harness_task": name,
                "status": COMPLETE_STATUS,
                **_metric_cells(suite, metrics),
                "samples": sum(int(c.get("effective", 0)) for c in counts) if counts else None,
                "errored": None,
                "total": sum(int(c.get("original", 0)) for c in counts) if counts else None,
                "epochs": None,
                "task_version": str((data.get("versions") or {}).get(name, metadata.get("version", ""))),
                "package_version": "",
                "task_args": _json({k: v for k, v in metadata.items() if k != "version"}),
                "date": when,
                "log": str(path),
            }
        )
    return rows


def leaderboard(
    log_paths: Sequence[str] = (), lm_eval_files: Iterable[str | Path] = (), include_incomplete: bool = False
) -> pd.DataFrame:
    """The leaderboard frame: Inspect rows, then lm-eval rows, in `LEADERBOARD_COLUMNS`, sorted by run key.

    Logs of unfinished runs (status other than `success`) give no row unless `include_incomplete`: their 0 or
    partial samples would read as a result (`lgmt_tasks.report.logs`).
    """
    rows = inspect_rows(log_paths)
    if not include_incomplete:
        rows = [row for row in rows if row["status"] == COMPLETE_STATUS]
    for path in lm_eval_files:
        rows += lm_eval_rows(path)
    frame = pd.DataFrame(rows, columns=list(LEADERBOARD_COLUMNS))
    keys = ["suite", "task", "model", "prompting", "harness", "harness_task", "date"]
    frame = frame.sort_values(keys, kind="stable").reset_index(drop=True)
    mark_tied_best(frame)
    return frame


TIED_BEST: dict[str, str] = {"mvr": "mvr_tied_best", "acc_cons": "acc_cons_tied_best"}
"""Paired metric (`lgmt_tasks.report.compare.PAIRED_METRICS`) → its tied-with-the-best leaderboard column."""


def mark_tied_best(frame: pd.DataFrame) -> None:
    """Fill the `*_tied_best` columns in place: which runs are not significantly different from the best run.

    The rule, per metric (`mvr`: lowest is best; `acc_cons`: highest) and per set of Inspect rows of a pairwise
    suite with the same task, dataset fingerprint (`eval.metadata["dataset"]`) and `variant` (a variant's row of a
    mixed LGMT log is compared on that variant's groups only) that has at least two rows: the best
    row is the one with the best leaderboard value (the first in the frame's order on a tie). Every other row is
    compared with it on the groups both logs scored (`lgmt_tasks.report.compare`: violations over groups parsed in
    both, consistent accuracy over every group), with McNemar's exact test; the p-values of the k − 1 comparisons
    form one Holm family; a row is tied with the best (True) when its adjusted p-value is at least `ALPHA`. The best
    row is True. A row is left empty when its metric is missing, when it has no such partner, when its run did not
    finish (`--include-incomplete` rows), or when its logs cannot be compared group by group (several epochs; no
    dataset fingerprint).
    """
    MIXED = suite("lgmt").attr("report", "MIXED")  # noqa: N806  (the registry: shared code imports no suite)
    from lgmt_tasks.report.compare import (
        ALPHA,
        LOWER_IS_BETTER,
        Run,
        fingerprint_of,
        paired_ids,
        paired_outcomes,
        pairwise_suites,
        read_run,
    )
    from lgmt_tasks.report.logs import read_header
    from lgmt_tasks.report.significance import holm, mcnemar

    for column in TIED_BEST.values():
        frame[column] = pd.Series([None] * len(frame), dtype="object", index=frame.index)
    candidates = frame[
        (frame["harness"] == "inspect") & (frame["status"] == COMPLETE_STATUS) & frame["suite"].isin(pairwise_suites())
    ]
    sets: dict[tuple[str, str, str], list[int]] = {}
    for index, row in candidates.iterrows():
        fingerprint = fingerprint_of(read_header(str(row["log"])).eval.metadata)
        if fingerprint is not None:
            key = (str(row["task"]), fingerprint, str(row["variant"] or ""))  # never across variants (#38)
            sets.setdefault(key, []).append(int(index))  # type: ignore[arg-type]
    read: dict[str, Run | None] = {}
    for (_, _, variant), members in sets.items():
        if len(members) < 2:
            continue
        for i in members:
            path = str(frame.at[i, "log"])
            if path not in read:
                try:
                    read[path] = read_run(path)
                except ValueError:
                    read[path] = None  # not comparable group by group (e.g. several epochs): left empty, as documented
        found = {i: read[str(frame.at[i, "log"])] for i in members}
        if any(run is None for run in found.values()):
            continue
        runs = {i: run for i, run in found.items() if run is not None}
        for metric, column in TIED_BEST.items():
            scored = [i for i in members if _number(frame.at[i, metric]) is not None]
            if len(scored) < 2:
                continue
            values = [float(frame.at[i, metric]) for i in scored]
            target = min(values) if LOWER_IS_BETTER[metric] else max(values)
            best = scored[values.index(target)]
            others = [i for i in scored if i != best]
            p_values = []
            for i in others:
                ids, _, _ = paired_ids(runs[best], runs[i])
                if variant not in ("", MIXED):  # a variant's row: that variant's groups only, in both runs
                    ids = [g for g in ids if runs[best].variants.get(g) == variant == runs[i].variants.get(g)]
                x, y = paired_outcomes(runs[best], runs[i], ids, metric)
                p_values.append(mcnemar(x, y).p_value if x else math.nan)
            frame.at[best, column] = True
            for i, adjusted in zip(others, holm(p_values), strict=True):
                frame.at[i, column] = None if math.isnan(adjusted) else bool(adjusted >= ALPHA)


def write_leaderboard(frame: pd.DataFrame, out_dir: Path) -> Path:
    """Write `out_dir/leaderboard.csv` (UTF-8, no index) and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LEADERBOARD_CSV
    frame.to_csv(path, index=False)
    return path
