"""The lexical (LLMorph) scorer and its Inspect metrics: LGMT's pairwise metrics plus LLMorph's confusion matrix.

The scorer reads the members' completions (stored by `group_generate`), parses their labels with THE answer parser,
evaluates the metamorphic oracle of the group's relation (label equality/difference, or embedding similarity with
`output="text"`), and returns the flat dict of `lexical_arithmetic.lexical_outcome` (see that module for every
definition and why MR-152's accuracies are relation-relative).

What appears in the log's results, by name:

- `mvr`, `acc_static`, `acc_cons`, `hdr`, `fur`, `unparsed_rate` and their `_stderr`: LGMT's own metrics
  (`scorers/pairwise_metrics.py`), applied unchanged, so a lexical log and an LGMT log can be read side by side;
- `cm_pass_correct`, `cm_pass_wrong`, `cm_fail_correct`, `cm_fail_wrong`: LLMorph's Table VIII cells ①–④, each a
  share of the compared groups (② = `fur` and ③ = `hdr` by definition);
- `discarded_rate`: groups whose LLM follow-up could not be made at eval time (included in `unparsed_rate`);
- `mvr_<relation>`, `hdr_<relation>` (e.g. `mvr_MR-49`, the noise floor), `mvr_<part>` (`mvr_premises`,
  `mvr_conclusion`, `mvr_both`, `mvr_none` for MR-49) and `mvr_<basis>` (`mvr_proven`, `mvr_assumed`,
  `mvr_unproven`: how the expected follow-up answer is known, `lgmt_tasks.lexical.expectations`).

Epochs: Inspect's default mean reducer keeps every rate exact (ratios of sums, as for LGMT). The per-group count of
violating epochs (LLMorph's flakiness analysis) is read from the log by `lgmt_tasks.lexical.flakiness`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import anyio
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from lgmt_tasks.scorers.answers import ParsedAnswer, parse_label
from lgmt_tasks.scorers.lexical_arithmetic import (
    CM_KEYS,
    EXPECTED,
    LEXICAL_KEYS,
    confusion_cell,
    discarded_outcome,
    label_violation,
    lexical_outcome,
)
from lgmt_tasks.scorers.lexical_arithmetic import discarded_rate as discarded_rate_of
from lgmt_tasks.scorers.lexical_text_relation import (
    DEFAULT_THRESHOLD_MODE,
    clean_text,
    resolve_thresholds,
    text_violation,
)
from lgmt_tasks.scorers.outcomes import checked_gold, score_outcomes, stored_responses
from lgmt_tasks.scorers.pairwise import Outcome, Rate
from lgmt_tasks.scorers.pairwise_metrics import pairwise_rate_metrics, rate_breakdown
from lgmt_tasks.scorers.rate_metrics import Estimate, rate_metric
from lgmt_tasks.vocabulary import TRANSFORM_KEY, TRUTH_LABELS, UNPARSED

OUTPUTS: tuple[str, ...] = ("label", "text")
"""How outputs are compared: parsed labels, or the completions' text by embedding similarity."""

CELL_NAMES: Mapping[str, str] = {
    "cm_pass_correct": "① both oracles pass",
    "cm_pass_wrong": "② MT oracle passes, source answer wrong",
    "cm_fail_correct": "③ MT oracle fails, source answer right",
    "cm_fail_wrong": "④ both oracles fail",
}
"""LLMorph's description of each confusion-matrix cell (Table VIII)."""


def lexical_outcomes(scores: Sequence[SampleScore]) -> list[Outcome]:
    """Extract the per-group dicts of lexical scores, checked.

    Raises:
        ValueError: Naming the sample, if a score is not a dict with every key of `LEXICAL_KEYS`.
    """
    return score_outcomes(scores, LEXICAL_KEYS, "lexical")


def _cell(cell: str) -> Estimate:
    """The estimate of one confusion-matrix cell over lexical scores."""

    def estimate(scores: Sequence[SampleScore]) -> Rate:
        return confusion_cell(lexical_outcomes(scores), cell)

    return estimate


def _discarded(scores: Sequence[SampleScore]) -> Rate:
    return discarded_rate_of(lexical_outcomes(scores))


cm_pass_correct = rate_metric(
    "cm_pass_correct", _cell("cm_pass_correct"), "Compute LLMorph's cell ①: both oracles pass / compared groups."
)
cm_pass_wrong = rate_metric(
    "cm_pass_wrong",
    _cell("cm_pass_wrong"),
    "Compute LLMorph's cell ②: the MT oracle passes but the source answer is wrong / compared groups (= FUR).",
)
cm_fail_correct = rate_metric(
    "cm_fail_correct",
    _cell("cm_fail_correct"),
    "Compute LLMorph's cell ③: the MT oracle fails but the source answer is right / compared groups (= HDR).",
)
cm_fail_wrong = rate_metric(
    "cm_fail_wrong", _cell("cm_fail_wrong"), "Compute LLMorph's cell ④: both oracles fail / compared groups."
)
discarded_rate = rate_metric(
    "discarded_rate",
    _discarded,
    "Compute the share of groups whose LLM follow-up could not be made at eval time / all groups.",
)

CELL_METRICS = {
    "cm_pass_correct": cm_pass_correct,
    "cm_pass_wrong": cm_pass_wrong,
    "cm_fail_correct": cm_fail_correct,
    "cm_fail_wrong": cm_fail_wrong,
}
"""The confusion-matrix metric factories by cell name."""


def lexical_metrics() -> list[Metric]:
    """List the metrics of the lexical scorer (see the module docstring for the names in the log)."""
    return [
        *pairwise_rate_metrics(),
        *(CELL_METRICS[cell]() for cell in CM_KEYS),
        discarded_rate(),
        rate_breakdown("mvr", "mr"),
        rate_breakdown("hdr", "mr"),
        rate_breakdown("mvr", "part"),
        rate_breakdown("mvr", "expectation"),
    ]


def cell_of(outcome: Mapping[str, int]) -> str | None:
    """The confusion-matrix cell a compared group falls in (None if it was not compared)."""
    return next((cell for cell in CM_KEYS if outcome.get(cell)), None)


def explain(
    metadata: Mapping[str, object],
    gold: str,
    answers: Sequence[ParsedAnswer],
    outcome: Mapping[str, int],
    similarity: float | None = None,
    thresholds: tuple[float, float] | None = None,
) -> str:
    """Write a reader's account of one group: relation, part, answers, the oracle's verdict and the matrix cell."""
    expected = str(metadata.get("expected", "equivalence"))
    lines = [
        f"Relation: {metadata.get('mr')} ({metadata.get('name', '')}), part: {metadata.get('part')}, "
        f"expected output relation: {expected}. Gold: {gold}.",
        "",
        *(
            f"- {who}: {answer.label or UNPARSED} ({answer.how}: {answer.detail})"
            for who, answer in zip(("Source", "Follow-up"), answers, strict=True)
        ),
    ]
    if similarity is not None and thresholds is not None:
        lines.append(
            f"- Similarity of the two completions: {similarity:.3f} (equivalent if ≥ {thresholds[0]}, different "
            f"if < {thresholds[1]})"
        )
    lines.append("")
    cell = cell_of(outcome)
    if cell is None:
        lines.append("Not compared: an answer could not be read. Counts only towards unparsed_rate.")
    else:
        verdict = "VIOLATION" if outcome["violation"] else "Relation holds"
        lines.append(f"{verdict}: confusion-matrix cell {CELL_NAMES[cell]}.")
        followup_gold = str(metadata.get("followup_label") or "")
        basis = str(metadata.get("expectation") or "")
        if followup_gold:
            lines.append(f"(Expected follow-up answer: {followup_gold}, {basis}.)")
        elif basis:
            lines.append(f"(The follow-up's gold label is not stated; the relation's claim is {basis}.)")
    return "\n".join(lines)


def _discarded_score(transform: Mapping[str, object]) -> Score:
    return Score(
        value=discarded_outcome(),
        answer="discarded",
        explanation=f"Discarded: the transformer could not make the follow-up ({transform.get('reason')}).",
        metadata={"transform": dict(transform)},
    )


@scorer(metrics=lexical_metrics())
def lexical_consistency(
    output: str = "label",
    thresholds: str = DEFAULT_THRESHOLD_MODE,
    equivalent_threshold: float | None = None,
    different_threshold: float | None = None,
    embedding_model: str | None = None,
) -> Scorer:
    """Score a lexical group: the metamorphic oracle of its relation, and the source answer against the gold label.

    Args:
        output: `label` (compare parsed labels) or `text` (compare the completions by embedding similarity).
        thresholds: With output=text, `code` (LLMorph's code: equivalence iff similarity ≥ 0.4 or one text contains
            the other; difference iff similarity < 0.8 and neither contains the other) or `paper` (its §IV wording:
            equivalence iff ≥ 0.8, difference iff < 0.4).
        equivalent_threshold: Override the mode's equivalence threshold (similarity at least this).
        different_threshold: Override the mode's difference threshold (similarity below this).
        embedding_model: A sentence-transformers folder or Hub id (default: the packaged all-MiniLM-L6-v2).

    Returns:
        A scorer whose value is the flat dict of `lexical_outcome` (keys `LEXICAL_KEYS`).

    Raises:
        ValueError: At construction, on an unknown `output` or threshold mode, or a threshold outside [0, 1].
        ModuleNotFoundError: At construction with `output="text"`, if the embedding model is not installed.
    """
    if output not in OUTPUTS:
        raise ValueError(f"output={output!r}: expected one of {', '.join(OUTPUTS)}")
    equivalent, different = resolve_thresholds(thresholds, equivalent_threshold, different_threshold)
    if output == "text":
        from lgmt_tasks.scorers.lexical_similarity import check_model

        check_model(embedding_model)

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata or {}
        transform = state.store.get(TRANSFORM_KEY)
        if isinstance(transform, Mapping) and not transform.get("ok"):
            return _discarded_score(transform)
        responses = stored_responses(
            state,
            count=2,
            what="two responses (source, follow-up)",
            scorer="lexical_consistency",
            solver="lexical_generate",
        )
        gold = checked_gold(state, target, TRUTH_LABELS)
        expected = str(metadata.get("expected", ""))
        if expected not in EXPECTED:
            raise ValueError(
                f"Sample {state.sample_id}: metadata 'expected' must be one of {', '.join(EXPECTED)}; got {expected!r}"
            )
        followup_gold = str(metadata.get("followup_label") or "")
        answers = [parse_label(response) for response in responses]
        source, followup = answers[0].label, answers[1].label
        similarity: float | None = None
        violation: bool | None = None
        labels_read = source is not None and followup is not None
        if output == "label" or expected == "not_inverse":  # LLMorph compares MR-79/80's labels, never texts
            if labels_read:
                violation = label_violation(expected, str(source), str(followup))
        elif labels_read and all(clean_text(r) for r in responses):
            similarity = await anyio.to_thread.run_sync(_similarity, responses[0], responses[1], embedding_model)
            violation = text_violation(
                expected, responses[0], responses[1], similarity, thresholds, equivalent, different
            )
        outcome = lexical_outcome(expected, gold, source, followup, violation, followup_gold)
        details: dict[str, object] = {
            "answers": [a.label for a in answers],
            "parsed_how": [a.how for a in answers],
            "output": output,
        }
        if similarity is not None:
            details["similarity"] = similarity
        if isinstance(transform, Mapping):
            details["transform"] = dict(transform)
        shown = (equivalent, different) if output == "text" else None
        return Score(
            value=dict(outcome),
            answer=source or UNPARSED,
            explanation=explain(metadata, gold, answers, outcome, similarity, shown),
            metadata=details,
        )

    return score


def _similarity(a: str, b: str, model: str | None) -> float:
    from lgmt_tasks.scorers.lexical_similarity import embedder, similarity

    return similarity(embedder(model), a, b)
