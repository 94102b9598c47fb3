"""Flakiness (LLMorph §V, Table XI): how often a violating group violates again, by two protocols.

Ours: run every group `--epochs N`; each group violated in some number k of the N epochs, and `flakiness_table`
gives, among the groups that violated at least once (and were compared in every epoch), the share with each k.
LLMorph's: run every group once, re-run only the groups that violated (`failing_groups`, `lgmt failing-groups LOG`,
then `inspect eval ... --sample-id IDS --epochs 9`), and `llmorph_flakiness` gives, among those groups, the share that
violated in k of the 1 + 9 runs. Ours also counts groups that passed the first run and failed later, so its shares of
small k are larger; LLMorph's is conditioned on one failure. Mostly k = N means the violations are reproducible;
mostly small k means they are noise.

The counts are the pure functions of `scorers/lexical_arithmetic.py`, over the rows of `log_samples.sample_table`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog

from lgmt_tasks.lexical.log_samples import (
    FAMILIES,
    LogLike,
    load_log,
    relation_order,
    sample_table,
    scorer_of,
    with_run,
)
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.scorers.lexical_arithmetic import flakiness_counts, flakiness_histogram


def group_flakiness(log: LogLike) -> pd.DataFrame:
    """Per group: relation, part, epochs, epochs compared, and epochs in which it violated.

    Returns:
        One row per group id, columns `id, mr, part, epochs, compared, violated`.
    """
    table = sample_table(log)
    rows = []
    for (group, mr, part), chunk in table.groupby(["id", "mr", "part"], sort=False):
        per_epoch = [int(v) if p else None for v, p in zip(chunk["violation"], chunk["parsed"], strict=True)]
        violated, compared = flakiness_counts({str(group): per_epoch})[str(group)]
        rows.append(
            {"id": group, "mr": mr, "part": part, "epochs": len(chunk), "compared": compared, "violated": violated}
        )
    return pd.DataFrame(rows)


def flakiness_table(log: LogLike) -> pd.DataFrame:
    """LLMorph's Table XI: among groups that violated at least once, the share that violated in k of N epochs.

    Returns:
        Rows `all` then each relation; columns `relation`, `failing` (groups that violated at least once, compared
        in every epoch) and `k/N` for k = 1..N.

    Raises:
        ValueError: If the log has a single epoch (there is nothing to re-run).
    """
    loaded = load_log(log)
    epochs = loaded.eval.config.epochs or 1
    if epochs < 2:
        raise ValueError("flakiness needs a run with --epochs 2 or more")
    per_group = group_flakiness(loaded)
    family = FAMILIES[scorer_of(loaded)]
    rows = []
    chunks = [("all", per_group)] + sorted(
        ((str(mr), chunk) for mr, chunk in per_group.groupby("mr", sort=False)),
        key=lambda item: relation_order(family, item[0]),
    )
    for name, chunk in chunks:
        counts = {
            str(g): (int(v), int(n)) for g, v, n in zip(chunk["id"], chunk["violated"], chunk["compared"], strict=True)
        }
        histogram = flakiness_histogram(counts, epochs)
        failing = sum(1 for v, n in counts.values() if n == epochs and v > 0)
        rows.append({"relation": name, "failing": failing, **{f"{k}/{epochs}": histogram[k] for k in histogram}})
    return pd.DataFrame(rows)


def flakiness_tables(logs: Sequence[EvalLog]) -> pd.DataFrame:
    """`flakiness_table` of every log run with two or more epochs (either family), stacked; empty if none."""
    parts = []
    for log in logs:
        if (log.eval.config.epochs or 1) > 1:
            table = flakiness_table(log)
            table.insert(0, "family", FAMILIES[scorer_of(log)])
            parts.append(with_run(table, log))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


# ------------------------------------------------------------- LLMorph's protocol: re-run only the failing groups

ANSWER_SETTINGS = (
    "system_message",
    "max_tokens",
    "temperature",
    "top_p",
    "top_k",
    "seed",
    "stop_seqs",
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
    "reasoning_effort",
    "reasoning_tokens",
)
"""Generation settings that change the answers: the first run and the re-run must agree on them (connection settings
such as `max_connections` or `timeout` may differ)."""

ARG_MAX_BYTES = 131072
"""Linux's limit on one command-line argument (MAX_ARG_STRLEN): a longer `--sample-id` list fails to start."""

_GLOB = frozenset("*?[,")


def _epochs(log: EvalLog) -> int:
    return log.eval.config.epochs or 1


def _check_sample_ids(ids: Sequence[str], log: EvalLog) -> None:
    """Refuse ids that Inspect's `--sample-id` would not match literally.

    Inspect splits the option on commas, strips spaces, matches each item with `fnmatch` and reads `<task>:<id>` as a
    task selector (`inspect_ai._eval.task.util.slice_dataset`).
    """
    task = str(log.eval.task)
    tasks = {task.lower(), task.rsplit("/", 1)[-1].lower()}
    for sample_id in ids:
        if _GLOB & set(sample_id) or sample_id != sample_id.strip() or sample_id.split(":", 1)[0].lower() in tasks:
            raise ValueError(
                f"sample id {sample_id!r} of {log.location!r} would not be selected literally by Inspect's sample id "
                "filter (`--sample-id`, `inspect_ai.eval(sample_id=...)`): it has a comma, a glob character (*?[), "
                "surrounding spaces or a `<task>:` prefix; filter the task's dataset by id instead"
            )


def failing_groups(log: LogLike) -> list[str]:
    """The groups a one-epoch run found violated (compared, `violation` 1): the ones LLMorph re-runs.

    Unreadable or discarded groups (`parsed` 0) are not failing: the relation was not tested. The ids come in the
    log's sample order, ready for `inspect eval ... --sample-id` (joined by commas) or `inspect_ai.eval(sample_id=...)`.

    Args:
        log: The first run (one epoch) of an LGMT or lexical task.

    Returns:
        The failing group ids (empty when none violated).

    Raises:
        ValueError: If the log has more than one epoch, or an id that `--sample-id` would not match literally.
    """
    loaded = load_log(log)
    if _epochs(loaded) != 1:
        raise ValueError(
            f"{loaded.location!r} has {_epochs(loaded)} epochs: LLMorph's protocol re-runs the failing groups of a "
            "first run with one epoch (for flakiness over every group of a run with --epochs N, use flakiness_table)"
        )
    table = sample_table(loaded)
    if table.empty:
        return []
    ids = [str(i) for i in table.loc[(table["parsed"] == 1) & (table["violation"] == 1), "id"]]
    _check_sample_ids(ids, loaded)
    return ids


def _task_arg(value: object) -> object:
    """A task argument in the form `inspect eval -T` records it, so that both ways of running compare equal.

    `-T mr=MR-1,MR-49` is recorded as the list `["MR-1", "MR-49"]`; `inspect_ai.eval(task_args={"mr": "MR-1,MR-49"})`
    as the string.
    """
    if isinstance(value, str) and "," in value:
        return [item.strip() for item in value.split(",")]
    return list(value) if isinstance(value, tuple) else value


def _check_same_run(first: EvalLog, rerun: EvalLog) -> None:
    """Refuse a re-run that is not the first run's task, model, task arguments and generation settings."""
    first_args, rerun_args = first.eval.task_args or {}, rerun.eval.task_args or {}
    differences = [
        f"{name}: {a!r} vs {b!r}"
        for name, a, b in (
            ("task", first.eval.task, rerun.eval.task),
            ("task version", first.eval.task_version, rerun.eval.task_version),
            ("model", first.eval.model, rerun.eval.model),
            ("scorer", scorer_of(first), scorer_of(rerun)),
            *(
                (f"task argument (-T) {key}", first_args.get(key), rerun_args.get(key))
                for key in sorted({*first_args, *rerun_args})
                if _task_arg(first_args.get(key)) != _task_arg(rerun_args.get(key))
            ),
            *(
                (
                    name,
                    getattr(first.eval.model_generate_config, name, None),
                    getattr(rerun.eval.model_generate_config, name, None),
                )
                for name in ANSWER_SETTINGS
            ),
        )
        if a != b
    ]
    if differences:
        raise ValueError(
            f"the re-run {rerun.location!r} is not a re-run of {first.location!r}: different "
            + "; ".join(differences)
            + " (re-run with the same task, model, -T arguments and generation options)"
        )


def llmorph_group_counts(first_log: LogLike, rerun_log: LogLike) -> pd.DataFrame:
    """Per group that violated in the first run: relation, part, runs, runs compared and runs in which it violated.

    The first run counts as one violating run; the re-run's epochs add the rest. A group unreadable or discarded in
    some re-run epoch, errored, or absent from the re-run is not compared in every run (`compared < runs`).

    Returns:
        One row per failing group, in the first log's order: `id, mr, part, runs, compared, violated`.

    Raises:
        ValueError: If the logs are of different tasks, models, task arguments or generation settings; if the first
            log has more than one epoch or no failing group; or if the re-run holds a group that did not fail first.
    """
    first, rerun = load_log(first_log), load_log(rerun_log)
    _check_same_run(first, rerun)
    failing = failing_groups(first)
    if not failing:
        raise ValueError(f"no group violated in the first run {first.location!r}: there is nothing to re-run")
    not_failing = sorted({str(s.id) for s in rerun.samples or []} - set(failing))
    if not_failing:
        shown = ", ".join(not_failing[:5]) + (f" and {len(not_failing) - 5} more" if len(not_failing) > 5 else "")
        raise ValueError(
            f"the re-run {rerun.location!r} has {len(not_failing)} groups that did not fail in {first.location!r} "
            f"({shown}): re-run exactly `--sample-id $(lgmt failing-groups FIRST_LOG)`"
        )
    first_table = sample_table(first).set_index("id")
    rerun_table = sample_table(rerun)
    epochs = _epochs(rerun)
    violated_epochs: dict[str, list[int | None]] = {group: [1] for group in failing}
    if not rerun_table.empty:  # empty when every re-run sample errored: then every group is left out
        for group, violation, parsed in zip(
            rerun_table["id"], rerun_table["violation"], rerun_table["parsed"], strict=True
        ):
            violated_epochs[str(group)].append(int(violation) if parsed else None)
    rows = []
    for group, (violated, compared) in flakiness_counts(
        {g: [*runs, *[None] * (1 + epochs - len(runs))] for g, runs in violated_epochs.items()}
    ).items():
        rows.append(
            {
                "id": group,
                "mr": first_table.loc[group, "mr"],
                "part": first_table.loc[group, "part"],
                "runs": 1 + epochs,
                "compared": compared,
                "violated": violated,
            }
        )
    return pd.DataFrame(rows)


def llmorph_flakiness(first_log: LogLike, rerun_log: LogLike) -> pd.DataFrame:
    """LLMorph's Table XI by its protocol: the first run's failing groups, re-run; the share failing in k of R runs.

    LLMorph ran every group once, re-ran the groups that failed 9 more times, and tabulated, among them, how many of
    the 10 runs failed. Here the first run is `first_log` (one epoch) and the re-run `rerun_log` (its failing groups,
    `--epochs 9` for LLMorph's 10 runs: R = 1 + the re-run's epochs). Every group failed at least its first run, so
    k ≥ 1. Compare `flakiness_table` of an `--epochs N` run of every group (our protocol), which also counts groups
    that passed their first epoch.

    Args:
        first_log: The first run (one epoch) of an LGMT or lexical task.
        rerun_log: The re-run of its failing groups (`--sample-id`), same task, model, -T arguments and generation
            settings.

    Returns:
        Rows `all` then each relation with a failing group, in catalogue order; columns `relation`, `groups` (failing
        groups compared in all R runs: the table's denominator), `left_out` (failing groups not compared in every run:
        an unreadable or discarded answer, an error, or absent from the re-run) and `k/R` for k = 1..R (shares of
        `groups`; NaN when `groups` is 0).

    Raises:
        ValueError: As `llmorph_group_counts`.
    """
    first = load_log(first_log)
    per_group = llmorph_group_counts(first, rerun_log)
    runs = int(per_group["runs"].iloc[0])
    family = FAMILIES[scorer_of(first)]
    chunks = [("all", per_group)] + sorted(
        ((str(mr), chunk) for mr, chunk in per_group.groupby("mr", sort=False)),
        key=lambda item: relation_order(family, item[0]),
    )
    rows = []
    for name, chunk in chunks:
        counts = {
            str(g): (int(v), int(n)) for g, v, n in zip(chunk["id"], chunk["violated"], chunk["compared"], strict=True)
        }
        compared = sum(1 for _, n in counts.values() if n == runs)
        histogram = flakiness_histogram(counts, runs)
        rows.append(
            {
                "relation": name,
                "groups": compared,
                "left_out": len(counts) - compared,
                **{f"{k}/{runs}": histogram[k] for k in histogram},
            }
        )
    return pd.DataFrame(rows)


LLMORPH_FLAKINESS_TITLE = (
    "LLMorph Table XI by LLMorph's protocol: the first run's failing groups re-run; the share failing in k of R runs"
)


def llmorph_flakiness_report(first_log: LogLike, rerun_log: LogLike) -> str:
    """Markdown for `lgmt report --flakiness FIRST RERUN`: LLMorph's flakiness table with what it was computed on."""
    first, rerun = load_log(first_log), load_log(rerun_log)
    table = llmorph_flakiness(first, rerun)
    runs = 1 + _epochs(rerun)
    compared = int(sample_table(first)["parsed"].sum())
    overall = table.iloc[0]
    kept, left_out = int(overall["groups"]), int(overall["left_out"])
    first_name, rerun_name = Path(str(first.location)).name, Path(str(rerun.location)).name
    lines = [
        f"### Flakiness of the first run's failing groups over {runs} runs (LLMorph's protocol, Table XI): "
        f"{first.eval.model}",
        "",
        f"{kept + left_out} of the {compared} groups compared in the first run ({first_name}) violated; they were "
        f"re-run {runs - 1} more times ({rerun_name}). Among the {kept} compared in all {runs} runs ({left_out} left "
        f"out: unreadable, discarded or missing in some run), the share that violated in k of {runs} runs.",
        "",
        table.to_markdown(index=False, floatfmt=".2f"),
    ]
    return "\n".join(lines) + "\n"


def llmorph_flakiness_tables(pairs: Iterable[tuple[LogLike, LogLike]]) -> SuiteReport:
    """`llmorph_flakiness` of each (first run, re-run) pair as the lexical suite's table `flakiness_llmorph`.

    The tables are stacked with `model`, `log` (the first run's file name) and `rerun_log` columns first, for
    `lgmt report --flakiness FIRST RERUN --out DIR` (written as `DIR/lexical/flakiness_llmorph.csv|.md`).
    """
    parts = []
    for first_log, rerun_log in pairs:
        first, rerun = load_log(first_log), load_log(rerun_log)
        table = with_run(llmorph_flakiness(first, rerun), first)
        table.insert(2, "rerun_log", Path(str(rerun.location)).name)
        parts.append(table)
    if not parts:
        return SuiteReport("lexical")
    return SuiteReport(
        "lexical",
        tables={"flakiness_llmorph": pd.concat(parts, ignore_index=True)},
        titles={"flakiness_llmorph": LLMORPH_FLAKINESS_TITLE},
    )
