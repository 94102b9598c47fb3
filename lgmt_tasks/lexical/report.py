"""Logic-grounded vs lexical relations, side by side, for one model: the lexical suite's part of `lgmt report`.

LGMT's claim (§2.3.2) is that text-level relations drift: some of their "violations" are right answers to a
changed problem. This report lets a user check it on their own model: the violation rate (MVR) and hidden-defect
rate (HDR) of every LGMT relation (from an LGMT log) next to every lexical relation (from a `lexical` log) on the
same source cases, with MR-49's violation rate (the same question asked twice) as the noise floor: a relation whose
MVR is not clearly above the floor detects nothing but the model's own randomness.

Everything is computed from the logs' per-sample scores with the pure functions of `scorers/pairwise.py`, in the
same way as the logged metrics: each group's epochs are averaged first (Inspect's mean reducer), then rates are
ratios of sums over groups, with delta-method standard errors over groups.

With `--epochs N`, the Markdown report and the tables add flakiness (LLMorph's Table XI), computed by
`flakiness.py`, which also holds LLMorph's own re-run protocol (`lgmt failing-groups`, `lgmt report --flakiness`).

The headline is MVR on **proven** groups (the follow-up's label proven by Z3: MR-19, MR-84, MR-152), with the
**assumed** groups beside it, named apart (`basis_rates`): on an assumed group the follow-up's gold is taken to be the
source's, so a perfect model has MVR 0 there by construction, whatever the transformation did to the meaning. How
often it did is measured, not assumed, by `drift.drift_table` on the logged rows (the "What 'assumed' hides" table).

`lgmt report` prints `lexical_report` (`lgmt_tasks/cli/report.py`); `split_logs` sorts a list of logs into the two
families; `suite_report` gives the same comparison, and the drift table, as tables and a plot for `lgmt report --out`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog

from lgmt_tasks.adaptive.report import adaptive_tables, noted_titles
from lgmt_tasks.lexical.catalogue import NOISE_FLOOR
from lgmt_tasks.lexical.drift import drift_table
from lgmt_tasks.lexical.expectations import BASES
from lgmt_tasks.lexical.flakiness import flakiness_table, flakiness_tables
from lgmt_tasks.lexical.log_samples import (
    FAMILIES,
    LEXICAL_SCORER,
    LGMT_SCORER,
    LogLike,
    load_log,
    relation_order,
    sample_table,
    scorer_of,
    with_run,
)
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, ratio_of_sums


def _per_group(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Average each group's epochs (what Inspect's mean reducer does before metrics)."""
    numeric = [*OUTCOME_KEYS, "transformed"]
    return table.groupby(["id", *keys], sort=False, as_index=False)[numeric].mean()


def _rates(groups: pd.DataFrame) -> dict[str, float]:
    parsed = groups["parsed"].tolist()
    mvr = ratio_of_sums(groups["violation"].tolist(), parsed)
    hdr = ratio_of_sums(groups["hidden_defect"].tolist(), parsed)
    acc = ratio_of_sums(groups["source_correct"].tolist(), parsed)
    return {
        "groups": float(len(groups)),
        "compared": float(sum(parsed)),
        "mvr": mvr.value,
        "mvr_stderr": mvr.stderr,
        "hdr": hdr.value,
        "hdr_stderr": hdr.stderr,
        "acc_static": acc.value,
    }


def relation_rates(log: LogLike, by_part: bool = False) -> pd.DataFrame:
    """Per relation (optionally per relation and part): groups, compared groups, MVR and HDR with standard errors.

    Args:
        log: An LGMT or lexical log (a path or a loaded `EvalLog` with samples).
        by_part: Split lexical relations by part (premises / conclusion / both).

    Returns:
        One row per relation, in catalogue order, then an `all` row; columns `family, relation, part, kind,
        expected, groups, compared, mvr, mvr_stderr, hdr, hdr_stderr, acc_static`.
    """
    loaded = load_log(log)
    family = FAMILIES[scorer_of(loaded)]
    table = sample_table(loaded)
    keys = ["mr", "kind", "expected", *(["part"] if by_part and family == "lexical" else [])]
    groups = _per_group(table, keys)
    rows = []
    for key, chunk in groups.groupby(keys, sort=False):
        values = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        rows.append(
            {
                "family": family,
                "relation": values["mr"],
                "part": values.get("part", ""),
                "kind": values["kind"],
                "expected": values["expected"],
                **_rates(chunk),
            }
        )
    rows.sort(key=lambda r: (relation_order(family, str(r["relation"])), str(r["part"])))
    rows.append({"family": family, "relation": "all", "part": "", "kind": "", "expected": "", **_rates(groups)})
    return pd.DataFrame(rows)


HEADLINE_BASIS = "proven"
"""The basis of the lexical headline MVR: groups whose follow-up label is proven, the only ones that can show drift."""


def basis_rates(lexical_log: LogLike) -> pd.DataFrame:
    """MVR and HDR per basis of the follow-up's gold (`proven` first, then `assumed`, `unproven`), and `all`.

    Args:
        lexical_log: A `lexical` log.

    Returns:
        One row per basis present in the log, in `BASES` order, then `all`; columns `basis, groups, compared, mvr,
        mvr_stderr, hdr, hdr_stderr, acc_static`.
    """
    groups = _per_group(sample_table(load_log(lexical_log)), ["expectation"])
    rows = [
        {"basis": basis, **_rates(groups[groups["expectation"] == basis])}
        for basis in BASES
        if (groups["expectation"] == basis).any()
    ]
    rows.append({"basis": "all", **_rates(groups)})
    return pd.DataFrame(rows)


def drift_of_log(lexical_log: LogLike) -> pd.DataFrame:
    """`drift.drift_table` of the rows a lexical log ran (one per group, read from the samples' metadata)."""
    seen: dict[str, dict[str, object]] = {}
    for sample in load_log(lexical_log).samples or []:
        seen.setdefault(str(sample.id), dict(sample.metadata or {}))
    return drift_table(seen.values())


def noise_floor(lexical_log: LogLike) -> float:
    """MR-49's violation rate in a lexical log (NaN if the log has no compared MR-49 group)."""
    rates = relation_rates(lexical_log)
    floor = rates.loc[rates["relation"] == NOISE_FLOOR, "mvr"]
    return float(floor.iloc[0]) if len(floor) else math.nan


def side_by_side(lgmt_log: LogLike, lexical_log: LogLike, by_part: bool = False) -> pd.DataFrame:
    """Logic-grounded and lexical relations of one model in one table, with MR-49's rate as the noise floor.

    Args:
        lgmt_log: A log of an LGMT task (`lgmt`, `mr_e`, ...).
        lexical_log: A log of the `lexical` task for the same model (ideally the same source and seed).
        by_part: Split lexical relations by part.

    Returns:
        `relation_rates` of both logs stacked (logic-grounded first), plus `floor` (MR-49's MVR) and
        `mvr_above_floor` (MVR − floor) on every row.

    Raises:
        ValueError: If the logs are of different models, or not one LGMT and one lexical log.
    """
    lgmt, lexical = load_log(lgmt_log), load_log(lexical_log)
    if scorer_of(lgmt) != LGMT_SCORER or scorer_of(lexical) != LEXICAL_SCORER:
        raise ValueError("side_by_side needs an LGMT log and a lexical log, in that order")
    if lgmt.eval.model != lexical.eval.model:
        raise ValueError(f"the logs are of different models: {lgmt.eval.model} vs {lexical.eval.model}")
    table = pd.concat([relation_rates(lgmt), relation_rates(lexical, by_part=by_part)], ignore_index=True)
    floor = noise_floor(lexical)
    table["floor"] = floor
    table["mvr_above_floor"] = table["mvr"] - floor
    return table


def split_logs(paths: Iterable[LogLike]) -> tuple[list[EvalLog], list[EvalLog]]:
    """Sort logs into (LGMT logs, lexical logs) by their scorer; other logs are ignored."""
    lgmt: list[EvalLog] = []
    lexical: list[EvalLog] = []
    for path in paths:
        log = load_log(path)
        try:
            scorer = scorer_of(log)
        except ValueError:
            continue
        (lgmt if scorer == LGMT_SCORER else lexical).append(log)
    return lgmt, lexical


def _fmt(value: object, stderr: object = None) -> str:
    if not isinstance(value, int | float) or math.isnan(value):
        return "-"
    if isinstance(stderr, int | float) and not math.isnan(stderr):
        return f"{value:.3f} ± {stderr:.3f}"
    return f"{value:.3f}"


def lexical_report(lexical_log: LogLike, lgmt_log: LogLike | None = None, by_part: bool = False) -> str:
    """Markdown for `lgmt report`: relations side by side (or lexical alone), the noise floor, and flakiness.

    Args:
        lexical_log: A `lexical` log.
        lgmt_log: An LGMT log of the same model, for the side-by-side table (optional).
        by_part: Split lexical relations by part.

    Returns:
        The report.
    """
    lexical = load_log(lexical_log)
    table = (
        side_by_side(lgmt_log, lexical, by_part=by_part)
        if lgmt_log is not None
        else relation_rates(lexical, by_part=by_part).assign(floor=noise_floor(lexical))
    )
    floor = float(table["floor"].iloc[0])
    shown = pd.DataFrame(
        {
            "family": table["family"],
            "relation": table["relation"],
            **({"part": table["part"]} if by_part else {}),
            "kind": table["kind"],
            "expected": table["expected"],
            "groups": table["groups"].astype(int),
            "mvr": [_fmt(v, s) for v, s in zip(table["mvr"], table["mvr_stderr"], strict=True)],
            "hdr": [_fmt(v, s) for v, s in zip(table["hdr"], table["hdr_stderr"], strict=True)],
            "mvr − floor": [_fmt(v - floor) if not math.isnan(floor) else "-" for v in table["mvr"]],
        }
    )
    lines = [*_headline(lexical), "### Logic-grounded vs lexical relations", "", shown.to_markdown(index=False), ""]
    lines.append(
        f"Noise floor (MR-49, the same question twice): MVR {_fmt(floor)}."
        if not math.isnan(floor)
        else "No MR-49 groups in the lexical log: run it with MR-49 (`-T mr=function` includes it) to get the noise "
        "floor."
    )
    drift = drift_of_log(lexical)
    if len(drift) > 1:
        lines += ["", *_drift_section(drift)]
    if (lexical.eval.config.epochs or 1) > 1:
        flaky = flakiness_table(lexical)
        lines += [
            "",
            f"### Flakiness over {lexical.eval.config.epochs} epochs of every group (Table XI's shape, our protocol)",
            "",
            flaky.to_markdown(index=False, floatfmt=".2f"),
        ]
    return "\n".join(lines) + "\n"


def _headline(lexical: EvalLog) -> list[str]:
    """The report's head: MVR on proven groups first, the assumed (and unproven) groups beside it, named apart."""
    rates = basis_rates(lexical).set_index("basis")
    lines = [f"## Lexical relations: {lexical.eval.model}", ""]
    if HEADLINE_BASIS in rates.index:
        row = rates.loc[HEADLINE_BASIS]
        lines.append(
            f"**Headline: MVR on proven groups {_fmt(row['mvr'], row['mvr_stderr'])}** "
            f"({int(row['compared'])} compared groups whose follow-up label is proven by Z3)."
        )
    else:
        lines.append(
            "**Headline: MVR on proven groups -** (no proven group in this log: run MR-19, MR-84 or MR-152 for it)."
        )
    beside = {
        "assumed": "the follow-up's label is taken to be the source's, so a perfect model gets 0 by construction",
        "unproven": "the relation claims a change it cannot prove",
    }
    for basis, meaning in beside.items():
        if basis in rates.index:
            row = rates.loc[basis]
            lines.append(
                f"Beside it, MVR on {basis} groups {_fmt(row['mvr'], row['mvr_stderr'])} "
                f"({int(row['compared'])} compared groups; {meaning})."
            )
    return [*lines, ""]


def _drift_section(drift: pd.DataFrame) -> list[str]:
    """The drift table: what an assumed label hides, per relation."""
    shown = drift.assign(
        reading_drift=[_fmt(v) for v in drift["reading_drift"]],
        keyword_drift=[_fmt(v) for v in drift["keyword_drift"]],
    ).rename(
        columns={
            "template": "template sources",
            "reading_drift": "no longer reads back",
            "keyword_sources": "key-word sources",
            "keyword_drift": "key words no longer match",
        }
    )
    return [
        "### What 'assumed' hides: follow-ups that drift from the source's logical content",
        "",
        "Share of follow-ups whose English no longer reads back to the FOL they should state (over sources that are "
        "template English), and share whose conclusion has a content word no premise contains (over sources whose "
        "conclusion words all occur in their premises).",
        "",
        shown.to_markdown(index=False),
    ]


# ---------------------------------------------------------------------------------- the suite's report for --out


def comparison_tables(lgmt_logs: Sequence[EvalLog], lexical_logs: Sequence[EvalLog]) -> pd.DataFrame:
    """Per lexical log: `side_by_side` with the first LGMT log of the same model, else its `relation_rates` alone.

    Every row carries `model`, `log` (the lexical log's file name), `floor` (MR-49's MVR in that log) and
    `mvr_above_floor`; counts are integers when no epoch averaging made them fractions, and the `part` column (empty
    without a by-part split) is left out.
    """
    parts = []
    for lexical in lexical_logs:
        partner = next((log for log in lgmt_logs if log.eval.model == lexical.eval.model), None)
        if partner is not None:
            table = side_by_side(partner, lexical)
        else:
            table = relation_rates(lexical)
            table["floor"] = noise_floor(lexical)
            table["mvr_above_floor"] = table["mvr"] - table["floor"]
        parts.append(with_run(table, lexical))
    out = pd.concat(parts, ignore_index=True)
    if (out["part"] == "").all():
        out = out.drop(columns="part")
    for column in ("groups", "compared"):
        if (out[column] % 1 == 0).all():
            out[column] = out[column].astype(int)
    return out


def drift_tables(lexical_logs: Sequence[EvalLog]) -> pd.DataFrame:
    """Per lexical log: `drift_of_log` (the rows it ran), with `model` and `log` first; empty when no log has a row.

    A log whose rows are all pending (LLM follow-ups made at eval time) or lack FOL contributes nothing.
    """
    parts = [with_run(drift, log) for log in lexical_logs if len(drift := drift_of_log(log)) > 1]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


FAMILY_COLOURS = {"logic-grounded": "tab:blue", "lexical": "tab:orange"}


def comparison_plots(table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """MVR per relation with 95% normal intervals (± 1.96 stderr, clipped to [0, 1]) and MR-49's floor, per log."""
    from lgmt_tasks.report.suite_tools import interval_bars, save_png, slug

    written = []
    for (model, log), part in table.groupby(["model", "log"], sort=False):
        part = part[part["relation"] != "all"]
        values = part["mvr"].tolist()
        errors = [1.96 * s if not math.isnan(s) else math.nan for s in part["mvr_stderr"]]
        floor = float(part["floor"].iloc[0]) if len(part) else math.nan
        fig = interval_bars(
            [str(r) for r in part["relation"]],
            values,
            [max(0.0, v - e) for v, e in zip(values, errors, strict=True)],
            [min(1.0, v + e) for v, e in zip(values, errors, strict=True)],
            title=f"Violation rate per relation: {model}",
            xlabel="MVR (violations / compared groups), 95% interval",
            colors=[FAMILY_COLOURS.get(str(f), "tab:gray") for f in part["family"]],
            reference=floor,
            reference_label="noise floor (MR-49)",
            legend={f: FAMILY_COLOURS[f] for f in FAMILY_COLOURS if f in set(part["family"])},
        )
        written.append(save_png(fig, out_dir / f"relations_{slug(str(model))}_{slug(Path(str(log)).stem)}.png"))
    return written


def suite_report(paths: Iterable[LogLike], out_dir: Path | None = None) -> SuiteReport:
    """The lexical-vs-logic comparison from Inspect logs (for `lgmt report LOG... --out DIR`).

    Tables (stems): `relations` (per lexical log: MVR and HDR with standard errors per relation, logic-grounded
    relations first when an LGMT log of the same model is given, MR-49's noise floor and MVR − floor on every row),
    `drift` (per lexical log: `drift.drift_table` of the rows it ran, what the `assumed` labels hide),
    `flakiness` (LLMorph Table XI, for logs run with `--epochs 2` or more) and `adaptive` (logs run with
    `-T adaptive`: `lgmt_tasks.adaptive.report.adaptive_tables`, and a note on every other title). Plot:
    `relations_<model>_<log>.png`, MVR per relation with 95% intervals and the noise floor.

    Args:
        paths: Log files or folders, or loaded logs; LGMT logs are used only next to a lexical log of their model,
            other logs are skipped.
        out_dir: The report folder; plots go to `out_dir/lexical/` (None: no plots).

    Returns:
        A `SuiteReport` (no tables when no lexical log is among `paths`).
    """
    from lgmt_tasks.report.suite_tools import load_logs

    lgmt_logs, lexical_logs = split_logs(load_logs(paths))
    if not lexical_logs:
        return SuiteReport("lexical")
    tables = {"relations": comparison_tables(lgmt_logs, lexical_logs)}
    titles = {
        "relations": "Logic-grounded vs lexical relations (LGMT §2.3.2): MVR and HDR per relation, with MR-49's "
        "noise floor (MVR is LLMorph Table V's failure rate λ)"
    }
    drift = drift_tables(lexical_logs)
    if not drift.empty:
        tables["drift"] = drift
        titles["drift"] = (
            "What 'assumed' hides: per relation, the share of follow-ups whose English no longer reads back to the "
            "FOL they should state, and whose conclusion has a content word no premise contains"
        )
    paired = {log.eval.model for log in lexical_logs}
    flaky = flakiness_tables([*lexical_logs, *(log for log in lgmt_logs if log.eval.model in paired)])
    if not flaky.empty:
        tables["flakiness"] = flaky
        titles["flakiness"] = (
            "LLMorph Table XI: among groups that violated at least once, the share violating in k of N epochs"
        )
    plots = comparison_plots(tables["relations"], Path(out_dir) / "lexical") if out_dir is not None else []
    adaptive, adaptive_titles = adaptive_tables(lexical_logs)  # runs with -T adaptive: `adaptive.csv`, and a note
    if adaptive:
        tables.update(adaptive)
        titles = noted_titles({**titles, **adaptive_titles}, list(adaptive))
    return SuiteReport("lexical", tables=tables, plots=plots, titles=titles)
