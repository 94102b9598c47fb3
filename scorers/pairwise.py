"""Metric arithmetic of metamorphic groups, in pure Python (DESIGN decision 6: no framework imports here).

One metamorphic group is a source case and k ≥ 1 follow-ups that a relation proved to have the same label as the
source; the model's answers are compared with each other (the metamorphic oracle of LGMT §3.5) and with the gold
label. `group_outcome` turns one group's answers into 0/1 indicators; the rate functions turn many groups'
indicators into the metrics of LGMT §4.5. The Inspect `@metric`s, the lm-eval aggregations and the Hugging Face
`evaluate` modules all wrap these functions, so the three frameworks cannot disagree.

Denominators. The two accuracies, `acc_static` and `acc_cons`, divide by all groups (every group that is a test; see
`tested`): an answer we could not read is wrong, as the paper counts it (it divides by all groups and logs parse
failures separately). Their twins over the groups in which every answer parsed, `acc_static_parsed` and
`acc_cons_parsed`, are reported beside them, with `unparsed_rate`. The pair rates `mvr`, `hdr` and `fur` keep the
parsed groups as their denominator (DESIGN decision 5): an answer we could not read is neither consistent nor
inconsistent, so a group with one says nothing about consistency. On fully parsed runs every pair of figures agrees.
Every rate weighs a source case by its number of groups; `acc_static_per_case` is static accuracy with each distinct
source case counted once (it needs each group's case, so it is not in `RATES`).

Ratios of sums, not means of ratios, so that the metrics stay exact when Inspect reduces several epochs of a
sample to the per-key mean first: Σ(mean over epochs of y) / Σ(mean over epochs of parsed) equals the pooled
ratio over all sample-epochs, whatever the epochs disagree on.

Identities that hold exactly on every set of groups (they follow from the per-group definitions, and the tests
check them): acc_static_parsed − acc_cons_parsed = hdr, and mvr + acc_cons_parsed + fur = 1 (when anything parsed),
because the parsed groups split into violations, consistent-and-correct, and consistent-and-wrong.

Standard errors use the delta method for a ratio estimator over groups (the group is the unit, so answers within a
group, and epochs of a group, are treated as correlated, as they are):
SE(R) = sqrt(n / (n − 1) · Σᵢ (yᵢ − R·xᵢ)²) / Σᵢ xᵢ, with n groups, yᵢ the indicator and xᵢ = parsedᵢ. With every
group parsed this is the usual sqrt(R(1 − R) / (n − 1)). It is a normal approximation: near 0 or 1 and for small n,
prefer a Wilson interval on the counts.

The noise floor (`-T control=true`, `CONTROL_KEYS`): the source asked a second time, unchanged, gives the control
rate, the violation rate of no transformation at all, and `mvr_minus_control` (logged as `excess_mvr`), MVR above
that floor with a paired 95% interval (`intervals.newcombe_paired_difference`). A relation whose interval reaches 0
is not shown to be a defect beyond the model's own randomness; across relations the verdicts are Holm-corrected
(`above_control_holm`).

Empty input and zero denominators give NaN (value and standard error), not 0.0: a run in which nothing parsed has
no violation rate, and 0.0 would read as a perfectly consistent model. A standard error needs two groups; with one
it is NaN too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from lgmt_tasks.scorers.intervals import newcombe_one_sided_p, newcombe_paired_difference
from lgmt_tasks.scorers.multiplicity import holm

OUTCOME_KEYS: tuple[str, ...] = (
    "violation",
    "source_correct",
    "followup_correct",
    "consistent_correct",
    "hidden_defect",
    "false_unreported",
    "parsed",
    "source_answered_correctly",
    "tested",
)
"""The keys of one group's outcome, in a fixed order (they are the keys of the LGMT score dict)."""

RATE_NAMES: tuple[str, ...] = (
    "mvr",
    "acc_static",
    "acc_cons",
    "hdr",
    "fur",
    "unparsed_rate",
    "acc_static_parsed",
    "acc_cons_parsed",
)
"""The rates, under the names they have in logs and reports (the paper's six first, then the over-parsed twins)."""

Outcome = Mapping[str, float]
"""One group's indicators: 0/1 from `group_outcome`, or a mean of them after epoch reduction."""


@dataclass(frozen=True)
class Rate:
    """A ratio-of-sums estimate with its standard error.

    Attributes:
        value: numerator / denominator (NaN if the denominator is 0).
        stderr: Delta-method standard error over groups (NaN with fewer than two groups or a zero denominator).
        numerator: The sum of the indicator over groups.
        denominator: The sum of the denominator indicator over groups (parsed groups, or all groups).
    """

    value: float
    stderr: float
    numerator: float
    denominator: float


def group_outcome(gold: str, source: str | None, followups: Sequence[str | None]) -> dict[str, int]:
    """Score one metamorphic group: compare the answers with each other and with the gold label.

    The expected output relation of every LGMT relation is equality (each follow-up is proven to keep the label),
    so a violation is any follow-up answer that differs from the source answer.

    Args:
        gold: The gold label of the source (and, proven, of every follow-up).
        source: The parsed answer to the source case, or None if it did not parse.
        followups: The parsed answers to the follow-ups, in order (None where one did not parse).

    Returns:
        A dict with exactly the keys of `OUTCOME_KEYS`, each 0 or 1:
        `tested` is 1 (the group is a test; the lexical suite has groups that are not, see `lexical_arithmetic`);
        `source_answered_correctly`: the source answer parsed and equals the gold label, whether or not the
        follow-ups parsed (the numerator of `acc_static`, which counts every group);
        `parsed` is 1 iff every answer parsed, and when it is 0 all keys below are 0;
        `violation`: some follow-up answer differs from the source answer;
        `source_correct`: the source answer equals the gold label;
        `followup_correct`: every follow-up answer equals the gold label;
        `consistent_correct`: the source and every follow-up are correct;
        `hidden_defect`: the source is correct and there is a violation (correct under static testing, inconsistent
        under LGMT);
        `false_unreported`: no violation and the source is wrong (so every answer is the same wrong label: the
        blind spot of consistency testing).

    Raises:
        ValueError: If there are no follow-ups (a group needs something to compare the source with).
    """
    if not followups:
        raise ValueError("a metamorphic group needs at least one follow-up answer")
    if source is None or any(answer is None for answer in followups):
        return {**dict.fromkeys(OUTCOME_KEYS, 0), "tested": 1, "source_answered_correctly": int(source == gold)}
    violation = any(answer != source for answer in followups)
    source_correct = source == gold
    followup_correct = all(answer == gold for answer in followups)
    outcome = {
        "violation": violation,
        "source_correct": source_correct,
        "followup_correct": followup_correct,
        "consistent_correct": source_correct and followup_correct,
        "hidden_defect": source_correct and violation,
        "false_unreported": not violation and not source_correct,
        "parsed": True,
        "source_answered_correctly": source_correct,
        "tested": True,
    }
    return {key: int(outcome[key]) for key in OUTCOME_KEYS}


def ratio_of_sums(numerators: Sequence[float], denominators: Sequence[float]) -> Rate:
    """Compute Σ numerators / Σ denominators over groups, with its delta-method standard error.

    Args:
        numerators: Per-group indicator (or its epoch mean).
        denominators: Per-group denominator indicator, same length.

    Returns:
        The estimate; see the module docstring for the standard error and the NaN conventions.

    Raises:
        ValueError: If the two sequences differ in length.
    """
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} numerators but {len(denominators)} denominators")
    n = len(numerators)
    total_y = math.fsum(numerators)
    total_x = math.fsum(denominators)
    if total_x == 0:
        return Rate(math.nan, math.nan, total_y, total_x)
    ratio = total_y / total_x
    if n < 2:
        return Rate(ratio, math.nan, total_y, total_x)
    residuals = math.fsum((y - ratio * x) ** 2 for y, x in zip(numerators, denominators, strict=True))
    return Rate(ratio, math.sqrt(n / (n - 1) * residuals) / total_x, total_y, total_x)


def outcome_column(outcomes: Sequence[Outcome], key: str, keys_note: str) -> list[float]:
    """The values of `key` in every outcome, as floats (the numerators or denominators of a rate).

    Args:
        outcomes: Outcome dicts.
        key: The key to extract.
        keys_note: The parenthesised note of the error, naming the keys an outcome should have.

    Raises:
        ValueError: Naming the first outcome that lacks `key`, with `keys_note`.
    """
    column = []
    for index, outcome in enumerate(outcomes):
        if key not in outcome:
            raise ValueError(f"outcome {index} has no {key!r} ({keys_note})")
        column.append(float(outcome[key]))
    return column


def _column(outcomes: Sequence[Outcome], key: str) -> list[float]:
    return outcome_column(outcomes, key, f"expected the keys {', '.join(OUTCOME_KEYS)}")


def _over_parsed(outcomes: Sequence[Outcome], key: str) -> Rate:
    return ratio_of_sums(_column(outcomes, key), _column(outcomes, "parsed"))


def mvr(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the metamorphic oracle violation rate (LGMT §4.5.1): Σ violation / Σ parsed.

    The share of parsed groups in which some follow-up answer differs from the source answer. Needs no gold label.
    """
    return _over_parsed(outcomes, "violation")


def _over_tested(outcomes: Sequence[Outcome], key: str) -> Rate:
    return ratio_of_sums(_column(outcomes, key), _column(outcomes, "tested"))


def acc_static(outcomes: Sequence[Outcome]) -> Rate:
    """Compute static accuracy (LGMT §4.5.3): Σ source_answered_correctly / Σ tested.

    Accuracy on the source cases alone, as a reference-based benchmark would measure it, over every group: a source
    answer that did not parse is wrong (the paper's denominator). Whether the follow-ups parsed does not matter.
    """
    return _over_tested(outcomes, "source_answered_correctly")


CASE_KEYS: tuple[str, str] = ("source_dataset", "source_id")
"""The keys naming a group's source case: LGMT's sample metadata (Inspect) and outcome dicts (lm-eval) hold both."""


def source_case_of(record: Mapping[str, object], what: str) -> tuple[str, str]:
    """A group's source case, `(source_dataset, source_id)`, the case key of `acc_static_per_case` in every harness.

    Args:
        record: A mapping holding `CASE_KEYS` (an Inspect sample's metadata, an lm-eval outcome dict).
        what: What `record` belongs to, for the message (`Sample g1`, `lm-eval document 3`).

    Raises:
        ValueError: `<what> has no source_dataset or source_id metadata: acc_static_per_case needs each group's
            source case`, naming the keys missing.
    """
    missing = [key for key in CASE_KEYS if record.get(key) is None]
    if missing:
        raise ValueError(
            f"{what} has no {' or '.join(missing)} metadata: acc_static_per_case needs each group's source case"
        )
    return str(record[CASE_KEYS[0]]), str(record[CASE_KEYS[1]])


def acc_static_per_case(outcomes: Sequence[Outcome], cases: Sequence[Hashable]) -> Rate:
    """Compute static accuracy with each distinct source case counted once: the mean over cases of its accuracy.

    `acc_static` counts groups, and one source case is the source of a group of every relation that applies to it
    (14–19 groups of a `lgmt` build on one case), so a case weighs as often as it has groups. Here each case first
    gets its own accuracy, Σ source_answered_correctly / Σ tested over its groups (the same source prompt asked in
    each group: 0 or 1 under greedy decoding, a share when the answers differ, e.g. when sampled), and the rate is
    the plain mean of those over the cases. An unparsed source answer is wrong, as in `acc_static`. A case none of
    whose groups is a test is left out.

    Args:
        outcomes: One outcome per group (or its epoch mean).
        cases: The source case of each group, same length (any hashable key, e.g. `(source_dataset, source_id)`).

    Returns:
        The rate over cases: `numerator` is the sum of the cases' accuracies, `denominator` the number of cases, and
        the standard error is that of a mean over cases (the case as the unit).

    Raises:
        ValueError: If the two sequences differ in length, or an outcome lacks a key.
    """
    if len(outcomes) != len(cases):
        raise ValueError(f"{len(outcomes)} outcomes but {len(cases)} source cases")
    correct, tested = _column(outcomes, "source_answered_correctly"), _column(outcomes, "tested")
    sums: dict[Hashable, list[float]] = {}
    for case, right, test in zip(cases, correct, tested, strict=True):
        total = sums.setdefault(case, [0.0, 0.0])
        total[0] += right
        total[1] += test
    shares = [right / test for right, test in sums.values() if test > 0]
    return ratio_of_sums(shares, [1.0] * len(shares))


def acc_cons(outcomes: Sequence[Outcome]) -> Rate:
    """Compute consistent accuracy (LGMT §4.5.3): Σ consistent_correct / Σ tested.

    The share of all groups in which the source and every follow-up are answered correctly (an answer that did not
    parse is not correct).
    """
    return _over_tested(outcomes, "consistent_correct")


def acc_static_parsed(outcomes: Sequence[Outcome]) -> Rate:
    """Compute static accuracy over the parsed groups: Σ source_correct / Σ parsed.

    The twin of `acc_static` that shares its denominator with `acc_cons_parsed` and `hdr`, so that
    `acc_static_parsed − acc_cons_parsed = hdr` holds exactly. Read it with `unparsed_rate`.
    """
    return _over_parsed(outcomes, "source_correct")


def acc_cons_parsed(outcomes: Sequence[Outcome]) -> Rate:
    """Compute consistent accuracy over the parsed groups: Σ consistent_correct / Σ parsed."""
    return _over_parsed(outcomes, "consistent_correct")


def hdr(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the hidden defect rate (LGMT §4.5.3): Σ hidden_defect / Σ parsed.

    The share of parsed groups whose source is answered correctly but which violate the relation: what static
    accuracy overstates. Equals `acc_static − acc_cons` exactly (same denominator).
    """
    return _over_parsed(outcomes, "hidden_defect")


def fur(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the false unreported rate (LGMT §4.5.4): Σ false_unreported / Σ parsed.

    The share of parsed groups answered consistently but wrongly (no violation, wrong source): errors that a
    consistency oracle cannot see.
    """
    return _over_parsed(outcomes, "false_unreported")


def unparsed_rate(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the share of groups with at least one unparsed answer: Σ (1 − parsed) / number of groups.

    The denominator of every other rate is what this leaves; it is always reported so that a low MVR cannot hide
    behind answers the parser had to drop.
    """
    parsed = _column(outcomes, "parsed")
    return ratio_of_sums([1.0 - p for p in parsed], [1.0] * len(parsed))


RATES: dict[str, Callable[[Sequence[Outcome]], Rate]] = {
    "mvr": mvr,
    "acc_static": acc_static,
    "acc_cons": acc_cons,
    "hdr": hdr,
    "fur": fur,
    "unparsed_rate": unparsed_rate,
    "acc_static_parsed": acc_static_parsed,
    "acc_cons_parsed": acc_cons_parsed,
}
"""Each rate by its name in `RATE_NAMES`."""


def summarize(outcomes: Sequence[Outcome]) -> dict[str, float]:
    """Compute every rate and its standard error, flat: `mvr`, `mvr_stderr`, …, `unparsed_rate_stderr`.

    Args:
        outcomes: One outcome per group (see `group_outcome`).

    Returns:
        A flat dict of floats, in `RATE_NAMES` order, for tables and framework wrappers.
    """
    summary: dict[str, float] = {}
    for name in RATE_NAMES:
        rate = RATES[name](outcomes)
        summary[name] = rate.value
        summary[f"{name}_stderr"] = rate.stderr
    return summary


# The noise floor (`-T control=true`): the source asked twice.

CONTROL_KEYS: tuple[str, ...] = (
    "control_violation",
    "control_parsed",
    "paired",
    "paired_violation",
    "paired_control_violation",
    "paired_both_violations",
)
"""The keys a group's score gains when the source was asked a second time, unchanged (the control member).

`control_violation`: the two answers to the same source prompt both parsed and differ (the model's own randomness,
not a defect); `control_parsed`: both parsed (the control rate's denominator; an unparsed control answer is counted
here as unparsed, never as a violation). `paired`: every answer parsed, follow-ups and control included (the groups
on which MVR and the control rate are compared pair by pair); the `paired_*` keys are `violation`,
`control_violation` and both of them restricted to those groups (the cells of the paired 2×2 table, kept as keys of
their own so that epoch means stay exact)."""


@dataclass(frozen=True)
class Difference:
    """MVR minus the control rate on the same groups, with a 95% interval of the paired difference.

    Attributes:
        value: MVR − control rate over the `paired` groups.
        low: Lower bound (Newcombe's paired hybrid score interval, `intervals.newcombe_paired_difference`).
        high: Upper bound.
        mvr: MVR over the paired groups.
        control: The control rate over the paired groups.
        pairs: The number of paired groups (fractional after epoch reduction).
        p_value: The one-sided p-value of MVR > control that the interval inverts (`intervals.newcombe_one_sided_p`):
            below `ABOVE_ALPHA` exactly when `low` > 0. NaN when nothing was paired.
    """

    value: float
    low: float
    high: float
    mvr: float
    control: float
    pairs: float
    p_value: float = math.nan

    @property
    def above_control(self) -> bool:
        """Whether MVR is significantly above the control, for this one test alone: the lower bound is above 0.

        Equivalent to a one-sided test at the 2.5% level that the violation rate exceeds the model's own flip rate.
        False when nothing was paired (NaN bounds). Right for one pre-specified test (all groups); across relations
        use `above_control_holm`, which corrects for their number.
        """
        return self.low > 0


ABOVE_ALPHA = 0.025
"""The level of the one-sided test `above_control` (the 95% interval's lower bound above 0)."""


def above_control_holm(differences: Mapping[str, Difference]) -> dict[str, tuple[float, bool]]:
    """Holm-adjusted one-sided p-values and verdicts of a family of `Difference`s (one per relation).

    Testing each of up to 20 relations at 2.5% would call one of them or more "above the control" by chance in 40%
    of the runs of a model with no defect at all (1 − 0.975²⁰, for independent relations). Holm's step-down
    (`multiplicity.holm`) over the relations' p-values (`Difference.p_value`) keeps the chance of any false verdict
    at 2.5%, under any dependence between the relations, as `lgmt report --compare` does across relations. A
    relation with nothing paired has a NaN p-value, is not counted in the family and is never above.

    Returns:
        Per key: (Holm-adjusted p-value, adjusted p < `ABOVE_ALPHA`).
    """
    keys = list(differences)
    adjusted = holm([differences[key].p_value for key in keys])
    return {key: (p, bool(p < ABOVE_ALPHA)) for key, p in zip(keys, adjusted, strict=True)}


def control_outcome(source: str | None, followups: Sequence[str | None], control: str | None) -> dict[str, int]:
    """Score a group's control member: the source prompt asked again, unchanged.

    The group's metamorphic outcome (`group_outcome`) ignores the control, so MVR keeps its meaning; these keys
    are added beside it.

    Args:
        source: The parsed answer to the source case (None if it did not parse).
        followups: The parsed answers to the follow-ups (None where one did not parse).
        control: The parsed answer to the repeated source (None if it did not parse).

    Returns:
        A dict with exactly the keys of `CONTROL_KEYS`, each 0 or 1.

    Raises:
        ValueError: If there are no follow-ups.
    """
    if not followups:
        raise ValueError("a metamorphic group needs at least one follow-up answer")
    control_parsed = source is not None and control is not None
    control_violation = control_parsed and control != source
    paired = control_parsed and all(answer is not None for answer in followups)
    violation = paired and any(answer != source for answer in followups)
    values = {
        "control_violation": control_violation,
        "control_parsed": control_parsed,
        "paired": paired,
        "paired_violation": violation,
        "paired_control_violation": paired and control_violation,
        "paired_both_violations": violation and control_violation,
    }
    return {key: int(values[key]) for key in CONTROL_KEYS}


def _control_column(outcomes: Sequence[Outcome], key: str) -> list[float]:
    return outcome_column(
        outcomes, key, f"a control run's keys: {', '.join(CONTROL_KEYS)} (was the task run with -T control=true?)"
    )


def control_rate(outcomes: Sequence[Outcome]) -> Rate:
    """Compute the control rate: Σ control_violation / Σ control_parsed.

    The share of groups whose source, asked twice, got two different (parsed) answers: the violation rate a model
    shows with no transformation at all. Under greedy decoding of a deterministic model it is 0.
    """
    return ratio_of_sums(_control_column(outcomes, "control_violation"), _control_column(outcomes, "control_parsed"))


def mvr_minus_control(outcomes: Sequence[Outcome]) -> Difference:
    """Compute MVR − control rate over the groups in which every answer parsed, with Newcombe's paired interval.

    Both rates are taken on the same groups (`paired`), so the difference is a paired one: each group contributes a
    (violation, control violation) pair, and the interval accounts for their correlation. Over those groups the
    value equals MVR − control rate exactly; it can differ from the headline `mvr` − `control_rate` when some
    answers did not parse, because those two keep their own denominators.
    """
    pairs = math.fsum(_control_column(outcomes, "paired"))
    first = math.fsum(_control_column(outcomes, "paired_violation"))
    second = math.fsum(_control_column(outcomes, "paired_control_violation"))
    both = math.fsum(_control_column(outcomes, "paired_both_violations"))
    value, low, high = newcombe_paired_difference(both, max(0.0, first - both), max(0.0, second - both), pairs)
    if pairs <= 0:
        return Difference(math.nan, math.nan, math.nan, math.nan, math.nan, 0.0)
    cells = (both, max(0.0, first - both), max(0.0, second - both), pairs)
    return Difference(value, low, high, first / pairs, second / pairs, pairs, newcombe_one_sided_p(*cells))
