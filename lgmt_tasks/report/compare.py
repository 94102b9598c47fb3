"""`lgmt report --compare`: whether runs on the same groups differ significantly, overall and per relation.

Two runs of a pairwise suite (LGMT or the lexical baseline, whose scorers share `scorers/pairwise.py`'s keys) on the
same dataset answered the same groups, so they are compared group by group (`lgmt_tasks.report.significance`):

- Pairing. Groups are matched on their sample id; only ids present in both logs are compared, and the ids found in
  one log only are counted in the notes (a run with `--limit`, or errored samples, has fewer). Logs are refused when
  their task names differ or their datasets do (the fingerprint of the data files that `lgmt_tasks.builders.load`
  records in `eval.metadata["dataset"]`): ids of different builds name different groups. Task arguments that do not
  change the rows (`prompting`, `prefill`) may differ: comparing prompting strategies on the same rows is the point.
- Outcomes (the scorers' conventions, `scorers/pairwise.py`). `mvr`: per group, violated yes/no, over the groups
  parsed in *both* runs: a violation is only defined for a group whose answers all parsed, as in the MVR's own
  denominator. `acc_cons`: per group, consistently correct yes/no, over every group that is a test in both runs
  (`tested`; the lexical suite's discarded groups are not): an unparsed answer is not correct, as in `acc_cons`.
  The rates in the table are over these paired groups, so they can differ from each log's own MVR and `acc_cons`.
- Tests. McNemar's exact test (two-sided) per comparison, and a 95% interval of the difference of rates (first −
  second): Newcombe's paired hybrid score interval (method 10, `significance.paired_interval`), widened to reach 0
  where the exact test gives p ≥ `ALPHA`, so that an interval never excludes 0 beside a non-significant p. It is the
  row's own interval (unadjusted, like `p_value`), not a Holm-adjusted one.
- Families. Holm's correction is applied per family = one pair of runs × one metric, across the relations (the
  relation-set key: the suite's stratum of the row, i.e. the first relation of a composed LGMT row, `MR-E1.1` for
  `MR-E1.1+MR-C3`; listed in natural order, `MR-E1.2` before `MR-E1.10`). The `all` row is the one pre-specified
  overall test of that pair and metric, outside the family: its adjusted p-value is its own. `significant` is
  adjusted p < `ALPHA`.
- Variants of the laws (issue #38). When the paired LGMT groups hold more than one variant (`variant`: `paper`, our
  `introduction` / `extended`; `lgmt_tasks.lgmt.frame.variant_of`), no row pools them, as no LGMT table does: the
  table gains a `variant` column after `relation`, every relation has a row per variant, and each variant has its
  own `all` row. The relation rows of all variants are one Holm family (per pair and metric), and the `all` rows of
  the variants another. With one variant nothing changes (no column, the same rows).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
from inspect_ai.log import read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.builders.load import METADATA_KEY
from lgmt_tasks.report.significance import holm, mcnemar, paired_interval
from lgmt_tasks.report.suites import suite_of, task_name

ALPHA = 0.05
"""The family-wise error rate of the Holm-corrected tests."""

OVERALL = "all"
"""The relation cell of the overall row of each comparison."""

PAIRED_METRICS: dict[str, tuple[str, str]] = {
    "mvr": ("violation", "parsed"),
    "acc_cons": ("consistent_correct", "tested"),
}
"""Metric → (score key of the per-group outcome, score key a group must have as 1 in both runs to be compared)."""

LOWER_IS_BETTER: dict[str, bool] = {"mvr": True, "acc_cons": False}
"""The direction of each paired metric (the leaderboard's best model)."""

REQUIRED_KEYS: tuple[str, ...] = ("violation", "parsed", "consistent_correct", "tested")
"""The keys of a pairwise scorer's score dict that the comparison reads."""

COMPARE_CSV, COMPARE_MD = "compare.csv", "compare.md"

COLUMNS: tuple[str, ...] = (
    "first",
    "second",
    "metric",
    "relation",
    "groups",
    "first_rate",
    "second_rate",
    "difference",
    "ci_low",
    "ci_high",
    "b",
    "c",
    "p_value",
    "p_holm",
    "significant",
)
"""The comparison table's columns: `b` = groups where only the first run has the outcome, `c` only the second."""

VARIANT = "variant"


def _frame() -> ModuleType:
    """LGMT's `frame` module (its variants), through the suite registry: shared report code imports no suite."""
    return registry.suite("lgmt").module("frame")


"""The column inserted after `relation` when the groups hold more than one variant of the laws (`table_columns`)."""


def table_columns(split: bool) -> list[str]:
    """`COLUMNS`, with `variant` after `relation` when the variants are split."""
    columns = list(COLUMNS)
    if split:
        columns.insert(columns.index("relation") + 1, VARIANT)
    return columns


@dataclass
class Run:
    """One log's per-group outcomes, keyed by sample id.

    Attributes:
        path: The log.
        task: Task name without the registry prefix (`mr_e`).
        suite: The suite.
        model: Inspect's model name.
        task_args: The task arguments the log records.
        fingerprint: The dataset fingerprint (None if the log records none).
        relations: Sample id → its relation-set key.
        variants: Sample id → the variant of the law its group applies (`variant_of`; `unrecorded` without one).
        scores: Sample id → the score dict.
        label: How tables name the run (set by `label_runs`).
    """

    path: str
    task: str
    suite: str
    model: str
    task_args: dict[str, Any]
    fingerprint: str | None
    relations: dict[str, str] = field(default_factory=dict)
    variants: dict[str, str] = field(default_factory=dict)
    scores: dict[str, Mapping[str, float]] = field(default_factory=dict)
    label: str = ""


def pairwise_suites() -> tuple[str, ...]:
    """The suites whose score dicts have the keys the comparison reads (by their metric: the pairwise MVR)."""
    return tuple(s.name for s in registry.SUITES if "mvr" in s.leaderboard_metrics)


def fingerprint_of(metadata: Mapping[str, Any] | None) -> str | None:
    """The dataset fingerprint a log records in `eval.metadata["dataset"]`, or None."""
    dataset = (metadata or {}).get(METADATA_KEY)
    value = dataset.get("fingerprint") if isinstance(dataset, Mapping) else None
    return str(value) if value else None


def _relation_key(suite: str) -> Any:
    """A function of a sample's metadata giving its stratum (LGMT: the first relation of `mr`)."""
    strata = registry.suite(suite).attr("dataset", "STRATA")

    def key(metadata: Mapping[str, Any]) -> str:
        values = [metadata.get(column) for column in strata.columns]
        return strata.key(*values) if strata.key is not None else "/".join(str(v) for v in values)

    return key


def read_run(path: str) -> Run:
    """Read one log's per-group outcomes.

    Raises:
        ValueError: If the log is not of a pairwise suite, ran more than one epoch, or has a score without the keys
            the comparison needs (the message names the log).
    """
    log = read_eval_log(path)
    suite = suite_of(log.eval.task)
    allowed = pairwise_suites()
    if suite not in allowed:
        raise ValueError(
            f"{path}: task {log.eval.task} is not of a pairwise suite ({', '.join(allowed)}); "
            "--compare pairs groups' violation and consistent-accuracy outcomes"
        )
    epochs = log.eval.config.epochs or 1
    if epochs > 1:
        raise ValueError(
            f"{path}: {epochs} epochs; --compare pairs one yes/no outcome per group and needs one-epoch logs"
        )
    scorer = registry.suite(suite).scorer
    relation = _relation_key(suite)
    run = Run(
        path=path,
        task=task_name(log.eval.task),
        suite=suite,
        model=log.eval.model,
        task_args=dict(log.eval.task_args or {}),
        fingerprint=fingerprint_of(log.eval.metadata),
    )
    for sample in log.samples or []:
        score = (sample.scores or {}).get(scorer)
        if score is None:
            continue  # an errored sample: not scored, so it pairs with nothing (counted as missing)
        value = score.value
        if not isinstance(value, Mapping) or any(key not in value for key in REQUIRED_KEYS):
            raise ValueError(f"{path}: sample {sample.id}'s {scorer} score lacks the keys {', '.join(REQUIRED_KEYS)}")
        sample_id = str(sample.id)
        run.scores[sample_id] = {key: float(value[key]) for key in REQUIRED_KEYS}  # type: ignore[arg-type]
        metadata = sample.metadata or {}
        run.relations[sample_id] = relation(metadata)
        run.variants[sample_id] = _frame().variant_of(metadata.get("variant"), metadata.get("direction"))
    return run


def check_comparable(first: Run, second: Run) -> None:
    """Refuse two runs that are not of the same task on the same dataset.

    Raises:
        ValueError: One line naming both logs and what differs (task, or dataset fingerprint).
    """
    if first.task != second.task:
        raise ValueError(
            f"cannot compare {first.path} and {second.path}: different tasks ({first.task} vs {second.task})"
        )
    if first.fingerprint is None or second.fingerprint is None:
        missing = first.path if first.fingerprint is None else second.path
        raise ValueError(
            f"cannot compare {first.path} and {second.path}: {missing} records no dataset fingerprint "
            f"(eval.metadata[{METADATA_KEY!r}]), so the same ids may name different groups"
        )
    if first.fingerprint != second.fingerprint:
        raise ValueError(
            f"cannot compare {first.path} and {second.path}: different datasets "
            f"(fingerprint {first.fingerprint} vs {second.fingerprint})"
        )


def label_runs(runs: Sequence[Run]) -> None:
    """Name each run by its model, adding the task arguments that differ between runs when models repeat."""
    models = [run.model for run in runs]
    keys = sorted({k for run in runs for k in run.task_args})
    differing = [k for k in keys if len({json.dumps(run.task_args.get(k), default=str) for run in runs}) > 1]
    for run in runs:
        label = run.model
        if models.count(run.model) > 1 and differing:
            label += " (" + ", ".join(f"{k}={run.task_args.get(k)}" for k in differing) + ")"
        run.label = label
    labels = [run.label for run in runs]
    for index, run in enumerate(runs):
        if labels.count(run.label) > 1:
            run.label = f"{run.label} #{index + 1}"


def natural_order(name: str) -> list[Any]:
    """A sort key reading the numbers in a name as numbers (`MR-E1.2` before `MR-E1.10`, `MR-10` before `MR-25`)."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)]


def paired_ids(first: Run, second: Run) -> tuple[list[str], int, int]:
    """The sample ids scored in both runs (in the first run's order), and the counts found in only one of them."""
    shared = [i for i in first.scores if i in second.scores]
    return shared, len(first.scores) - len(shared), len(second.scores) - len(shared)


def paired_outcomes(first: Run, second: Run, ids: Sequence[str], metric: str) -> tuple[list[int], list[int]]:
    """The two runs' 0/1 outcomes of `metric` on the ids among `ids` that both runs count for it (`PAIRED_METRICS`)."""
    outcome, included = PAIRED_METRICS[metric]
    kept = [i for i in ids if first.scores[i][included] == 1 and second.scores[i][included] == 1]
    return [int(first.scores[i][outcome]) for i in kept], [int(second.scores[i][outcome]) for i in kept]


def _row(
    first: Run, second: Run, metric: str, relation: str, ids: Sequence[str], variant: str | None = None
) -> dict[str, Any]:
    x, y = paired_outcomes(first, second, ids, metric)
    test = mcnemar(x, y)
    n = len(x)
    low, high = paired_interval(x, y, p_value=test.p_value, alpha=ALPHA)
    first_rate = sum(x) / n if n else math.nan
    second_rate = sum(y) / n if n else math.nan
    return {
        "first": first.label,
        "second": second.label,
        "metric": metric,
        "relation": relation,
        VARIANT: variant,
        "groups": n,
        "first_rate": first_rate,
        "second_rate": second_rate,
        "difference": first_rate - second_rate,
        "ci_low": low,
        "ci_high": high,
        "b": test.b,
        "c": test.c,
        "p_value": test.p_value if n else math.nan,
    }


def split_variants(run: Run, ids: Sequence[str]) -> list[str]:
    """The variants of the groups `ids` of `run` in `variant_rank` order, when there are several; else `[]`."""
    variants = sorted({run.variants.get(i, "") for i in ids}, key=_frame().variant_rank)
    return variants if len(variants) > 1 else []


def _adjust(rows: Sequence[dict[str, Any]]) -> None:
    """Holm-adjust the rows' p-values as one family (`p_holm`)."""
    for row, adjusted in zip(rows, holm([row["p_value"] for row in rows]), strict=True):
        row["p_holm"] = adjusted


def compare_pair(first: Run, second: Run) -> list[dict[str, Any]]:
    """The rows of one pair of runs: per metric, the overall row then one row per relation, Holm-adjusted.

    With several variants of the laws among the groups (`split_variants`), per metric and variant: that variant's
    overall row, then its relations' rows; no row pools variants (see the module docstring for the families).
    """
    ids, _, _ = paired_ids(first, second)
    variants = split_variants(first, ids)
    parts: list[tuple[str | None, list[str]]] = [
        (v, [i for i in ids if first.variants.get(i, "") == v]) for v in variants
    ]
    parts = parts or [(None, list(ids))]
    rows: list[dict[str, Any]] = []
    for metric in PAIRED_METRICS:
        blocks = []
        for variant, chunk in parts:
            relations = sorted({first.relations[i] for i in chunk}, key=natural_order)
            overall = _row(first, second, metric, OVERALL, chunk, variant)
            family = [
                _row(first, second, metric, r, [i for i in chunk if first.relations[i] == r], variant)
                for r in relations
            ]
            blocks.append((overall, family))
        overall_rows = [overall for overall, _ in blocks]
        if len(overall_rows) > 1:
            _adjust(overall_rows)
        else:
            overall_rows[0]["p_holm"] = overall_rows[0]["p_value"]
        _adjust([row for _, family in blocks for row in family])
        for overall, family in blocks:
            for row in (overall, *family):
                row["significant"] = bool(row["p_holm"] < ALPHA) if not math.isnan(row["p_holm"]) else False
                rows.append(row)
    return rows


@dataclass
class Comparison:
    """The comparison of two or more runs.

    Attributes:
        runs: The runs, labelled, in the order given.
        table: One row per (pair of runs, metric, relation or `all`), columns `COLUMNS`.
        notes: One line per pair whose logs do not hold the same ids (paired and unpaired counts).
    """

    runs: list[Run]
    table: pd.DataFrame
    notes: list[str]


def compare_runs(runs: Sequence[Run]) -> Comparison:
    """Compare every pair of runs (in the order given).

    Raises:
        ValueError: If fewer than two runs are given, or two runs are not comparable (`check_comparable`), or a pair
            shares no group id.
    """
    if len(runs) < 2:
        raise ValueError(f"--compare needs two or more logs, got {len(runs)}")
    for other in runs[1:]:
        check_comparable(runs[0], other)
    label_runs(runs)
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    for first, second in combinations(runs, 2):
        ids, only_first, only_second = paired_ids(first, second)
        if not ids:
            raise ValueError(f"cannot compare {first.path} and {second.path}: no group id is scored in both")
        if only_first or only_second:
            notes.append(
                f"{first.label} vs {second.label}: {len(ids)} groups in both; {only_first} only in {first.path}, "
                f"{only_second} only in {second.path} (left out)"
            )
        rows += compare_pair(first, second)
    split = any(row[VARIANT] is not None for row in rows)
    return Comparison(list(runs), pd.DataFrame(rows, columns=table_columns(split)), notes)


def compare_logs(paths: Sequence[str]) -> Comparison:
    """Read the logs and compare every pair (see the module docstring).

    Raises:
        ValueError: As `read_run` and `compare_runs` (one line naming the logs).
    """
    return compare_runs([read_run(path) for path in paths])


def comparison_markdown(comparison: Comparison) -> str:
    """The comparison as Markdown: what was compared, the notes on pairing, and the table (`*` = significant)."""
    first = comparison.runs[0]
    runs = "; ".join(f"{run.label}: {run.path}" for run in comparison.runs)
    lines = [
        f"Paired comparison of {len(comparison.runs)} runs of `{first.task}` on dataset {first.fingerprint} ({runs}).",
        "",
        "McNemar exact test (two-sided) per row; 95% Newcombe paired interval (method 10) of first − second, "
        f"widened to reach 0 where p ≥ {ALPHA} so that it never contradicts the test (unadjusted, like `p_value`); "
        f"Holm across the relations of each pair and metric (the `{OVERALL}` row is not in the family); "
        f"`*`: Holm-adjusted p < {ALPHA}. "
        "`mvr`: groups parsed in both runs; `acc_cons`: every group (unparsed = not correct).",
        "",
    ]
    if VARIANT in comparison.table:
        lines += [
            "The groups hold more than one variant of the laws (paper: the law as the paper reads it; introduction, "
            "extended: our variants): one row per relation and variant and an `all` row per variant, none pooling "
            "variants; the `all` rows are Holm-adjusted among themselves.",
            "",
        ]
    lines += [f"- {note}" for note in comparison.notes]
    if comparison.notes:
        lines.append("")
    shown = comparison.table.copy()
    shown["significant"] = ["*" if s else "" for s in shown["significant"]]
    lines.append(shown.to_markdown(index=False, floatfmt=".3f"))
    return "\n".join(lines) + "\n"


def write_comparison(comparison: Comparison, out_dir: Path) -> tuple[Path, Path]:
    """Write `compare.csv` (the table) and `compare.md` (`comparison_markdown`) under `out_dir`; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out_dir / COMPARE_CSV, out_dir / COMPARE_MD
    comparison.table.to_csv(csv_path, index=False)
    md_path.write_text(comparison_markdown(comparison), encoding="utf-8")
    return csv_path, md_path
