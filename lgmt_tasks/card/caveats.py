"""The card's "not comparable" box: what its numbers cannot be compared with, read off the runs themselves.

A card is handed to readers who will put its numbers next to other cards, leaderboards and papers. Each caveat names
a reason a comparison would mislead, found in the provenance rather than assumed: a suite that was not run (no claim
about it), a task's version that changed its results' meaning (the major number, `N-X`), a run of part of the dataset
(`--limit`, `--sample-id`, errored samples), runs of one task on different rows (dataset fingerprints), lm-eval's
prompting next to Inspect's, an adaptive run, an opened answer (`prefill`), logs left out, LGMT variants mixed in a
log, and the papers' figures (their data and settings, not re-run).
"""

from __future__ import annotations

from collections.abc import Sequence

from lgmt_tasks.card.content import NOT_RUN, Caveat, RunRecord, SuiteRow
from lgmt_tasks.suites import SUITE_NAMES

LM_EVAL = (
    "lm-eval rows run the same rows and metric functions as Inspect's, but not the same prompting: lm-eval opens no "
    "assistant turn, applies the model's chat template only with --apply_chat_template, and its `_loglik` tasks score "
    "by log-likelihood instead of a generated answer; compare them with other lm-eval rows, not with Inspect rows."
)


def major(version: str) -> str:
    """A task version's comparability number (`7-A` → `7`)."""
    return version.split("-", 1)[0]


def caveats(runs: Sequence[RunRecord], rows: Sequence[SuiteRow], left_out: Sequence[str]) -> list[Caveat]:
    """Every caveat of one card, in the order a reader needs them (what is missing first)."""
    found: list[Caveat] = []
    for row in rows:
        if row.status == NOT_RUN:
            found.append(Caveat("not-run", f"{row.suite} was not run: the card claims nothing about it.", [row.suite]))
        elif row.estimate is None or row.estimate.value is None:
            found.append(
                Caveat(
                    "no-value",
                    f"{row.suite} ({row.setting or 'all runs'}): no value for its headline {row.metric}: no item was "
                    "counted for it (for the lexical suite: no proven group; run MR-19, MR-84 or MR-152).",
                    [row.suite],
                )
            )
    for suite in SUITE_NAMES:
        mine = [run for run in runs if run.suite == suite]
        versions = sorted({run.task_version for run in mine})
        if len({major(v) for v in versions}) > 1:
            found.append(
                Caveat(
                    "task-version",
                    f"{suite}: runs of task versions {', '.join(versions)}, whose results are not comparable "
                    "(the first number of a version changes when results stop being comparable).",
                    [suite],
                )
            )
        stale = sorted({run.task_version for run in mine if major(run.task_version) != major(run.current_version)})
        if stale:
            found.append(
                Caveat(
                    "task-version",
                    f"{suite}: made with task version {', '.join(stale)}; this lgmt-tasks runs "
                    f"{mine[0].current_version}, so the card is not comparable with runs of today's tasks.",
                    [suite],
                )
            )
        by_task: dict[str, set[str]] = {}
        for run in mine:
            if run.dataset.fingerprint:
                by_task.setdefault(run.task, set()).add(run.dataset.fingerprint)
        for task, prints in by_task.items():
            if len(prints) > 1:
                found.append(
                    Caveat(
                        "dataset",
                        f"{suite}: runs of {task} on {len(prints)} different datasets (fingerprints differ); "
                        "their rows are kept apart by setting, and their numbers are not comparable.",
                        [suite],
                    )
                )
        if any(run.harness == "lm-eval" for run in mine):
            found.append(Caveat("harness", f"{suite}: {LM_EVAL}", [suite]))
    for run in runs:
        if run.total is not None and run.samples is not None and run.samples < run.total:
            how = f", {run.errored} errored" if run.errored else ""
            found.append(
                Caveat(
                    "partial-run",
                    f"{run.suite} ({run.path}): a partial run, {run.samples} of {run.total} samples scored{how} "
                    "(--limit, --sample-id or errors): not comparable with a full run or with the paper.",
                    [run.suite],
                )
            )
        elif run.errored:
            found.append(
                Caveat(
                    "errored",
                    f"{run.suite} ({run.path}): {run.errored} samples errored and are in no metric.",
                    [run.suite],
                )
            )
        if run.adaptive:
            found.append(
                Caveat(
                    "adaptive",
                    f"{run.suite} ({run.path}): an adaptive run (-T adaptive={run.adaptive}): each relation ran until "
                    "its question was settled, so its rates are on an adaptively chosen sample; its intervals are "
                    "confidence sequences, not comparable with a uniform run's fixed-n intervals.",
                    [run.suite],
                )
            )
        if str(run.task_args.get("prefill", "")).lower() == "true":
            found.append(
                Caveat(
                    "prefill",
                    f"{run.suite} ({run.path}): the answer was opened for the model (-T prefill=true), which neither "
                    "paper does: not comparable with the paper or with runs without it.",
                    [run.suite],
                )
            )
    if any(row.suite == "lgmt" and "variant " in row.setting for row in rows):
        found.append(
            Caveat(
                "variants",
                "lgmt: the logs mix variants of the laws (paper, introduction, extended): rows are split per variant, "
                "and the `all (mixed)` row pools them; only the `paper` rows read as the paper's relations.",
                ["lgmt"],
            )
        )
    for line in left_out:
        found.append(Caveat("unfinished", f"Left out: {line}.", []))
    papers = sorted({row.suite for row in rows if row.paper is not None})
    if papers:
        found.append(
            Caveat(
                "paper",
                "Paper figures (marked 'paper, not re-run') are the papers' own numbers on their own data, sample "
                "sizes and prompts; they are context for a row, not a replication of it.",
                papers,
            )
        )
    return found
