"""LogicAsker weakness identification (§3.3): per-skill accuracy from Inspect logs, weakest skills first.

The paper generates n tests per leaf of its rule tree (a rule with a problem type), computes the response accuracy
of each leaf, and lists the leaves with the lowest accuracy as the model's weaknesses; the weakest leaves then
seed the demonstrations of §3.4. This module reads the per-test scores of `logicasker` logs (every epoch of every
sample) and does the same, at two grains: `leaf` (rule × problem type, the paper's unit) and `rule`.

Each row carries its counts (correct, answered, tests) and a 95% Wilson interval for the accuracy, because a few
tests per skill give wide intervals and two skills whose intervals overlap are not reliably ordered. Skills with no
answer that followed the instruction have no accuracy; they are listed last, never as weaknesses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks.logicasker.catalogue import YES_TYPE, Skill, get_skill
from lgmt_tasks.report.headline import log_paths
from lgmt_tasks.scorers.logicasker_metrics import OUTCOME_KEYS, wilson_interval

Grain = Literal["leaf", "rule"]

DEFAULT_TOP = 10
"""How many weakest skills to list (the paper's second iteration used the ten weakest leaves)."""


@dataclass(frozen=True)
class SkillAccuracy:
    """Response accuracy of one skill (or leaf) in a log.

    Attributes:
        rule: The rule's name.
        problem_type: The problem type for a leaf; None at rule grain.
        logic: `propositional` or `predicate`.
        category: `inference`, `equivalence` or `fallacy`.
        correct: Correct answers (summed over samples and epochs).
        answered: Answers that followed the instruction.
        tests: Scored tests (sample-epochs).
        accuracy: correct / answered (NaN when nothing was answered).
        low: Lower bound of the 95% Wilson interval.
        high: Upper bound of the 95% Wilson interval.
    """

    rule: str
    problem_type: str | None
    logic: str
    category: str
    correct: float
    answered: float
    tests: int
    accuracy: float
    low: float
    high: float


def _score_value(sample_scores: Mapping[str, object] | None) -> Mapping[str, float] | None:
    """The LogicAsker outcome dict among a sample's scores (the first score with `correct` and `answered`)."""
    for score in (sample_scores or {}).values():
        value = getattr(score, "value", None)
        if isinstance(value, Mapping) and all(isinstance(value.get(k), int | float) for k in OUTCOME_KEYS):
            return value
    return None


def read_outcomes(logs: Iterable[str | Path | EvalLog]) -> list[tuple[Mapping[str, object], Mapping[str, float]]]:
    """Every scored test of LogicAsker logs: (sample metadata, outcome), one per sample and epoch.

    Args:
        logs: Log files (or folders of logs) or loaded logs with samples.

    Returns:
        The pairs; samples without a LogicAsker score (errors, other tasks) are skipped.

    Raises:
        ValueError: If a log has no samples (written with `--no-log-samples`: per-skill accuracy needs them).
    """
    pairs: list[tuple[Mapping[str, object], Mapping[str, float]]] = []
    for item in logs:
        if isinstance(item, EvalLog):
            paths: list[str | EvalLog] = [item]
        elif Path(item).is_dir():
            paths = list(log_paths([item]))
        else:
            paths = [str(item)]  # a file, or a location `log_paths` already expanded (`file://...`)
        for path in paths:
            log = path if isinstance(path, EvalLog) else read_eval_log(path)
            if log.samples is None:
                raise ValueError(f"log {log.location!r} has no samples; per-skill accuracy needs the samples")
            for sample in log.samples:
                value = _score_value(sample.scores)
                if value is not None and "rule" in (sample.metadata or {}):
                    pairs.append((sample.metadata, value))
    return pairs


def _skill_of(metadata: Mapping[str, object]) -> Skill | None:
    try:
        return get_skill(str(metadata["rule"]))
    except ValueError:
        return None


def skill_accuracies(logs: Iterable[str | Path | EvalLog], by: Grain = "leaf") -> list[SkillAccuracy]:
    """Response accuracy of every skill (or leaf) in the logs, weakest first.

    Order: accuracy ascending; among equal accuracies, more answered tests first (stronger evidence of the
    weakness); then rule name and problem type. Skills with nothing answered come last.

    Args:
        logs: LogicAsker logs (files, folders or loaded logs).
        by: `leaf` (rule × problem type, the paper's unit) or `rule`.

    Returns:
        One entry per skill or leaf present in the logs.
    """
    if by not in ("leaf", "rule"):
        raise ValueError(f"by={by!r}: expected 'leaf' or 'rule'")
    sums: dict[tuple[str, str | None], list[float]] = {}
    attributes: dict[tuple[str, str | None], tuple[str, str]] = {}
    for metadata, outcome in read_outcomes(logs):
        rule = str(metadata["rule"])
        key = (rule, str(metadata.get("problem_type")) if by == "leaf" else None)
        cell = sums.setdefault(key, [0.0, 0.0, 0.0])
        cell[0] += float(outcome["correct"])
        cell[1] += float(outcome["answered"])
        cell[2] += 1
        attributes[key] = (str(metadata.get("logic", "")), str(metadata.get("category", "")))
    rows = []
    for (rule, problem_type), (correct, answered, tests) in sums.items():
        low, high = wilson_interval(correct, answered)
        logic, category = attributes[(rule, problem_type)]
        accuracy = correct / answered if answered else math.nan
        rows.append(
            SkillAccuracy(rule, problem_type, logic, category, correct, answered, int(tests), accuracy, low, high)
        )
    return sorted(
        rows,
        key=lambda r: (
            math.isnan(r.accuracy),
            r.accuracy if not math.isnan(r.accuracy) else 0.0,
            -r.answered,
            r.rule,
            r.problem_type or "",
        ),
    )


def weakest_leaves(logs: Iterable[str | Path | EvalLog], yes: int = 2, no: int = 2) -> list[tuple[Skill, str]]:
    """The weakest leaves answered yes and answered no, for weakness-targeted demonstrations (§3.4).

    Args:
        logs: LogicAsker logs.
        yes: How many `valid` leaves (answer yes) to take.
        no: How many leaves answered no (contradiction, unrelated, fallacy) to take.

    Returns:
        (skill, problem type) pairs: the weakest yes leaves, then the weakest no leaves.

    Raises:
        ValueError: If the logs do not have that many answered leaves of either answer.
    """
    leaves = [r for r in skill_accuracies(logs, by="leaf") if not math.isnan(r.accuracy)]
    picked: list[tuple[Skill, str]] = []
    for want, is_yes in ((yes, True), (no, False)):
        found = []
        for row in leaves:
            skill = _skill_of({"rule": row.rule})
            if skill is not None and row.problem_type is not None and (row.problem_type == YES_TYPE) == is_yes:
                found.append((skill, row.problem_type))
            if len(found) == want:
                break
        if len(found) < want:
            answer = "yes" if is_yes else "no"
            raise ValueError(f"the log has {len(found)} answered leaves with answer {answer}; {want} are needed")
        picked.extend(found)
    return picked


def weakness_table(rows: Sequence[SkillAccuracy]) -> pd.DataFrame:
    """The weakness rows as a table (for Markdown and CSV); counts are integers unless epochs made them fractions."""
    table = pd.DataFrame([asdict(r) for r in rows])
    if table.empty:
        return table
    if table["problem_type"].isna().all():
        table = table.drop(columns="problem_type")
    for column in ("correct", "answered"):
        if (table[column] % 1 == 0).all():
            table[column] = table[column].astype(int)
    return table


def weakness_report(logs: Sequence[str | Path], top: int = DEFAULT_TOP, out: str | Path | None = None) -> str:
    """What `lgmt report --weakness LOG` prints: the weakest leaves and rules, with counts and intervals.

    Args:
        logs: LogicAsker log files or folders.
        top: How many to list at each grain.
        out: A folder to write `weakness_leaves.csv`, `weakness_rules.csv` (every skill) and `weakness.md`.

    Returns:
        Markdown text.
    """
    sections = []
    tables = {}
    for grain, title in (("leaf", "leaves (rule × problem type)"), ("rule", "rules")):
        rows = skill_accuracies(logs, by=grain)  # type: ignore[arg-type]
        tables[grain] = weakness_table(rows)
        ranked = [r for r in rows if not math.isnan(r.accuracy)]
        shown = weakness_table(ranked[:top])
        text = shown.to_markdown(index=False, floatfmt=".3f") if not shown.empty else "(no answered LogicAsker test)"
        unranked = len(rows) - len(ranked)
        note = (
            f"\n\n{unranked} {title.split()[0]} with no answer that followed the instruction are not ranked."
            if unranked
            else ""
        )
        sections.append(f"Weakest {title}, lowest response accuracy first (95% Wilson intervals):\n\n{text}{note}")
    report = "\n\n".join(sections)
    if out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        tables["leaf"].to_csv(folder / "weakness_leaves.csv", index=False)
        tables["rule"].to_csv(folder / "weakness_rules.csv", index=False)
        (folder / "weakness.md").write_text(report + "\n", encoding="utf-8")
    return report
