"""The one `accuracy` Inspect metric (and its standard error), shared by the suites whose sample is one answer.

Inspect registers a `@metric` under `<package>/<name>`, so an `accuracy` defined in both the QMFOL and the
LogicAsker scorer modules would be registered twice under `lgmt_tasks/accuracy`, and the last import would win
wherever Inspect resolves the name (re-scoring a log, `grouped`, `eval_retry`). Both mean the same thing by it, so
it is defined once, here, as `unparsed.py` defines the unparsed rate.

What it is: Σ correct / samples, the share of samples answered correctly, where an answer the parser could not read
is wrong (the papers' way, and the headline figure of every suite; the figures over parsed answers only are reported
beside it under their own names). It reads the `correct` key of a sample's dict score (QMFOL tasks, LogicAsker tests
both have it); after Inspect's epoch reduction it is the pooled share over sample-epochs. The arithmetic is
`pairwise.ratio_of_sums` with a denominator of one per sample, as the suites' pure functions compute it.
"""

from __future__ import annotations

from collections.abc import Mapping

from lgmt_tasks.scorers.rate_metrics import rate_metric_pair, sample_mean


def correct_share(value: object, sample_id: object) -> float:
    """What one sample's score contributes: its `correct` value (0/1, or an epoch mean).

    Raises:
        ValueError: Naming the sample, if the score is not a dict with a numeric `correct`.
    """
    if isinstance(value, Mapping) and isinstance(value.get("correct"), int | float):
        return float(value["correct"])
    raise ValueError(f"Sample {sample_id}: accuracy needs a dict score with a numeric 'correct'; got {value!r:.200}")


accuracy_of = sample_mean(correct_share)
"""The accuracy of a set of scores: Σ correct / samples; NaN for no samples."""


accuracy, accuracy_stderr = rate_metric_pair(
    "accuracy",
    accuracy_of,
    "accuracy: correct answers / samples, an answer the parser could not read counting as wrong",
)
