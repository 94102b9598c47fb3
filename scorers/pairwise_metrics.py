"""LGMT's rates as Inspect metrics (LGMT §4.5), shared by the two pairwise suites' scorers (LGMT and lexical).

A metamorphic group's score, in both suites, is a flat dict with (at least) the keys of `pairwise.OUTCOME_KEYS`; the
metrics here read those keys back and call the pure rate functions of `pairwise`, which state the definitions and
denominators. A lexical log and an LGMT log thus report the same rates under the same names, computed by the same
code. Each rate is two metrics, its value (`mvr`) and its standard error (`mvr_stderr`), made by
`rate_metrics.rate_metric_pair`; `unparsed_rate` is the one every suite shares (`unparsed`).

The noise-floor metrics (`control_metrics`, listed only by an LGMT task run with `-T control=true`) read the keys of
`pairwise.CONTROL_KEYS`: `control_rate` (with `control_rate_stderr`), `excess_mvr` (MVR − control rate, on the
groups where every answer parsed) with its 95% interval (`excess_mvr_low`, `excess_mvr_high`) and `above_control`
(1 when the interval's lower bound is above 0; per relation, when the Holm-adjusted one-sided p across the
relations is below 2.5%), each also per relation (`control_rate_MR-E1.1`,
`excess_mvr_low_MR-E1.1`, `above_control_MR-E1.1`, ...). Not `mvr_minus_control`: a name starting `mvr_` reads as
MVR's breakdown by a group of that name (`lgmt_tasks.report.headline`). The style control (`-T control=render`, the
source re-rendered by the template realiser) reads the same keys and reports the same numbers under names of its own,
so that a log says which control it measured: `render_rate` (with `render_rate_stderr`), `render_excess_mvr` (MVR −
render rate) with `render_excess_mvr_low` / `render_excess_mvr_high`, and `above_render`, each also per relation
(`control_metrics("render")`, names in `RENDER_METRICS`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from inspect_ai.scorer import Metric, SampleScore, Value, metric

from lgmt_tasks.scorers.outcomes import score_outcomes
from lgmt_tasks.scorers.pairwise import (
    CONTROL_KEYS,
    OUTCOME_KEYS,
    RATE_NAMES,
    RATES,
    Difference,
    Outcome,
    Rate,
    above_control_holm,
    control_rate,
    mvr_minus_control,
)
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


def control_outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the per-group indicators of an LGMT run with a control member (`OUTCOME_KEYS` and `CONTROL_KEYS`).

    Raises:
        ValueError: Naming the sample, if a score lacks a key (a run without `-T control=true`).
    """
    return score_outcomes(scores, (*OUTCOME_KEYS, *CONTROL_KEYS), "LGMT control")


control_rate_metric, control_rate_stderr = rate_metric_pair(
    "control_rate",
    lambda scores: control_rate(control_outcomes_of(scores)),
    "the control rate: groups whose source, asked twice, got two different parsed answers / groups where both parsed",
)
render_rate_metric, render_rate_stderr = rate_metric_pair(
    "render_rate",
    lambda scores: control_rate(control_outcomes_of(scores)),
    "the render rate: groups whose source and its re-rendering by the template realiser (no logical change) got "
    "two different parsed answers / groups where both parsed",
)


def _difference_metric(name: str, part: Callable[[Difference], float], doc: str) -> Callable[[], Metric]:
    """Register a metric returning one number of `pairwise.mvr_minus_control`, under `lgmt_tasks/<name>`."""

    def factory() -> Metric:
        def compute(scores: list[SampleScore]) -> float:
            return part(mvr_minus_control(control_outcomes_of(scores)))

        return compute

    factory.__doc__ = doc
    registered = metric(name=name)(factory)
    registered.__doc__ = doc
    return registered


excess_mvr = _difference_metric(
    "excess_mvr",
    lambda d: d.value,
    "Compute MVR − control rate over the groups in which every answer (control included) parsed.",
)
excess_mvr_low = _difference_metric(
    "excess_mvr_low",
    lambda d: d.low,
    "Compute the lower bound of the 95% Newcombe paired interval of `excess_mvr`.",
)
excess_mvr_high = _difference_metric(
    "excess_mvr_high",
    lambda d: d.high,
    "Compute the upper bound of the 95% Newcombe paired interval of `excess_mvr`.",
)
above_control = _difference_metric(
    "above_control",
    lambda d: float(d.above_control),
    "Compute whether MVR is significantly above the control rate (1.0: the 95% paired interval's lower bound is "
    "above 0; 0.0 otherwise, including when nothing was paired).",
)

render_excess_mvr = _difference_metric(
    "render_excess_mvr",
    lambda d: d.value,
    "Compute MVR − render rate over the groups in which every answer (the rendered source included) parsed.",
)
render_excess_mvr_low = _difference_metric(
    "render_excess_mvr_low",
    lambda d: d.low,
    "Compute the lower bound of the 95% Newcombe paired interval of `render_excess_mvr`.",
)
render_excess_mvr_high = _difference_metric(
    "render_excess_mvr_high",
    lambda d: d.high,
    "Compute the upper bound of the 95% Newcombe paired interval of `render_excess_mvr`.",
)
above_render = _difference_metric(
    "above_render",
    lambda d: float(d.above_control),
    "Compute whether MVR is significantly above the render rate (1.0: the 95% paired interval's lower bound is "
    "above 0; 0.0 otherwise, including when nothing was paired).",
)

CONTROL_METRICS: dict[str, Callable[[], Metric]] = {
    "control_rate": control_rate_metric,
    "control_rate_stderr": control_rate_stderr,
    "excess_mvr": excess_mvr,
    "excess_mvr_low": excess_mvr_low,
    "excess_mvr_high": excess_mvr_high,
    "above_control": above_control,
}
"""The noise-floor metric factories by their name in logs."""

RENDER_METRICS: dict[str, Callable[[], Metric]] = {
    "render_rate": render_rate_metric,
    "render_rate_stderr": render_rate_stderr,
    "render_excess_mvr": render_excess_mvr,
    "render_excess_mvr_low": render_excess_mvr_low,
    "render_excess_mvr_high": render_excess_mvr_high,
    "above_render": above_render,
}
"""The style control's metric factories by their name in logs (the same numbers as `CONTROL_METRICS`, in order)."""

METRICS_OF_CONTROL: dict[str, dict[str, Callable[[], Metric]]] = {"repeat": CONTROL_METRICS, "render": RENDER_METRICS}
"""Each control member's metrics (`vocabulary.CONTROLS` but `none`)."""


@metric
def holm_breakdown(key: str, prefix: str) -> Metric:
    """`above_control` per value of a metadata key (`<prefix>_<value>`), Holm-corrected across the values.

    The per-relation verdicts are one family: each relation's one-sided p-value (`Difference.p_value`) is adjusted
    by Holm's step-down over the relations of the log (`pairwise.above_control_holm`), and a relation is 1.0 when
    its adjusted p is below 2.5%. A plain `breakdown` would test each relation at 2.5% with no correction.

    Args:
        key: The sample metadata key to group by (`mr`).
        prefix: The name before the value (`above_control` gives `above_control_MR-E1.1`).

    Raises:
        ValueError: Naming the sample, if a sample lacks `key` in its metadata or a control key in its score.
    """

    def compute(scores: list[SampleScore]) -> Value:
        chunks: dict[str, list[SampleScore]] = {}
        for score in scores:
            metadata = score.sample_metadata or {}
            if key not in metadata:
                raise ValueError(f"Sample {score.sample_id} has no {key} metadata; {prefix} is grouped by it")
            chunks.setdefault(str(metadata[key]), []).append(score)
        differences = {name: mvr_minus_control(control_outcomes_of(chunk)) for name, chunk in chunks.items()}
        verdicts = above_control_holm(differences)
        return {f"{prefix}_{name}": float(verdicts[name][1]) for name in chunks}

    return compute


HOLM_CORRECTED = ("above_control", "above_render")
"""The per-relation metrics that are one family (Holm across the relations), not a plain `breakdown`."""


def control_metrics(control: str = "repeat", by: Sequence[str] = ("mr",)) -> list[Metric]:
    """A control's metrics overall, then broken down by each metadata key of `by` (`control_rate_MR-E1.1`, ...).

    Args:
        control: `repeat` (the noise floor: `CONTROL_METRICS`) or `render` (the style control: `RENDER_METRICS`).
        by: The metadata keys to break down by.

    The standard error is reported overall only; the breakdowns carry the interval instead. The overall
    `above_control` is one test at 2.5% (one-sided); its breakdown is Holm-corrected across the values of the key
    (`holm_breakdown`), so `above_control_MR-E1.1` says whether that relation is above the control after allowing
    for the number of relations tested.
    """
    if control not in METRICS_OF_CONTROL:
        raise ValueError(f"control={control!r}: expected one of {', '.join(METRICS_OF_CONTROL)}")
    metrics = METRICS_OF_CONTROL[control]
    per_group = [name for name in metrics if not name.endswith("_stderr")]
    return [
        *(factory() for factory in metrics.values()),
        *(
            holm_breakdown(key, name) if name in HOLM_CORRECTED else breakdown(metrics[name], key, name)
            for key in by
            for name in per_group
        ),
    ]
