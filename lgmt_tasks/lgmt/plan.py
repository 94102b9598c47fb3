"""`lgmt plan`: how many groups per relation a per-relation rate needs for a given interval width.

LGMT reports rates per relation (MVR per relation is the paper's Appendix D), and a build has `per_mr` groups per
relation (the paper: up to 200). Whether 200 is enough depends on the rate: the 95% Wilson interval of a 10% MVR over
200 groups is about 8.4 points wide. `lgmt plan --rate 0.1 --width 0.03` gives the smallest `per_mr` whose interval
at that rate is at most that wide, and the width the paper's 200 gives; `--per-mr N` the width for N groups.

The interval is the one every report prints, `lgmt_tasks.scorers.intervals.wilson_interval`, evaluated at
successes = rate × n. The MVR's denominator is the *parsed* groups, so with an unparsed rate u a build needs about
n / (1 − u) groups per relation for n parsed ones.
"""

from __future__ import annotations

from statistics import NormalDist

import click

from lgmt_tasks.scorers.intervals import wilson_interval

PAPER_PER_MR = 200
"""Groups per relation in the paper (and the default `per_mr` of the build and the tasks)."""

MAX_GROUPS = 10**9
"""The search's ceiling: a width that needs more groups per relation than this is reported as out of reach."""


def z_of(confidence: float) -> float:
    """The two-sided normal quantile of a confidence level (0.95 → 1.95996...).

    Raises:
        ValueError: If the level is not strictly between 0 and 1.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence}: expected a number between 0 and 1 (e.g. 0.95)")
    return NormalDist().inv_cdf((1 + confidence) / 2)


def wilson_width(rate: float, n: int, confidence: float = 0.95) -> float:
    """The total width (upper − lower) of the Wilson interval of `rate` observed over `n` groups."""
    low, high = wilson_interval(rate * n, n, z=z_of(confidence))
    return high - low


def groups_needed(rate: float, width: float, confidence: float = 0.95) -> int:
    """The smallest n whose Wilson interval at `rate` is at most `width` wide: width(n) ≤ target < width(n − 1).

    The width shrinks as n grows (for a fixed rate), so a doubling search followed by bisection finds the first n.

    Raises:
        ValueError: If the rate is outside [0, 1], the width outside (0, 1], or no n up to `MAX_GROUPS` suffices.
    """
    if not 0 <= rate <= 1:
        raise ValueError(f"rate {rate}: expected a proportion between 0 and 1")
    if not 0 < width <= 1:
        raise ValueError(f"width {width}: expected a total interval width between 0 and 1 (e.g. 0.03)")
    z_of(confidence)
    if wilson_width(rate, 1, confidence) <= width:
        return 1
    high = 2
    while wilson_width(rate, high, confidence) > width:
        if high >= MAX_GROUPS:
            raise ValueError(f"width {width} at rate {rate} needs more than {MAX_GROUPS:,} groups per relation")
        high *= 2
    low = high // 2  # width(low) > target
    while high - low > 1:
        middle = (low + high) // 2
        if wilson_width(rate, middle, confidence) <= width:
            high = middle
        else:
            low = middle
    return high


@click.command("plan")
@click.option(
    "--rate", type=click.FloatRange(0, 1), required=True, help="The expected per-relation rate (e.g. MVR 0.1)."
)
@click.option(
    "--width",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    help="Target total width of the interval (upper − lower), e.g. 0.03 for ±1.5 points.",
)
@click.option(
    "--per-mr",
    "per_mr",
    type=click.IntRange(min=1),
    default=None,
    help="Also print the width for this many groups per relation.",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence level of the Wilson interval.",
)
def plan_command(rate: float, width: float | None, per_mr: int | None, confidence: float) -> None:
    """Plan `per_mr`: groups per relation for a Wilson interval of a given width at a given rate.

    Prints the smallest number of groups per relation whose interval is at most --width wide (with --width), the
    width at the paper's 200 groups per relation, and the width at --per-mr N (with it). Counts are parsed groups:
    divide by (1 − unparsed rate) for the groups to build.
    """
    level = f"{confidence:.0%} Wilson interval"
    lines = []
    if width is not None:
        try:
            n = groups_needed(rate, width, confidence)
        except ValueError as error:
            raise click.ClickException(str(error)) from error
        found = f"rate {rate:g}, {level} of total width at most {width:g}: {n:,} groups per relation"
        found += f" (width {wilson_width(rate, n, confidence):.6f}"
        found += f"; {n - 1:,} give {wilson_width(rate, n - 1, confidence):.6f})" if n > 1 else ")"
        lines.append(found)
    sizes = [(f"the paper's {PAPER_PER_MR}", PAPER_PER_MR)] + ([(f"--per-mr {per_mr}", per_mr)] if per_mr else [])
    for label, size in sizes:
        lines.append(
            f"rate {rate:g}, {label} groups per relation: {level} of width {wilson_width(rate, size, confidence):.4f}"
        )
    click.echo("\n".join(lines))
