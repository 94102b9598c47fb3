"""LogicAsker weakness identification (§3.3): per-skill accuracy from Inspect logs, weakest skills first.

The paper generates n tests per leaf of its rule tree (a rule with a problem type), computes the response accuracy
of each leaf, and lists the leaves with the lowest accuracy as the model's weaknesses; the weakest leaves then
seed the demonstrations of §3.4. This module reads the per-test scores of `logicasker` logs (every epoch of every
sample) and does the same, at two grains: `leaf` (rule × problem type, the paper's unit) and `rule`.

Each row carries its counts (correct, answered, tests) and a 95% Wilson interval for the accuracy, because a few
tests per skill give wide intervals and two skills whose intervals overlap are not reliably ordered. Skills with no
answer that followed the instruction have no accuracy; they are listed last, never as weaknesses.

`suite_report` gives the paper's other breakdowns for `lgmt report --out` (§4: per model, logic, category, problem
type, chain length and gold answer, the weakest leaves, and Table 6's demonstrations), per run setting (model,
`-T demonstrations` and `settings`: the other task arguments that differ between the logs, see
`lgmt_tasks.report.settings`, so runs with another `-T logic=`, `seed=` or dataset are never pooled), with the same
counts and intervals.
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
from lgmt_tasks.report.settings import settings_key, settings_labels
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.report.suite_tools import load_logs
from lgmt_tasks.scorers.intervals import wilson_interval
from lgmt_tasks.scorers.logicasker_arithmetic import OUTCOME_KEYS

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


# ------------------------------------------------------------------------------------------- paper tables (§4)

ATTRIBUTES: dict[str, tuple[str, str]] = {
    "logic": ("by_logic", "Figure 4: response accuracy by logic (propositional vs predicate)"),
    "category": ("by_category", "Figure 5: response accuracy by rule category (inference, equivalence, fallacy)"),
    "problem_type": (
        "by_problem_type",
        "Response accuracy by problem type (§3.2: valid, contradiction, unrelated, fallacy)",
    ),
    "length": ("by_length", "Table 3: response accuracy by inference length"),
    "label": ("by_label", "Response accuracy by gold answer (yes / no)"),
}
"""Column of `outcome_frame` → (table stem, title) of its per-attribute table."""

SETTING_KEYS: tuple[str, ...] = ("model", "demonstrations", "settings")
"""One run setting: the model, the demonstrations it was shown (Table 6's columns) and the other differing arguments."""

OUTCOME_COLUMNS: tuple[str, ...] = (
    "log", "model", "demonstrations", "settings", "id", "epoch", "rule", "skill", "logic", "category", "problem_type",
    "length", "label", "correct", "answered",
)  # fmt: skip
"""The columns of `outcome_frame`."""


def outcome_frame(logs: Iterable[str | Path | EvalLog]) -> pd.DataFrame:
    """One row per scored LogicAsker test (sample and epoch): the run setting, the rule tree, the gold, the outcome.

    Args:
        logs: Log files, folders or loaded logs; logs of other tasks (no LogicAsker score) contribute no rows.

    Returns:
        A frame with the columns of `OUTCOME_COLUMNS`; `label` is the gold answer (`yes` / `no`) and
        `demonstrations` the task's `-T demonstrations` (`none` when not given).
    """
    rows: list[dict[str, object]] = []
    loaded = load_logs(logs)
    labels = setting_labels(loaded)
    for log in loaded:
        mode = _mode(log)
        for sample in log.samples or []:
            value = _score_value(sample.scores)
            meta = sample.metadata or {}
            if value is None or "rule" not in meta:
                continue
            rows.append(
                {
                    "log": Path(str(log.location)).name,
                    "model": log.eval.model,
                    "demonstrations": mode,
                    "settings": labels.get(id(log), ""),
                    "id": sample.id,
                    "epoch": sample.epoch,
                    "rule": str(meta["rule"]),
                    "skill": str(meta.get("skill", "")),
                    "logic": str(meta.get("logic", "")),
                    "category": str(meta.get("category", "")),
                    "problem_type": str(meta.get("problem_type", "")),
                    "length": meta.get("length"),
                    "label": str(sample.target),
                    "correct": float(value["correct"]),
                    "answered": float(value["answered"]),
                }
            )
    return pd.DataFrame(rows, columns=list(OUTCOME_COLUMNS))


ROW_COLUMNS: tuple[str, ...] = (
    "tests", "answered", "unparsed", "correct", "response_accuracy", "ci_low", "ci_high", "instruction_following",
)  # fmt: skip
"""The columns of `accuracy_row`."""


def accuracy_row(chunk: pd.DataFrame) -> dict[str, float]:
    """Counts, response accuracy (§3.3) with its 95% Wilson interval, and the instruction-following rate of tests.

    Returns:
        `tests`, `answered`, `unparsed` (tests whose reply did not follow the instruction), `correct`,
        `response_accuracy` (correct / answered, NaN when nothing was answered), `ci_low`, `ci_high`,
        `instruction_following` (answered / tests).
    """
    from lgmt_tasks.scorers.logicasker_arithmetic import instruction_following_rate, response_accuracy

    outcomes = chunk[list(OUTCOME_KEYS)].to_dict("records")
    correct, answered = float(chunk["correct"].sum()), float(chunk["answered"].sum())
    low, high = wilson_interval(correct, answered)
    return {
        "tests": float(len(chunk)),
        "answered": answered,
        "unparsed": float(len(chunk)) - answered,
        "correct": correct,
        "response_accuracy": response_accuracy(outcomes).value,
        "ci_low": low,
        "ci_high": high,
        "instruction_following": instruction_following_rate(outcomes).value,
    }


def _integral(table: pd.DataFrame) -> pd.DataFrame:
    for column in ("tests", "answered", "unparsed", "correct"):
        if column in table and len(table) and (table[column] % 1 == 0).all():
            table[column] = table[column].astype(int)
    return table


def accuracy_table(frame: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """`accuracy_row` per run setting (model, demonstrations) and the attributes `by`, in a stable order.

    Args:
        frame: Rows of `outcome_frame`.
        by: Further columns to group by (e.g. `["length"]`).

    Returns:
        One row per group: the keys, then the columns of `accuracy_row`.
    """
    keys = [*SETTING_KEYS, *by]
    rows = []
    for key, chunk in frame.groupby(keys, sort=True):
        values = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(keys, values, strict=True)), **accuracy_row(chunk)})
    columns = [*keys, *ROW_COLUMNS]
    return _integral(pd.DataFrame(rows, columns=columns))


def _mode(log: EvalLog) -> str:
    """The run's `-T demonstrations` (`none` when not given)."""
    return str((log.eval.task_args or {}).get("demonstrations") or "none")


def setting_labels(logs: Sequence[EvalLog]) -> dict[int, str]:
    """`id(log)` → its `settings` label among the LogicAsker logs given (`lgmt_tasks.report.settings`)."""
    scored = [log for log in logs if any(_score_value(s.scores) for s in log.samples or [])]
    keys = {id(log): settings_key("logicasker", log.eval.task_args) for log in scored}
    labels = settings_labels(keys.values())
    return {log_id: labels[key] for log_id, key in keys.items()}


def _settings(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    return sorted(
        {
            (str(m), str(d), str(s))
            for m, d, s in zip(frame["model"], frame["demonstrations"], frame["settings"], strict=True)
        }
    )


def _setting_logs(logs: Sequence[EvalLog], model: str, mode: str, settings: str) -> list[EvalLog]:
    labels = setting_labels(logs)
    return [
        log for log in logs if log.eval.model == model and _mode(log) == mode and labels.get(id(log), "") == settings
    ]


def skill_table(logs: Sequence[EvalLog], frame: pd.DataFrame, by: Grain, top: int | None = None) -> pd.DataFrame:
    """`skill_accuracies` of each run setting, stacked: per skill (or leaf), weakest first, with Wilson intervals.

    Args:
        logs: The loaded LogicAsker logs.
        frame: Their `outcome_frame` (for the run settings present).
        by: `rule` or `leaf`.
        top: Keep only the `top` weakest answered skills of each setting (None: every skill, unranked ones last).
    """
    parts = []
    for model, mode, settings in _settings(frame):
        rows = skill_accuracies(_setting_logs(logs, model, mode, settings), by=by)
        if top is not None:
            rows = [r for r in rows if not math.isnan(r.accuracy)][:top]
        table = weakness_table(rows)
        if not table.empty:
            table.insert(0, "settings", settings)
            table.insert(0, "demonstrations", mode)
            table.insert(0, "model", model)
            parts.append(table)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def demonstrations_table(overall: pd.DataFrame) -> pd.DataFrame:
    """Table 6: response accuracy per model (rows) and demonstrations (columns: none, random, weakness).

    Runs that differ in other arguments get a row each, named in a `settings` column (absent when all agree).
    """
    index = ["model", "settings"] if (overall["settings"] != "").any() else ["model"]
    table = overall.pivot(index=index, columns="demonstrations", values="response_accuracy")
    order = [m for m in ("none", "random", "weakness") if m in table.columns]
    table = table[order + [c for c in table.columns if c not in order]]
    names = {"none": "zero-shot", "random": "random demonstrations", "weakness": "weakness demonstrations"}
    table.columns = [names.get(str(c), str(c)) for c in table.columns]
    return table.reset_index()


CATEGORY_COLOURS = {"inference": "tab:blue", "equivalence": "tab:green", "fallacy": "tab:orange"}


def skill_plots(skills: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Per-skill response accuracy with 95% Wilson intervals, weakest on top, one PNG per run setting.

    Skills with nothing answered are left out (they have no accuracy); the title says how many.
    """
    from lgmt_tasks.report.suite_tools import interval_bars, save_png, slug

    written = []
    for (model, mode, settings), part in skills.groupby(["model", "demonstrations", "settings"], sort=True):
        ranked = part[part["accuracy"].notna()]
        if ranked.empty:
            continue
        dropped = len(part) - len(ranked)
        fig = interval_bars(
            [f"{r} ({lg[:4]}.)" for r, lg in zip(ranked["rule"], ranked["logic"], strict=True)],
            ranked["accuracy"].tolist(),
            ranked["low"].tolist(),
            ranked["high"].tolist(),
            title=f"LogicAsker response accuracy per skill: {model} (demonstrations: {mode}"
            + (f"; {settings})" if settings else ")")
            + (f"\n{dropped} skill(s) with no answer that followed the instruction not shown" if dropped else ""),
            xlabel="response accuracy (correct / answered), 95% Wilson interval",
            colors=[CATEGORY_COLOURS.get(str(c), "tab:gray") for c in ranked["category"]],
            legend={c: CATEGORY_COLOURS[c] for c in CATEGORY_COLOURS if c in set(ranked["category"])},
        )
        name = "_".join([slug(str(model)), slug(str(mode)), *([slug(str(settings))] if settings else [])])
        written.append(save_png(fig, out_dir / f"skills_{name}.png"))
    return written


def suite_report(
    paths: Sequence[str | Path | EvalLog], out_dir: Path | None = None, top: int = DEFAULT_TOP
) -> SuiteReport:
    """LogicAsker's paper tables from Inspect logs, per run setting (model, demonstrations).

    Tables (stems): `overall` (response accuracy, instruction following and unparsed replies per setting; Figure 3),
    `by_logic` (Figure 4), `by_category` (Figure 5), `by_problem_type`, `by_length` (Table 3), `by_label` (gold
    yes / no), `skills` (every rule, weakest first), `weakest_leaves` (the `top` weakest rule × problem-type leaves;
    Table 4 and §3.3), and `demonstrations` (Table 6: zero-shot vs random vs weakness demonstrations; only when the
    logs hold more than one). Response accuracy is correct / answered (§3.3); `unparsed` counts the replies that did
    not follow the instruction. Plot: `skills_<model>_<demonstrations>.png`, per-skill accuracy with Wilson intervals.

    Args:
        paths: Log files or folders (logs of other tasks are skipped), or loaded logs.
        out_dir: The report folder; plots go to `out_dir/logicasker/` (None: no plots).
        top: How many weakest leaves to list per setting.

    Returns:
        A `SuiteReport` (no tables when no LogicAsker log is among `paths`).
    """
    logs = [log for log in load_logs(paths) if any(_score_value(s.scores) for s in log.samples or [])]
    frame = outcome_frame(logs)
    if frame.empty:
        return SuiteReport("logicasker")
    tables: dict[str, pd.DataFrame] = {}
    titles: dict[str, str] = {}
    tables["overall"] = overall = accuracy_table(frame)
    titles["overall"] = "Figure 3: LogicAsker response accuracy (correct / answered) per model, with unparsed replies"
    for column, (stem, title) in ATTRIBUTES.items():
        tables[stem], titles[stem] = accuracy_table(frame, [column]), title
    tables["skills"] = skill_table(logs, frame, "rule")
    titles["skills"] = "Response accuracy per skill (rule), weakest first, 95% Wilson intervals"
    tables["weakest_leaves"] = skill_table(logs, frame, "leaf", top=top)
    titles["weakest_leaves"] = f"Table 4: the {top} weakest leaves (rule × problem type) per model, §3.3"
    if overall["demonstrations"].nunique() > 1:
        tables["demonstrations"] = demonstrations_table(overall)
        titles["demonstrations"] = "Table 6: response accuracy with zero-shot, random and weakness demonstrations"
    plots = skill_plots(tables["skills"], Path(out_dir) / "logicasker") if out_dir is not None else []
    return SuiteReport("logicasker", tables=tables, plots=plots, titles=titles)
