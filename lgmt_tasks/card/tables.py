"""The card's tables and paragraphs as plain text cells, shared by the Markdown and the HTML renderings.

Each function turns a part of a `Card` into a `Table` (a header and rows of text cells) or a sentence, so that
`card.md` and `card.html` print the same cells: the two renderings differ only in markup (and the HTML's plots).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lgmt_tasks.card.content import (
    NOT_RUN,
    Card,
    DivLogicEvalBlock,
    LexicalBlock,
    LgmtStrip,
    LogicAskerBlock,
    QmfolHeatmap,
    SuiteRow,
)
from lgmt_tasks.card.text import (
    DASH,
    count,
    estimate_text,
    method_text,
    rate,
    samples_text,
    short_fingerprint,
)


@dataclass(frozen=True)
class Table:
    """A table: its header, its rows (text cells), and the paragraphs before and after it."""

    header: list[str]
    rows: list[list[str]]
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)


def paper_text(row: SuiteRow) -> str:
    """The paper's figure for the row, marked as not re-run (its metric named when it is not the row's)."""
    if row.paper is None:
        return DASH
    paper = row.paper
    metric = "" if paper.metric == row.metric else f" {paper.metric}"
    return f"{paper.value:.3f}{metric} ({paper.paper_model}; {paper.source}; {paper.note})"


def provenance_lines(card: Card) -> list[str]:
    """The provenance's opening lines: model, writer, versions."""
    p = card.provenance
    inspect_versions = sorted({r.inspect_version for r in p.runs if r.inspect_version})
    lm_eval_versions = sorted({r.lm_eval_version for r in p.runs if r.lm_eval_version})
    full = f" ({p.model_full_name})" if p.model_full_name != p.model else ""
    return [
        f"Model: {p.model}{full}.",
        f"Card written by {p.generated_by}; every number is also in card.json (schema version {card.schema_version}).",
        f"Inspect {', '.join(inspect_versions) or DASH}; lm-eval {', '.join(lm_eval_versions) or DASH}.",
    ]


def runs_table(card: Card) -> Table:
    """One row per run: suite, task, harness, versions, date, samples, dataset, log."""
    rows = [
        [
            r.suite,
            r.task,
            r.harness,
            r.task_version + ("" if r.task_version == r.current_version else f" (now {r.current_version})"),
            r.package_version or DASH,
            r.created[:10] or DASH,
            samples_text(r.samples, r.total, r.errored),
            short_fingerprint(r.dataset.fingerprint) + (f" {r.dataset.hub_id}" if r.dataset.hub_id else ""),
            r.path,
        ]
        for r in card.provenance.runs
    ]
    header = ["suite", "task", "harness", "task version", "lgmt-tasks", "date", "samples", "dataset", "log"]
    return Table(header, rows)


def commands(card: Card) -> list[tuple[str, str]]:
    """(suite, command) of every run, rebuilt from what its log recorded."""
    return [(r.suite, r.command) for r in card.provenance.runs]


def build_parameters(card: Card) -> list[str]:
    """One line per run whose log records its dataset's build parameters."""
    return [
        f"{r.suite} {r.task} ({r.path}): " + ", ".join(f"{k}={v}" for k, v in sorted(r.dataset.build_config.items()))
        for r in card.provenance.runs
        if r.dataset.build_config
    ]


def suites_table(card: Card) -> Table:
    """The suite table: one row per suite and setting, the headline with its interval, and the paper's figure."""
    rows = []
    for row in card.suites:
        if row.status == NOT_RUN:
            rows.append([row.suite, NOT_RUN, DASH, DASH, DASH, DASH, DASH, DASH])
            continue
        arrow = "↓" if row.lower_is_better else "↑"
        rows.append(
            [
                row.suite,
                row.setting or DASH,
                f"{row.metric} {arrow}",
                estimate_text(row.estimate),
                count(row.estimate.n if row.estimate else None),
                rate(row.unparsed_rate),
                samples_text(row.samples, row.total, row.errored),
                paper_text(row),
            ]
        )
    header = ["suite", "setting", "headline", "value [95% interval]", "n", "unparsed", "samples", "paper"]
    methods = sorted({method_text(r.estimate) for r in card.suites if r.estimate is not None})
    after = ["Intervals: " + "; ".join(methods) + "."] if methods else []
    return Table(header, rows, after=["↓ lower is better, ↑ higher is better.", *after])


def strip_table(strip: LgmtStrip) -> Table:
    """One LGMT strip: MVR per relation with its simultaneous interval, its own interval, and the control."""
    variants = any(r.variant for r in strip.relations)
    decisions = any(r.decision for r in strip.relations)
    if strip.adjustment == "bonferroni":
        intro = (
            f"MVR per relation with simultaneous 95% Wilson intervals (Bonferroni over the {strip.family} relations "
            "with a parsed group: all hold at once with probability at least 95%), and each relation's own 95% "
            "Wilson interval beside it."
        )
    else:
        intro = (
            "MVR per relation with the adaptive run's confidence sequences (anytime-valid, simultaneous over its "
            "relations at its alpha) and the design's decision; the fixed-n Wilson interval beside it does not hold "
            "for an adaptively chosen sample and is shown for reference only."
        )
    header = ["relation", *(["variant"] if variants else []), "groups", "parsed", "violations", "MVR [simultaneous]"]
    header += ["own 95%", *(["decision"] if decisions else [])]
    if strip.control is not None:
        header += [f"control rate ({strip.control})", "MVR − control [95%]", "above control (Holm)"]
    rows = []
    for r in strip.relations:
        cells = [r.relation, *([r.variant or DASH] if variants else []), count(r.groups), count(r.parsed)]
        cells += [count(r.violations), estimate_text(r.mvr), estimate_text(r.mvr_unadjusted)]
        cells += [r.decision or DASH] if decisions else []
        if strip.control is not None:
            cells += [rate(r.control_rate), estimate_text(r.excess), r.above_control or DASH]
        rows.append(cells)
    after = [
        f"Adaptive run: {a.design} (tau {a.tau:g}, margin {a.margin:g}, alpha {a.alpha:g}); groups run {a.groups_run}, "
        f"skipped {a.groups_skipped}; model calls {a.calls_made} of a uniform run's {a.calls_uniform}."
        for a in strip.adaptive
    ]
    return Table(header, rows, before=[intro], after=after)


def logicasker_table(block: LogicAskerBlock) -> Table:
    """LogicAsker: response accuracy, then the weakest leaves with their Wilson intervals."""
    before = [
        f"Response accuracy (correct / answered, the paper's §3.3 figure): {estimate_text(block.response_accuracy)}; "
        f"instruction following {rate(block.instruction_following)}.",
        "Weakest skills (rule × problem type), weakest first, with 95% Wilson intervals not adjusted for the ranking: "
        "skills whose intervals overlap are not reliably ordered.",
    ]
    rows = [
        [s.rule, s.problem_type, s.logic, s.category, count(s.correct), count(s.answered), count(s.tests)]
        + [estimate_text(s.response_accuracy)]
        for s in block.weakest
    ]
    header = ["rule", "problem type", "logic", "category", "correct", "answered", "tests", "accuracy [95%]"]
    return Table(header, rows, before=before)


def divlogiceval_table(block: DivLogicEvalBlock) -> Table:
    """DivLogicEval: ACC vs Circular vs PartialCircular per question type."""
    rows = [
        [r.question_type, str(r.instances), estimate_text(r.accuracy), estimate_text(r.circular)]
        + [estimate_text(r.partial_circular), rate(r.unparsed_rate)]
        for r in block.rows
    ]
    header = ["question type", "instances", "ACC [95% Wilson]", "Circular [95% Wilson]", "PartialCircular [95% Wilson]"]
    before = [
        "ACC and Circular are 0/1 per instance; PartialCircular is a graded score in [0, 1], whose Wilson interval "
        "is conservative (p(1 − p) bounds its variance)."
    ]
    return Table([*header, "unparsed"], rows, before=before)


def qmfol_table(heatmap: QmfolHeatmap) -> Table:
    """QMFOL: accuracy per depth (rows) × width (columns), each cell with its Wilson interval and task count."""
    cells = {(c.depth, c.width): c.accuracy for c in heatmap.cells}
    rows = []
    for depth in heatmap.depths:
        row = [f"depth {depth}"]
        for width in heatmap.widths:
            cell = cells.get((depth, width))
            row.append(f"{estimate_text(cell)} (n={count(cell.n)})" if cell is not None else DASH)
        rows.append(row)
    before = ["Accuracy (correct / tasks, an unparsed answer wrong) per depth × width, 95% Wilson intervals."]
    return Table(["accuracy", *(f"width {w}" for w in heatmap.widths)], rows, before=before)


def lexical_table(block: LexicalBlock) -> Table:
    """Lexical: MVR on proven groups beside assumed (and unproven) ones, and MR-49's noise floor."""
    rows = [[b.basis, count(b.groups), count(b.compared), estimate_text(b.mvr)] for b in block.bases]
    floor = estimate_text(block.noise_floor) if block.noise_floor is not None else f"{DASH} (MR-49 not run)"
    before = [
        "MVR on proven groups (the follow-up's label proven by Z3) beside assumed ones (the follow-up's label taken "
        "to be the source's: a perfect model scores 0 there by construction)."
    ]
    after = [f"Noise floor (MR-49, the same question asked twice): {floor}."]
    return Table(["basis", "groups", "compared", "MVR [95% Wilson]"], rows, before=before, after=after)


BLOCK_TABLES: dict[str, Callable[[Any], Table]] = {
    "lgmt": strip_table,
    "logicasker": logicasker_table,
    "divlogiceval": divlogiceval_table,
    "qmfol": qmfol_table,
    "lexical": lexical_table,
}
"""Suite → the table of one of its blocks."""


def block_title(block: object) -> str:
    """A block's sub-heading: its setting (`all runs` when the model has one setting)."""
    return str(getattr(block, "setting", "")) or "all runs"


def caveat_lines(card: Card) -> list[tuple[str, str]]:
    """(kind, text) of every caveat; one line saying so when there is none."""
    if not card.not_comparable:
        return [("none", "Nothing found that limits comparison.")]
    return [(c.kind, c.text) for c in card.not_comparable]
