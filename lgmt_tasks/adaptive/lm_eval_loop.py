r"""`lgmt adaptive-next`: an adaptive design run with lm-eval, one `lm_eval` invocation per round (issue #37).

lm-eval has no hook for a run that chooses its next documents from the answers so far, but it does not need one: a
confidence sequence stays valid whenever it is looked at, so the rounds may be separate `lm_eval` runs. Each round
runs the documents that `--samples` names with `--log_samples`; `adaptive-next` reads every round's samples files,
counts each relation's groups and violations, decides with `design.decide` (the same rules and levels as the Inspect
tasks' `-T adaptive=`), and names the next `--batch` unseen documents of every relation still open. With no results
it names the first round. When no relation is open it prints `done` and the decisions.

What it reads. `lm_eval --log_samples --output_path out/` writes `out/<model>/samples_<task>_<date>.jsonl` (with
`results_<date>.json` beside it): one JSON object per document with lm-eval's `doc_id` (the document's index in the
task, also under `--samples`), the `doc` (our dataset row, with its group `id` and relation `mr`) and the value of each
metric that `process_results` returned, here the group's outcome dict under `mvr` (`scorers.pairwise.group_outcome`:
`parsed`, `violation`, ...). A group counts, as in the Inspect tasks, once all its answers parsed (and, for the
lexical task, if it is a test at all); one that did not parse still uses up its document. A document seen in several
files (a round run twice) counts once, from the earliest file (by the date in its name).

The pool. The task's documents are loaded as lm-eval loads them (its `TaskManager` over our configs, with the
`--metadata` the rounds are run with: default, the shipped build), so every document index and its relation is
known; a relation still open when all its documents have run is `undecided`. Each seen document's group id is checked
against the pool's document of that index, so results of a run with other dataset parameters are refused, not mixed.
So are samples of several models (read from the `results_<date>.json` beside each samples file, when it is there).

Why the indices are sorted: lm-eval 0.4 evaluates the `--samples` documents in the task's order but records the
i-th of them under the i-th index of the list as given (`lm_eval.evaluator.evaluate`), so an unsorted list would
log documents under the wrong `doc_id`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import click

from lgmt_tasks.adaptive.design import (
    DEFAULT_ALPHA,
    DEFAULT_MARGIN,
    DEFAULT_TAU,
    Design,
    Settings,
    State,
    decide,
    open_relations,
)
from lgmt_tasks.errors import LgmtError

DEFAULT_TASK = "lgmt"
DEFAULT_BATCH = 20

OUTCOME_KEY = "mvr"
"""The metric under which a samples line holds the group's outcome dict (every LGMT and lexical task reports it)."""

SAMPLES_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$")
"""How lm-eval 0.4 names a task's samples file (`EvaluationTracker.save_results_samples`)."""

NOT_SAMPLES = "not lm-eval samples output"


@dataclass(frozen=True)
class Seen:
    """One document run in an earlier round: its index in the task, its group id and its outcome."""

    doc_id: int
    group: str | None
    counted: bool  # every answer parsed (and the group is a test): it enters its relation's interval
    violation: bool
    where: str  # file:line, for messages


@dataclass(frozen=True)
class Pool:
    """A task's documents: per index, its relation and group id (the task's order, as `--samples` indexes it)."""

    task: str
    relations: tuple[str, ...]
    groups: tuple[str | None, ...]

    def relation_names(self) -> list[str]:
        """The relations of the task, sorted (the order of the decisions table)."""
        return sorted(set(self.relations))


@dataclass(frozen=True)
class Round:
    """What the results so far decide: every relation's state and the documents of the next round (none: done)."""

    states: dict[str, State]
    run: dict[str, int]  # documents run per relation, parsed or not
    next_docs: list[int]

    @property
    def done(self) -> bool:
        """Whether no relation needs another group."""
        return not self.next_docs


# ----------------------------------------------------------------------------------------------------- reading


def samples_files(paths: Iterable[str | Path], task: str) -> list[Path]:
    """The samples files of `task` among `paths` (files, or folders searched recursively), oldest round first.

    Raises:
        LgmtError: If a path does not exist, a named file is another task's samples, or a folder holds none of
            `task`'s.
    """
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            inside = [p for p in path.rglob("samples_*.jsonl") if _task_of(p) == task]
            if not inside:
                raise LgmtError(
                    f"{path}: no samples_{task}_<date>.jsonl in it; run lm_eval --tasks {task} with --log_samples "
                    f"--output_path {path} (or give --task the task these results are of)"
                )
            found += inside
        elif path.is_file():
            other = _task_of(path)
            if other is not None and other != task:
                raise LgmtError(f"{path}: samples of task {other}, not of {task}; give --task {other}")
            found.append(path)
        else:
            raise LgmtError(f"{path}: no such file or folder")
    return sorted(set(found), key=lambda p: (_date_of(p), str(p)))


def _task_of(path: Path) -> str | None:
    match = SAMPLES_NAME.match(path.name)
    return match["task"] if match else None


def _date_of(path: Path) -> str:
    match = SAMPLES_NAME.match(path.name)
    return match["date"] if match else ""


def read_samples(path: Path) -> list[Seen]:
    """The documents of one samples file.

    Raises:
        LgmtError: If a line is not a sample of one of our group tasks (a JSON object with `doc_id`, the `doc` and
            the group's outcome under `mvr`), naming the file and line.
    """
    seen = []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LgmtError(f"{path}: {NOT_SAMPLES} ({exc})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            seen.append(_sample(line, f"{path}:{number}"))
    if not seen:
        raise LgmtError(f"{path}: {NOT_SAMPLES} (no sample in it)")
    return seen


def _sample(line: str, where: str) -> Seen:
    try:
        sample = json.loads(line)
    except json.JSONDecodeError:
        raise LgmtError(
            f"{where}: {NOT_SAMPLES} (not a JSON line; pass the samples_<task>_<date>.jsonl files that "
            "lm_eval --log_samples writes, or their folder)"
        ) from None
    doc = sample.get("doc") if isinstance(sample, dict) else None
    outcome = sample.get(OUTCOME_KEY) if isinstance(sample, dict) else None
    doc_id = sample.get("doc_id") if isinstance(sample, dict) else None
    if not isinstance(doc_id, int) or not isinstance(doc, dict) or not isinstance(outcome, dict):
        raise LgmtError(
            f"{where}: {NOT_SAMPLES} of an LGMT or lexical task (expected a JSON object with doc_id, doc and the "
            f"group outcome under {OUTCOME_KEY!r}; a --predict_only run has no outcome)"
        )
    counted = bool(outcome.get("parsed")) and bool(outcome.get("tested", 1))
    group = doc.get("id")
    return Seen(
        doc_id, None if group is None else str(group), counted, counted and bool(outcome.get("violation")), where
    )


def merge(files: Sequence[Path]) -> dict[int, Seen]:
    """Every document of the files, once: a document in several files keeps its first outcome (files oldest first).

    Raises:
        LgmtError: On a file that is not samples output, or on files of several models.
    """
    _one_model(files)
    seen: dict[int, Seen] = {}
    for path in files:
        for sample in read_samples(path):
            seen.setdefault(sample.doc_id, sample)
    return seen


def _one_model(files: Sequence[Path]) -> None:
    """Refuse samples of different models (as the `results_<date>.json` lm-eval writes beside them name them)."""
    models: dict[str, Path] = {}
    for path in files:
        results = path.with_name(f"results_{_date_of(path)}.json")
        if not _date_of(path) or not results.is_file():
            continue
        try:
            info = json.loads(results.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        model = model_of(info.get("config") if isinstance(info, dict) else None)
        if model is not None:
            models.setdefault(model, path)
    if len(models) > 1:
        named = "; ".join(f"{model} ({path})" for model, path in models.items())
        raise LgmtError(f"samples of {len(models)} models: {named}; an adaptive run reads one model's rounds")


MODEL_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")
"""The model arguments that name the model, in lm-eval's order (`GeneralConfigTracker._get_model_name`)."""


def model_of(config: object) -> str | None:
    """The model a run's `config` names: `<model type>` and, if its arguments name one, `:<pretrained>` or the like.

    lm-eval's own `model_name` is a random word when the arguments name no model (`--model dummy`), so it is read
    here from the arguments, as lm-eval reads it when they do.
    """
    if not isinstance(config, dict) or not config.get("model"):
        return None
    args = config.get("model_args")
    if isinstance(args, str):
        args = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
    name = next((str(args[key]) for key in MODEL_KEYS if key in args), None) if isinstance(args, dict) else None
    return f"{config['model']}:{name}" if name else str(config["model"])


# -------------------------------------------------------------------------------------------------------- pool


def pool_of(task: str, mrs: Sequence[str], groups: Sequence[str | None]) -> Pool:
    """The pool of a task from its documents' `mr` and `id` columns (a composed chain counts as its first relation)."""
    return Pool(task, tuple(mr.split("+", 1)[0] for mr in mrs), tuple(groups))


def load_pool(task: str, metadata: Mapping[str, Any]) -> Pool:
    """The documents of one of our lm-eval tasks, loaded as `lm_eval --metadata METADATA` loads them.

    Raises:
        LgmtError: If the task is none of ours, the loader refuses the metadata, or the documents have no relation
            (`mr`).
    """
    from lm_eval.tasks import TaskManager

    import lgmt_tasks.task_configs as configs

    manager = TaskManager(
        include_path=str(Path(configs.__file__).parent), include_defaults=False, metadata=dict(metadata)
    )
    if task not in manager.all_subtasks:
        raise LgmtError(f"--task {task}: not one of our lm-eval tasks ({', '.join(sorted(manager.all_subtasks))})")
    try:
        docs = manager.load_task_or_group([task])[task].eval_docs
    except LgmtError:
        raise
    except ValueError as exc:  # a dataset parameter the loader refuses: its message names it
        raise LgmtError(f"--task {task} --metadata {json.dumps(dict(metadata))}: {exc}") from None
    columns = set(docs.column_names)
    if "mr" not in columns:
        raise LgmtError(f"--task {task}: its documents name no relation (mr); adaptive runs are for LGMT and lexical")
    return pool_of(task, docs["mr"], docs["id"] if "id" in columns else [None] * len(docs))


def check_against(pool: Pool, seen: Mapping[int, Seen]) -> None:
    """Refuse results whose documents are not the pool's (another build, `per_mr` or seed than `--metadata` gives).

    Raises:
        LgmtError: Naming the first document whose index or group id does not match.
    """
    for doc_id, sample in sorted(seen.items()):
        if not 0 <= doc_id < len(pool.relations):
            raise LgmtError(
                f"{sample.where}: doc_id {doc_id}, but task {pool.task} has {len(pool.relations)} documents; give "
                "adaptive-next the --metadata the rounds were run with"
            )
        expected = pool.groups[doc_id]
        if sample.group is not None and expected is not None and sample.group != expected:
            raise LgmtError(
                f"{sample.where}: doc_id {doc_id} is group {sample.group}, but document {doc_id} of task {pool.task} "
                f"is {expected}; give adaptive-next the --metadata the rounds were run with"
            )


# ------------------------------------------------------------------------------------------------------ deciding


def next_round(settings: Settings, pool: Pool, seen: Mapping[int, Seen], batch: int) -> Round:
    """Decide every relation from the documents seen, and choose the next `batch` unseen documents of each open one.

    Args:
        settings: The design (`threshold` or `weakest`) and its parameters.
        pool: The task's documents.
        seen: The documents run so far, by index (checked against the pool).
        batch: Groups per open relation in the next round.

    Returns:
        Every relation's state (sorted by relation) and the next round's document indices, sorted (empty: done).
    """
    relations = pool.relation_names()
    counts = dict.fromkeys(relations, (0, 0))
    run = dict.fromkeys(relations, 0)
    for doc_id, sample in seen.items():
        relation = pool.relations[doc_id]
        run[relation] += 1
        if sample.counted:
            groups, violations = counts[relation]
            counts[relation] = (groups + 1, violations + sample.violation)
    unseen: dict[str, list[int]] = {relation: [] for relation in relations}
    for doc_id, relation in enumerate(pool.relations):
        if doc_id not in seen:
            unseen[relation].append(doc_id)
    exhausted = frozenset(relation for relation in relations if not unseen[relation])
    states = decide(settings, counts, exhausted)
    chosen = [doc_id for relation in open_relations(states) for doc_id in unseen[relation][:batch]]
    return Round(states, run, sorted(chosen))


def samples_json(task: str, docs: Sequence[int]) -> str:
    """The value of `lm_eval --samples` for the next round: `{"<task>": [indices]}`."""
    return json.dumps({task: list(docs)})


def decisions_table(round_: Round) -> str:
    """The relations' states as a text table: relation, groups, violations, lower, upper, decision."""
    header = ("relation", "groups", "violations", "lower", "upper", "decision")
    rows = [
        (
            relation,
            str(state.interval.n),
            str(state.interval.violations),
            f"{state.interval.lower:.3f}",
            f"{state.interval.upper:.3f}",
            state.decision,
        )
        for relation, state in round_.states.items()
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:5], widths[1:5])), row[5]]
        return "  ".join(cells)

    return "\n".join([line(header), *(line(row) for row in rows)])


def summary(settings: Settings, pool: Pool, seen: Mapping[int, Seen], round_: Round) -> str:
    """One line: the design, and how many groups ran (and were counted) out of the task's."""
    counted = sum(sample.counted for sample in seen.values())
    return (
        f"{settings.design} (tau {settings.tau}, margin {settings.margin}, alpha {settings.alpha} over "
        f"{len(round_.states)} relations): {len(seen)} of {len(pool.relations)} groups of {pool.task} run, "
        f"{counted} counted ({len(seen) - counted} with an unparsed answer)"
    )


# ------------------------------------------------------------------------------------------------------- command


def _metadata(ctx: click.Context, param: click.Parameter, value: str | None) -> dict[str, Any]:
    if not value:
        return {}
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON ({exc.msg}); e.g. '{{\"per_mr\": 50}}'") from None
    if not isinstance(parsed, dict):
        raise click.BadParameter("expected a JSON object, e.g. '{\"per_mr\": 50}'")
    return parsed


@click.command("adaptive-next")
@click.argument("results", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--design",
    type=click.Choice(["threshold", "weakest"]),
    default="threshold",
    show_default=True,
    help="threshold: which relations violate more often than tau; weakest: which relation violates most often.",
)
@click.option("--tau", type=float, default=DEFAULT_TAU, show_default=True, help="The rate threshold (threshold).")
@click.option("--margin", type=float, default=DEFAULT_MARGIN, show_default=True, help="The tolerated error of a call.")
@click.option(
    "--alpha", type=float, default=DEFAULT_ALPHA, show_default=True, help="Error level, simultaneous over relations."
)
@click.option("--task", default=DEFAULT_TASK, show_default=True, help="The lm-eval task the rounds run.")
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    default=DEFAULT_BATCH,
    show_default=True,
    help="Groups per open relation in the next round.",
)
@click.option(
    "--metadata", callback=_metadata, help="The JSON the rounds pass lm_eval --metadata (the dataset parameters)."
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the --samples JSON to this file (removed once done) and print the decisions so far.",
)
def adaptive_next_command(
    results: tuple[Path, ...],
    design: str,
    tau: float,
    margin: float,
    alpha: float,
    task: str,
    batch: int,
    metadata: dict[str, Any],
    out: Path | None,
) -> None:
    """Print the next lm-eval --samples JSON of an adaptive run from the rounds' --log_samples output, or done.

    RESULTS are the samples files (`samples_<task>_<date>.jsonl`) or output folders of the rounds so far; none: the
    first round. While a relation is open, prints `{"<task>": [doc indices]}`: the next --batch unseen groups of each
    open relation, for `lm_eval --samples`; then `done` and each relation's groups, violations, interval and decision.
    """
    try:
        settings = Settings(cast(Design, design), tau, margin, alpha)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        seen = merge(samples_files(results, task)) if results else {}
        pool = load_pool(task, metadata)
        check_against(pool, seen)
    except LgmtError as exc:
        raise click.ClickException(str(exc)) from None
    round_ = next_round(settings, pool, seen, batch)
    if round_.done:
        if out is not None:
            out.unlink(missing_ok=True)
        click.echo("done")
        click.echo(summary(settings, pool, seen, round_))
        click.echo(decisions_table(round_))
        return
    text = samples_json(task, round_.next_docs)
    opened = len(open_relations(round_.states))
    line = f"next round: {len(round_.next_docs)} groups of {opened} open relations"
    if out is None:
        click.echo(text)
        click.echo(f"{line}; {summary(settings, pool, seen, round_)}", err=True)
        return
    out.write_text(text + "\n", encoding="utf-8")
    click.echo(f"{line} -> {out}")
    click.echo(summary(settings, pool, seen, round_))
    click.echo(decisions_table(round_))
