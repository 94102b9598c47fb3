"""Each suite's deviations from its paper, as the short bullet list that ends an evaluation report.

The deviations are written once, in the suite's README (`lgmt_tasks/<suite>/README.md`, shipped as package data):
every bullet under its `## Deviations from the paper` heading opens with one bold sentence that stands alone, followed
by the reasons and details. This module reads those bold lead sentences, so the report and the documentation cannot
drift apart: to change what a report says, change the README (a test checks that every bullet has a bold lead).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources

from lgmt_tasks.suites import SUITE_NAMES

SECTION = "## Deviations from the paper"
"""The README heading whose bullets are the deviations."""

_LEAD = re.compile(r"- \*\*(?P<lead>[^*]+?)\*\*(?:\s|$)")


def _section_lines(text: str, heading: str) -> list[str]:
    """The lines of the level-2 section `heading` of a Markdown text, without fenced code blocks."""
    lines: list[str] = []
    inside = fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith("## ") or line.startswith("# "):
            inside = line.rstrip() == heading
            continue
        if inside:
            lines.append(line)
    return lines


def parse_deviations(readme: str, where: str = "README.md") -> tuple[str, ...]:
    """The bold lead sentences of the bullets under `## Deviations from the paper` in a suite README's text.

    Args:
        readme: The README's Markdown.
        where: Names the README in error messages.

    Raises:
        ValueError: If the section is missing or empty, or a bullet does not open with a bold sentence.
    """
    leads: list[str] = []
    for line in _section_lines(readme, SECTION):
        if not line.startswith("- "):
            continue
        match = _LEAD.match(line)
        if match is None:
            raise ValueError(f"{where}: a deviation bullet must open with a bold sentence (- **...**): {line!r}")
        leads.append(match.group("lead").strip())
    if not leads:
        raise ValueError(f"{where}: no bullets under {SECTION!r}")
    return tuple(leads)


@cache
def deviations(suite: str) -> tuple[str, ...]:
    """A suite's deviations from its paper, one short sentence each, read from the suite's README.

    Raises:
        ValueError: For an unknown suite (lists the suites), or a README without well-formed deviation bullets.
    """
    if suite not in SUITE_NAMES:
        raise ValueError(f"unknown suite {suite!r}; expected one of {', '.join(SUITE_NAMES)}")
    readme = resources.files(f"lgmt_tasks.{suite}").joinpath("README.md")
    return parse_deviations(readme.read_text(encoding="utf-8"), f"lgmt_tasks/{suite}/README.md")


class _Deviations(Mapping[str, tuple[str, ...]]):
    """Suite → its deviations; each README is read on first access (importing this module reads no file)."""

    def __getitem__(self, suite: str) -> tuple[str, ...]:
        if suite not in SUITE_NAMES:
            raise KeyError(suite)
        return deviations(suite)

    def __iter__(self) -> Iterator[str]:
        return iter(SUITE_NAMES)

    def __len__(self) -> int:
        return len(SUITE_NAMES)


DEVIATIONS: Mapping[str, tuple[str, ...]] = _Deviations()
"""Suite → its deviations from the paper, one short sentence each (computed lazily from the suite READMEs)."""


def deviations_markdown(suite: str) -> str:
    """The deviations of a suite as a Markdown bullet list.

    Raises:
        ValueError: For an unknown suite (lists the suites).
    """
    return "\n".join(f"- {item}" for item in deviations(suite))
