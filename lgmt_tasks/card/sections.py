"""Each suite's part of a card: its headline rows and its detail section, from the suite's own report code.

No rate is computed here. Each suite's report module (`lgmt_tasks/<suite>/report.py`, reached through the registry
as shared code must) already turns logs into tables with counts: LGMT's Table 4 and `relations` table (violations,
parsed groups, Wilson intervals), its noise-floor table (`-T control`), LogicAsker's `overall` and `weakest_leaves`,
DivLogicEval's `by_question_type`, QMFOL's `overall` and `figure4_depth_width`, the lexical suite's `basis_rates` and
`relation_rates`. This module reads those tables and wraps each rate in an `Estimate` (`lgmt_tasks.card.estimates`),
so every number on a card equals the report's, which equals the log's metric.

Settings. A model's logs of one suite are split by setting before the report is asked, so that no card row pools
runs that differ: a setting is the leaderboard's prompting (`leaderboard_prompting`) and every other task argument
(`lgmt_tasks.report.settings.settings_key`); the row's label names the prompting and the arguments that differ
between the model's settings (`settings_labels`). Within a setting the report pools as it always does (LGMT: `mr_e`
and `mr_s` logs of one setting are one row, as in its Table 4).

The headline per suite (`HEADLINES`) is the leaderboard's first metric, except the lexical suite's, which is MVR on
proven groups (`lgmt_tasks.lexical.report.HEADLINE_BASIS`: on an assumed group a perfect model has MVR 0 by
construction). Why these suites get these sections: the issue's list (an LGMT strip per relation, LogicAsker's
weakest skills, DivLogicEval's three metrics, QMFOL's depth × width, lexical proven beside assumed).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.adaptive.report import AdaptiveSummary, adaptive_summary
from lgmt_tasks.card import estimates
from lgmt_tasks.card.content import (
    AdaptiveRecord,
    BasisRow,
    DivLogicEvalBlock,
    Estimate,
    HeatCell,
    LexicalBlock,
    LgmtStrip,
    LogicAskerBlock,
    PaperFigure,
    QmfolHeatmap,
    QuestionTypeRow,
    RelationRow,
    RunRecord,
    SkillRow,
    SuiteRow,
    number,
)
from lgmt_tasks.card.paper_figures import paper_figure
from lgmt_tasks.report.headline import log_metrics
from lgmt_tasks.report.leaderboard import leaderboard_prompting
from lgmt_tasks.report.settings import settings_key, settings_labels


@dataclass(frozen=True)
class Headline:
    """A suite's headline metric: its name in the logs, its leaderboard column, how the card names it, its direction."""

    metric: str
    column: str
    label: str
    lower_is_better: bool


HEADLINES: dict[str, Headline] = {
    "lgmt": Headline("mvr", "mvr", "MVR (violations / parsed groups)", True),
    "logicasker": Headline("accuracy", "accuracy", "accuracy (correct / all tests)", False),
    "divlogiceval": Headline("acc", "accuracy", "ACC (first rotation right)", False),
    "qmfol": Headline("accuracy", "accuracy", "accuracy (correct / all tasks)", False),
    "lexical": Headline("mvr_proven", "mvr", "MVR on proven groups (violations / compared groups)", True),
}
"""Per suite: the headline of its card row (the Inspect metric) and the leaderboard column of an lm-eval row."""


@dataclass
class Setting:
    """One setting of one suite for one model: its label and logs, read once."""

    label: str
    paths: list[str]
    headers: list[EvalLog]
    runs: list[RunRecord]

    def counts(self) -> tuple[int | None, int | None, int | None]:
        """Samples scored, errored and in the datasets, summed over the setting's runs."""
        return (
            _sum(run.samples for run in self.runs),
            _sum(run.errored for run in self.runs),
            _sum(run.total for run in self.runs),
        )


@dataclass
class SuiteContent:
    """What one suite adds to a card: its rows of the suite table and its section's blocks."""

    rows: list[SuiteRow] = field(default_factory=list)
    blocks: list[Any] = field(default_factory=list)


def _sum(values: Any) -> int | None:
    found = [v for v in values if v is not None]
    return sum(found) if found else None


def report_module(suite: str) -> ModuleType:
    """A suite's `report` module, through the registry (shared code imports no suite)."""
    return registry.suite(suite).module("report")


def settings(suite: str, paths: Sequence[str], runs: Mapping[str, RunRecord]) -> list[Setting]:
    """The model's logs of a suite split by setting (prompting and the other task arguments), labelled."""
    headers = {path: read_eval_log(path, header_only=True) for path in paths}
    keys = {
        path: (
            leaderboard_prompting(suite, header.eval.task_args),
            settings_key(suite, header.eval.task_args),
        )
        for path, header in headers.items()
    }
    labels = settings_labels(key for _, key in keys.values())
    found: dict[tuple[str, str], Setting] = {}
    for path, key in keys.items():
        label = ", ".join(part for part in (key[0], labels[key[1]]) if part)
        setting = found.setdefault(key, Setting(label, [], [], []))
        setting.paths.append(path)
        setting.headers.append(headers[path])
        setting.runs.append(runs[path])
    return list(found.values())


def reported(suite: str, paths: Sequence[str], runs: Mapping[str, RunRecord]) -> Iterator[tuple[Setting, Any]]:
    """Each setting of the suite with its report's tables (`suite_report` of its logs); one with none is skipped."""
    report = report_module(suite)
    for setting in settings(suite, paths, runs):
        tables = report.suite_report(setting.paths, None).tables
        if tables:
            yield setting, tables


def row(
    suite: str,
    setting: Setting,
    estimate: Estimate,
    unparsed: Any,
    model: str,
    label: str = "",
    counts: tuple[int | None, int | None, int | None] | None = None,
) -> SuiteRow:
    """A suite-table row of an Inspect setting (`counts`: samples, errored and total, when not the setting's)."""
    headline = HEADLINES[suite]
    samples, errored, total = counts or setting.counts()
    return SuiteRow(
        suite=suite,
        title=registry.suite(suite).title,
        status="run",
        setting=label or setting.label,
        harness="inspect",
        tasks=list(dict.fromkeys(run.task for run in setting.runs)),
        metric=headline.metric,
        metric_label=headline.label,
        lower_is_better=headline.lower_is_better,
        estimate=estimate,
        unparsed_rate=number(unparsed),
        samples=samples,
        errored=errored,
        total=total,
        paper=figure(suite, model),
        logs=[run.path for run in setting.runs],
    )


def figure(suite: str, model: str) -> PaperFigure | None:
    """The suite's paper figure for the model's family (`paper_figures`)."""
    return paper_figure(suite, model)


# ------------------------------------------------------------------------------------------------------------- LGMT


def _summaries(setting: Setting) -> list[AdaptiveSummary]:
    return [summary for header in setting.headers if (summary := adaptive_summary(header)) is not None]


def _adaptive_record(summary: AdaptiveSummary) -> AdaptiveRecord:
    return AdaptiveRecord(
        design=summary.design,
        tau=summary.tau,
        margin=summary.margin,
        alpha=summary.alpha,
        calls_made=summary.calls_made,
        calls_uniform=summary.calls_uniform,
        groups_run=summary.groups_run,
        groups_skipped=summary.groups_skipped,
    )


def lgmt(paths: Sequence[str], runs: Mapping[str, RunRecord], model: str) -> SuiteContent:
    """LGMT's rows (Table 4 per setting, and per variant where the logs mix them) and its per-relation strips."""
    report = report_module("lgmt")
    control_stem = registry.suite("lgmt").attr("control", "CONTROL_TABLE")
    content = SuiteContent()
    for setting, tables in reported("lgmt", paths, runs):
        summaries = _summaries(setting)
        relations_logged = [relation for summary in summaries for relation in summary.relations]
        alphas = [summary.alpha for summary in summaries]
        for record in tables["table4_effectiveness"].to_dict("records"):
            variant = str(record.get("variant") or "")
            label = setting.label + (f", variant {variant}" if variant else "")
            if summaries and variant in ("", report.MIXED):
                estimate = estimates.pooled_sequence(relations_logged, alphas, record["mvr"])
            elif summaries:  # the sequences are per relation, over every variant: none holds a variant's share
                estimate = estimates.no_interval(record["mvr"], record["parsed"])
            else:
                estimate = estimates.wilson(record["violations"], record["parsed"], value=record["mvr"])
            # a variant's row counts its own groups; the logs record errors and totals for the whole run only
            counts = (int(record["groups"]), None, None) if variant not in ("", report.MIXED) else None
            content.rows.append(row("lgmt", setting, estimate, record["unparsed_rate"], model, label, counts))
        content.blocks.append(_strip(setting, tables["relations"], tables.get(control_stem), summaries))
    return content


def _strip(setting: Setting, relations: Any, control: Any, summaries: list[AdaptiveSummary]) -> LgmtStrip:
    """The per-relation strip of one setting: Bonferroni-simultaneous Wilson intervals, or the adaptive sequences."""
    records = relations.to_dict("records")
    family = sum(1 for record in records if (number(record["parsed"]) or 0) > 0)
    logged = {str(r["relation"]): (r, summary) for summary in summaries for r in summary.relations}
    controls = {
        (str(r["relation"]), str(r.get("variant") or "")): r
        for r in (control.to_dict("records") if control is not None else [])
    }
    rows = []
    for record in records:
        relation, variant = str(record["relation"]), str(record.get("variant") or "")
        variant = "" if variant == "–" else variant
        unadjusted = estimates.wilson(record["violations"], record["parsed"], value=record["mvr"])
        if relation in logged and not variant:
            row_logged, summary = logged[relation]
            mvr = estimates.sequence(row_logged, summary.alpha, len(summary.relations))
            decision: str | None = str(row_logged.get("decision"))
        else:
            mvr = estimates.wilson(record["violations"], record["parsed"], value=record["mvr"], family=family)
            decision = str(logged[relation][0].get("decision")) if relation in logged else None
        paired = controls.get((relation, variant))
        rows.append(
            RelationRow(
                relation=relation,
                variant=variant,
                groups=float(record["groups"]),
                parsed=float(record["parsed"]),
                violations=float(record["violations"]),
                mvr=mvr,
                mvr_unadjusted=unadjusted,
                decision=decision,
                control_rate=number(paired["control_rate"]) if paired else None,
                excess=Estimate(
                    number(paired["excess_mvr"]),
                    number(paired["low"]),
                    number(paired["high"]),
                    number(paired["pairs"]),
                    "newcombe",
                )
                if paired
                else None,
                above_control=str(paired["above_control"]) if paired else None,
            )
        )
    kinds = sorted({str(r["control"]) for r in controls.values()})
    return LgmtStrip(
        setting=setting.label,
        adjustment="confidence-sequence" if summaries else "bonferroni",
        family=family,
        control="+".join(kinds) if kinds else None,
        relations=rows,
        adaptive=[_adaptive_record(summary) for summary in summaries],
    )


# ------------------------------------------------------------------------------------------------------- LogicAsker


def logicasker(paths: Sequence[str], runs: Mapping[str, RunRecord], model: str) -> SuiteContent:
    """LogicAsker's rows (accuracy over all tests) and blocks (response accuracy, the weakest skills)."""
    content = SuiteContent()
    for setting, tables in reported("logicasker", paths, runs):
        [overall] = tables["overall"].to_dict("records")
        tests = number(overall["tests"]) or 0.0
        estimate = estimates.wilson(overall["correct"], tests)
        unparsed = (number(overall["unparsed"]) or 0.0) / tests if tests else None
        content.rows.append(row("logicasker", setting, estimate, unparsed, model))
        weakest = [
            SkillRow(
                rule=str(r["rule"]),
                problem_type=str(r["problem_type"]),
                logic=str(r["logic"]),
                category=str(r["category"]),
                correct=float(r["correct"]),
                answered=float(r["answered"]),
                tests=float(r["tests"]),
                response_accuracy=estimates.wilson(r["correct"], r["answered"], value=r["accuracy"]),
            )
            for r in tables["weakest_leaves"].to_dict("records")
        ]
        content.blocks.append(
            LogicAskerBlock(
                setting=setting.label,
                response_accuracy=estimates.wilson(
                    overall["correct"], overall["answered"], value=overall["response_accuracy"]
                ),
                instruction_following=number(overall["instruction_following"]),
                weakest=weakest,
            )
        )
    return content


# ----------------------------------------------------------------------------------------------------- DivLogicEval


def divlogiceval(paths: Sequence[str], runs: Mapping[str, RunRecord], model: str) -> SuiteContent:
    """DivLogicEval's rows (ACC) and blocks (Accuracy vs Circular vs PartialCircular per question type)."""
    content = SuiteContent()
    for setting, tables in reported("divlogiceval", paths, runs):
        rows = []
        for record in tables["by_question_type"].to_dict("records"):
            instances = int(record["instances"])
            rows.append(
                QuestionTypeRow(
                    question_type=str(record["question_type"]),
                    instances=instances,
                    accuracy=estimates.wilson_of_rate(record["acc"], instances),
                    circular=estimates.wilson_of_rate(record["circular"], instances),
                    partial_circular=estimates.wilson_of_rate(record["partial_circular"], instances),
                    unparsed_rate=number(record["unparsed_rate"]),
                )
            )
        overall = rows[-1]  # `by_question_type` ends each setting with its `all` row
        content.rows.append(row("divlogiceval", setting, overall.accuracy, overall.unparsed_rate, model))
        content.blocks.append(DivLogicEvalBlock(setting=setting.label, rows=rows))
    return content


# ------------------------------------------------------------------------------------------------------------ QMFOL


def qmfol(paths: Sequence[str], runs: Mapping[str, RunRecord], model: str) -> SuiteContent:
    """QMFOL's rows (accuracy, per log as its report keys runs) and its depth × width heatmaps."""
    content = SuiteContent()
    for setting, tables in reported("qmfol", paths, runs):
        overall = tables["overall"].to_dict("records")
        grid = tables["figure4_depth_width"]
        for record in overall:
            label = setting.label + (f", log {record['log']}" if len(overall) > 1 else "")
            estimate = estimates.wilson_of_rate(record["accuracy"], record["tasks"])
            content.rows.append(row("qmfol", setting, estimate, record["unparsed_rate"], model, label))
            cells = grid[grid["log"] == record["log"]].to_dict("records")
            content.blocks.append(
                QmfolHeatmap(
                    setting=label,
                    depths=sorted({int(c["depth"]) for c in cells}),
                    widths=sorted({int(c["width"]) for c in cells}),
                    cells=[
                        HeatCell(
                            int(c["depth"]), int(c["width"]), estimates.wilson_of_rate(c["accuracy"], c["samples"])
                        )
                        for c in cells
                    ],
                )
            )
    return content


# ---------------------------------------------------------------------------------------------------------- lexical


def lexical(paths: Sequence[str], runs: Mapping[str, RunRecord], model: str) -> SuiteContent:
    """The lexical suite's rows (MVR on proven groups, per log) and blocks (proven beside assumed, the noise floor)."""
    report = report_module("lexical")
    floor_relation = registry.suite("lexical").attr("catalogue", "NOISE_FLOOR")
    content = SuiteContent()
    for setting in settings("lexical", paths, runs):
        for path, header in zip(setting.paths, setting.headers, strict=True):
            log = read_eval_log(path)
            # an adaptive run's rates are on an adaptively chosen sample: no fixed-n interval holds for them, and
            # its per-relation sequences do not split by basis, so its rates are shown without one
            interval = estimates.wilson_of_rate if adaptive_summary(header) is None else estimates.no_interval
            bases = []
            for record in report.basis_rates(log).to_dict("records"):
                compared = number(record["compared"]) or 0.0
                bases.append(
                    BasisRow(
                        basis=str(record["basis"]),
                        groups=float(record["groups"]),
                        compared=compared,
                        mvr=interval(record["mvr"], compared),
                    )
                )
            proven = next((b.mvr for b in bases if b.basis == report.HEADLINE_BASIS), estimates.empty())
            relations = report.relation_rates(log)
            floor = relations[relations["relation"] == floor_relation].to_dict("records")
            label = setting.label + (f", log {runs[path].path}" if len(setting.paths) > 1 else "")
            one = Setting(label, [path], [header], [runs[path]])
            unparsed = log_metrics(header).get("unparsed_rate")
            content.rows.append(row("lexical", one, proven, unparsed, model))
            content.blocks.append(
                LexicalBlock(
                    setting=label,
                    bases=bases,
                    noise_floor=interval(floor[0]["mvr"], floor[0]["compared"]) if floor else None,
                )
            )
    return content


# ----------------------------------------------------------------------------------------------------------- lm-eval


def lm_eval_row(suite: str, record: Mapping[str, Any], run: RunRecord, model: str) -> SuiteRow:
    """A suite-table row of one lm-eval task or group: its headline column with a Wilson interval over its documents.

    lm-eval's results give rates and document counts, not the per-group outcomes: the interval treats the rate as a
    proportion of the documents (for MVR, of the parsed ones: documents × (1 − unparsed rate)).
    """
    headline = HEADLINES[suite]
    value, samples = number(record.get(headline.column)), number(record.get("samples"))
    unparsed = number(record.get("unparsed_rate"))
    trials = (
        samples * (1 - unparsed)
        if samples is not None and unparsed is not None and headline.lower_is_better
        else samples
    )
    prompting = str(record.get("prompting") or "")
    return SuiteRow(
        suite=suite,
        title=registry.suite(suite).title,
        status="run",
        setting=", ".join(part for part in (f"lm-eval {record['harness_task']}", prompting) if part),
        harness="lm-eval",
        tasks=[str(record["task"])],
        metric=headline.column,
        metric_label=headline.label,
        lower_is_better=headline.lower_is_better,
        estimate=estimates.wilson_of_rate(value, trials),
        unparsed_rate=unparsed,
        samples=run.samples,
        errored=None,
        total=run.total,
        paper=figure(suite, model),
        logs=[run.path],
    )


def not_run(suite: str) -> SuiteRow:
    """The row of a suite the card has no run of."""
    return SuiteRow(suite=suite, title=registry.suite(suite).title, status="not run")


SECTION_BUILDERS = {
    "lgmt": lgmt,
    "logicasker": logicasker,
    "divlogiceval": divlogiceval,
    "qmfol": qmfol,
    "lexical": lexical,
}
"""Suite → the function that makes its part of a card (a test checks that every registry suite has one)."""
