"""`card.html`: the card as one self-contained page: inline CSS, inline SVG plots, no script, nothing fetched.

A card is mailed, attached and archived, so it must open the same anywhere, offline, years later: everything it
shows is in the file (no stylesheet, font, image or script is loaded from anywhere; the fonts are the reader's own
system fonts), and it has no script at all, so no browser console can report an error and no policy blocks it.

Layout: one `<section id="...">` per entry of `SECTION_IDS` (`provenance`, `suites`, one per suite, `not-comparable`),
each with an `<h2>`; a suite not run still has its section, saying so. The tables' cells are `lgmt_tasks.card.tables`'
(the Markdown card's); the plots (`lgmt_tasks.card.svg`) add the suite headlines and each LGMT strip as interval
strips, and QMFOL's depth × width heatmap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from lgmt_tasks.card import tables
from lgmt_tasks.card.content import NOT_RUN, SECTION_IDS, Card, LgmtStrip, QmfolHeatmap
from lgmt_tasks.card.svg import Mark, heatmap, interval_strip
from lgmt_tasks.card.text import section_heading

CARD_HTML = "card.html"

STYLE = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  margin: 0; background: #fafafa; color: #1d1d1f; line-height: 1.45; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 1.6em; margin: 0 0 6px; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 0; }
h3 { font-size: 1.05em; margin: 18px 0 6px; }
section { background: #fff; border: 1px solid #e2e2e2; border-radius: 6px; padding: 16px 20px; margin: 18px 0; }
section.not-run { color: #666; }
section#not-comparable { border: 2px solid #c77700; background: #fffaf0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.88em; max-width: 100%; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em;
  background: #f3f3f3; padding: 0 3px; border-radius: 3px; word-break: break-all; }
p.note { color: #555; font-size: 0.9em; }
.kind { font-weight: 600; }
svg.plot { display: block; max-width: 100%; height: auto; margin: 10px 0; font-size: 11px; }
svg .plot-title { font-weight: 600; font-size: 12px; }
svg .grid { stroke: #e4e4e4; }
svg .reference { stroke: #c0392b; stroke-dasharray: 4 3; }
svg .tick, svg .axis { fill: #555; }
svg .whisker { stroke: #1f5fa8; stroke-width: 2; }
svg circle.mark { fill: #1f5fa8; }
svg .highlight { stroke: #c0392b; fill: #c0392b; }
svg .na { fill: #999; font-style: italic; }
svg .cell { stroke: #fff; }
svg .cell-value { font-weight: 600; font-size: 12px; }
svg .cell-interval { fill: #333; font-size: 10px; }
"""
"""The page's whole style sheet (inline; system fonts only)."""


NUMBER = re.compile(r"^(?:[-–]|[-–]?\d[\d.]*)(?: |$)")
"""A cell that opens with a number (or is a dash): right-aligned (`0.385 [0.2, 0.5]`, `40 of 200`; not `3e1c`)."""


def _numeric(cell: str) -> bool:
    """Whether a cell reads as a number (right-aligned)."""
    return bool(NUMBER.match(cell))


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table with its cells escaped, numbers right-aligned."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td{' class=num' if _numeric(c) else ''}>{escape(c)}</td>" for c in row) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def table_html(table: tables.Table) -> str:
    """A `Table` with its paragraphs."""
    before = "".join(f'<p class="note">{escape(text)}</p>' for text in table.before)
    after = "".join(f'<p class="note">{escape(text)}</p>' for text in table.after)
    return before + html_table(table.header, table.rows) + after


def provenance(card: Card) -> str:
    """The provenance section's body."""
    parts = ["<ul>" + "".join(f"<li>{escape(line)}</li>" for line in tables.provenance_lines(card)) + "</ul>"]
    parts.append(table_html(tables.runs_table(card)))
    parts.append("<h3>Commands</h3><ul>")
    parts += [f"<li>{escape(suite)}: <code>{escape(command)}</code></li>" for suite, command in tables.commands(card)]
    parts.append("</ul>")
    parameters = tables.build_parameters(card)
    if parameters:
        parts.append("<h3>Build parameters</h3><ul>" + "".join(f"<li>{escape(p)}</li>" for p in parameters) + "</ul>")
    if card.provenance.left_out:
        left = "".join(f"<li>{escape(line)}</li>" for line in card.provenance.left_out)
        parts.append(f"<h3>Left out</h3><ul>{left}</ul>")
    return "".join(parts)


def suites(card: Card) -> str:
    """The suite table and its interval strip (the headlines on [0, 1])."""
    marks = [
        Mark(f"{row.suite} {row.metric}" + (f" ({row.setting})" if row.setting else ""), row.estimate)
        for row in card.suites
        if row.status != NOT_RUN and row.estimate is not None
    ]
    plot = interval_strip(marks, title="Headline per suite, 95% intervals", axis="rate") if marks else ""
    return table_html(tables.suites_table(card)) + plot


def strip_plot(strip: LgmtStrip) -> str:
    """An LGMT strip's relations as an interval strip, the noise floor's relations above it highlighted."""
    marks = [
        Mark(r.relation + (f" [{r.variant}]" if r.variant else ""), r.mvr, r.above_control == "yes")
        for r in strip.relations
    ]
    kind = "simultaneous 95% (Bonferroni)" if strip.adjustment == "bonferroni" else "confidence sequences"
    return interval_strip(marks, title=f"MVR per relation, {kind}", axis="MVR (violations / parsed groups)")


def heatmap_plot(block: QmfolHeatmap) -> str:
    """QMFOL's depth × width heatmap."""
    return heatmap(block.depths, block.widths, block.cells, title="Accuracy per depth × width (95% Wilson)")


PLOTS: dict[str, Callable[[Any], str]] = {"lgmt": strip_plot, "qmfol": heatmap_plot}
"""Suite → the plot drawn above each of its blocks' tables."""


def section_body(card: Card, name: str) -> str:
    """One section's body (after its heading)."""
    if name == "provenance":
        return provenance(card)
    if name == "suites":
        return suites(card)
    if name == "not-comparable":
        items = "".join(
            f'<li><span class="kind">{escape(kind)}</span>: {escape(text)}</li>'
            for kind, text in tables.caveat_lines(card)
        )
        return f"<ul>{items}</ul>"
    blocks = getattr(card, name)
    if not blocks:
        return f"<p>Not run: no log of {escape(name)} for this model.</p>"
    parts = []
    for block in blocks:
        plot = PLOTS[name](block) if name in PLOTS else ""
        parts.append(
            f"<h3>{escape(tables.block_title(block))}</h3>{plot}{table_html(tables.BLOCK_TABLES[name](block))}"
        )
    return "".join(parts)


def card_html(card: Card) -> str:
    """The whole `card.html`."""
    sections = []
    for name in SECTION_IDS:
        idle = name not in ("provenance", "suites", "not-comparable") and not getattr(card, name)
        css = ' class="not-run"' if idle else ""
        sections.append(
            f'<section id="{name}"{css}><h2>{escape(section_heading(name))}</h2>{section_body(card, name)}</section>'
        )
    title = f"Reliability card: {card.model}"
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n"
        f"<body><main><h1>{escape(title)}</h1>"
        '<p class="note">Every rate with its 95% interval; provenance first; what the card cannot claim at the end. '
        "Made by <code>lgmt card</code>; every number is also in <code>card.json</code>.</p>\n"
        + "\n".join(sections)
        + "\n</main></body></html>\n"
    )


def write_html(card: Card, folder: Path) -> Path:
    """Write `folder/card.html` and return its path."""
    path = folder / CARD_HTML
    path.write_text(card_html(card), encoding="utf-8")
    return path
