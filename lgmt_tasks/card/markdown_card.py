"""`card.md`: the card as Markdown that renders on the Hub as a model-card section (no front matter, no HTML).

Sections in `SECTION_IDS` order, each a `##` heading: provenance first, the suite table, one section per suite (a
suite not run says so), and the "not comparable" box. Tables are GitHub Markdown, as the Hub renders them; QMFOL's
heatmap is a depth × width table here (the HTML card draws it). The cells are `lgmt_tasks.card.tables`', the same as
the HTML card's: every rate with its interval, every paper figure marked "paper, not re-run".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lgmt_tasks.card import tables
from lgmt_tasks.card.content import SECTION_IDS, Card
from lgmt_tasks.card.text import section_heading

CARD_MD = "card.md"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A GitHub Markdown table (cells' `|` escaped)."""

    def cells(values: Sequence[str]) -> str:
        return "| " + " | ".join(str(v).replace("|", "\\|").replace("\n", " ") for v in values) + " |"

    return [cells(header), "|" + "---|" * len(header), *(cells(row) for row in rows)]


def table_lines(table: tables.Table) -> list[str]:
    """A `Table` with its paragraphs."""
    lines = [line for text in table.before for line in (text, "")]
    lines += markdown_table(table.header, table.rows)
    lines += [line for text in table.after for line in ("", text)]
    return lines


def provenance(card: Card) -> list[str]:
    """The provenance section: model, writer, versions, one row per run, the commands and build parameters."""
    lines = [f"- {line}" for line in tables.provenance_lines(card)]
    lines += ["", *table_lines(tables.runs_table(card)), "", "Commands (rebuilt from what each log recorded):", ""]
    lines += [f"- {suite}: `{command}`" for suite, command in tables.commands(card)]
    parameters = tables.build_parameters(card)
    if parameters:
        lines += ["", "Build parameters of the datasets:", "", *(f"- {line}" for line in parameters)]
    if card.provenance.left_out:
        lines += ["", "Left out:", "", *(f"- {line}" for line in card.provenance.left_out)]
    return lines


def section(card: Card, name: str) -> list[str]:
    """One section's lines (without its heading)."""
    if name == "provenance":
        return provenance(card)
    if name == "suites":
        return table_lines(tables.suites_table(card))
    if name == "not-comparable":
        return [f"- **{kind}**: {text}" for kind, text in tables.caveat_lines(card)]
    blocks = getattr(card, name)
    if not blocks:
        return [f"Not run: no log of {name} for this model."]
    lines: list[str] = []
    for block in blocks:
        lines += [f"### {tables.block_title(block)}", "", *table_lines(tables.BLOCK_TABLES[name](block)), ""]
    return lines[:-1]


def card_markdown(card: Card) -> str:
    """The whole `card.md`."""
    lines = [
        f"# Reliability card: `{card.model}`",
        "",
        "Every rate with its 95% interval; provenance first; what the card cannot claim at the end. "
        "Made by `lgmt card` from the logs listed below.",
    ]
    for name in SECTION_IDS:
        lines += ["", f"## {section_heading(name)}", "", *section(card, name)]
    return "\n".join(lines) + "\n"


def write_markdown(card: Card, folder: Path) -> Path:
    """Write `folder/card.md` and return its path."""
    path = folder / CARD_MD
    path.write_text(card_markdown(card), encoding="utf-8")
    return path
