"""`compare.md` and `compare.html`: two or more models' cards side by side, with the paired tests, in tie groups.

Side by side, each suite's headline per model with its interval (from the cards). Where the models ran the same
pairwise task (LGMT, lexical) on the same rows (dataset fingerprint), the page adds what `lgmt report --compare`
computes (`lgmt_tasks.report.compare`): per pair of models, McNemar's exact test on the groups both scored, Newcombe's
paired interval of the difference, Holm across relations; and, instead of ranks, tie groups from the leaderboard's
tied-with-the-best marks (`lgmt_tasks.report.leaderboard.mark_tied_best`: McNemar against the best run, Holm across
the runs): the models not significantly different from the best form the first group, the others are listed as
significantly worse. Two models whose intervals overlap are not ordered by this page, and ranks would order them.

The suites scored per item (LogicAsker, DivLogicEval, QMFOL) get no paired test here, as in `lgmt report --compare`:
their rows show the intervals side by side only, and the page says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from lgmt_tasks.card.content import RUN, Card
from lgmt_tasks.card.html_card import STYLE, html_table
from lgmt_tasks.card.markdown_card import markdown_table
from lgmt_tasks.card.text import DASH, estimate_text
from lgmt_tasks.suites import SUITE_NAMES

COMPARE_MD, COMPARE_HTML = "compare.md", "compare.html"


@dataclass
class PairedBlock:
    """The paired tests of one task run by several models on one dataset.

    Attributes:
        task: The task.
        fingerprint: The dataset's fingerprint.
        logs: Model → the log compared.
        rows: The comparison's rows shown: every `all` row, and the relation rows significant after Holm.
        tie_groups: Metric → (models tied with the best, models significantly worse), from the leaderboard.
        notes: The comparison's notes on pairing, or why it could not be made.
    """

    task: str
    fingerprint: str
    logs: dict[str, str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    tie_groups: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class Comparison:
    """The compare page's content: the models, the side-by-side table, and the paired blocks."""

    models: list[tuple[str, str]]
    header: list[str]
    rows: list[list[str]]
    paired: list[PairedBlock]


def side_by_side(cards: Sequence[Card]) -> tuple[list[str], list[list[str]]]:
    """One row per (suite, setting, metric) run on any card, one column per model: the estimate with its interval."""
    keys: dict[tuple[str, str, str], None] = {}
    for suite in SUITE_NAMES:
        ran = [
            (r.suite, r.setting, r.metric)
            for card in cards
            for r in card.suites
            if r.suite == suite and r.status == RUN
        ]
        keys.update(dict.fromkeys(ran or [(suite, "", "")]))  # a suite no model ran: one `not run` row
    rows = []
    for suite, setting, metric in keys:
        cells = []
        for card in cards:
            found = [r for r in card.suites if (r.suite, r.setting, r.metric) == (suite, setting, metric)]
            cells.append(estimate_text(found[0].estimate) if found and found[0].status == RUN else "not run")
        rows.append([suite, setting or DASH, metric or DASH, *cells])
    return ["suite", "setting", "headline", *(card.model for card in cards)], rows


def paired_blocks(cards: Sequence[Card], out: Path) -> list[PairedBlock]:
    """The paired tests of every pairwise task that two or more of the models ran on the same dataset.

    One log per model and (task, dataset): its newest, as `--latest` would keep it.
    """
    from lgmt_tasks.report.compare import OVERALL, compare_logs, pairwise_suites
    from lgmt_tasks.report.leaderboard import TIED_BEST, leaderboard

    found: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
    for card in cards:
        for run in card.provenance.runs:
            if run.harness != "inspect" or run.suite not in pairwise_suites() or not run.dataset.fingerprint:
                continue
            per_model = found.setdefault((run.task, run.dataset.fingerprint), {})
            path = str((out / run.path).resolve())
            if card.model not in per_model or run.created > per_model[card.model][1]:
                per_model[card.model] = (path, run.created)
    blocks = []
    for (task, fingerprint), per_model in found.items():
        if len(per_model) < 2:
            continue
        block = PairedBlock(task, fingerprint, {model: path for model, (path, _) in per_model.items()})
        paths = list(block.logs.values())
        try:
            comparison = compare_logs(paths)
        except ValueError as error:
            block.notes.append(f"not compared: {error}")
            blocks.append(block)
            continue
        block.notes += comparison.notes
        for record in comparison.table.to_dict("records"):
            if record["relation"] == OVERALL or record["significant"]:
                block.rows.append(record)
        board = leaderboard(paths)
        for metric, column in TIED_BEST.items():
            marked = board[board[column].notna()]
            tied = sorted(str(m) for m in marked.loc[marked[column].astype(bool), "model"])
            worse = sorted(str(m) for m in marked.loc[~marked[column].astype(bool), "model"])
            if tied or worse:
                block.tie_groups[metric] = (tied, worse)
        blocks.append(block)
    return blocks


def comparison(cards: Sequence[Card], out: Path) -> Comparison:
    """The compare page's content for the cards (in the order given)."""
    header, rows = side_by_side(cards)
    return Comparison([(card.model, card.slug) for card in cards], header, rows, paired_blocks(cards, out))


PAIRED_COLUMNS = ("first", "second", "metric", "relation", "groups", "first_rate", "second_rate", "difference")
"""The comparison's columns the page shows, then the interval and tests (`_paired_cells`)."""


def _number(value: Any) -> str:
    if isinstance(value, float):
        return DASH if math.isnan(value) else f"{value:.3f}"
    return str(value)


def _paired_cells(block: PairedBlock) -> tuple[list[str], list[list[str]]]:
    variant = any(row.get("variant") for row in block.rows)
    header = [*PAIRED_COLUMNS[:4], *(["variant"] if variant else []), *PAIRED_COLUMNS[4:]]
    header += ["95% interval (Newcombe)", "McNemar p", "Holm p", "significant"]
    rows = []
    for row in block.rows:
        cells = [_number(row[c]) for c in PAIRED_COLUMNS[:4]]
        cells += [str(row.get("variant") or DASH)] if variant else []
        cells += [_number(row[c]) for c in PAIRED_COLUMNS[4:]]
        cells += [f"[{_number(row['ci_low'])}, {_number(row['ci_high'])}]", _number(row["p_value"])]
        cells += [_number(row["p_holm"]), "yes" if row["significant"] else "no"]
        rows.append(cells)
    return header, rows


def _tie_lines(block: PairedBlock) -> list[str]:
    return [
        f"{metric}: tied with the best: {', '.join(tied) or DASH}; significantly worse than the best: "
        f"{', '.join(worse) or 'none'}."
        for metric, (tied, worse) in block.tie_groups.items()
    ]


INTRO = (
    "Each suite's headline per model, with its 95% interval. Paired tests (McNemar exact, Newcombe paired interval, "
    "Holm across relations) where the models ran the same LGMT or lexical task on the same rows; models are grouped "
    "by whether they differ significantly from the best, not ranked. LogicAsker, DivLogicEval and QMFOL get no paired "
    "test here: read their intervals."
)


def compare_markdown(content: Comparison) -> str:
    """`compare.md`."""
    lines = ["# Reliability cards compared", "", INTRO, ""]
    lines += [f"- `{model}`: [card]({slug}/card.md)" for model, slug in content.models]
    lines += ["", "## Headlines", "", *markdown_table(content.header, content.rows), "", "## Paired tests", ""]
    if not content.paired:
        lines.append("No pairwise task was run by two of these models on the same rows.")
    for block in content.paired:
        lines += [f"### {block.task} (dataset {block.fingerprint[:19]})", ""]
        lines += [f"- `{model}`: `{Path(path).name}`" for model, path in block.logs.items()]
        lines += ["", *(f"- {line}" for line in [*_tie_lines(block), *block.notes])]
        if block.rows:
            header, rows = _paired_cells(block)
            lines += ["", "The overall rows and every relation significant after Holm:", ""]
            lines += markdown_table(header, rows)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def compare_html(content: Comparison) -> str:
    """`compare.html`: the same content, self-contained as the cards are."""
    models = "".join(
        f'<li><code>{escape(model)}</code>: <a href="{escape(slug)}/card.html">card</a></li>'
        for model, slug in content.models
    )
    parts = [
        f'<section id="models"><h2>Models</h2><p class="note">{escape(INTRO)}</p><ul>{models}</ul></section>',
        f'<section id="headlines"><h2>Headlines</h2>{html_table(content.header, content.rows)}</section>',
    ]
    paired = [] if content.paired else ["<p>No pairwise task was run by two of these models on the same rows.</p>"]
    for block in content.paired:
        notes = "".join(f"<li>{escape(line)}</li>" for line in [*_tie_lines(block), *block.notes])
        table = html_table(*_paired_cells(block)) if block.rows else ""
        paired.append(
            f"<h3>{escape(block.task)} (dataset {escape(block.fingerprint[:19])})</h3><ul>{notes}</ul>{table}"
        )
    parts.append(f'<section id="paired"><h2>Paired tests</h2>{"".join(paired)}</section>')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Reliability cards compared</title><style>{STYLE}</style></head>\n"
        "<body><main><h1>Reliability cards compared</h1>\n" + "\n".join(parts) + "\n</main></body></html>\n"
    )


def write_compare(cards: Sequence[Card], out: Path) -> tuple[Path, Path]:
    """Write `out/compare.md` and `out/compare.html`; return their paths."""
    content = comparison(cards, out)
    md_path, html_path = out / COMPARE_MD, out / COMPARE_HTML
    md_path.write_text(compare_markdown(content), encoding="utf-8")
    html_path.write_text(compare_html(content), encoding="utf-8")
    return md_path, html_path
