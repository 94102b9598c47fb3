"""The HTML card's plots as inline SVG text: interval strips and QMFOL's depth × width heatmap.

Why SVG written by hand and not matplotlib's PNGs: the card is one self-contained file, and an SVG of a few dozen
shapes is smaller than a base64 PNG, stays sharp at any zoom, carries its numbers as text a browser can search and
a screen reader can read (`<title>` on every mark), and needs neither matplotlib nor a font file. Every plot is
deterministic (same card, same bytes) and uses no script and no external reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from lgmt_tasks.card.content import Estimate, HeatCell
from lgmt_tasks.card.text import estimate_text

WIDTH = 560
"""The plots' width in CSS pixels (they scale down with the page: `viewBox`)."""


@dataclass(frozen=True)
class Mark:
    """One row of an interval strip: its label, its estimate, and whether it is highlighted (e.g. above control)."""

    label: str
    estimate: Estimate
    highlight: bool = False


def _x(value: float, left: float, span: float) -> float:
    return left + max(0.0, min(1.0, value)) * span


def interval_strip(marks: Sequence[Mark], *, title: str, axis: str, reference: float | None = None) -> str:
    """A dot-and-whisker plot on [0, 1], one row per mark (first on top), with an optional dashed reference line.

    A mark without a value is drawn as `n/a` text, never as a dot at 0.
    """
    row, top, right = 18, 26, 16
    left = max(90, min(320, round(6.2 * max((len(mark.label) for mark in marks), default=0)) + 14))
    span = WIDTH - left - right
    height = top + row * len(marks) + 36  # room under the ticks for the axis label's descenders
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'role="img" aria-label="{escape(title)}" class="plot">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="14" class="plot-title">{escape(title)}</text>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = _x(tick, left, span)
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 30}" class="grid"/>')
        parts.append(f'<text x="{x:.1f}" y="{height - 16}" class="tick" text-anchor="middle">{tick:g}</text>')
    if reference is not None:
        x = _x(reference, left, span)
        parts.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{height - 30}" class="reference">')
        parts.append(f"<title>reference {reference:.3f}</title></line>")
    for i, mark in enumerate(marks):
        y = top + row * i + row / 2
        parts.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" class="label" text-anchor="end">{escape(mark.label)}</text>'
        )
        e = mark.estimate
        tip = escape(f"{mark.label}: {estimate_text(e)} (n={e.n:g})" if e.n is not None else mark.label)
        if e.value is None:
            parts.append(f'<text x="{left + 4}" y="{y + 4:.1f}" class="na"><title>{tip}</title>n/a</text>')
            continue
        css = "mark highlight" if mark.highlight else "mark"
        if e.low is not None and e.high is not None:
            x1, x2 = _x(e.low, left, span), _x(e.high, left, span)
            parts.append(f'<line x1="{x1:.1f}" y1="{y:.1f}" x2="{x2:.1f}" y2="{y:.1f}" class="whisker {css}"/>')
        parts.append(f'<circle cx="{_x(e.value, left, span):.1f}" cy="{y:.1f}" r="4" class="{css}">')
        parts.append(f"<title>{tip}</title></circle>")
    parts.append(
        f'<text x="{left + span / 2:.1f}" y="{height - 3}" class="axis" text-anchor="middle">{escape(axis)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _colour(value: float) -> str:
    """White (0) to green (1), as the paper's accuracy heatmap reads."""
    level = max(0.0, min(1.0, value))
    red, green, blue = (
        round(247 - (247 - 35) * level),
        round(252 - (252 - 139) * level),
        round(245 - (245 - 69) * level),
    )
    return f"rgb({red},{green},{blue})"


def heatmap(depths: Sequence[int], widths: Sequence[int], cells: Sequence[HeatCell], *, title: str) -> str:
    """QMFOL's accuracy per depth (rows) × width (columns), each cell coloured by accuracy.

    A cell shows its value and interval as text, and its task count in its tooltip; a cell not run is grey, `–`.
    """
    size_x, size_y, left, top = 110, 44, 70, 40
    width = max(left + size_x * len(widths) + 10, 8 + round(8 * len(title)))  # the title starts at x = 4
    height = top + size_y * len(depths) + 10
    found = {(c.depth, c.width): c.accuracy for c in cells}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}" class="plot heatmap">',
        f"<title>{escape(title)}</title>",
        f'<text x="4" y="14" class="plot-title">{escape(title)}</text>',
    ]
    for j, w in enumerate(widths):
        x = left + size_x * j + size_x / 2
        parts.append(f'<text x="{x:.1f}" y="{top - 8}" class="tick" text-anchor="middle">width {w}</text>')
    for i, d in enumerate(depths):
        y = top + size_y * i
        parts.append(
            f'<text x="{left - 6}" y="{y + size_y / 2 + 4:.1f}" class="label" text-anchor="end">depth {d}</text>'
        )
        for j, w in enumerate(widths):
            x = left + size_x * j
            e = found.get((d, w))
            fill = _colour(e.value) if e is not None and e.value is not None else "#ddd"
            tip = escape(f"depth {d}, width {w}: {estimate_text(e)}" + (f" (n={e.n:g})" if e and e.n else ""))
            parts.append(
                f'<rect x="{x}" y="{y}" width="{size_x - 2}" height="{size_y - 2}" fill="{fill}" class="cell">'
            )
            parts.append(f"<title>{tip}</title></rect>")
            value = "–" if e is None or e.value is None else f"{e.value:.2f}"
            bounds = "" if e is None or e.low is None or e.high is None else f"[{e.low:.2f}, {e.high:.2f}]"
            cx = x + size_x / 2
            parts.append(f'<text x="{cx:.1f}" y="{y + 18}" class="cell-value" text-anchor="middle">{value}</text>')
            parts.append(f'<text x="{cx:.1f}" y="{y + 34}" class="cell-interval" text-anchor="middle">{bounds}</text>')
    parts.append("</svg>")
    return "".join(parts)
