"""The LGMT scorer and its Inspect metrics: MVR, Acc_static, Acc_cons, HDR, FUR and the unparsed rate (LGMT §4.5).

The scorer parses every member's answer with the one label parser, compares them with `group_outcome`, and returns
the group's indicators as a flat dict score (DESIGN decision 1). The metrics are thin `@metric` wrappers around the
pure functions of `pairwise`, which state the definitions and denominators.

What appears in the log's results (`log.results.scores[0].metrics`, keyed by these names):

- `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate`: the rates over all groups.
- `mvr_stderr`, …, `unparsed_rate_stderr`: their standard errors (delta method over groups). An Inspect metric
  returns one number per name, and `grouped` needs a float-valued metric, so the errors are metrics of their own.
- `<rate>_<category>` (e.g. `mvr_MR-E`, `hdr_MR-S`): every rate per relation category (`grouped` on
  metadata `category`; the paper's Table 7 reports MVR per category).
- `mvr_<relation>` (e.g. `mvr_MR-E1.1`, `mvr_MR-E1.1+MR-C3`): MVR per relation (`grouped` on metadata `mr`; the
  paper's Appendix D). Other per-relation rates: `Task(metrics=lgmt_metrics(by_mr=RATE_NAMES))`.

Epochs: use Inspect's default `mean` reducer. Every rate is a ratio of sums, so the reduced metrics equal the rates
pooled over all sample-epochs exactly; other reducers (mode, max) change what is measured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, grouped, metric, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.answers import TRUTH_LABELS, ParsedAnswer, parse_label
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, RATE_NAMES, RATES, Outcome, Rate, group_outcome
from lgmt_tasks.scorers.unparsed import unparsed_rate, unparsed_rate_stderr  # shared by every suite
from lgmt_tasks.vocabulary import RESPONSES_KEY, UNPARSED

"""`Score.answer` when the source answer could not be parsed."""


def outcomes_of(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the per-group indicator dicts of LGMT scores, checked.

    Args:
        scores: Scores produced by `metamorphic_consistency` (possibly epoch-reduced).

    Returns:
        One outcome per score, each with every key of `OUTCOME_KEYS` as a float.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with those keys (e.g. another scorer's score).
    """
    outcomes: list[Outcome] = []
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, Mapping):
            raise ValueError(f"Sample {sample_score.sample_id}: LGMT metrics need a dict score, got {value!r}")
        bad = [key for key in OUTCOME_KEYS if not isinstance(value.get(key), int | float)]
        if bad:
            raise ValueError(
                f"Sample {sample_score.sample_id}: score lacks numeric {', '.join(bad)} (LGMT metrics need the keys "
                f"{', '.join(OUTCOME_KEYS)})"
            )
        outcomes.append({key: float(value[key]) for key in OUTCOME_KEYS})  # type: ignore[arg-type]
    return outcomes


def _rate_metric(rate: Callable[[Sequence[Outcome]], Rate], part: str) -> Metric:
    def metric(scores: list[SampleScore]) -> float:
        result = rate(outcomes_of(scores))
        return result.value if part == "value" else result.stderr

    return metric


@metric
def mvr() -> Metric:
    """Compute the metamorphic violation rate: violations / parsed groups (LGMT §4.5.1)."""
    return _rate_metric(RATES["mvr"], "value")


@metric
def acc_static() -> Metric:
    """Compute static accuracy: correct sources / parsed groups (LGMT §4.5.3)."""
    return _rate_metric(RATES["acc_static"], "value")


@metric
def acc_cons() -> Metric:
    """Compute consistent accuracy: groups with every answer correct / parsed groups (LGMT §4.5.3)."""
    return _rate_metric(RATES["acc_cons"], "value")


@metric
def hdr() -> Metric:
    """Compute the hidden defect rate: correct source but a violation / parsed groups (LGMT §4.5.3)."""
    return _rate_metric(RATES["hdr"], "value")


@metric
def fur() -> Metric:
    """Compute the false unreported rate: no violation but a wrong source / parsed groups (LGMT §4.5.4)."""
    return _rate_metric(RATES["fur"], "value")


@metric
def mvr_stderr() -> Metric:
    """Compute the standard error of `mvr` (delta method over groups)."""
    return _rate_metric(RATES["mvr"], "stderr")


@metric
def acc_static_stderr() -> Metric:
    """Compute the standard error of `acc_static` (delta method over groups)."""
    return _rate_metric(RATES["acc_static"], "stderr")


@metric
def acc_cons_stderr() -> Metric:
    """Compute the standard error of `acc_cons` (delta method over groups)."""
    return _rate_metric(RATES["acc_cons"], "stderr")


@metric
def hdr_stderr() -> Metric:
    """Compute the standard error of `hdr` (delta method over groups)."""
    return _rate_metric(RATES["hdr"], "stderr")


@metric
def fur_stderr() -> Metric:
    """Compute the standard error of `fur` (delta method over groups)."""
    return _rate_metric(RATES["fur"], "stderr")


RATE_METRICS: dict[str, Callable[[], Metric]] = {
    "mvr": mvr,
    "acc_static": acc_static,
    "acc_cons": acc_cons,
    "hdr": hdr,
    "fur": fur,
    "unparsed_rate": unparsed_rate,
}
"""The rate metric factories by name."""

STDERR_METRICS: dict[str, Callable[[], Metric]] = {
    "mvr": mvr_stderr,
    "acc_static": acc_static_stderr,
    "acc_cons": acc_cons_stderr,
    "hdr": hdr_stderr,
    "fur": fur_stderr,
    "unparsed_rate": unparsed_rate_stderr,
}
"""The standard-error metric factories by the name of their rate."""


def breakdown(rate: str, key: str) -> Metric:
    """Break one rate down by the values of a sample metadata key, named `<rate>_<value>` in the log (e.g. `mvr_MR-E`).

    Args:
        rate: One of `RATE_NAMES`.
        key: The sample metadata key to group by (`category` or `mr`).

    Returns:
        An Inspect `grouped` metric without an "all" entry (the headline metric is that already). A sample
        without `key` in its metadata makes it raise a ValueError naming the sample.
    """
    if rate not in RATE_METRICS:
        raise ValueError(f"rate must be one of {', '.join(RATE_NAMES)}; got {rate!r}")
    return grouped(RATE_METRICS[rate](), key, all=False, name_template=f"{rate}_{{group_name}}")


def lgmt_metrics(by_category: Sequence[str] = RATE_NAMES, by_mr: Sequence[str] = ("mvr",)) -> list[Metric]:
    """List the metrics of the LGMT scorer: every rate, its standard error, and the chosen breakdowns.

    Args:
        by_category: Rates to break down by relation category (metadata `category`).
        by_mr: Rates to break down by relation (metadata `mr`); only MVR by default, as in the paper's Appendix D,
            because with 20 relations every extra rate adds 20 lines to the results.

    Returns:
        The list to pass as `@scorer(metrics=...)` or `Task(metrics=...)`.
    """
    return [
        *(RATE_METRICS[name]() for name in RATE_NAMES),
        *(STDERR_METRICS[name]() for name in RATE_NAMES),
        *(breakdown(name, "category") for name in by_category),
        *(breakdown(name, "mr") for name in by_mr),
    ]


def explain(
    metadata: Mapping[str, object], gold: str, answers: Sequence[ParsedAnswer], outcome: Mapping[str, int]
) -> str:
    """Write a reader's account of one group: relation, gold, every answer, and whether (and why) it is a violation.

    Args:
        metadata: The sample metadata (`mr`, `category`, `changed` are shown when present).
        gold: The gold label.
        answers: The parsed answers, source first.
        outcome: The group's outcome from `group_outcome`.

    Returns:
        Markdown text for `inspect view`.
    """
    relation = str(metadata.get("mr", "unknown relation"))
    if "category" in metadata:
        relation += f" ({metadata['category']})"
    changed = f", changed: {metadata['changed']}" if metadata.get("changed") else ""
    names = ["Source", *(f"Follow-up {i}" for i in range(1, len(answers)))]
    lines = [f"Relation: {relation}{changed}. Gold: {gold}.", ""]
    lines += [
        f"- {name}: {answer.label or UNPARSED} ({answer.how}: {answer.detail})"
        for name, answer in zip(names, answers, strict=True)
    ]
    lines.append("")
    source = answers[0].label
    if not outcome["parsed"]:
        unread = ", ".join(name for name, answer in zip(names, answers, strict=True) if answer.label is None)
        lines.append(f"Not compared: unparsed answer ({unread}). Counts only towards unparsed_rate.")
    elif outcome["violation"]:
        differing = ", ".join(
            f"{name} answered {answer.label}"
            for name, answer in zip(names[1:], answers[1:], strict=True)
            if answer.label != source
        )
        kind = "hidden defect (the source alone is correct)" if outcome["hidden_defect"] else "the source is wrong"
        lines.append(f"VIOLATION: the source answered {source} but {differing}; {kind}.")
    elif outcome["source_correct"]:
        lines.append(f"No violation: every member answered {source}, which is correct.")
    else:
        lines.append(f"No violation, but every member answered {source} (gold {gold}): false unreported.")
    return "\n".join(lines)


@scorer(metrics=lgmt_metrics())
def metamorphic_consistency() -> Scorer:
    """Score a metamorphic group: parse every answer, compare them with each other and with the gold label.

    Reads the raw completions that `group_generate` stored in `state.store[RESPONSES_KEY]` and the gold label
    from the target (`True`, `False` or `Unknown`).

    Returns:
        A scorer whose value is the flat dict of `group_outcome` (keys `OUTCOME_KEYS`, each 0/1), whose answer is
        the source label (or `unparsed`), and whose metadata holds every parsed label and how it was parsed.
    """

    async def score(state: TaskState, target: Target) -> Score:
        responses = state.store.get(RESPONSES_KEY)
        if not isinstance(responses, list) or len(responses) < 2:
            raise ValueError(
                f"Sample {state.sample_id}: no group responses in the store (key {RESPONSES_KEY!r}); "
                "metamorphic_consistency scores the output of the group_generate solver"
            )
        gold = target.text
        if gold not in TRUTH_LABELS:
            raise ValueError(f"Sample {state.sample_id}: target must be one of {', '.join(TRUTH_LABELS)}; got {gold!r}")
        answers = [parse_label(str(response)) for response in responses]
        outcome = group_outcome(gold, answers[0].label, [answer.label for answer in answers[1:]])
        return Score(
            value=dict(outcome),
            answer=answers[0].label or UNPARSED,
            explanation=explain(state.metadata or {}, gold, answers, outcome),
            metadata={
                "answers": [answer.label for answer in answers],
                "parsed_how": [answer.how for answer in answers],
                "parse_details": [answer.detail for answer in answers],
            },
        )

    return score
