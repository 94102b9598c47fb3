"""The QMFOL builder: a grid of (topic, depth, width, seed, label, distractors) → proven tasks with verified English.

Pipeline (paper §3, with every claim proven or checked):

1. For every logical configuration (depth, width, seed, label, distractors) build the task in FOL
   (`lgmt_tasks.qmfol.construction.make_logic_task`: Algorithm 1, Eqs. 1–4, Algorithm 2, a seeded shuffle). The
   topic does not enter the logic, so the four topics of a configuration are one logical task (the paper's RQ3
   design); its 2,880 tasks are 720 logical tasks.
2. Check the rule set's depth and width, measured from the rules, against the parameters, and that every basic rule
   is minimal.
3. Prove with Z3 that the basic task (rules + facts) has the intended label, and that the task with its distractors
   has the same label (which also proves its premises consistent: `entailment` reports unsatisfiable premises as
   `Contradictory`, never as a label). This is the distractor property of §2.2 for the task's conclusion. A task
   that fails any check is dropped and counted by reason (none did on the paper's grid; see
   `benchmarks/verify_qmfol_grid.py`).
4. English for each topic: template sentences (`lgmt_tasks.qmfol.english`), each read back to its formula before it
   is accepted; or, with `translator="model"`, an Inspect model writes them with the paper's prompt and a round trip
   proven by Z3 accepts them (`lgmt_tasks.qmfol.translate`).

Rows are ordered by a hash of their id, so `--limit N` samples every configuration dimension rather than the first
topic's smallest tasks. The same config gives byte-identical rows (every random choice has a derived seed), whatever
the number of processes (`num_proc`: each basic task, with all its distractor counts and topics, is one unit of work).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import datasets

from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.result import Build
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import content_id
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS, Contradictory, Label, Undecided, entailment
from lgmt_tasks.qmfol.config import (
    QmfolConfig,
)
from lgmt_tasks.qmfol.construction import (
    CONSTANT,
    LABELS,
    DistractorShortage,
    LogicTask,
    make_logic_task,
    measure,
)
from lgmt_tasks.qmfol.english import (
    EnglishError,
    QmfolLexicon,
    TaskEnglish,
    read,
    realise,
    task_lexicon,
)

BUILD_REVISION = 3
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""


def stats_events(stats: BuildStats) -> list[str]:
    """The build-statistics columns: requested / proven per depth × width bucket, and the translator's counts.

    The translator's counts (bucket `translation`: tasks, attempts, passes, discards) appear when a model translated.
    """
    events = ["requested", "proven"]
    return events + ["tasks", "attempts", "passes", "discards"] if "translation" in stats.counts else events


FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "depth": datasets.Value("int32"),
        "width": datasets.Value("int32"),
        "distractors": datasets.Value("int32"),
        "topic": datasets.Value("string"),
        "label": datasets.Value("string"),
        "construction": datasets.Value("string"),
        "variant": datasets.Value("string"),
        "form": datasets.Value("string"),
        "seed": datasets.Value("int32"),
        "entity": datasets.Value("string"),
        "object": datasets.Value("string"),
        "rules_fol": datasets.List(datasets.Value("string")),
        "distractors_fol": datasets.List(datasets.Value("string")),
        "facts_fol": datasets.List(datasets.Value("string")),
        "conclusion_fol": datasets.Value("string"),
        "premises": datasets.List(datasets.Value("string")),
        "premises_fol": datasets.List(datasets.Value("string")),
        "conclusion": datasets.Value("string"),
        "predicates": datasets.List(datasets.Value("string")),
        "translator": datasets.Value("string"),
        "attempts": datasets.Value("int32"),
    }
)


def task_id(topic: str, depth: int, width: int, seed: int, label: str, distractors: int) -> str:
    """The paper's id: `<Topic>_d<D>_w<W>_<seed>_<label index>_distract<n>` (label index: True 0, False 1, Unknown 2).

    The paper's ids (`Food_d5_w5_0_0_distract0`, `Animal_d5_w15_5_1_distract5`, `Mathematics_d5_w20_206_2_distract0`)
    pair a True task with index 0, a False one with 1 and an Unknown one with 2; tasks that differ only in the
    distractor count share everything before `_distract`.
    """
    return f"{topic}_d{depth}_w{width}_{seed}_{LABELS.index(label)}_distract{distractors}"


class QmfolBuild(Build[QmfolConfig]):
    """A finished QMFOL build: its rows, statistics and config."""


@dataclass(frozen=True)
class Proof:
    """The outcome of the checks of one logical task (picklable, for worker processes).

    Attributes:
        ok: Whether every check passed.
        reason: Why not (a stable category for the build statistics), or "".
        basic: The proven label of the basic task (or the failure's name).
        full: The proven label with distractors (or the failure's name).
    """

    ok: bool
    reason: str
    basic: str
    full: str


def _outcome_name(result: Label | Undecided | Contradictory) -> str:
    if isinstance(result, Label):
        return result.value
    if isinstance(result, Contradictory):
        return "contradictory"
    return f"undecided: {result.reason}"


def check_task(task: LogicTask, timeout_ms: int = DEFAULT_TIMEOUT_MS, basic: str | None = None) -> Proof:
    """Run every check of one logical task: shape, minimality, the label, and the distractor property.

    Args:
        task: The task.
        timeout_ms: Z3 limit per check.
        basic: The already proven label of its basic task (shared by every distractor count), to skip that proof.

    Returns:
        The outcome.
    """
    shape = measure(task.rules)
    if (shape.depth, shape.width) != (task.depth, task.width):
        return Proof(False, "depth or width of the rules differs from the parameters", "", "")
    if not shape.minimal:
        return Proof(False, "a basic rule is not minimal", "", "")
    if basic is None:
        basic = _outcome_name(entailment(task.basic_premises, task.conclusion, timeout_ms=timeout_ms))
    if basic != task.label:
        reason = basic if basic.startswith(("undecided", "contradictory")) else "label disagrees with the prover"
        return Proof(False, reason, basic, "")
    full = basic
    if task.distractors:
        full = _outcome_name(entailment(task.premises, task.conclusion, timeout_ms=timeout_ms))
    if full != basic:
        reason = {"contradictory": "distractors made the premises inconsistent"}.get(full, "")
        if not reason:
            reason = full if full.startswith("undecided") else "distractors changed the label"
        return Proof(False, reason, basic, full)
    return Proof(True, "", basic, full)


GroupJob = tuple[int, int, int, str, tuple[int, ...], int, tuple[str, ...], str]
"""One unit of work of a build: depth, width, seed, label, distractor counts, Z3 limit, topics to write English for,
form."""

GroupResult = list[tuple[tuple[int, ...], Proof, list[tuple[str, dict[str, Any] | str]]]]
"""Per distractor count: the grid key, the proof, and per topic the row or the reason its English failed."""


def build_group(job: GroupJob) -> GroupResult:
    """Prove the tasks of one basic task and write their template English in each of `topics` (one unit of work).

    Every distractor count of the basic task is proven, the basic label once. `topics` is empty when a model
    translates (later, in the parent process).

    Returns:
        Per distractor count, in order: `(depth, width, seed, label index, distractors)`, the `Proof`, and per topic
        `(topic, row)` or `(topic, "English: <why>")` when a sentence did not read back (a defect, dropped).
    """
    depth, width, seed, label, counts, timeout_ms, topics, form = job
    out: GroupResult = []
    basic: str | None = None
    for n in counts:
        try:
            task = make_logic_task(depth, width, seed, label, n, form)
        except DistractorShortage:
            out.append(
                ((depth, width, seed, LABELS.index(label), n), Proof(False, "too few harmless distractors", "", ""), [])
            )
            continue
        proof = check_task(task, timeout_ms, basic)
        if proof.basic:
            basic = proof.basic
        english: list[tuple[str, dict[str, Any] | str]] = []
        for topic in topics if proof.ok else ():
            try:
                english.append((topic, make_row(topic, task, template_english(topic, task))))
            except EnglishError as exc:
                english.append((topic, f"English: {exc}"[:120]))
        out.append(((depth, width, seed, LABELS.index(label), n), proof, english))
    return out


def _group_jobs(config: QmfolConfig, topics: tuple[str, ...]) -> list[GroupJob]:
    """The units of work of a grid, in the order of `config.logical_grid()` (distractor counts innermost)."""
    return [
        (d, w, s, lab, config.distractors, config.timeout_ms, topics, config.form)
        for d, w, s, lab in itertools.product(config.depths, config.widths, config.seed_values, config.labels)
    ]


def lexicon_of(topic: str, task: LogicTask) -> QmfolLexicon:
    """The template lexicon of a task in a topic (phrases by a seed of (seed, depth, width), shared by labels)."""
    count = 1 + max(node.pred for rule in (*task.rules, *task.distractors) for node in rule.nodes)
    return task_lexicon(topic, count, task.seed, task.depth, task.width)


def template_english(topic: str, task: LogicTask) -> TaskEnglish:
    """Template English of a task, every sentence read back to its formula.

    Raises:
        EnglishError: If a sentence does not read back (a defect; the builder drops and counts the task).
    """
    lx = lexicon_of(topic, task)
    sentences = []
    for f in (*task.presented, task.conclusion):
        text = realise(f, lx)
        if read(text, lx) != f:
            raise EnglishError(f"round trip failed for {show(f)}: {text!r}")
        sentences.append(text)
    return TaskEnglish(tuple(sentences[:-1]), sentences[-1], tuple(lx.mapping()), lx.name(CONSTANT), lx.entity)


def make_row(topic: str, task: LogicTask, english: TaskEnglish) -> dict[str, Any]:
    """One dataset row."""
    return {
        "id": task_id(topic, task.depth, task.width, task.seed, task.label, len(task.distractors)),
        "depth": task.depth,
        "width": task.width,
        "distractors": len(task.distractors),
        "topic": topic,
        "label": task.label,
        "construction": task.construction,
        "variant": task.variant,
        "form": task.form,
        "seed": task.seed,
        "entity": english.entity,
        "object": english.object,
        "rules_fol": [show(r.formula()) for r in task.rules],
        "distractors_fol": [show(r.formula()) for r in task.distractors],
        "facts_fol": [show(f) for f in task.facts],
        "conclusion_fol": show(task.conclusion),
        "premises": list(english.premises),
        "premises_fol": [show(f) for f in task.presented],
        "conclusion": english.conclusion,
        "predicates": list(english.predicates),
        "translator": english.translator,
        "attempts": english.attempts,
    }


def build_qmfol(
    config: QmfolConfig, progress: bool = False, workers: int | None = None, model: Any = None, num_proc: int = 1
) -> QmfolBuild:
    """Build the QMFOL tasks of a config. See the module docstring for the pipeline.

    Args:
        config: The grid and options.
        progress: Show progress bars.
        workers: The former name of `num_proc` (kept for existing callers; it wins when given).
        model: An Inspect `Model` to translate with (`translator="model"`); by default
            `get_model(config.translator_model)`. Tests pass a scripted model here.
        num_proc: Processes for the proofs and the template English, one basic task (all its distractor counts
            and topics) at a time each; the rows and statistics do not depend on it, and it is not part of the
            config, so not of the cache key either.

    Returns:
        The build.
    """
    from tqdm import tqdm

    stats = BuildStats()
    template = config.translator == "template"
    jobs = _group_jobs(config, config.topics if template else ())
    processes = num_proc if workers is None else workers
    with process_pool(processes) as procs, tqdm(total=len(jobs), desc="proving", disable=not progress) as bar:
        groups = procs.map(build_group, jobs, progress=bar)
    results = {key: (proof, english) for group in groups for key, proof, english in group}
    tasks: list[tuple[str, LogicTask]] = []
    written: list[tuple[str, dict[str, Any] | str]] = []
    for depth, width, seed, label, n in config.logical_grid():
        proof, english = results[(depth, width, seed, LABELS.index(label), n)]
        bucket = f"d{depth}_w{width}"
        stats.count(bucket, "requested", len(config.topics))
        if not proof.ok:
            ids = [task_id(topic, depth, width, seed, label, n) for topic in config.topics]
            stats.drop(bucket, proof.reason, len(config.topics), ids=ids)
            continue
        stats.count(bucket, "proven", len(config.topics))
        if template:
            written.extend((bucket, row) for _, row in english)
        else:
            task = make_logic_task(depth, width, seed, label, n, config.form)
            tasks.extend((topic, task) for topic in config.topics)
    rows: list[dict[str, Any]] = []
    if not template:
        from lgmt_tasks.qmfol.translate import translate_tasks

        translations = translate_tasks(tasks, config, stats, model=model, progress=progress)
        for (topic, task), translated in zip(tasks, translations, strict=True):
            if translated is None:
                stats.drop(f"d{task.depth}_w{task.width}", "translation discarded")
                continue
            rows.append(make_row(topic, task, translated))
    for bucket, row in written:
        if isinstance(row, str):
            stats.drop(bucket, row)
        else:
            rows.append(row)
    stats.notes["form"] = config.form
    for column in ("label", "construction", "variant", "topic"):
        stats.notes[f"{column}s"] = dict(sorted(Counter(str(r[column]) for r in rows).items()))
    stats.notes["requested"] = config.size()
    stats.notes["tasks"] = len(rows)
    stats.notes["logical_tasks"] = len(
        {(r["depth"], r["width"], r["seed"], r["label"], r["distractors"]) for r in rows}
    )
    rows.sort(key=lambda r: content_id("qmfol", [r["id"]]))
    return QmfolBuild(dataset_from_rows(rows, FEATURES), stats, config)
