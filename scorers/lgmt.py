"""The LGMT scorer and its Inspect metrics: MVR, Acc_static, Acc_cons, HDR, FUR and the unparsed rate (LGMT §4.5).

The scorer parses every member's answer with the one label parser, compares them with `group_outcome`, and returns
the group's indicators as a flat dict score (DESIGN decision 1). The metrics are those of `pairwise_metrics` (shared
with the lexical suite): thin Inspect wrappers around the pure functions of `pairwise`, which state the definitions
and denominators.

What appears in the log's results (`log.results.scores[0].metrics`, keyed by these names):

- `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate`: the rates over all groups.
- `acc_static_per_case` (with `acc_static_per_case_stderr`): `acc_static` with each distinct source case counted
  once (sample metadata `source_dataset`, `source_id`), where `acc_static` counts a case once per group built on it
  (`pairwise.acc_static_per_case`).
- `mvr_stderr`, …, `unparsed_rate_stderr`: their standard errors (delta method over groups). An Inspect metric
  returns one number per name, and `grouped` needs a float-valued metric, so the errors are metrics of their own.
- `<rate>_<category>` (e.g. `mvr_MR-E`, `hdr_MR-S`): every rate per relation category (`grouped` on
  metadata `category`; the paper's Table 7 reports MVR per category).
- `mvr_<relation>` (e.g. `mvr_MR-E1.1`, `mvr_MR-E1.1+MR-C3`): MVR per relation (`grouped` on metadata `mr`; the
  paper's Appendix D). Other per-relation rates: `Task(metrics=lgmt_metrics(by_mr=RATE_NAMES))`.

With `-T control=true` (`metamorphic_consistency(control=True)`, `lgmt_metrics(control=True)`): the score also
holds the keys of `pairwise.CONTROL_KEYS` (the source asked again, unchanged, read from
`state.store[CONTROL_RESPONSE_KEY]`), and the results add `control_rate`, `excess_mvr` (MVR − control rate) with
its 95% interval and `above_control`, overall and per relation (`pairwise_metrics.control_metrics`). Without it
nothing changes. With `-T control=render` (`metamorphic_consistency(control="render")`,
`lgmt_metrics(control="render")`) the control member is the source re-rendered from its FOL by the template realiser
(no logical change); the score holds the same `CONTROL_KEYS` (and `control: "render"` in its metadata), and the
results name the numbers after the render control: `render_rate`, `render_excess_mvr` (MVR − render rate) with its
interval, `above_render`, overall and per relation.

Epochs: use Inspect's default `mean` reducer. Every rate is a ratio of sums, so the reduced metrics equal the rates
pooled over all sample-epochs exactly; other reducers (mode, max) change what is measured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers import pairwise
from lgmt_tasks.scorers.answers import ParsedAnswer, parse_label
from lgmt_tasks.scorers.outcomes import checked_gold, how_each_read, stored_responses
from lgmt_tasks.scorers.pairwise import RATE_NAMES, Rate, control_outcome, group_outcome
from lgmt_tasks.scorers.pairwise_metrics import control_metrics, outcomes_of, pairwise_rate_metrics, rate_breakdown
from lgmt_tasks.scorers.rate_metrics import rate_metric_pair
from lgmt_tasks.vocabulary import CONTROL_RESPONSE_KEY, TRUTH_LABELS, UNPARSED, control_kind


def source_case(sample_score: SampleScore) -> tuple[str, str]:
    """The source case of a group: its sample metadata `source_dataset` and `source_id` (`pairwise.CASE_KEYS`).

    Raises:
        ValueError: Naming the sample, if its metadata lacks either key.
    """
    return pairwise.source_case_of(sample_score.sample_metadata or {}, f"Sample {sample_score.sample_id}")


def static_accuracy_per_case(scores: Sequence[SampleScore]) -> Rate:
    """`pairwise.acc_static_per_case` over LGMT scores, each group's case read from its sample metadata."""
    return pairwise.acc_static_per_case(outcomes_of(scores), [source_case(s) for s in scores])


acc_static_per_case, acc_static_per_case_stderr = rate_metric_pair(
    "acc_static_per_case",
    static_accuracy_per_case,
    "static accuracy with each distinct source case counted once: the mean over cases of the share of its groups "
    "whose source answer is correct, an unparsed source answer being wrong",
)


def lgmt_metrics(
    by_category: Sequence[str] = RATE_NAMES, by_mr: Sequence[str] = ("mvr",), control: bool | str = False
) -> list[Metric]:
    """List the metrics of the LGMT scorer: every rate, its standard error, and the chosen breakdowns.

    Args:
        by_category: Rates to break down by relation category (metadata `category`).
        by_mr: Rates to break down by relation (metadata `mr`); only MVR by default, as in the paper's Appendix D,
            because with 20 relations every extra rate adds 20 lines to the results.
        control: Add the noise-floor metrics (`control_metrics`: control rate, MVR − control with its interval,
            `above_control`, overall and per relation); only for scores of `metamorphic_consistency(control=True)`.
            `"render"`: the style control's metrics instead (`render_rate`, `render_excess_mvr`, ..., `above_render`),
            for scores of `metamorphic_consistency(control="render")`.

    Returns:
        The list to pass as `@scorer(metrics=...)` or `Task(metrics=...)`: every rate, every standard error,
        `acc_static_per_case` and its standard error, then the breakdowns.
    """
    return [
        *pairwise_rate_metrics(),
        acc_static_per_case(),
        acc_static_per_case_stderr(),
        *(rate_breakdown(name, "category") for name in by_category),
        *(rate_breakdown(name, "mr") for name in by_mr),
        *(control_metrics(kind) if (kind := control_kind(control)) != "none" else []),
    ]


CONTROL_WORDS: dict[str, tuple[str, str, str]] = {
    "repeat": ("Control (the source asked again)", "CONTROL VIOLATION", "the same prompt"),
    "render": (
        "Render control (the source re-rendered by the template realiser)",
        "RENDER VIOLATION",
        "the same problem in template English",
    ),
}
"""How `explain_control` names each control member, its violation, and what was asked twice."""


def explain_control(
    source: ParsedAnswer, control: ParsedAnswer, outcome: Mapping[str, int], kind: str = "repeat"
) -> str:
    """The line of `explain` about the control member: its answer, and whether it agrees with the source's."""
    name, violation, asked = CONTROL_WORDS[kind]
    said = f"{name}: {control.label or UNPARSED} ({control.how}: {control.detail})."
    if not outcome["control_parsed"]:
        return f"{said} Not compared: unparsed answer (counts as unparsed, never as a control violation)."
    if outcome["control_violation"]:
        return f"{said} {violation}: {asked} got {source.label} and {control.label}."
    return f"{said} Same as the source."


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
def metamorphic_consistency(control: bool | str = False) -> Scorer:
    """Score a metamorphic group: parse every answer, compare them with each other and with the gold label.

    Reads the raw completions that `group_generate` stored in `state.store[RESPONSES_KEY]` and the gold label
    from the target (`True`, `False` or `Unknown`).

    Args:
        control: Also score the control member, the source asked again (`group_generate(control=True)` stores its
            completion under `state.store[CONTROL_RESPONSE_KEY]`). The group's outcome ignores it; the score gains
            the keys of `CONTROL_KEYS`. List the control metrics with `Task(metrics=lgmt_metrics(control=True))`.
            `"render"`: the control member is the rendered source (`group_generate(control="render")`), scored
            the same way; the score's metadata adds `control: "render"`. `False` / `"none"`: no control.

    Returns:
        A scorer whose value is the flat dict of `group_outcome` (keys `OUTCOME_KEYS`, each 0/1; with `control`,
        then `CONTROL_KEYS`), whose answer is the source label (or `unparsed`), and whose metadata holds every
        parsed label and how it was parsed (with `control`: `control_answer`, `control_parsed_how`).
    """
    kind = control_kind(control)

    async def score(state: TaskState, target: Target) -> Score:
        responses = stored_responses(
            state,
            count=None,
            what="at least two group responses (source, then follow-ups)",
            scorer="metamorphic_consistency",
            solver="group_generate",
        )
        gold = checked_gold(state, target, TRUTH_LABELS)
        answers = [parse_label(response) for response in responses]
        outcome = group_outcome(gold, answers[0].label, [answer.label for answer in answers[1:]])
        value: dict[str, int] = dict(outcome)
        explanation = explain(state.metadata or {}, gold, answers, outcome)
        metadata: dict[str, object] = {"answers": [answer.label for answer in answers], **how_each_read(answers)}
        if kind != "none":
            repeated = parse_label(control_response(state))
            checks = control_outcome(answers[0].label, [answer.label for answer in answers[1:]], repeated.label)
            value.update(checks)
            explanation += "\n" + explain_control(answers[0], repeated, checks, kind)
            metadata.update(control_answer=repeated.label, control_parsed_how=repeated.how)
            if kind == "render":
                metadata["control"] = kind
        return Score(
            value=value,
            answer=answers[0].label or UNPARSED,
            explanation=explanation,
            metadata=metadata,
        )

    return score


def control_response(state: TaskState) -> str:
    """The control member's completion, checked.

    Raises:
        ValueError: Naming the sample, if the store has no control completion (the solver was not
            `group_generate(control=True)`).
    """
    response = state.store.get(CONTROL_RESPONSE_KEY)
    if not isinstance(response, str):
        raise ValueError(
            f"Sample {state.sample_id}: expected the control member's completion in the store (key "
            f"{CONTROL_RESPONSE_KEY!r}); metamorphic_consistency(control=True) scores the output of "
            "group_generate(control=True)"
        )
    return response
