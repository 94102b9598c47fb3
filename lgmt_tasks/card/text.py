"""How a card prints its numbers and names its sections, shared by the Markdown and HTML renderings.

One place, so that the two renderings of a card print every number alike: a rate to three decimals with its interval
in brackets (`0.385 [0.224, 0.575]`), a missing rate as `–` (the papers' dash, as `lgmt report` prints it), and a
section's heading from the registry's title.
"""

from __future__ import annotations

from lgmt_tasks import suites as registry
from lgmt_tasks.card.content import METHODS, Estimate

DASH = "–"
"""A missing value (no item, no interval)."""

SECTION_TITLES: dict[str, str] = {
    "provenance": "Provenance",
    "suites": "Suites",
    "not-comparable": "Not comparable",
}
"""Headings of the sections that are not a suite's (a suite's heading is `suite_heading`)."""


def rate(value: float | None) -> str:
    """A rate to three decimals, `–` when missing."""
    return DASH if value is None else f"{value:.3f}"


def interval(estimate: Estimate | None) -> str:
    """`[low, high]`, or "" without an interval."""
    if estimate is None or estimate.low is None or estimate.high is None:
        return ""
    return f"[{estimate.low:.3f}, {estimate.high:.3f}]"


def estimate_text(estimate: Estimate | None) -> str:
    """`value [low, high]`: the way a card prints a rate."""
    if estimate is None or estimate.value is None:
        return DASH
    bounds = interval(estimate)
    return f"{estimate.value:.3f} {bounds}" if bounds else f"{estimate.value:.3f}"


def count(value: float | None) -> str:
    """A count: whole numbers without decimals, epoch means with two, `–` when missing."""
    if value is None:
        return DASH
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def method_text(estimate: Estimate) -> str:
    """What the interval is, in words (`METHODS`), with its level and family where they are not the plain 95%."""
    words = METHODS.get(estimate.method, estimate.method)
    if estimate.method in ("confidence-sequence", "confidence-sequence-pooled"):
        return f"{words}; level {estimate.level:.0%}"
    if estimate.family > 1:
        return f"{words}; family of {estimate.family}"
    return words


def suite_heading(suite: str) -> str:
    """A suite's section heading: its name and the registry's title."""
    return f"{suite}: {registry.suite(suite).title}"


def section_heading(section: str) -> str:
    """Any section's heading (`SECTION_IDS`)."""
    return SECTION_TITLES.get(section) or suite_heading(section)


def samples_text(samples: int | None, total: int | None, errored: int | None = None) -> str:
    """`40 of 200` (and `, 3 errored`) for a run's sample counts."""
    text = f"{count(samples)} of {count(total)}"
    return text + (f", {errored} errored" if errored else "")


def short_fingerprint(fingerprint: str | None) -> str:
    """The first 12 hex digits of a `sha256:` fingerprint (the card's JSON keeps it whole)."""
    if not fingerprint:
        return DASH
    return fingerprint.removeprefix("sha256:")[:12]
