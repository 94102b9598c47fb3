"""LGMT and lexical eval logs read into one table of per-sample outcomes, shared by the comparison and flakiness.

Both `report.py` (logic-grounded vs lexical relations) and `flakiness.py` (LLMorph's Table XI) start from the same
rows: one per sample-epoch with its relation, part and the pairwise outcome keys of `scorers/pairwise.py`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS
from lgmt_tasks.lgmt import RELATION_IDS
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS

LEXICAL_SCORER = registry.suite("lexical").scorer
"""The score name of the `lexical` task, `lexical_consistency` (from the suite registry)."""

LGMT_SCORER = registry.suite("lgmt").scorer
"""The score name of the LGMT tasks, `metamorphic_consistency`."""

FAMILIES = {LGMT_SCORER: "logic-grounded", LEXICAL_SCORER: "lexical"}

LogLike = EvalLog | str | Path


def load_log(log: LogLike) -> EvalLog:
    """A log with its samples: read from a path, or checked when already loaded (`header_only` logs are refused)."""
    if isinstance(log, EvalLog):
        if log.samples is None:
            raise ValueError(f"log {log.location!r} has no samples (read it without header_only)")
        return log
    return read_eval_log(str(log))


def scorer_of(log: EvalLog) -> str:
    """The family scorer a log was scored with (`metamorphic_consistency` or `lexical_consistency`).

    Raises:
        ValueError: If the log has neither (it is not an LGMT or lexical log).
    """
    for sample in log.samples or []:
        for name in sample.scores or {}:
            if name in FAMILIES:
                return name
    raise ValueError(f"log {log.location!r} ({log.eval.task}) has no {LGMT_SCORER} or {LEXICAL_SCORER} scores")


def sample_table(log: LogLike) -> pd.DataFrame:
    """One row per sample-epoch: group id, epoch, relation, part, kind, expected relation, basis, and the outcomes.

    `expectation` is how the follow-up's gold is known (`proven`, `assumed`, `unproven`: `expectations`).

    For an LGMT log, `part` is the changed site (e.g. `premise 2`), `kind` the category (`MR-E`), and `expected` is
    `equivalence` (every LGMT relation is proven to keep the label).
    """
    loaded = load_log(log)
    scorer = scorer_of(loaded)
    rows = []
    for sample in loaded.samples or []:
        score = (sample.scores or {}).get(scorer)
        if score is None or not isinstance(score.value, dict):
            continue
        metadata = sample.metadata or {}
        value = score.value
        lexical = scorer == LEXICAL_SCORER
        rows.append(
            {
                "id": str(sample.id),
                "epoch": sample.epoch,
                "mr": str(metadata.get("mr", "")),
                "part": str(metadata.get("part" if lexical else "changed", "")),
                "kind": str(metadata.get("kind" if lexical else "category", "")),
                "expected": str(metadata.get("expected", "equivalence")),
                # how the follow-up's gold is known; every LGMT relation is proven
                "expectation": str(metadata.get("expectation", "" if lexical else "proven")),
                **{key: float(value.get(key, 0.0)) for key in OUTCOME_KEYS},  # type: ignore[arg-type]
                "transformed": float(value.get("transformed", 1.0)),  # type: ignore[arg-type]
            }
        )
    return pd.DataFrame(rows)


def relation_order(family: str, relation: str) -> tuple[int, str]:
    """Sort key of a relation: its place in its family's catalogue (LGMT's by its first relation), unknown ones last."""
    if family == "lexical":
        ids = list(LEXICAL_RELATIONS)
        return (ids.index(relation) if relation in ids else len(ids), relation)
    first = relation.split("+", 1)[0]
    ids = list(RELATION_IDS)
    return (ids.index(first) if first in ids else len(ids), relation)


def with_run(table: pd.DataFrame, log: EvalLog) -> pd.DataFrame:
    """`table` with the log's `model` and file name (`log`) as its first columns, for tables stacked over runs."""
    table = table.copy()
    table.insert(0, "log", Path(str(log.location)).name)
    table.insert(0, "model", log.eval.model)
    return table
