"""The Inspect metric factories every suite uses: a rate's value and its standard error, and breakdowns by metadata.

Every headline number of the package is an estimate over samples with a standard error (`pairwise.Rate`): LGMT's
and the lexical suite's rates, LogicAsker's response accuracy, QMFOL's accuracy, DivLogicEval's per-instance means
and the shared unparsed rate. An Inspect metric returns one number per name, and `grouped` needs a float-valued
metric, so each estimate is two metrics, `<name>` and `<name>_stderr`, that differ only in the half of the estimate
they return. `rate_metric_pair` makes that pair once for every suite.

The metrics are registered when a suite's scorer module assigns them at module level (`mvr, mvr_stderr =
rate_metric_pair("mvr", ...)`), under `lgmt_tasks/<name>`: the names that logs, the README and `lgmt report` use,
and that Inspect resolves when it re-scores a log. A metric's name is therefore part of the package's interface:
`tests/scorers/test_metric_names.py` lists every one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from inspect_ai.scorer import Metric, SampleScore, grouped, metric

from lgmt_tasks.scorers.pairwise import Rate, ratio_of_sums

Estimate = Callable[[Sequence[SampleScore]], Rate]
"""An estimate over the scores a metric receives (typically a pure rate function applied to the scores' outcomes)."""


class RateMetrics(NamedTuple):
    """The two registered metric factories of one estimate."""

    value: Callable[[], Metric]
    stderr: Callable[[], Metric]


def rate_metric(
    name: str, estimate: Estimate, doc: str, part: Literal["value", "stderr"] = "value"
) -> Callable[[], Metric]:
    """Register a metric that returns one half of an estimate, under `lgmt_tasks/<name>`.

    Args:
        name: The metric's name in logs (unqualified: `mvr`, `cm_pass_correct`).
        estimate: The estimate over the scores.
        doc: The metric factory's docstring.
        part: Which half of the estimate the metric returns.

    Returns:
        The registered metric factory (what `@metric(name=name)` returns); assign it at module level.
    """

    def factory() -> Metric:
        def compute(scores: list[SampleScore]) -> float:
            result = estimate(scores)
            return result.value if part == "value" else result.stderr

        return compute

    factory.__doc__ = doc
    registered = metric(name=name)(factory)
    registered.__doc__ = doc
    return registered


def rate_metric_pair(name: str, estimate: Estimate, what: str) -> RateMetrics:
    """Register the metrics `<name>` (the estimate's value) and `<name>_stderr` (its standard error).

    Args:
        name: The value metric's name in logs.
        estimate: The estimate over the scores.
        what: What the value is, for the docstrings (`the metamorphic violation rate: violations / parsed groups`).

    Returns:
        The two registered factories, to unpack at module level: `mvr, mvr_stderr = rate_metric_pair("mvr", ...)`.
    """
    return RateMetrics(
        rate_metric(name, estimate, f"Compute {what}."),
        rate_metric(f"{name}_stderr", estimate, f"Compute the standard error of `{name}`.", part="stderr"),
    )


def sample_mean(share: Callable[[object, object], float]) -> Estimate:
    """The estimate that is the mean over samples of what each sample's score contributes.

    Args:
        share: What one sample contributes, from its score value and its id (for error messages).

    Returns:
        An estimate: Σ shares / samples (`pairwise.ratio_of_sums` with a denominator of one per sample), NaN for no
        samples. After Inspect's epoch reduction it is the pooled mean over sample-epochs.
    """

    def estimate(scores: Sequence[SampleScore]) -> Rate:
        shares = [share(sample_score.score.value, sample_score.sample_id) for sample_score in scores]
        return ratio_of_sums(shares, [1.0] * len(shares))

    return estimate


def breakdown(base: Callable[[], Metric], key: str, prefix: str) -> Metric:
    """Break a metric down by the values of a sample metadata key, named `<prefix>_<value>` in the log.

    Args:
        base: The metric factory to apply to each group of samples.
        key: The sample metadata key to group by (`category`, `mr`, `question_type`, ...).
        prefix: The name before the group value (`mvr` gives `mvr_MR-E`).

    Returns:
        An Inspect `grouped` metric without an "all" entry (the headline metric is that already). A sample without
        `key` in its metadata makes it raise a ValueError naming the sample.
    """
    return grouped(base(), key, all=False, name_template=f"{prefix}_{{group_name}}")
