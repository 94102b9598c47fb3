"""LGMT's rates as Inspect metrics (LGMT §4.5), shared by the two pairwise suites' scorers (LGMT and lexical).

A metamorphic group's score, in both suites, is a flat dict with (at least) the keys of `pairwise.OUTCOME_KEYS`; the
metrics here read those keys back and call the pure rate functions of `pairwise`, which state the definitions and
denominators. A lexical log and an LGMT log thus report the same rates under the same names, computed by the same
code. Each rate is two metrics, its value (`mvr`) and its standard error (`mvr_stderr`), made by
`rate_metrics.rate_metric_pair`; `unparsed_rate` is the one every suite shares (`unparsed`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspect_ai.scorer import Metric, SampleScore

from lgmt_tasks.scorers.outcomes import score_outcomes
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATE_NAMES, RATES, Outcome, Rate
from lgmt_tasks.scorers.rate_metrics import Estimate, breakdown, rate_metric_pair
from lgmt_tasks.scorers.unparsed import unparsed_rate, unparsed_rate_stderr


def outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the per-group indicator dicts of LGMT (or lexical) scores, checked.

    Args:
        scores: Scores produced by `metamorphic_consistency` or `lexical_consistency` (possibly epoch-reduced).

    Returns:
        One outcome per score, each with every key of `OUTCOME_KEYS` as a float.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with those keys (e.g. another scorer's score).
    """
    return score_outcomes(scores, OUTCOME_KEYS, "LGMT")


def _rate(name: str) -> Estimate:
    """The estimate of one rate of `RATES` over LGMT scores."""
    rate = RATES[name]

    def estimate(scores: Sequence[SampleScore]) -> Rate:
        return rate(outcomes_of(scores))

    return estimate


mvr, mvr_stderr = rate_metric_pair(
    "mvr", _rate("mvr"), "the metamorphic violation rate: violations / parsed groups (LGMT §4.5.1)"
)
acc_static, acc_static_stderr = rate_metric_pair(
    "acc_static",
    _rate("acc_static"),
    "static accuracy: correct sources / groups, an unparsed source answer being wrong (LGMT §4.5.3)",
)
acc_cons, acc_cons_stderr = rate_metric_pair(
    "acc_cons",
    _rate("acc_cons"),
    "consistent accuracy: groups with every answer correct / groups (LGMT §4.5.3)",
)
acc_static_parsed, acc_static_parsed_stderr = rate_metric_pair(
    "acc_static_parsed",
    _rate("acc_static_parsed"),
    "static accuracy over parsed groups: correct sources / parsed groups",
)
acc_cons_parsed, acc_cons_parsed_stderr = rate_metric_pair(
    "acc_cons_parsed",
    _rate("acc_cons_parsed"),
    "consistent accuracy over parsed groups: groups with every answer correct / parsed groups",
)
hdr, hdr_stderr = rate_metric_pair(
    "hdr", _rate("hdr"), "the hidden defect rate: correct source but a violation / parsed groups (LGMT §4.5.3)"
)
fur, fur_stderr = rate_metric_pair(
    "fur", _rate("fur"), "the false unreported rate: no violation but a wrong source / parsed groups (LGMT §4.5.4)"
)

RATE_METRICS: dict[str, Callable[[], Metric]] = {
    "mvr": mvr,
    "acc_static": acc_static,
    "acc_cons": acc_cons,
    "hdr": hdr,
    "fur": fur,
    "unparsed_rate": unparsed_rate,
    "acc_static_parsed": acc_static_parsed,
    "acc_cons_parsed": acc_cons_parsed,
}
"""The rate metric factories by name (`RATE_NAMES`)."""

STDERR_METRICS: dict[str, Callable[[], Metric]] = {
    "mvr": mvr_stderr,
    "acc_static": acc_static_stderr,
    "acc_cons": acc_cons_stderr,
    "hdr": hdr_stderr,
    "fur": fur_stderr,
    "unparsed_rate": unparsed_rate_stderr,
    "acc_static_parsed": acc_static_parsed_stderr,
    "acc_cons_parsed": acc_cons_parsed_stderr,
}
"""The standard-error metric factories by the name of their rate."""


def rate_breakdown(rate: str, key: str) -> Metric:
    """Break one rate down by the values of a sample metadata key, named `<rate>_<value>` in the log (e.g. `mvr_MR-E`).

    Args:
        rate: One of `RATE_NAMES`.
        key: The sample metadata key to group by (`category` or `mr`; lexical: `mr` or `part`).

    Returns:
        An Inspect `grouped` metric without an "all" entry. A sample without `key` in its metadata makes it raise a
        ValueError naming the sample.
    """
    if rate not in RATE_METRICS:
        raise ValueError(f"rate must be one of {', '.join(RATE_NAMES)}; got {rate!r}")
    return breakdown(RATE_METRICS[rate], key, rate)


def pairwise_rate_metrics() -> list[Metric]:
    """Every rate of `RATE_NAMES`, then every standard error, in that order (the head of both suites' metric lists)."""
    return [*(RATE_METRICS[name]() for name in RATE_NAMES), *(STDERR_METRICS[name]() for name in RATE_NAMES)]
