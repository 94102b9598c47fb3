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

Variants (issue #25): each group records which reading of its law the follow-up applies (`variant`: `paper`, the law
as the paper reads it, or our `introduction` / `extended` variants; older logs record only `direction`, which stands
in for it, `lgmt_tasks.lgmt.frame`). When the groups reported hold more than one variant, every table gains a
`variant` column after its row keys and has one row per variant, so that no per-relation or per-category MVR mixes
the paper's law with our variants: Tables 7 and 9 and the `categories` / `relations` tables have a row per
(category or relation, variant) and no pooled row; Tables 4, 6 and 8 have a row per (setting, variant) and, for a
setting with more than one variant, a row `all (mixed)` pooling them (the figures the log's own headline metrics
report, labelled as the mix they are). The plots follow: a bar per (relation or category, variant), a bar group per
(model, settings, variant). With one variant nothing changes: no column, no row, the same bytes.

Relations without groups: Table 9 and `relations` list every relation of the tasks run (`mr_e` → MR-E1.1–E2.4,
`lgmt` → all 20); a relation of which no group was scored (the paper's MR-E2.3, "absence of applicable MG
instances"; or one that `--limit` did not reach) has a row with 0 groups and no rates, printed "–" in the Markdown
(`lgmt_tasks.report.suite_report.write_tables`), never 0 %.

Acc_static per source case: `acc_static` weighs a source case by its number of groups (one case is the source of a
group of most relations), so Tables 6 and 8 and the `categories` / `relations` tables add `acc_static_per_case` (with
its standard error, the case as the unit) beside it: each distinct source case (`source_dataset`, `source_id`)
counted once, its accuracy first averaged over its groups (`pairwise.acc_static_per_case`; an unparsed source answer
is wrong).

Intervals: `<rate>_stderr` is the delta-method standard error the scorer logs (group as the unit);
`mvr_low` / `mvr_high` are 95% Wilson score intervals on (violations, parsed groups), which stay inside [0, 1] for
the small per-relation counts where the normal interval does not. The per-relation and per-category plots draw the
Wilson intervals; the prompting comparison draws ± 1.96 standard errors.

FRR (Table 5) needs a manual review of sampled violations (`lgmt report --sample-violations`); it is not computed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from lgmt_tasks.adaptive.report import adaptive_tables, noted_titles
from lgmt_tasks.lgmt.control import CONTROL_TABLE, control_table, control_title, has_control
from lgmt_tasks.lgmt.dataset import MR_SETS, first_relation
from lgmt_tasks.lgmt.difficulty import difficulty_heatmaps, difficulty_table
from lgmt_tasks.lgmt.frame import (
    SETTING,
    SUITE,
    VARIANT,
    category_of,
    group_frame,
    sort_key,
    split_variants,
    variant_columns,
)
from lgmt_tasks.report.suite_report import NO_PARSED_GROUP, SuiteReport, no_parsed_group
from lgmt_tasks.report.suite_tools import interval_bars, pyplot, save_png, slug
from lgmt_tasks.scorers.intervals import wilson_interval
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATE_NAMES, RATES, acc_static_per_case
from lgmt_tasks.vocabulary import PROMPTINGS

CATEGORY_COLOURS = {"MR-E": "tab:blue", "MR-S": "tab:orange", "MR-P": "tab:green", "MR-C": "tab:red"}

AVG = "Avg. MVR"
"""Column of Tables 7 and 9 pooling the violations of every model (the paper's definition)."""

MIXED = "all (mixed)"
"""The `variant` of the row of Tables 4, 6 and 8 that pools a setting's variants (when they are split)."""

NO_VARIANT = "–"
"""The `variant` of a relation's row when it has no group (and so no variant)."""

PER_CASE = "acc_static_per_case"
"""Static accuracy with each distinct source case counted once (`pairwise.acc_static_per_case`)."""


def source_cases(groups: pd.DataFrame) -> list[Hashable]:
    """Each group's source case, `(source_dataset, source_id)`; a group whose log lacks them is a case of its own."""
    if not {"source_dataset", "source_id"} <= set(groups.columns):
        return [("", str(i)) for i in groups["id"]]
    return [
        (str(dataset), str(source)) if isinstance(source, str) else ("", str(i))
        for dataset, source, i in zip(groups["source_dataset"], groups["source_id"], groups["id"], strict=True)
    ]


def rates(groups: pd.DataFrame, names: Sequence[str] = RATE_NAMES) -> dict[str, float]:
    """Rates (with `_stderr`) of a set of groups, plus `groups`, `parsed`, `violations` and MVR's Wilson interval.

    With `acc_static` among `names`, `acc_static_per_case` and its standard error follow it.
    """
    outcomes = groups[list(OUTCOME_KEYS)].to_dict("records")
    row: dict[str, float] = {"groups": float(len(outcomes))}
    mvr = RATES["mvr"](outcomes)
    row["parsed"], row["violations"] = mvr.denominator, mvr.numerator
    for name in names:
        rate = RATES[name](outcomes)
        row[name], row[f"{name}_stderr"] = rate.value, rate.stderr
        if name == "mvr":
            row["mvr_low"], row["mvr_high"] = wilson_interval(mvr.numerator, mvr.denominator)
        if name == "acc_static":
            per_case = acc_static_per_case(outcomes, source_cases(groups))
            row[PER_CASE], row[f"{PER_CASE}_stderr"] = per_case.value, per_case.stderr
    return row


def _integral(table: pd.DataFrame) -> pd.DataFrame:
    """Counts as integers when no epoch made them fractional (readable tables)."""
    for column in ("groups", "parsed", "violations"):
        if column in table and all(float(v).is_integer() for v in table[column]):
            table[column] = table[column].astype(int)
    return table


def _sorted(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    return table.sort_values(list(keys), key=sort_key, kind="stable").reset_index(drop=True)


def missing_relations(groups: pd.DataFrame, keys: Sequence[str]) -> list[tuple[Any, ...]]:
    """(*key, relation) for every relation of the tasks run that no group of a `keys` chunk belongs to.

    A chunk's relations are those of its logs' tasks (`mr_e`: MR-E1.1–E2.4; `lgmt`: all 20); a relation counts as
    present when some group's relation, or the first link of its chain (`MR-E1.1+MR-C3`), is it.
    """
    missing: list[tuple[Any, ...]] = []
    for key, chunk in groups.groupby(list(keys), sort=False):
        wanted = dict.fromkeys(mr for task in dict.fromkeys(chunk["task"]) for mr in MR_SETS.get(str(task), ()))
        present = {first_relation(str(mr)) for mr in chunk["mr"]}
        missing += [(*key, mr) for mr in wanted if mr not in present]
    return missing


def per_setting(groups: pd.DataFrame, by: Sequence[str] = (), complete: bool = False) -> pd.DataFrame:
    """One row per (model, prompting, *by) with every rate, its standard error, counts and MVR's Wilson interval.

    Args:
        groups: `group_frame` rows.
        by: Row keys after the setting (`mr`, `category`, `variant`).
        complete: With `mr` first in `by`: add a row for every relation of the tasks run that has no group in a
            setting (0 groups, no rates; `missing_relations`), its other keys `–`.
    """
    keys = [*SETTING, *by]
    rows = [{**dict(zip(keys, key, strict=True)), **rates(chunk)} for key, chunk in groups.groupby(keys, sort=False)]
    if complete and by and by[0] == "mr":
        empty = rates(groups.iloc[0:0])
        rows += [
            {**dict(zip(keys, (*key, *[NO_VARIANT] * (len(by) - 1)), strict=True)), **empty}
            for key in missing_relations(groups, SETTING)
        ]
    return _integral(_sorted(pd.DataFrame(rows), keys))


def per_run(groups: pd.DataFrame) -> pd.DataFrame:
    """The rows of Tables 4, 6 and 8: one per setting, or per (setting, variant) when the variants are split.

    With the variants split, a setting that has several also gets an `all (mixed)` row pooling them (the log's
    headline figures, labelled as the mix they are, so never read as the paper's).
    """
    if not split_variants(groups):
        return per_setting(groups)
    several = groups.groupby(SETTING, sort=False)[VARIANT].nunique()
    mixed = per_setting(groups).assign(**{VARIANT: MIXED})
    mixed = mixed[[bool(several[tuple(key)] > 1) for key in mixed[SETTING].itertuples(index=False)]]
    table = pd.concat([per_setting(groups, [VARIANT]), mixed], ignore_index=True)
    return _integral(_sorted(table, [*SETTING, VARIANT]))


def mvr_matrix(groups: pd.DataFrame, by: str, complete: bool = False) -> pd.DataFrame:
    """Tables 7 and 9: per prompting and settings, one row per `by` value; `Avg. MVR` pools every model.

    Then one column per model. With variants split (`split_variants`), a `variant` column follows `by` and each
    `by` value has a row per variant. With `complete` (`by` is `mr`), every relation of the tasks run that has no
    group in a (prompting, settings) gets a row without values (printed `–`, as the paper's MR-E2.3).
    """
    rows: list[dict[str, Any]] = []
    models = list(dict.fromkeys(groups["model"]))
    keys = ["prompting", "settings", by, *variant_columns(groups)]
    for key, chunk in groups.groupby(keys, sort=False):
        row: dict[str, Any] = {**dict(zip(keys, key, strict=True)), AVG: rates(chunk, ["mvr"])["mvr"]}
        for model in models:
            part = chunk[chunk["model"] == model]
            row[model] = rates(part, ["mvr"])["mvr"] if len(part) else math.nan
        rows.append(row)
    if complete:
        for *setting, relation in missing_relations(groups, ["prompting", "settings"]):
            values = (*setting, relation, *[NO_VARIANT] * (len(keys) - 3))
            rows.append({**dict(zip(keys, values, strict=True)), AVG: math.nan, **dict.fromkeys(models, math.nan)})
    return _sorted(pd.DataFrame(rows, columns=[*keys, AVG, *models]), keys)


def relation_table(groups: pd.DataFrame) -> pd.DataFrame:
    """The `relations` table: every rate per setting and relation (and variant, when split).

    Every relation of the tasks run is listed (`per_setting(..., complete=True)`), with 0 groups if it has none.
    """
    return per_setting(groups, ["mr", *variant_columns(groups)], complete=True).rename(columns={"mr": "relation"})


def category_table(groups: pd.DataFrame) -> pd.DataFrame:
    """The `categories` table: every rate per setting and category (and variant, when split)."""
    return per_setting(groups, ["category", *variant_columns(groups)])


VARIANT_NOTE = (
    "; one row per variant of the law (paper: the law as the paper reads it; introduction, extended: our variants)"
)
"""Appended to every title when the variants are split."""


def tables(groups: pd.DataFrame) -> tuple[dict[str, pd.DataFrame], dict[str, str]]:
    """Every LGMT table (file stem → frame) and its title, from `group_frame`'s output."""
    setting = per_run(groups)
    run = [*SETTING, *variant_columns(groups)]
    per_case = [PER_CASE, f"{PER_CASE}_stderr"]
    out: dict[str, pd.DataFrame] = {
        "table4_effectiveness": setting[
            [*run, "mvr", "mvr_stderr", "mvr_low", "mvr_high", "violations", "parsed", "groups", "unparsed_rate"]
        ],
        "table6_static_vs_lgmt": setting[
            [*run, "acc_static", "acc_static_stderr", *per_case, "acc_cons", "acc_cons_stderr", "hdr", "hdr_stderr"]
        ],
        "table7_categories": mvr_matrix(groups, "category"),
        "table8_prompting": setting[
            [*run, "acc_static", PER_CASE, "acc_cons", "hdr", "mvr", "fur", "unparsed_rate", "parsed", "groups"]
        ],
        "table9_relations": mvr_matrix(groups, "mr", complete=True).rename(columns={"mr": "relation"}),
        "categories": category_table(groups),
        "relations": relation_table(groups),
    }
    titles = {
        "table4_effectiveness": "Table 4: MVR and number of violations per model (95% Wilson interval on MVR)",
        "table6_static_vs_lgmt": "Table 6: reference-based accuracy (Acc_static, and per distinct source case) vs "
        "LGMT (Acc_cons, HDR)",
        "table7_categories": "Table 7: MVR per relation category; Avg. MVR pools the violations of all models",
        "table8_prompting": "Table 8: prompting strategies: Acc_static (and per source case), Acc_cons, HDR, MVR, FUR",
        "table9_relations": "Table 9: MVR per relation; Avg. MVR pools the violations of all models; – no group",
        "categories": "Every rate per model, prompting and category, with standard errors and counts",
        "relations": "Every rate per model, prompting and relation, with standard errors and counts; – no group",
    }
    if split_variants(groups):
        titles = {stem: title + VARIANT_NOTE for stem, title in titles.items()}
    difficulty = difficulty_table(groups)  # only for groups built on QMFOL sources (-T source=qmfol)
    if not difficulty.empty:
        out["difficulty_depth_width"] = difficulty
        titles["difficulty_depth_width"] = "MVR (95% Wilson interval) and Acc_cons per depth × width of the sources"
        if split_variants(groups):
            titles["difficulty_depth_width"] += VARIANT_NOTE
    if has_control(groups):  # runs with -T control=true | render: MVR against the noise floor or the style control
        out[CONTROL_TABLE], titles[CONTROL_TABLE] = control_table(groups, run), control_title(groups)
    return out, titles


def relation_plot(
    relations: pd.DataFrame, model: str, prompting: str, path: Path, by: str = "relation", settings: str = ""
) -> Path:
    """Bars of MVR per relation (or category) of one setting, with 95% Wilson intervals, coloured by category.

    With a `variant` column (variants split), one bar per (relation, variant), labelled `MR-E1.2 [paper]`. A relation
    without groups is a bar marked n/a, its count `–`.
    """
    chunk = relations[
        (relations["model"] == model) & (relations["prompting"] == prompting) & (relations["settings"] == settings)
    ]
    names = [str(v) for v in chunk[by]]
    colours = [CATEGORY_COLOURS.get(category_of(v), "tab:gray") for v in names]
    labels = names
    if VARIANT in chunk:
        labels = [
            name if variant == NO_VARIANT else f"{name} [{variant}]"
            for name, variant in zip(names, chunk[VARIANT], strict=True)
        ]
    counts = [
        f"{label}  (–)" if groups == 0 else f"{label}  ({int(n)})" if float(n).is_integer() else f"{label}  ({n:g})"
        for label, n, groups in zip(labels, chunk["parsed"], chunk["groups"], strict=True)
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
    """Table 8 as bars: one panel per metric, models on the x axis, one bar per prompting (± 1.96 standard errors).

    With a `variant` column (variants split), each (model, settings, variant) is a position on the x axis.
    """
    plt = pyplot()
    split = VARIANT in setting
    variants = list(setting[VARIANT]) if split else [""] * len(setting)
    runs = list(dict.fromkeys(zip(setting["model"], setting["settings"], variants, strict=True)))
    promptings = sorted(set(setting["prompting"]), key=lambda p: (PROMPTINGS.index(p) if p in PROMPTINGS else 9, p))
    fig, axes = plt.subplots(1, len(COMPARED), figsize=(3.0 * len(COMPARED), 3.4), sharey=True)
    width = 0.8 / max(1, len(promptings))
    for ax, metric in zip(axes, COMPARED, strict=True):
        for j, prompting in enumerate(promptings):
            xs: list[float] = []
            values: list[float] = []
            errors: tuple[list[float], list[float]] = ([], [])
            for i, (model, settings, variant) in enumerate(runs):
                row = setting[
                    (setting["model"] == model)
                    & (setting["prompting"] == prompting)
                    & (setting["settings"] == settings)
                    & ((setting[VARIANT] == variant) if split else True)
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
        names = [
            "\n".join(part for part in (model, settings, f"[{variant}]" if variant else "") if part)
            for model, settings, variant in runs
        ]
        ax.set_xticks(range(len(runs)), names, rotation=30, ha="right", fontsize=7)
        ax.set_title(metric, fontsize=10)
        ax.set_ylim(0.0, 1.0)
    axes[0].set_ylabel("rate (± 1.96 standard errors)")
    axes[-1].legend(fontsize=7, loc="upper right")
    fig.suptitle("LGMT metrics by prompting strategy (Table 8)", fontsize=10)
    fig.tight_layout()
    return save_png(fig, path)


def plots(groups: pd.DataFrame, folder: Path) -> list[Path]:
    """Write the PNGs: MVR per relation and per category for every setting, and the prompting comparison.

    With variants split, every bar is one (relation or category, variant), every x position of the prompting
    comparison one (model, settings, variant); the pooled `all (mixed)` rows are not drawn.
    """
    relations = relation_table(groups)
    categories = category_table(groups)
    written: list[Path] = []
    for model, prompting, settings in relations[SETTING].drop_duplicates().itertuples(index=False):
        name = "_".join([slug(str(model)), slug(str(prompting)), *([slug(settings)] if settings else [])]) + ".png"
        written.append(relation_plot(relations, model, prompting, folder / f"mvr_relations_{name}", settings=settings))
        written.append(
            relation_plot(
                categories, model, prompting, folder / f"mvr_categories_{name}", by="category", settings=settings
            )
        )
    written.append(prompting_plot(per_setting(groups, variant_columns(groups)), folder / "prompting_comparison.png"))
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
        plots; no tables when no LGMT group was scored. Runs with `-T control=true` or `-T control=render` add
        `control_noise_floor` (`lgmt_tasks.lgmt.control.control_table`; column `control` says which); runs with
        `-T adaptive` add `adaptive` (`lgmt_tasks.adaptive.report.adaptive_tables`) and a note on every other title.
    """
    groups = group_frame(paths)
    if groups.empty:
        return SuiteReport(SUITE)
    found, titles = tables(groups)
    adaptive, adaptive_titles = adaptive_tables(paths)  # runs with -T adaptive: `adaptive.csv`, and a note on the rest
    if adaptive:
        found.update(adaptive)
        titles = noted_titles({**titles, **adaptive_titles}, list(adaptive))
    written = plots(groups, Path(out_dir) / SUITE) if out_dir is not None else []
    return SuiteReport(SUITE, tables=found, plots=written, titles=titles)


def _cell(row: pd.Series, name: str) -> str:
    """`value ± stderr` to three decimals; `–` without a group (the paper), `no parsed group` without a parsed one.

    A rate is NaN in both cases; the row's `groups` and `parsed` counts tell them apart.
    """
    value, stderr = float(row[name]), float(row.get(f"{name}_stderr", math.nan))
    if math.isnan(value):
        return NO_PARSED_GROUP if no_parsed_group(row.get("groups"), row.get("parsed")) else "–"
    return f"{value:.3f}" if math.isnan(stderr) else f"{value:.3f} ± {stderr:.3f}"


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


EVAL_REPORT_RATES: tuple[str, ...] = ("mvr", "acc_static", PER_CASE, "acc_cons")
"""The rates of the per-variant table of `lgmt report --eval-report`."""


def eval_report_section(path: str) -> str:
    """What `lgmt report --eval-report` adds for an LGMT log that holds more than one variant of the laws.

    The log's own metrics (`mvr`, `mvr_MR-E1.2`, ...) pool every variant; this table splits them: one `all` row per
    variant, then one row per (relation, variant), every relation of the task listed (`–`: no group).

    Args:
        path: The log file.

    Returns:
        Markdown (a paragraph and a table), or "" when the log holds one variant (or no LGMT group).
    """
    groups = group_frame([path])
    if groups.empty or not split_variants(groups):
        return ""
    overall = per_setting(groups, [VARIANT]).assign(mr="all")
    relations = per_setting(groups, ["mr", VARIANT], complete=True)
    names = ["relation", VARIANT, "groups", "parsed", "violations", *EVAL_REPORT_RATES]
    lines = [
        "**Per variant of the laws:** this log holds groups of more than one variant (`paper`: the law as the paper "
        "reads it; `introduction`, `extended`: our variants). The metrics above and the log's per-relation metrics "
        "pool them; here they are split (value ± standard error; – no group; no parsed group: groups, none parsed).",
        "",
        f"| {' | '.join(names)} |",
        f"|{'---|' * len(names)}",
    ]
    for _, row in pd.concat([overall, relations], ignore_index=True).iterrows():
        counts = [_count(row[name]) for name in ("groups", "parsed", "violations")]
        cells = [str(row["mr"]), str(row[VARIANT]), *counts, *(_cell(row, name) for name in EVAL_REPORT_RATES)]
        lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines)
