"""LGMT's paper tables and plots from Inspect logs: Tables 4, 6, 7, 8 and 9 of Zhou et al. (2026), plus Figure 4.

The tables are recomputed from the per-group scores in the logs (read with `inspect_ai.analysis.samples_df`), not
from each log's aggregate metrics, because the paper pools: Table 7's and Table 9's "Avg. MVR" aggregates violations
across all models, and one model's row may come from several logs (`mr_e`, `mr_s`, … run separately). The rates are
the scorer's own pure functions (`lgmt_tasks.scorers.pairwise.RATES`) applied to the pooled groups, so a table row
built from one log equals that log's logged metrics exactly, standard errors included.

How rows are pooled:

- Epochs are reduced first, per log and sample, by the mean of each outcome key (Inspect's default reducer, under
  which the scorer's rates stay exact), so a group counts once whatever the number of epochs.
- A setting is (model, prompting, settings): `settings` holds the other task arguments that differ between the logs
  reported (`-T source=folio`, another dataset or seed; `lgmt_tasks.report.settings`), so runs that differ in
  source or arguments are never pooled. A group evaluated in two logs of the same setting (same content-derived
  sample id) is counted once, from the newest log.
- The paper reports Tables 4, 6, 7 and 9 under its default prompting (zero-shot CoT) and Table 8 across the four
  strategies; here every table has `prompting` and `settings` columns, so runs under any strategy or arguments are
  reported, never mixed.

Intervals: `<rate>_stderr` is the delta-method standard error the scorer logs (group as the unit);
`mvr_low` / `mvr_high` are 95% Wilson score intervals on (violations, parsed groups), which stay inside [0, 1] for
the small per-relation counts where the normal interval does not. The per-relation and per-category plots draw the
Wilson intervals; the prompting comparison draws ± 1.96 standard errors.

FRR (Table 5) needs a manual review of sampled violations (`lgmt report --sample-violations`); it is not computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from lgmt_tasks.lgmt.control import CONTROL_TABLE, CONTROL_TITLE, control_table, has_control
from lgmt_tasks.lgmt.difficulty import difficulty_heatmaps, difficulty_table
from lgmt_tasks.lgmt.frame import SETTING, SUITE, category_of, group_frame, sort_key
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.report.suite_tools import interval_bars, pyplot, save_png, slug
from lgmt_tasks.scorers.intervals import wilson_interval
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATE_NAMES, RATES
from lgmt_tasks.vocabulary import PROMPTINGS

CATEGORY_COLOURS = {"MR-E": "tab:blue", "MR-S": "tab:orange", "MR-P": "tab:green", "MR-C": "tab:red"}

AVG = "Avg. MVR"
"""Column of Tables 7 and 9 pooling the violations of every model (the paper's definition)."""


def rates(groups: pd.DataFrame, names: Sequence[str] = RATE_NAMES) -> dict[str, float]:
    """Rates (with `_stderr`) of a set of groups, plus `groups`, `parsed`, `violations` and MVR's Wilson interval."""
    outcomes = groups[list(OUTCOME_KEYS)].to_dict("records")
    row: dict[str, float] = {"groups": float(len(outcomes))}
    mvr = RATES["mvr"](outcomes)
    row["parsed"], row["violations"] = mvr.denominator, mvr.numerator
    for name in names:
        rate = RATES[name](outcomes)
        row[name], row[f"{name}_stderr"] = rate.value, rate.stderr
        if name == "mvr":
            row["mvr_low"], row["mvr_high"] = wilson_interval(mvr.numerator, mvr.denominator)
    return row


def _integral(table: pd.DataFrame) -> pd.DataFrame:
    """Counts as integers when no epoch made them fractional (readable tables)."""
    for column in ("groups", "parsed", "violations"):
        if column in table and all(float(v).is_integer() for v in table[column]):
            table[column] = table[column].astype(int)
    return table


def per_setting(groups: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """One row per (model, prompting, *by) with every rate, its standard error, counts and MVR's Wilson interval."""
    keys = [*SETTING, *by]
    rows = [{**dict(zip(keys, key, strict=True)), **rates(chunk)} for key, chunk in groups.groupby(keys, sort=False)]
    table = pd.DataFrame(rows)
    return _integral(table.sort_values(keys, key=sort_key, kind="stable").reset_index(drop=True))


def mvr_matrix(groups: pd.DataFrame, by: str) -> pd.DataFrame:
    """Tables 7 and 9: per prompting and settings, one row per `by` value; `Avg. MVR` pools every model.

    Then one column per model.
    """
    rows: list[dict[str, Any]] = []
    models = list(dict.fromkeys(groups["model"]))
    for (prompting, settings, value), chunk in groups.groupby(["prompting", "settings", by], sort=False):
        row: dict[str, Any] = {
            "prompting": prompting,
            "settings": settings,
            by: value,
            AVG: rates(chunk, ["mvr"])["mvr"],
        }
        for model in models:
            part = chunk[chunk["model"] == model]
            row[model] = rates(part, ["mvr"])["mvr"] if len(part) else math.nan
        rows.append(row)
    table = pd.DataFrame(rows, columns=["prompting", "settings", by, AVG, *models])
    return table.sort_values(["prompting", "settings", by], key=sort_key, kind="stable").reset_index(drop=True)


def tables(groups: pd.DataFrame) -> tuple[dict[str, pd.DataFrame], dict[str, str]]:
    """Every LGMT table (file stem → frame) and its title, from `group_frame`'s output."""
    setting = per_setting(groups)
    out: dict[str, pd.DataFrame] = {
        "table4_effectiveness": setting[
            [*SETTING, "mvr", "mvr_stderr", "mvr_low", "mvr_high", "violations", "parsed", "groups", "unparsed_rate"]
        ],
        "table6_static_vs_lgmt": setting[
            [*SETTING, "acc_static", "acc_static_stderr", "acc_cons", "acc_cons_stderr", "hdr", "hdr_stderr"]
        ],
        "table7_categories": mvr_matrix(groups, "category"),
        "table8_prompting": setting[
            [*SETTING, "acc_static", "acc_cons", "hdr", "mvr", "fur", "unparsed_rate", "parsed", "groups"]
        ],
        "table9_relations": mvr_matrix(groups, "mr").rename(columns={"mr": "relation"}),
        "categories": per_setting(groups, ["category"]),
        "relations": per_setting(groups, ["mr"]).rename(columns={"mr": "relation"}),
    }
    titles = {
        "table4_effectiveness": "Table 4: MVR and number of violations per model (95% Wilson interval on MVR)",
        "table6_static_vs_lgmt": "Table 6: reference-based accuracy (Acc_static) vs LGMT (Acc_cons, HDR)",
        "table7_categories": "Table 7: MVR per relation category; Avg. MVR pools the violations of all models",
        "table8_prompting": "Table 8: prompting strategies: Acc_static, Acc_cons, HDR, MVR, FUR",
        "table9_relations": "Table 9: MVR per relation; Avg. MVR pools the violations of all models",
        "categories": "Every rate per model, prompting and category, with standard errors and counts",
        "relations": "Every rate per model, prompting and relation, with standard errors and counts",
    }
    difficulty = difficulty_table(groups)  # only for groups built on QMFOL sources (-T source=qmfol)
    if not difficulty.empty:
        out["difficulty_depth_width"] = difficulty
        titles["difficulty_depth_width"] = "MVR (95% Wilson interval) and Acc_cons per depth × width of the sources"
    if has_control(groups):  # runs with -T control=true: MVR against the model's own noise floor
        out[CONTROL_TABLE], titles[CONTROL_TABLE] = control_table(groups, SETTING), CONTROL_TITLE
    return out, titles


def relation_plot(
    relations: pd.DataFrame, model: str, prompting: str, path: Path, by: str = "relation", settings: str = ""
) -> Path:
    """Bars of MVR per relation (or category) of one setting, with 95% Wilson intervals, coloured by category."""
    chunk = relations[
        (relations["model"] == model) & (relations["prompting"] == prompting) & (relations["settings"] == settings)
    ]
    labels = [str(v) for v in chunk[by]]
    colours = [CATEGORY_COLOURS.get(category_of(v), "tab:gray") for v in labels]
    counts = [
        f"{label}  ({int(n)})" if float(n).is_integer() else f"{label}  ({n:g})"
        for label, n in zip(labels, chunk["parsed"], strict=True)
    ]
    fig = interval_bars(
        counts,
        list(chunk["mvr"]),
        list(chunk["mvr_low"]),
        list(chunk["mvr_high"]),
        title=f"MVR per {by} (parsed groups in brackets), 95% Wilson intervals\n{model}, {prompting}"
        + (f", {settings}" if settings else ""),
        xlabel="metamorphic violation rate",
        colors=colours,
    )
    return save_png(fig, path)


COMPARED: tuple[str, ...] = ("acc_static", "acc_cons", "hdr", "mvr", "fur")
"""The metrics of Table 8, in its order."""


def prompting_plot(setting: pd.DataFrame, path: Path) -> Path:
    """Table 8 as bars: one panel per metric, models on the x axis, one bar per prompting (± 1.96 standard errors)."""
    plt = pyplot()
    runs = list(dict.fromkeys(zip(setting["model"], setting["settings"], strict=True)))
    promptings = sorted(set(setting["prompting"]), key=lambda p: (PROMPTINGS.index(p) if p in PROMPTINGS else 9, p))
    fig, axes = plt.subplots(1, len(COMPARED), figsize=(3.0 * len(COMPARED), 3.4), sharey=True)
    width = 0.8 / max(1, len(promptings))
    for ax, metric in zip(axes, COMPARED, strict=True):
        for j, prompting in enumerate(promptings):
            xs: list[float] = []
            values: list[float] = []
            errors: tuple[list[float], list[float]] = ([], [])
            for i, (model, settings) in enumerate(runs):
                row = setting[
                    (setting["model"] == model)
                    & (setting["prompting"] == prompting)
                    & (setting["settings"] == settings)
                ]
                if row.empty:
                    continue
                value, stderr = float(row[metric].iloc[0]), float(row[f"{metric}_stderr"].iloc[0])
                xs.append(i + (j - (len(promptings) - 1) / 2) * width)
                value = 0.0 if math.isnan(value) else value
                half = 0.0 if math.isnan(stderr) else 1.959964 * stderr
                values.append(value)
                errors[0].append(min(half, value))  # clipped to [0, 1]
                errors[1].append(min(half, 1.0 - value))
            ax.bar(xs, values, width=width, yerr=errors, capsize=2, label=prompting)
        names = [f"{model}\n{settings}" if settings else model for model, settings in runs]
        ax.set_xticks(range(len(runs)), names, rotation=30, ha="right", fontsize=7)
        ax.set_title(metric, fontsize=10)
        ax.set_ylim(0.0, 1.0)
    axes[0].set_ylabel("rate (± 1.96 standard errors)")
    axes[-1].legend(fontsize=7, loc="upper right")
    fig.suptitle("LGMT metrics by prompting strategy (Table 8)", fontsize=10)
    fig.tight_layout()
    return save_png(fig, path)


def plots(groups: pd.DataFrame, folder: Path) -> list[Path]:
    """Write the PNGs: MVR per relation and per category for every setting, and the prompting comparison."""
    relations = per_setting(groups, ["mr"]).rename(columns={"mr": "relation"})
    categories = per_setting(groups, ["category"])
    written: list[Path] = []
    for model, prompting, settings in relations[SETTING].drop_duplicates().itertuples(index=False):
        name = "_".join([slug(str(model)), slug(str(prompting)), *([slug(settings)] if settings else [])]) + ".png"
        written.append(relation_plot(relations, model, prompting, folder / f"mvr_relations_{name}", settings=settings))
        written.append(
            relation_plot(
                categories, model, prompting, folder / f"mvr_categories_{name}", by="category", settings=settings
            )
        )
    written.append(prompting_plot(per_setting(groups), folder / "prompting_comparison.png"))
    written += difficulty_heatmaps(difficulty_table(groups), folder)
    return written


def suite_report(paths: list[str], out_dir: Path | None = None) -> SuiteReport:
    """LGMT's paper tables (and, with `out_dir`, its plots under `out_dir/lgmt/`) from Inspect logs.

    Args:
        paths: Log files; logs of other tasks are skipped.
        out_dir: The report folder (plots go to `out_dir/lgmt/`); None draws nothing.

    Returns:
        The tables (stems `table4_effectiveness`, `table6_static_vs_lgmt`, `table7_categories`, `table8_prompting`,
        `table9_relations`, `categories`, `relations`, and `difficulty_depth_width` for groups on QMFOL sources) and
        plots; no tables when no LGMT group was scored. Runs with `-T control=true` add `control_noise_floor`
        (`lgmt_tasks.lgmt.control.control_table`).
    """
    groups = group_frame(paths)
    if groups.empty:
        return SuiteReport(SUITE)
    found, titles = tables(groups)
    written = plots(groups, Path(out_dir) / SUITE) if out_dir is not None else []
    return SuiteReport(SUITE, tables=found, plots=written, titles=titles)
