"""`lgmt plan`: how many groups per relation a per-relation rate needs for a given interval width.

LGMT reports rates per relation (MVR per relation is the paper's Appendix D), and a build has `per_mr` groups per
relation (the paper: up to 200). Whether 200 is enough depends on the rate: the 95% Wilson interval of a 10% MVR over
200 groups is about 8.4 points wide. `lgmt plan --rate 0.1 --width 0.03` gives the smallest `per_mr` whose interval
at that rate is at most that wide, and the width the paper's 200 gives; `--per-mr N` the width for N groups.

The interval is the one every report prints, `lgmt_tasks.scorers.intervals.wilson_interval`, evaluated at
successes = rate × n. The MVR's denominator is the *parsed* groups, so with an unparsed rate u a build needs about
n / (1 − u) groups per relation for n parsed ones.

Power (`--difference`): the question `lgmt report --compare` answers is whether two runs differ, so the size that
matters there is the number of groups per relation at which McNemar's test finds an MVR difference δ with a given
power. `mcnemar_groups_needed` is Connor's (1987) normal-approximation formula for paired proportions,
n = ⌈(z₁₋α/2 √ψ + z_power √(ψ − δ²))² / δ²⌉, with ψ the discordant share (groups on which the two runs' outcomes
differ, b + c over n; at least δ). With Holm over m relations the first relation to be rejected must beat α/m, so the
size for a relation to be found whatever the others do is the formula at α/m (Bonferroni's level: Holm's worst
case). At δ = 0.05, ψ = 0.10, power 0.8, α = 0.05 it gives 312 groups per relation, and 595 with m = 20.
`mcnemar_exact_power` gives the power that the exact test of the report actually has at that n (the exact test is
conservative, so it is a little below the target).
"""

from __future__ import annotations

import math
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


def check_paired(difference: float, discordant: float) -> None:
    """Refuse a difference and discordant share that no paired 2×2 table has.

    Raises:
        ValueError: If δ is not in (0, 1], or ψ is not in [δ, 1] (the discordant groups include the difference).
    """
    if not 0 < difference <= 1:
        raise ValueError(f"difference {difference}: expected a difference of rates between 0 and 1 (e.g. 0.05)")
    if not difference <= discordant <= 1:
        raise ValueError(
            f"discordant share {discordant}: expected between the difference {difference} and 1 "
            "(the groups on which the runs differ include the difference)"
        )


def mcnemar_groups_needed(difference: float, discordant: float, power: float, alpha: float, relations: int = 1) -> int:
    """Groups per relation for McNemar's test to find an MVR difference with the given power (Connor 1987).

    Args:
        difference: δ, the difference of the two runs' rates (e.g. 0.05 for 5 points).
        discordant: ψ, the share of groups whose outcome differs between the runs ((b + c) / n), at least δ.
        power: The chance of a significant result when the difference is δ.
        alpha: The two-sided family-wise level.
        relations: m, the relations Holm corrects across; the size is for level alpha / m.

    Raises:
        ValueError: As `check_paired`, or for a power or level outside (0, 1), or m < 1.
    """
    check_paired(difference, discordant)
    if not 0 < power < 1 or not 0 < alpha < 1 or relations < 1:
        raise ValueError(f"power {power}, alpha {alpha}, relations {relations}: expected 0 < power, alpha < 1, m ≥ 1")
    z_alpha = NormalDist().inv_cdf(1 - alpha / relations / 2)
    z_power = NormalDist().inv_cdf(power)
    root = z_alpha * math.sqrt(discordant) + z_power * math.sqrt(max(0.0, discordant - difference**2))
    return max(1, math.ceil(root**2 / difference**2 - 1e-9))


def _binomial_pmf(k: int, n: int, p: float) -> float:
    if p <= 0 or p >= 1:
        return float(k == (0 if p <= 0 else n))
    return math.exp(
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)
    )


def mcnemar_exact_power(n: int, difference: float, discordant: float, alpha: float, relations: int = 1) -> float:
    """The power of McNemar's exact two-sided test (`report.significance.mcnemar_exact`) at level alpha / m, n groups.

    The discordant count d is Binomial(n, ψ); given d, the groups where only the worse run violates are
    Binomial(d, (ψ + δ) / (2ψ)), and the test rejects when the smaller count k has 2 · P(X ≤ k) < level,
    X ~ Binomial(d, ½). Sums over the d within 12 standard deviations of nψ (the rest weighs less than 1e-30).
    """
    check_paired(difference, discordant)
    level = alpha / relations
    share = (discordant + difference) / (2 * discordant)
    spread = 12 * math.sqrt(n * discordant * (1 - discordant)) + 2
    total = 0.0
    for d in range(max(0, math.floor(n * discordant - spread)), min(n, math.ceil(n * discordant + spread)) + 1):
        weight = _binomial_pmf(d, n, discordant)
        tail, critical = 0.0, -1  # the largest k with 2 · P(X ≤ k) < level
        for k in range(d + 1):
            tail += _binomial_pmf(k, d, 0.5)
            if 2 * tail >= level:
                break
            critical = k
        if critical < 0:
            continue
        reject = sum(_binomial_pmf(k, d, share) + _binomial_pmf(d - k, d, share) for k in range(critical + 1))
        total += weight * min(1.0, reject)
    return total


def mcnemar_exact_groups_needed(
    difference: float, discordant: float, power: float, alpha: float, relations: int = 1
) -> int:
    """The smallest n, from Connor's n up, at which the exact test reaches the power (`mcnemar_exact_power`).

    The exact test's power is not monotone in n (it saw-tooths as the critical count steps), so this is the first
    n that reaches it; a few larger n may fall just short again.

    Raises:
        ValueError: As `mcnemar_groups_needed`, or if four times Connor's n does not reach the power.
    """
    start = mcnemar_groups_needed(difference, discordant, power, alpha, relations)
    for n in range(start, 4 * start + 1):
        if mcnemar_exact_power(n, difference, discordant, alpha, relations) >= power:
            return n
    raise ValueError(f"the exact test does not reach power {power} by {4 * start:,} groups per relation")


@click.command("plan")
@click.option(
    "--rate", type=click.FloatRange(0, 1), default=None, help="The expected per-relation rate (e.g. MVR 0.1)."
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
@click.option(
    "--difference",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    help="Power: the MVR difference between two runs that --compare should find (e.g. 0.05 for 5 points).",
)
@click.option(
    "--discordant",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.10,
    show_default=True,
    help="Power: share of groups on which the two runs' outcomes differ ((b + c) / n), at least --difference.",
)
@click.option(
    "--power",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.8,
    show_default=True,
    help="Power: chance that McNemar's test is significant when the difference is --difference.",
)
@click.option(
    "--relations",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Power: relations Holm corrects across (--compare: the relations of the task; 20 for lgmt).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Power: two-sided family-wise level of McNemar's test.",
)
@click.option(
    "--adaptive",
    type=click.Choice(["threshold", "weakest"]),
    default=None,
    help="Adaptive (issue #37): expected groups of `-T adaptive=<design>` at the planted --rates, beside the fixed-n "
    "design answering the same question (simulated; --tau, --margin, --alpha as the task's).",
)
@click.option(
    "--rates",
    default=None,
    help="Adaptive: the planted violation rate of each relation, comma-separated (e.g. 0.02,0.1,0.3).",
)
@click.option("--tau", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.10, show_default=True)
@click.option("--margin", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05, show_default=True)
@click.option("--runs", type=click.IntRange(min=1), default=200, show_default=True, help="Adaptive: simulated runs.")
@click.option(
    "--pool", type=click.IntRange(min=1), default=PAPER_PER_MR, show_default=True, help="Adaptive: groups per relation."
)
@click.option("--members", type=click.IntRange(min=2), default=2, show_default=True, help="Adaptive: calls per group.")
def plan_command(
    rate: float | None,
    width: float | None,
    per_mr: int | None,
    confidence: float,
    difference: float | None,
    discordant: float,
    power: float,
    relations: int,
    alpha: float,
    adaptive: str | None,
    rates: str | None,
    tau: float,
    margin: float,
    runs: int,
    pool: int,
    members: int,
) -> None:
    """Plan `per_mr`: groups per relation for a Wilson interval of a given width, or for McNemar's test's power.

    With --rate: the smallest number of groups per relation whose interval at that rate is at most --width wide
    (with --width), the width at the paper's 200 groups per relation, and the width at --per-mr N (with it).
    With --difference: the groups per relation at which `lgmt report --compare` (McNemar, Holm across --relations)
    finds that MVR difference with --power, by Connor's formula and for the exact test. Counts are parsed groups:
    divide by (1 − unparsed rate) for the groups to build.
    With --adaptive and --rates: the expected groups and calls of an adaptive run (`-T adaptive=`) at those rates,
    and of the fixed-n design that answers the same question (`lgmt_tasks.adaptive.simulate`).
    """
    if rate is None and difference is None and adaptive is None:
        raise click.UsageError("give --rate (interval width), --difference (McNemar power) or --adaptive with --rates")
    lines = []
    if adaptive is not None:
        lines += _adaptive_lines(adaptive, rates, tau, margin, alpha, runs, pool, members)
    if rate is not None:
        lines += _width_lines(rate, width, per_mr, confidence)
    if difference is not None:
        try:
            lines += _power_lines(difference, discordant, power, relations, alpha)
        except ValueError as error:
            raise click.ClickException(str(error)) from error
    click.echo("\n".join(lines))


def _width_lines(rate: float, width: float | None, per_mr: int | None, confidence: float) -> list[str]:
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
    return lines


def _power_lines(difference: float, discordant: float, power: float, relations: int, alpha: float) -> list[str]:
    n = mcnemar_groups_needed(difference, discordant, power, alpha, relations)
    exact = mcnemar_exact_groups_needed(difference, discordant, power, alpha, relations)
    family = f", Holm over {relations} relations (level {alpha / relations:.4g})" if relations > 1 else ""
    head = f"MVR difference {difference:g}, discordant share {discordant:g}, power {power:g}, alpha {alpha:g}{family}"
    return [
        f"{head}: {n:,} groups per relation (Connor's formula; the exact test has power "
        f"{mcnemar_exact_power(n, difference, discordant, alpha, relations):.3f} there)",
        f"{head}: {exact:,} groups per relation for McNemar's exact test, as --compare runs it",
    ]


def _adaptive_lines(
    design: str, rates: str | None, tau: float, margin: float, alpha: float, runs: int, pool: int, members: int
) -> list[str]:
    from lgmt_tasks.adaptive.design import Settings
    from lgmt_tasks.adaptive.simulate import fixed_n, simulate

    try:
        planted = [float(r) for r in (rates or "").split(",") if r.strip()]
    except ValueError as error:
        raise click.BadParameter(
            f"{rates!r}: expected rates between 0 and 1, comma-separated", param_hint="--rates"
        ) from error
    if not planted or not all(0 <= r <= 1 for r in planted):
        raise click.BadParameter(f"{rates!r}: expected rates between 0 and 1, comma-separated", param_hint="--rates")
    settings = Settings(design, tau, margin, alpha)  # type: ignore[arg-type]
    result = simulate(planted, settings, pool=pool, runs=runs)
    fixed = fixed_n(planted, settings)
    head = (
        f"adaptive={design}, tau {tau:g}, margin {margin:g}, alpha {alpha:g}, {len(planted)} relations, pool {pool:,}"
    )
    lines = [
        f"{head}: {result.groups:,.0f} groups expected ({result.groups * members:,.0f} calls; mean of {runs} runs)"
    ]
    for planted_rate, groups in zip(planted, result.per_relation, strict=True):
        lines.append(f"  rate {planted_rate:g}: {groups:,.1f} groups")
    lines.append(
        f"  decisions beyond the margin: {result.wrong} in {runs} runs; relations left undecided: "
        f"{result.undecided:.2f} per run"
    )
    total = fixed * len(planted)
    shown = f"{fixed:,}" if fixed <= pool else f"{fixed:,} (more than the pool of {pool:,})"
    lines.append(
        f"fixed-n design for the same question: {shown} groups per relation, {total:,} groups ({total * members:,} "
        f"calls): {total / result.groups:.1f}x the adaptive run's"
    )
    return lines
