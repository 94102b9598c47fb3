"""Which runs a card is made of: the logs and lm-eval results given, sorted by model, then by suite.

`lgmt card LOGS...` takes what `lgmt report` takes (log files and folders, searched recursively, and lm-eval results
files) and writes one card per model found. The logs are selected as `lgmt report` selects them
(`lgmt_tasks.report.logs.select_logs`): an unreadable log is skipped and named, a log of an unfinished run is left
out and named (its partial metrics would read as a result), and logs of tasks that are not ours are named and
skipped. What was left out goes on every card's provenance, so a reader knows what the card is not made of.

A model is the name its harness recorded: Inspect's `provider/name`, lm-eval's `<model type>/<pretrained>` as the
leaderboard writes it (`lgmt_tasks.report.leaderboard.lm_eval_rows`). The same weights run through both harnesses
get two names, hence two cards; a card never merges runs under names that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lgmt_tasks.report.logs import select_logs
from lgmt_tasks.report.suite_tools import slug
from lgmt_tasks.report.suites import suite_of
from lgmt_tasks.suites import SUITE_NAMES


@dataclass
class ModelRuns:
    """One model's runs, by suite.

    Attributes:
        model: The model's name as its harness recorded it.
        slug: Its folder name under `--out` (unique among the models of one call).
        logs: Suite → its Inspect log files (in the order found).
        lm_eval: Suite → its lm-eval rows (`lm_eval_rows`: one per task or group of a results file).
    """

    model: str
    slug: str
    logs: dict[str, list[str]] = field(default_factory=dict)
    lm_eval: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def suites(self) -> list[str]:
        """The suites with a run of this model, in registry order."""
        return [name for name in SUITE_NAMES if self.logs.get(name) or self.lm_eval.get(name)]

    def all_logs(self) -> list[str]:
        """Every Inspect log of the model, in suite order."""
        return [path for name in SUITE_NAMES for path in self.logs.get(name, [])]


@dataclass
class Collection:
    """The models found and what was left out.

    Attributes:
        models: The models, in the order first found.
        left_out: (file, why) of every file not used (unreadable, unfinished, not our task), the file as given.
    """

    models: list[ModelRuns]
    left_out: list[tuple[str, str]] = field(default_factory=list)


class CardInputError(ValueError):
    """The inputs hold nothing to make a card of (the message says what was found instead, in one line)."""


def collect(logs: Sequence[str | Path], lm_eval_results: Sequence[str | Path] = ()) -> Collection:
    """Sort the logs and lm-eval results given into models and suites.

    Raises:
        FileNotFoundError: If a path does not exist (names it).
        CardInputError: If no run of our tasks is left (says how many files were unreadable, unfinished or foreign),
            or an lm-eval file is not a results file.
    """
    from inspect_ai.log import read_eval_log

    from lgmt_tasks.report.leaderboard import lm_eval_rows

    selection = select_logs(logs) if logs else None
    left_out: list[tuple[str, str]] = []
    by_model: dict[str, ModelRuns] = {}
    if selection is not None:
        left_out += [(path, f"unreadable ({reason})") for path, reason in selection.unreadable]
        left_out += [(path, f"unfinished run (status {status})") for path, status in selection.incomplete]
        for path in selection.paths:
            header = read_eval_log(path, header_only=True)
            suite = suite_of(header.eval.task)
            if suite is None:
                left_out.append((path, f"task {header.eval.task} is not one of lgmt-tasks' tasks"))
                continue
            runs = by_model.setdefault(header.eval.model, ModelRuns(header.eval.model, ""))
            runs.logs.setdefault(suite, []).append(path)
    for results in lm_eval_results:
        try:
            rows = lm_eval_rows(results)
        except (ValueError, OSError) as error:  # JSONDecodeError is a ValueError
            raise CardInputError(f"{results}: not an lm-eval results file ({error})") from None
        if not rows:
            left_out.append((str(results), "no lgmt-tasks task in this lm-eval results file"))
        for row in rows:
            runs = by_model.setdefault(str(row["model"]), ModelRuns(str(row["model"]), ""))
            runs.lm_eval.setdefault(str(row["suite"]), []).append(row)
    if not by_model:
        found = "; ".join(f"{path}: {why}" for path, why in left_out) if left_out else "no log or results file"
        raise CardInputError(
            f"no finished run of an lgmt-tasks task in {', '.join(map(str, [*logs, *lm_eval_results]))} ({found})"
        )
    models = list(by_model.values())
    _name_folders(models)
    return Collection(models, left_out)


def _name_folders(models: Sequence[ModelRuns]) -> None:
    """Give each model its folder name: the slug of its name, numbered when two names slug alike (`a/b`, `a_b`)."""
    taken: dict[str, int] = {}
    for runs in models:
        base = slug(runs.model)
        taken[base] = taken.get(base, 0) + 1
        runs.slug = base if taken[base] == 1 else f"{base}-{taken[base]}"
