"""Reliability as a function of difficulty: MVR and Acc_cons per (depth, width) cell of QMFOL-sourced LGMT groups.

QMFOL (Zheng et al., 2026) reports accuracy over a depth × width grid (its Figure 4). With `-T source=qmfol` the
source cases of LGMT's groups are QMFOL problems of a chosen depth and width (`lgmt_tasks.sources.qmfol`), so the
same grid can carry LGMT's reliability metrics instead: the metamorphic violation rate (MVR: does the model change
its answer under a proven label-preserving rewrite?) and consistent accuracy (Acc_cons: right on the source and
consistent on the follow-up). The depth and width of a group are read from its `source_id` by
`lgmt_tasks.sources.qmfol.difficulty_of`, the one reader of that format (the rows have no depth column: adding one
would change the schema of every committed dataset). With `-T source=logicasker` the sources are LogicAsker's
chains of a chosen length (`lgmt_tasks.sources.logicasker`): one axis only, so their cells have the depth (the
chain length) and width `NO_WIDTH` (`–`), one column of the heatmap.

Sampling (`lgmt_tasks.sources.pipeline.ordered_candidates`): each relation's candidates go round-robin over the cells
and, within a cell, over the labels, so every cell gets the same number of groups of every relation (±1) and about
the same mix of labels; a cell's MVR is then not a different mix of relations. What sampling cannot fix is shown:
each row has its number of groups (`groups`, also written in every heatmap cell) and of relations (`relations`: a
relation with no site in a cell, MR-P5 at QMFOL width 1, is missing there).

`difficulty_table` gives one row per setting (model, prompting, settings) and cell, with the scorer's own rate
functions (`scorers.pairwise.RATES`, so a cell's numbers are those the scorer would log for its groups) and MVR's
95% Wilson interval; `difficulty_heatmaps` draws them as QMFOL's Figure 4 draws accuracy
(`lgmt_tasks/qmfol/report.py`: depth on the rows, width on the columns, the value written in each cell), one PNG
per setting with an MVR panel and an Acc_cons panel, each cell also showing its number of groups. When the groups
reported hold more than one variant of the laws (`lgmt_tasks.lgmt.frame.split_variants`), a `variant` column follows
the setting, each cell has a row per variant and each (setting, variant) its own heatmap, as in every LGMT table: no
cell pools the paper's law with our variants (issue #38).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from lgmt_tasks.lgmt.frame import VARIANT, variant_columns, variant_rank
from lgmt_tasks.report.suite_tools import pyplot, save_png, slug
from lgmt_tasks.scorers.intervals import wilson_interval
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATES
from lgmt_tasks.sources import logicasker
from lgmt_tasks.sources.qmfol import SOURCE, difficulty_of

SETTING: list[str] = ["model", "prompting", "settings"]
"""A run's identity in `lgmt_tasks.lgmt.report` (never pooled across)."""

COLUMNS: list[str] = [
    *SETTING,
    "depth",
    "width",
    "groups",
    "relations",
    "parsed",
    "violations",
    "mvr",
    "mvr_low",
    "mvr_high",
    "acc_cons",
    "acc_cons_stderr",
    "acc_static",
]
"""The columns of `difficulty_table` (with `variant` after the setting when the variants are split)."""

PANELS: tuple[tuple[str, str, str], ...] = (
    ("mvr", "MVR (%)", "Reds"),
    ("acc_cons", "Acc_cons (%)", "Greens"),
)
"""The heatmap panels: column of `difficulty_table`, title, colour map."""


NO_WIDTH = "–"
"""The `width` of a depth-only source's cell (LogicAsker's chains: one axis, the chain length)."""


def source_cell(dataset: str, source_id: str) -> tuple[int, int | str] | None:
    """The (depth, width) cell of a group's source: QMFOL's (depth, width), or a LogicAsker chain's (length, `–`).

    LogicAsker varies one axis only, so its width is `NO_WIDTH` rather than a made-up 0, which would read as QMFOL's
    width 0 (a bare chain) and would pool the two sources' cells. None for a source without a difficulty.
    """
    if dataset == SOURCE:
        return difficulty_of(source_id)
    if dataset == logicasker.SOURCE:
        depth = logicasker.difficulty_of(source_id)
        return None if depth is None else (depth, NO_WIDTH)
    return None


def _width_order(width: Any) -> float:
    """Sort key of a width: QMFOL's widths in order, then `NO_WIDTH` (ints and a string do not compare)."""
    return math.inf if isinstance(width, str) else float(width)


def with_difficulty(groups: pd.DataFrame) -> pd.DataFrame:
    """The groups whose source has a difficulty (QMFOL, LogicAsker), with `depth` and `width` columns.

    Args:
        groups: `lgmt_tasks.lgmt.frame.group_frame` rows (with `source_dataset` and `source_id`).

    Returns:
        The groups with a difficulty (empty when there are none); `width` is `NO_WIDTH` for a LogicAsker source.
    """
    if groups.empty or "source_id" not in groups or "source_dataset" not in groups:
        return pd.DataFrame(columns=[*groups.columns, "depth", "width"])
    cells = [
        source_cell(str(dataset), str(sid))
        for dataset, sid in zip(groups["source_dataset"], groups["source_id"], strict=True)
    ]
    keep = [c is not None for c in cells]
    out = groups[keep].copy()
    out["depth"] = [c[0] for c in cells if c is not None]
    out["width"] = [c[1] for c in cells if c is not None]
    return out


def cell_rates(chunk: pd.DataFrame) -> dict[str, float]:
    """Counts, MVR with its Wilson interval, Acc_cons with its standard error, and Acc_static of some groups.

    The counts are the groups, their distinct relations, the parsed groups and the violations.
    """
    outcomes = chunk[list(OUTCOME_KEYS)].to_dict("records")
    mvr, cons = RATES["mvr"](outcomes), RATES["acc_cons"](outcomes)
    low, high = wilson_interval(mvr.numerator, mvr.denominator)
    return {
        "groups": float(len(outcomes)),
        "relations": float(chunk["mr"].nunique()) if "mr" in chunk else math.nan,
        "parsed": mvr.denominator,
        "violations": mvr.numerator,
        "mvr": mvr.value,
        "mvr_low": low,
        "mvr_high": high,
        "acc_cons": cons.value,
        "acc_cons_stderr": cons.stderr,
        "acc_static": RATES["acc_static"](outcomes).value,
    }


def difficulty_table(groups: pd.DataFrame) -> pd.DataFrame:
    """One row per setting and (depth, width) cell of the QMFOL- and LogicAsker-sourced groups, in depth, width order.

    A LogicAsker cell has width `NO_WIDTH` and comes after the QMFOL cells of its depth.

    Args:
        groups: `group_frame` rows; groups of other sources are left out.

    Returns:
        A frame with `COLUMNS` (counts as integers when no epoch made them fractional); empty without QMFOL groups.
        With several variants of the laws among `groups`, a `variant` column after the setting and a row per
        (setting, variant, cell).
    """
    split = variant_columns(groups)
    columns = [*SETTING, *split, *COLUMNS[len(SETTING) :]]
    cells = with_difficulty(groups)
    if cells.empty:
        return pd.DataFrame(columns=columns)
    keys = [*SETTING, *split, "depth", "width"]

    def order(item: tuple[tuple[Any, ...], pd.DataFrame]) -> tuple[Any, ...]:
        key = dict(zip(keys, item[0], strict=True))
        setting = tuple("" if pd.isna(key[k]) else str(key[k]) for k in SETTING)
        variant = variant_rank(str(key[VARIANT])) if split else ()
        return (*setting, variant, key["depth"], _width_order(key["width"]))

    chunks = sorted(cells.groupby(keys, sort=False, dropna=False), key=order)
    rows = [{**dict(zip(keys, key, strict=True)), **cell_rates(chunk)} for key, chunk in chunks]
    table = pd.DataFrame(rows, columns=columns)
    for column in ("groups", "relations", "parsed", "violations"):
        if all(float(v).is_integer() for v in table[column]):
            table[column] = table[column].astype(int)
    return table.reset_index(drop=True)


def difficulty_heatmaps(table: pd.DataFrame, folder: Path) -> list[Path]:
    """Draw MVR and Acc_cons over depth × width, one PNG per setting (`difficulty_<model>_<prompting>[_<settings>]`).

    With a `variant` column (variants split), one PNG per (setting, variant), its name ending in `_<variant>`.

    Args:
        table: `difficulty_table` rows.
        folder: Where the images go (created).

    Returns:
        The image paths, in setting order; empty for an empty table.
    """
    if table.empty:
        return []
    plt = pyplot()
    written: list[Path] = []
    split = [VARIANT] if VARIANT in table else []
    for key, part in table.groupby([*SETTING, *split], sort=False):
        model, prompting, settings, *variant = key
        fig, axes = plt.subplots(1, len(PANELS), figsize=(4.2 * len(PANELS), 3.8))
        order = {"axis": 1, "key": lambda index: index.map(_width_order)}
        counts = part.pivot(index="depth", columns="width", values="groups").sort_index().sort_index(**order)
        for ax, (column, title, cmap) in zip(axes, PANELS, strict=True):
            grid = part.pivot(index="depth", columns="width", values=column).sort_index().sort_index(**order)
            values = grid.to_numpy(dtype=float) * 100.0
            image = ax.imshow(values, cmap=cmap, aspect="auto", vmin=0.0, vmax=100.0)
            ax.set_xticks(range(len(grid.columns)), [f"W{w}" for w in grid.columns])
            ax.set_yticks(range(len(grid.index)), [f"D{d}" for d in grid.index])
            ax.set_title(title)
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    dark = not math.isnan(values[i, j]) and values[i, j] > 60.0  # white on the darkest shades
                    text = _cell_text(values[i, j], counts.iat[i, j])
                    ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
            fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
        shown = [str(prompting), *([str(settings)] if settings else []), *(f"[{v}]" for v in variant)]
        fig.suptitle(f"LGMT by source difficulty: {model}, " + ", ".join(shown))
        fig.tight_layout()
        parts = [str(model), str(prompting), *([str(settings)] if settings else []), *(str(v) for v in variant)]
        name = "_".join(slug(part) for part in parts)
        written.append(save_png(fig, Path(folder) / f"difficulty_{name}.png"))
    return written


def _cell_text(value: float, groups: Any) -> str:
    """A cell's label: the rate in percent and the number of groups (`–` for a cell without a rate)."""
    n = "" if groups is None or (isinstance(groups, float) and math.isnan(groups)) else f"\nn={groups:g}"
    return ("–" if math.isnan(value) else f"{value:.1f}") + n


__all__ = ["COLUMNS", "NO_WIDTH", "PANELS", "cell_rates", "difficulty_heatmaps", "difficulty_table", "with_difficulty"]
