"""Reading the inputs of the `evaluate` modules into the arguments of the pure metric functions.

The modules take what a user has at hand, parsed answers as strings, and must hand the pure functions of
`lgmt_tasks.scorers` exactly what the Inspect scorers hand them: a label, or None for an answer that did not parse.
This module does only that translation and its checks (every error names the argument, the position and the allowed
values); it computes nothing. `evaluate` itself refuses columns of different lengths before `_compute` is called.

An unparsed answer is given as the string `unparsed` (what the scorers write as `Score.answer`). None is read the
same way, but is not documented to users: `evaluate` type-checks only the first row of a column and refuses a None
there, so it would work in some rows and not in others.
"""

from __future__ import annotations

from collections.abc import Sequence

from lgmt_tasks.scorers.answers import TRUTH_LABELS
from lgmt_tasks.scorers.pairwise import group_outcome
from lgmt_tasks.vocabulary import UNPARSED

"""The answer of a reply the parser could not read (the `Score.answer` of the Inspect scorers)."""


def check_labels(labels: Sequence[str] | None, default: Sequence[str] = TRUTH_LABELS) -> tuple[str, ...]:
    """The label set of a call: `default` when None, else `labels` checked.

    Raises:
        ValueError: Naming `labels`, if it is empty, has repeats or non-strings, or contains `unparsed`.
    """
    if labels is None:
        return tuple(default)
    chosen = tuple(labels)
    if not chosen or len(set(chosen)) != len(chosen) or not all(isinstance(label, str) for label in chosen):
        raise ValueError(f"labels must be distinct strings, at least one; got {list(chosen)!r}")
    if UNPARSED in chosen:
        raise ValueError(f"labels must not contain {UNPARSED!r} (it marks an answer that did not parse)")
    return chosen


def read_answer(value: object, argument: str, labels: Sequence[str]) -> str | None:
    """One parsed answer: a label, or None for `unparsed` / None.

    Args:
        value: The answer as given.
        argument: Where it was given (e.g. `predictions[3]`), for the error message.
        labels: The allowed labels.

    Raises:
        ValueError: Naming `argument`, if the answer is neither a label nor unparsed.
    """
    if value is None or value == UNPARSED:
        return None
    if value not in labels:
        raise ValueError(
            f"{argument} = {value!r}: expected one of {', '.join(map(repr, labels))}, or {UNPARSED!r} for an answer "
            "that did not parse"
        )
    return str(value)


def read_answers(values: Sequence[object], argument: str, labels: Sequence[str]) -> list[str | None]:
    """Every answer of a column, read with `read_answer` (errors name `argument[index]`)."""
    return [read_answer(value, f"{argument}[{index}]", labels) for index, value in enumerate(values)]


def read_golds(values: Sequence[object], argument: str, labels: Sequence[str]) -> list[str]:
    """Every gold label of a column.

    Raises:
        ValueError: Naming `argument[index]`, on a value outside `labels` (a gold label is never unparsed).
    """
    golds = []
    for index, value in enumerate(values):
        if not isinstance(value, str) or value not in labels:
            raise ValueError(f"{argument}[{index}] = {value!r}: expected one of {', '.join(map(repr, labels))}")
        golds.append(value)
    return golds


def read_followups(values: Sequence[object], argument: str, labels: Sequence[str]) -> list[list[str | None]]:
    """The follow-up answers of every group: one answer per group, or a non-empty list of answers per group.

    Raises:
        ValueError: Naming `argument[index]`, on an empty list of follow-ups or an answer that is not allowed.
    """
    groups: list[list[str | None]] = []
    for index, value in enumerate(values):
        where = f"{argument}[{index}]"
        if isinstance(value, list | tuple):
            if not value:
                raise ValueError(f"{where} is empty: a metamorphic group needs at least one follow-up answer")
            groups.append(read_answers(value, where, labels))
        else:
            groups.append([read_answer(value, where, labels)])
    return groups


def group_outcomes(
    predictions: Sequence[object],
    followup_predictions: Sequence[object],
    references: Sequence[object] | None,
    labels: Sequence[str] | None = None,
) -> list[dict[str, int]]:
    """The LGMT outcome of every metamorphic group (`pairwise.group_outcome`), from the modules' three columns.

    Args:
        predictions: The source answer of each group.
        followup_predictions: The list of follow-up answers of each group (a bare answer is read as a list of one).
        references: The gold label of each group (proven to be every member's label). None for MVR, which needs no
            gold label: `violation` and `parsed` do not depend on it, so the first label stands in for it, and only
            those two keys of the outcomes mean anything then.
        labels: The allowed labels (default `True`, `False`, `Unknown`).

    Raises:
        ValueError: Naming the argument, on columns of different lengths or an answer or label not allowed.
    """
    allowed = check_labels(labels)
    lengths = {"predictions": len(predictions), "followup_predictions": len(followup_predictions)}
    if references is not None:
        lengths["references"] = len(references)
    if len(set(lengths.values())) > 1:
        raise ValueError(f"the columns differ in length: {lengths}")
    sources = read_answers(predictions, "predictions", allowed)
    followups = read_followups(followup_predictions, "followup_predictions", allowed)
    golds = [allowed[0]] * len(sources) if references is None else read_golds(references, "references", allowed)
    return [
        group_outcome(gold, source, answers) for source, answers, gold in zip(sources, followups, golds, strict=True)
    ]
