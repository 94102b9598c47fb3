"""The one `unparsed_rate` Inspect metric (and its standard error), shared by every suite's scorer.

Inspect registers a `@metric` under `<package>/<name>`, so a metric called `unparsed_rate` defined in several scorer
modules of `lgmt_tasks` is registered several times under `lgmt_tasks/unparsed_rate`, and the last import wins
wherever Inspect resolves the name (re-scoring a log, `grouped`, `eval_retry`). The suites mean the same thing by it,
the share of samples' answers that the parser could not read, so it is defined once, here, and every scorer module
(LGMT, lexical, QMFOL, DivLogicEval) lists this one.

What one sample contributes, by the keys its dict score has:

- `parsed` (LGMT and lexical groups, QMFOL tasks): 1 − parsed, i.e. 1 when some answer of the sample did not parse
  (`pairwise.unparsed_rate`, `qmfol_arithmetic.unparsed_rate`);
- `unparsed` (DivLogicEval instances): the share of its four rotations' answers that did not parse
  (`divlogiceval_arithmetic`' `unparsed_rate`).

The rate is the mean over samples (after Inspect's epoch reduction, the mean over sample-epochs), computed by
`pairwise.ratio_of_sums` with a denominator of one per sample, as the pure functions above do; its standard error is
the usual standard error of a mean. Both are made by `rate_metrics.rate_metric_pair`.
"""

from __future__ import annotations

from collections.abc import Mapping

from lgmt_tasks.scorers.rate_metrics import rate_metric_pair, sample_mean


def unparsed_share(value: object, sample_id: object) -> float:
    """What one sample's score contributes to the unparsed rate (see the module docstring).

    Args:
        value: The sample's score value (a flat dict for every suite of this package).
        sample_id: The sample's id, for the error message.

    Raises:
        ValueError: Naming the sample, if the score is not a dict with exactly one of a numeric `parsed` or
            `unparsed`.
    """
    if isinstance(value, Mapping):
        has_parsed = isinstance(value.get("parsed"), int | float)
        has_unparsed = isinstance(value.get("unparsed"), int | float)
        if has_unparsed and not has_parsed:
            return float(value["unparsed"])
        if has_parsed and not has_unparsed:
            return 1.0 - float(value["parsed"])
    raise ValueError(
        f"Sample {sample_id}: unparsed_rate needs a dict score with a numeric 'parsed' (LGMT, lexical, QMFOL) or "
        f"'unparsed' (DivLogicEval), not both; got {value!r:.200}"
    )


unparsed_rate_of = sample_mean(unparsed_share)
"""The unparsed rate of a set of scores: the mean of `unparsed_share` over samples; NaN for no samples."""

unparsed_rate, unparsed_rate_stderr = rate_metric_pair(
    "unparsed_rate",
    unparsed_rate_of,
    "the share of samples' answers that the parser could not read (see the module docstring)",
)
