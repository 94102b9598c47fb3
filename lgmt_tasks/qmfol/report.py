"""QMFOL reports from Inspect logs: per-sample time and tokens, depth × width tables, and Figure 4's heatmaps.

The paper reports accuracy together with two overheads per task, time (s) and tokens, over the 4 × 4 depth × width
subsets (Figure 4). Inspect records both for every sample, so they are read from the log rather than measured by
the task:

- time: the sample's `working_time` (seconds the sample was working, without time spent waiting for a connection
  or a rate limit, so it does not grow with `--max-connections`); `total_time` (wall clock) is kept as well;
- tokens: the sample's model usage summed over models: `output_tokens` (the completion, reasoning included for
  providers that count it there; the paper's token overhead), with `input_tokens`, `reasoning_tokens` and
  `total_tokens` kept as well. The input tokens of a run with and without distractors also tell how much filler the
  length ablation needs (`-T padding_tokens=N`, §4.2.2).

`qmfol_samples` gives one row per sample and epoch; `depth_width_table` aggregates it; `qmfol_heatmaps` draws one
PNG per log (model) with three panels, accuracy (%), time (s) and output tokens, as Figure 4 does. `suite_report`
gives the paper's Tables 2, 3, 5 and 6 and Figures 4 and 5 as tables (with the heatmaps), for `lgmt report --out`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.report.headline import log_paths as expand_log_paths
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.report.suite_tools import save_png, slug
from lgmt_tasks.scorers.qmfol_arithmetic import OUTCOME_KEYS

SCORER = registry.suite("qmfol").scorer
"""The name of the QMFOL scorer in logs, `qmfol_scorer` (from the suite registry)."""

COLUMNS: tuple[str, ...] = (
    "log",
    "model",
    "id",
    "epoch",
    "depth",
    "width",
    "distractors",
    "topic",
    "label",
    "construction",
    "answer",
    "correct",
    "parsed",
    "working_time",
    "total_time",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "total_tokens",
)
"""The columns of `qmfol_samples`."""

PANELS: tuple[tuple[str, str, str], ...] = (
    ("accuracy", "Accuracy (%)", "Greens"),
    ("time", "Time (s)", "Oranges"),
    ("tokens", "Output tokens", "Blues"),
)
"""The heatmap panels: column of `depth_width_table`, title, colour map."""


def _score_value(sample: Any) -> Mapping[str, Any] | None:
    scores = sample.scores or {}
    score = scores.get(SCORER) or next(
        (s for s in scores.values() if isinstance(s.value, Mapping) and set(OUTCOME_KEYS) <= set(s.value)), None
    )
    return score.value if score is not None and isinstance(score.value, Mapping) else None


def _is_qmfol(log: EvalLog) -> bool:
    return log.eval.task.split("/")[-1] == "qmfol"


def samples_of(log: EvalLog, name: str = "") -> list[dict[str, Any]]:
    """The rows of one log (one per sample and epoch; samples without a QMFOL score are skipped)."""
    rows = []
    for sample in log.samples or []:
        value = _score_value(sample)
        if value is None:
            continue
        meta = sample.metadata or {}
        usage = list((sample.model_usage or {}).values())
        score = (sample.scores or {}).get(SCORER)
        rows.append(
            {
                "log": name,
                "model": log.eval.model,
                "id": sample.id,
                "epoch": sample.epoch,
                "depth": meta.get("depth"),
                "width": meta.get("width"),
                "distractors": meta.get("distractors"),
                "topic": meta.get("topic"),
                "label": meta.get("label", sample.target),
                "construction": meta.get("construction"),
                "answer": score.answer if score is not None else None,
                "correct": float(value["correct"]),
                "parsed": float(value["parsed"]),
                "working_time": sample.working_time,
                "total_time": sample.total_time,
                "input_tokens": sum(u.input_tokens for u in usage),
                "output_tokens": sum(u.output_tokens for u in usage),
                "reasoning_tokens": sum(u.reasoning_tokens or 0 for u in usage),
                "total_tokens": sum(u.total_tokens for u in usage),
            }
        )
    return rows


def qmfol_samples(log_paths: Iterable[str | Path]) -> pd.DataFrame:
    """One row per QMFOL sample (and epoch) of the logs: configuration, answer, correctness, time and tokens.

    Args:
        log_paths: Log files or folders (folders are searched recursively); logs of other tasks are skipped.

    Returns:
        A frame with the columns of `COLUMNS` (empty if no QMFOL sample was found).
    """
    rows: list[dict[str, Any]] = []
    for path in expand_log_paths(log_paths):
        log = read_eval_log(path)
        if _is_qmfol(log):
            rows.extend(samples_of(log, Path(path).name))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def depth_width_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (correct / tasks: unparsed is wrong), mean time and output tokens per log, model, depth and width.

    Args:
        samples: Rows of `qmfol_samples`.

    Returns:
        One row per (log, model, depth, width) with `accuracy` (in [0, 1]), `time` (mean working time, s), `tokens`
        (mean output tokens), `samples`.
    """
    keys = ["log", "model", "depth", "width"]
    if samples.empty:
        return pd.DataFrame(columns=[*keys, "accuracy", "time", "tokens", "samples"])
    grouped = samples.groupby(keys, sort=True)
    table = grouped.agg(
        correct=("correct", "sum"),
        parsed=("parsed", "sum"),
        time=("working_time", "mean"),
        tokens=("output_tokens", "mean"),
        samples=("id", "size"),
    ).reset_index()
    table["accuracy"] = [c / n if n else math.nan for c, n in zip(table["correct"], table["samples"], strict=True)]
    return table[[*keys, "accuracy", "time", "tokens", "samples"]]


def qmfol_heatmaps(log_paths: Iterable[str | Path], out_dir: str | Path) -> list[Path]:
    """Draw Figure 4 of the paper from Inspect logs: accuracy, time and tokens over depth × width, one PNG per log.

    Args:
        log_paths: QMFOL log files or folders (other tasks' logs are skipped).
        out_dir: Folder for the images (created). The numbers drawn are `depth_width_table`'s (`lgmt report --out`
            writes them as `figure4_depth_width.csv`).

    Returns:
        The image paths (`qmfol_<model>_<log>.png`), in log order; empty if no QMFOL sample was found.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = depth_width_table(qmfol_samples(log_paths))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if table.empty:
        return []
    written: list[Path] = []
    for (log, model), part in table.groupby(["log", "model"], sort=False):
        fig, axes = plt.subplots(1, len(PANELS), figsize=(4.2 * len(PANELS), 3.8))
        for ax, (column, title, cmap) in zip(axes, PANELS, strict=True):
            grid = part.pivot(index="depth", columns="width", values=column).sort_index().sort_index(axis=1)
            values = grid.to_numpy(dtype=float) * (100.0 if column == "accuracy" else 1.0)
            limits = {"vmin": 0.0, "vmax": 100.0} if column == "accuracy" else {}
            image = ax.imshow(values, cmap=cmap, aspect="auto", **limits)
            ax.set_xticks(range(len(grid.columns)), [f"W{w}" for w in grid.columns])
            ax.set_yticks(range(len(grid.index)), [f"D{d}" for d in grid.index])
            ax.set_title(title)
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    v = values[i, j]
                    ax.text(
                        j,
                        i,
                        "–" if math.isnan(v) else f"{v:.1f}" if column != "tokens" else f"{v:.0f}",
                        ha="center",
                        va="center",
                        fontsize=8,
                    )
            fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        fig.suptitle(f"QMFOL: {model}")
        fig.tight_layout()
        written.append(save_png(fig, out / f"qmfol_{slug(str(model))}_{slug(Path(str(log)).stem)}.png"))
    return written


# ------------------------------------------------------------------------------------ paper tables (§4, Tables 2–6)

RUN_KEYS: list[str] = ["model", "log"]
"""A table row's run: the model and the log file (two logs of one model, e.g. with padding, stay apart)."""


def outcomes_of_rows(samples: pd.DataFrame) -> list[dict[str, int]]:
    """The scorer's outcome dicts of `qmfol_samples` rows, rebuilt with `qmfol_arithmetic.sample_outcome`.

    The rows keep each sample-epoch's gold label and parsed answer (`unparsed` when nothing was read), which is all
    `sample_outcome` needs: the dicts are the logged score values, so every table uses the pure functions of
    `qmfol_arithmetic` on exactly what the scorer saw.
    """
    from lgmt_tasks.scorers.qmfol_arithmetic import LABELS, sample_outcome

    return [
        sample_outcome(str(label), str(answer) if answer in LABELS else None)
        for label, answer in zip(samples["label"], samples["answer"], strict=True)
    ]


def _runs(samples: pd.DataFrame) -> list[tuple[tuple[str, str], pd.DataFrame]]:
    return [((str(m), str(g)), part) for (m, g), part in samples.groupby(RUN_KEYS, sort=True)]


def _accuracy(samples: pd.DataFrame) -> float:
    from lgmt_tasks.scorers.qmfol_arithmetic import accuracy

    return accuracy(outcomes_of_rows(samples)).value


def overall_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Per run: tasks, unparsed rate, accuracy (± stderr), macro-F1, mean time (s) and tokens (Figure 4's header)."""
    from lgmt_tasks.scorers.qmfol_arithmetic import accuracy, f1_scores, unparsed_rate

    rows = []
    for (model, log), part in _runs(samples):
        outcomes = outcomes_of_rows(part)
        acc = accuracy(outcomes)
        rows.append(
            {
                "model": model,
                "log": log,
                "tasks": len(part),
                "unparsed_rate": unparsed_rate(outcomes).value,
                "accuracy": acc.value,
                "accuracy_stderr": acc.stderr,
                "macro_f1": f1_scores(outcomes)["macro_f1"],
                "time_s": float(part["working_time"].mean()),
                "output_tokens": float(part["output_tokens"].mean()),
                "input_tokens": float(part["input_tokens"].mean()),
            }
        )
    return pd.DataFrame(rows)


def f1_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Table 2: Macro-F1 and label-wise F1 (True, False, Unknown) per run, an unparsed answer a miss."""
    from lgmt_tasks.scorers.qmfol_arithmetic import f1_scores

    rows = []
    for (model, log), part in _runs(samples):
        f1 = f1_scores(outcomes_of_rows(part))
        labels = {label: f1[f"f1_{label}"] for label in ("True", "False", "Unknown")}
        rows.append({"model": model, "log": log, "Macro": f1["macro_f1"], **labels})
    return pd.DataFrame(rows)


def distribution_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Table 3: per run and gold label, the share of each answer among all its tasks, and the unparsed count."""
    from lgmt_tasks.scorers.qmfol_arithmetic import LABELS, answer_distribution

    rows = []
    for (model, log), part in _runs(samples):
        shares = answer_distribution(outcomes_of_rows(part))
        for gold in LABELS:
            of_gold = part[part["label"] == gold]
            if of_gold.empty:
                continue
            rows.append(
                {
                    "model": model,
                    "log": log,
                    "gold": gold,
                    "tasks": len(of_gold),
                    **{f"answered {answer}": shares[f"dist_{gold}_{answer}"] for answer in LABELS},
                    "unparsed": int((of_gold["parsed"] == 0).sum()),
                }
            )
    return pd.DataFrame(rows)


def accuracy_by(samples: pd.DataFrame, column: str, names: dict[Any, str], order: list[Any]) -> pd.DataFrame:
    """Accuracy (correct / tasks) per run (rows) and value of `column` (columns, in `order`), plus `overall`."""
    rows = []
    for (model, log), part in _runs(samples):
        row: dict[str, Any] = {"model": model, "log": log}
        for value in order:
            chunk = part[part[column] == value]
            if not chunk.empty:
                row[names.get(value, str(value))] = _accuracy(chunk)
        row["overall"] = _accuracy(part)
        rows.append(row)
    return pd.DataFrame(rows)


def distractor_changes(samples: pd.DataFrame) -> pd.DataFrame:
    """Figure 5: how each task's answer changes from its D0 version to its version with n distractors.

    A task with n distractors and the task without (D0) share everything in their id before `_distract` (the same
    rules, facts and conclusion). Pairs are matched per run and epoch; a pair counts only when both answers parsed.

    Returns:
        Per run and n > 0: `pairs`, then the counts `correct→correct`, `correct→wrong`, `wrong→correct`,
        `wrong→wrong`, and `unparsed pairs`. Empty when the logs hold no D0 tasks with distracted versions.
    """
    frame = samples.assign(base=[str(i).rsplit("_distract", 1)[0] for i in samples["id"]])
    rows = []
    for (model, log), part in _runs(frame):
        base = part[part["distractors"] == 0]
        d0 = {(b, e): (c, p) for b, e, c, p in base[["base", "epoch", "correct", "parsed"]].itertuples(index=False)}
        for n, chunk in part[part["distractors"] > 0].groupby("distractors", sort=True):
            counts = dict.fromkeys(("correct→correct", "correct→wrong", "wrong→correct", "wrong→wrong"), 0)
            unparsed = pairs = 0
            for base, epoch, correct, parsed in chunk[["base", "epoch", "correct", "parsed"]].itertuples(index=False):
                if (base, epoch) not in d0:
                    continue
                pairs += 1
                before, before_parsed = d0[(base, epoch)]
                if not (parsed and before_parsed):
                    unparsed += 1
                    continue
                key = f"{'correct' if before else 'wrong'}→{'correct' if correct else 'wrong'}"
                counts[key] += 1
            if pairs:
                row = {"model": model, "log": log, "distractors": f"D{n}", "pairs": pairs}
                rows.append({**row, **counts, "unparsed pairs": unparsed})
    return pd.DataFrame(rows)


def suite_report(paths: Iterable[str | Path], out_dir: Path | None = None) -> SuiteReport:
    """QMFOL's paper tables and Figure 4 from Inspect logs, one row per run (model and log file).

    Tables (stems): `overall` (tasks, unparsed rate, accuracy, macro-F1, mean time and tokens: Figure 4's header
    numbers), `table2_f1` (Macro / True / False / Unknown F1), `table3_answer_distribution` (answer shares per gold
    label, over all its tasks, with unparsed counts), `table5_distractors` (accuracy per distractor count),
    `table6_topics` (accuracy per topic and overall), `figure4_depth_width` (accuracy, time, tokens per depth ×
    width), `figure5_distractor_changes` (answer changes from D0 to Dn, when the logs hold both). Accuracy is correct
    / all tasks and an unparsed answer is a miss in every F1 (see `scorers.qmfol_arithmetic`); numbers are fractions.
    Plots: `qmfol_heatmaps`' PNGs (one per log) under `out_dir/qmfol/`.

    Args:
        paths: Log files or folders (logs of other tasks are skipped).
        out_dir: The report folder (None: no plots).

    Returns:
        A `SuiteReport` (no tables when no QMFOL log is among `paths`).
    """
    from lgmt_tasks.qmfol.english import TOPICS

    files = [str(p) for p in paths]
    samples = qmfol_samples(files)
    if samples.empty:
        return SuiteReport("qmfol")
    levels = sorted(int(d) for d in samples["distractors"].unique())
    topics = [t for t in TOPICS if t in set(samples["topic"])] + sorted(set(samples["topic"]) - set(TOPICS))
    tables = {
        "overall": overall_table(samples),
        "table2_f1": f1_table(samples),
        "table3_answer_distribution": distribution_table(samples),
        "table5_distractors": accuracy_by(samples, "distractors", {n: f"D{n}" for n in levels}, list(levels)),
        "table6_topics": accuracy_by(samples, "topic", {}, topics),
        "figure4_depth_width": depth_width_table(samples),
    }
    titles = {
        "overall": "Figure 4 (header): overall accuracy (correct / tasks), macro-F1, time (s) and output tokens",
        "table2_f1": "Table 2: Macro, True, False and Unknown F1 (an unparsed answer is a miss)",
        "table3_answer_distribution": "Table 3: answer distribution per gold label (shares of all its tasks)",
        "table5_distractors": "Table 5: accuracy per number of distractor rules",
        "table6_topics": "Table 6: accuracy per topic",
        "figure4_depth_width": "Figure 4: accuracy, mean time (s) and mean output tokens per depth × width",
    }
    changes = distractor_changes(samples)
    if not changes.empty:
        tables["figure5_distractor_changes"] = changes
        titles["figure5_distractor_changes"] = "Figure 5: answer changes from the task without distractors (D0) to Dn"
    plots = qmfol_heatmaps(files, Path(out_dir) / "qmfol") if out_dir is not None else []
    return SuiteReport("qmfol", tables=tables, plots=plots, titles=titles)
