"""Read what `lgmt shrink` needs from an Inspect log of an LGMT task: the violating groups and how they were asked.

A violating group is a sample whose LGMT score (the dict score of `scorers/lgmt.py`) has `violation == 1`; with
several epochs a group is taken once (its first violating epoch). The group's row is rebuilt from the sample's
metadata (`record_to_sample` keeps every column but `id` and `label`) plus its id and target, and its formulas are
parsed back with our parser.

How the model was asked is taken from the log too: the model name and its arguments, the generate config
(`log.plan.config` merged with `log.eval.model_generate_config`), and the task arguments that shape the prompts
(`prompting`, `prefill`) and the relations (`names`, `direction`, `p4`, `p5`, `seed`). A log that does not record
`direction` or `p4` gets the default of its task version: `any` and `replace` up to version 3-B, `paper` and `add`
from 4-A on (`relation_options`); one that does not record `p5` predates it, and MR-P5 replaced then.

Only LGMT logs are accepted. The lexical suite's groups are perturbations of English sentences, not FOL: nothing
here could shrink them while keeping its claim proven, so a lexical log (or any other suite's) is refused with an
error naming the log and its task.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import GenerateConfig

from lgmt_tasks.lgmt.relations import Case
from lgmt_tasks.logic.parse import FormulaSyntaxError, parse
from lgmt_tasks.solvers.prompts import DEFAULT_PROMPTING, check_prompting
from lgmt_tasks.suites import suite

VIOLATION_KEY = "violation"
"""The key of the LGMT score dict that marks a metamorphic violation (`scorers.pairwise.OUTCOME_KEYS`)."""


class ShrinkInputError(ValueError):
    """The log cannot be shrunk: the message names the log and what is wrong with it (one line)."""


@dataclass(frozen=True)
class AskSettings:
    """How the log's model was asked, so that a smaller group is asked the same way.

    Attributes:
        model: The Inspect model name.
        model_args: The model's arguments (`-M`).
        config: The generate config of the run.
        prompting: The prompting strategy (task argument `prompting`).
        prefill: Whether the assistant turn was opened with the JSON (task argument `prefill`).
    """

    model: str
    model_args: Mapping[str, Any] = field(default_factory=dict)
    config: GenerateConfig = field(default_factory=GenerateConfig)
    prompting: str = DEFAULT_PROMPTING
    prefill: bool = False


@dataclass(frozen=True)
class LoggedRun:
    """An LGMT log as the shrinker reads it.

    Attributes:
        path: The log file.
        task: The task name (`lgmt_tasks/mr_e`).
        ask: How the model was asked.
        options: The relation options (`names`, `direction`, `fuse`, `split`).
        seed: The build seed (task argument `seed`).
        groups: The violating groups' rows, in log order.
        samples: How many groups the log scored.
    """

    path: str
    task: str
    ask: AskSettings
    options: Mapping[str, str]
    seed: int
    groups: list[dict[str, Any]]
    samples: int


OLD_OPTIONS: Mapping[str, str] = {"direction": "any", "fuse": "replace"}
"""The relation options of every LGMT task up to version 3-B, which had no `direction` or `p4` argument."""

NEW_OPTIONS: Mapping[str, str] = {"direction": "paper", "fuse": "add"}
"""The defaults of `direction` and `p4` from task version 4-A on (the paper's reading and MR-P4 fusion)."""


def _before_4(version: object) -> bool:
    """Whether a task version is 3-B or older (an int, as before the "N-X" scheme, or N ≤ 3)."""
    if isinstance(version, int):
        return True
    head = str(version).split("-", 1)[0].strip()
    return head.isdigit() and int(head) <= 3


def relation_options(args: Mapping[str, Any], version: object) -> dict[str, str]:
    """The relation options a log's groups were built with: its task arguments, else its version's defaults."""
    defaults = OLD_OPTIONS if _before_4(version) else NEW_OPTIONS
    return {
        "names": str(args.get("names") or "abstract"),
        "direction": str(args.get("direction") or defaults["direction"]),
        "fuse": str(args.get("p4") or defaults["fuse"]),
        "split": str(args.get("p5") or "replace"),  # a log without `p5` predates it: MR-P5 replaced (issue #36)
    }


def _violates(sample: EvalSample) -> bool:
    for score in (sample.scores or {}).values():
        if isinstance(score.value, Mapping) and VIOLATION_KEY in score.value:
            return score.value[VIOLATION_KEY] == 1
    return False


def row_of(sample: EvalSample) -> dict[str, Any]:
    """The dataset row of a sample of an LGMT task (its metadata, id and gold label)."""
    meta = dict(sample.metadata or {})
    meta.pop("members", None)
    target = sample.target if isinstance(sample.target, str) else sample.target[0]
    return {"id": str(sample.id), **meta, "label": target}


def case_of(row: Mapping[str, Any], where: str) -> Case:
    """The source case of a row, its formulas parsed.

    Raises:
        ShrinkInputError: Naming `where` and the formula, if one does not parse.
    """
    try:
        premises = [parse(text) for text in row["premises_fol"]]
        conclusion = parse(row["conclusion_fol"])
    except FormulaSyntaxError as exc:
        raise ShrinkInputError(f"{where}: a source formula does not parse ({exc})") from None
    except KeyError as exc:
        raise ShrinkInputError(f"{where}: the sample metadata has no {exc} column; is this an LGMT log?") from None
    return Case(
        tuple(premises),
        conclusion,
        tuple(row["premises"]),
        row["conclusion"],
        row["label"],
        row.get("source_dataset", ""),
        row.get("source_id", ""),
    )


def _lgmt_task(log: EvalLog, path: str) -> str:
    task = log.eval.task
    name = task.split("/", 1)[-1]
    if name not in suite("lgmt").tasks:
        lexical = (
            " The lexical suite perturbs English, not FOL, so its groups cannot be shrunk by FOL rewriting."
            if (name.startswith("lexical"))
            else ""
        )
        raise ShrinkInputError(
            f"{path}: task {task!r} is not an LGMT task (expected one of "
            f"{', '.join(suite('lgmt').tasks)}); lgmt shrink reads LGMT logs only.{lexical}"
        )
    return task


def read_run(path: str | Path, *, model: str | None = None) -> LoggedRun:
    """Read an LGMT log: its violating groups and how its model was asked.

    Args:
        path: An Inspect log file (`.eval` or `.json`).
        model: Ask this model instead of the log's (e.g. the same weights under another provider).

    Raises:
        ShrinkInputError: The file is not a readable log, not an LGMT task's log, or has no samples.
    """
    where = str(path)
    if not Path(path).is_file():
        raise ShrinkInputError(f"{where}: no such log file")
    try:
        log = read_eval_log(where)
    except Exception as exc:  # noqa: BLE001 - inspect raises many types for a file that is not a log
        raise ShrinkInputError(f"{where}: not a readable Inspect log ({type(exc).__name__}: {exc})") from None
    task = _lgmt_task(log, where)
    if not log.samples:
        raise ShrinkInputError(f"{where}: the log has no samples (status {log.status})")
    args = dict(log.eval.task_args or {})
    config = log.plan.config.merge(log.eval.model_generate_config)
    ask = AskSettings(
        model=model or log.eval.model,
        model_args=dict(log.eval.model_args or {}) if model is None else {},
        config=config,
        prompting=check_prompting(str(args.get("prompting") or DEFAULT_PROMPTING)),
        prefill=bool(args.get("prefill", False)),
    )
    seen: set[str] = set()
    groups = []
    for sample in log.samples:
        if str(sample.id) in seen or not _violates(sample):
            continue
        seen.add(str(sample.id))
        groups.append(row_of(sample))
    ids = {str(s.id) for s in log.samples}
    return LoggedRun(
        path=where,
        task=task,
        ask=ask,
        options=relation_options(args, log.eval.task_version),
        seed=int(args.get("seed") or 0),
        groups=groups,
        samples=len(ids),
    )
