"""Logic-grounded vs lexical relations, side by side, for one model; and LLMorph's flakiness table.

LGMT's claim (§2.3.2) is that text-level relations drift: some of their "violations" are right answers to a
changed problem. This report lets a user check it on their own model: the violation rate (MVR) and hidden-defect
rate (HDR) of every LGMT relation (from an LGMT log) next to every lexical relation (from a `lexical` log) on the
same source cases, with MR-49's violation rate (the same question asked twice) as the noise floor: a relation whose
MVR is not clearly above the floor detects nothing but the model's own randomness.

Everything is computed from the logs' per-sample scores with the pure functions of `scorers/pairwise.py`, in the
same way as the logged metrics: each group's epochs are averaged first (Inspect's mean reducer), then rates are
ratios of sums over groups, with delta-method standard errors over groups.

Flakiness (LLMorph §V, Table XI), two protocols. Ours: run every group `--epochs N`; each group violated in some
number k of the N epochs, and `flakiness_table` gives, among the groups that violated at least once (and were compared
in every epoch), the share with each k. LLMorph's: run every group once, re-run only the groups that violated
(`failing_groups`, `lgmt failing-groups LOG`, then `inspect eval ... --sample-id IDS --epochs 9`), and
`llmorph_flakiness` gives, among those groups, the share that violated in k of the 1 + 9 runs. Ours also counts groups
that passed the first run and failed later, so its shares of small k are larger; LLMorph's is conditioned on one
failure. Mostly k = N means the violations are reproducible; mostly small k means they are noise.

The lead wires `lexical_report` into `lgmt report`; `split_logs` sorts a list of logs into the two families;
`suite_report` gives the same comparison as tables and a plot for `lgmt report --out`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
from inspect_ai.log import EvalLog, read_eval_log

from lgmt_tasks import suites as registry
from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS, NOISE_FLOOR
from lgmt_tasks.lgmt import RELATION_IDS
from lgmt_tasks.report.suite_report import SuiteReport
from lgmt_tasks.scorers.lexical_metrics import flakiness_counts, flakiness_histogram
from lgmt_tasks.scorers.pairwise import OUTCOME_KEYS, ratio_of_sums

LEXICAL_SCORER = registry.suite("lexical").scorer
"""The score name of the `lexical` task, `lexical_consistency` (from the suite registry)."""

LGMT_SCORER = registry.suite("lgmt").scorer
"""The score name of the LGMT tasks, `metamorphic_consistency`."""

FAMILIES = {LGMT_SCORER: "logic-grounded", LEXICAL_SCORER: "lexical"}

LogLike = EvalLog | str | Path


def _load(log: LogLike) -> EvalLog:
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
    """One row per sample-epoch: group id, epoch, relation, part, kind, expected relation, and the outcome keys.

    For an LGMT log, `part` is the changed site (e.g. `premise 2`), `kind` the category (`MR-E`), and `expected` is
    `equivalence` (every LGMT relation is proven to keep the label).
    """
    loaded = _load(log)
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
                **{key: float(value.get(key, 0.0)) for key in OUTCOME_KEYS},  # type: ignore[arg-type]
                "transformed": float(value.get("transformed", 1.0)),  # type: ignore[arg-type]
            }
        )
    return pd.DataFrame(rows)


def _per_group(table: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Average each group's epochs (what Inspect's mean reducer does before metrics)."""
    numeric = [*OUTCOME_KEYS, "transformed"]
    return table.groupby(["id", *keys], sort=False, as_index=False)[numeric].mean()


def _rates(groups: pd.DataFrame) -> dict[str, float]:
    parsed = groups["parsed"].tolist()
    mvr = ratio_of_sums(groups["violation"].tolist(), parsed)
    hdr = ratio_of_sums(groups["hidden_defect"].tolist(), parsed)
    acc = ratio_of_sums(groups["source_correct"].tolist(), parsed)
    return {
        "groups": float(len(groups)),
        "compared": float(sum(parsed)),
        "mvr": mvr.value,
        "mvr_stderr": mvr.stderr,
        "hdr": hdr.value,
        "hdr_stderr": hdr.stderr,
        "acc_static": acc.value,
    }


def _relation_order(family: str, relation: str) -> tuple[int, str]:
    if family == "lexical":
        ids = list(LEXICAL_RELATIONS)
        return (ids.index(relation) if relation in ids else len(ids), relation)
    first = relation.split("+", 1)[0]
    ids = list(RELATION_IDS)
    return (ids.index(first) if first in ids else len(ids), relation)


def relation_rates(log: LogLike, by_part: bool = False) -> pd.DataFrame:
    """Per relation (optionally per relation and part): groups, compared groups, MVR and HDR with standard errors.

    Args:
        log: An LGMT or lexical log (a path or a loaded `EvalLog` with samples).
        by_part: Split lexical relations by part (premises / conclusion / both).

    Returns:
        One row per relation, in catalogue order, then an `all` row; columns `family, relation, part, kind,
        expected, groups, compared, mvr, mvr_stderr, hdr, hdr_stderr, acc_static`.
    """
    loaded = _load(log)
    family = FAMILIES[scorer_of(loaded)]
    table = sample_table(loaded)
    keys = ["mr", "kind", "expected", *(["part"] if by_part and family == "lexical" else [])]
    groups = _per_group(table, keys)
    rows = []
    for key, chunk in groups.groupby(keys, sort=False):
        values = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        rows.append(
            {
                "family": family,
                "relation": values["mr"],
                "part": values.get("part", ""),
                "kind": values["kind"],
                "expected": values["expected"],
                **_rates(chunk),
            }
        )
    rows.sort(key=lambda r: (_relation_order(family, str(r["relation"])), str(r["part"])))
    rows.append({"family": family, "relation": "all", "part": "", "kind": "", "expected": "", **_rates(groups)})
    return pd.DataFrame(rows)


def noise_floor(lexical_log: LogLike) -> float:
    """MR-49's violation rate in a lexical log (NaN if the log has no compared MR-49 group)."""
    rates = relation_rates(lexical_log)
    floor = rates.loc[rates["relation"] == NOISE_FLOOR, "mvr"]
    return float(floor.iloc[0]) if len(floor) else math.nan


def side_by_side(lgmt_log: LogLike, lexical_log: LogLike, by_part: bool = False) -> pd.DataFrame:
    """Logic-grounded and lexical relations of one model in one table, with MR-49's rate as the noise floor.

    Args:
        lgmt_log: A log of an LGMT task (`lgmt`, `mr_e`, ...).
        lexical_log: A log of the `lexical` task for the same model (ideally the same source and seed).
        by_part: Split lexical relations by part.

    Returns:
        `relation_rates` of both logs stacked (logic-grounded first), plus `floor` (MR-49's MVR) and
        `mvr_above_floor` (MVR − floor) on every row.

    Raises:
        ValueError: If the logs are of different models, or not one LGMT and one lexical log.
    """
    lgmt, lexical = _load(lgmt_log), _load(lexical_log)
    if scorer_of(lgmt) != LGMT_SCORER or scorer_of(lexical) != LEXICAL_SCORER:
        raise ValueError("side_by_side needs an LGMT log and a lexical log, in that order")
    if lgmt.eval.model != lexical.eval.model:
        raise ValueError(f"the logs are of different models: {lgmt.eval.model} vs {lexical.eval.model}")
    table = pd.concat([relation_rates(lgmt), relation_rates(lexical, by_part=by_part)], ignore_index=True)
    floor = noise_floor(lexical)
    table["floor"] = floor
    table["mvr_above_floor"] = table["mvr"] - floor
    return table


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
    loaded = _load(log)
    epochs = loaded.eval.config.epochs or 1
    if epochs < 2:
        raise ValueError("flakiness needs a run with --epochs 2 or more")
    per_group = group_flakiness(loaded)
    family = FAMILIES[scorer_of(loaded)]
    rows = []
    chunks = [("all", per_group)] + sorted(
        ((str(mr), chunk) for mr, chunk in per_group.groupby("mr", sort=False)),
        key=lambda item: _relation_order(family, item[0]),
    )
    for name, chunk in chunks:
        counts = {
            str(g): (int(v), int(n)) for g, v, n in zip(chunk["id"], chunk["violated"], chunk["compared"], strict=True)
        }
        histogram = flakiness_histogram(counts, epochs)
        failing = sum(1 for v, n in counts.values() if n == epochs and v > 0)
        rows.append({"relation": name, "failing": failing, **{f"{k}/{epochs}": histogram[k] for k in histogram}})
    return pd.DataFrame(rows)


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
    loaded = _load(log)
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
    first, rerun = _load(first_log), _load(rerun_log)
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
    first = _load(first_log)
    per_group = llmorph_group_counts(first, rerun_log)
    runs = int(per_group["runs"].iloc[0])
    family = FAMILIES[scorer_of(first)]
    chunks = [("all", per_group)] + sorted(
        ((str(mr), chunk) for mr, chunk in per_group.groupby("mr", sort=False)),
        key=lambda item: _relation_order(family, item[0]),
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
    first, rerun = _load(first_log), _load(rerun_log)
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
        first, rerun = _load(first_log), _load(rerun_log)
        table = _with_run(llmorph_flakiness(first, rerun), first)
        table.insert(2, "rerun_log", Path(str(rerun.location)).name)
        parts.append(table)
    if not parts:
        return SuiteReport("lexical")
    return SuiteReport(
        "lexical",
        tables={"flakiness_llmorph": pd.concat(parts, ignore_index=True)},
        titles={"flakiness_llmorph": LLMORPH_FLAKINESS_TITLE},
    )


def split_logs(paths: Iterable[LogLike]) -> tuple[list[EvalLog], list[EvalLog]]:
    """Sort logs into (LGMT logs, lexical logs) by their scorer; other logs are ignored."""
    lgmt: list[EvalLog] = []
    lexical: list[EvalLog] = []
    for path in paths:
        log = _load(path)
        try:
            scorer = scorer_of(log)
        except ValueError:
            continue
        (lgmt if scorer == LGMT_SCORER else lexical).append(log)
    return lgmt, lexical


def _fmt(value: object, stderr: object = None) -> str:
    if not isinstance(value, int | float) or math.isnan(value):
        return "-"
    if isinstance(stderr, int | float) and not math.isnan(stderr):
        return f"{value:.3f} ± {stderr:.3f}"
    return f"{value:.3f}"


def lexical_report(lexical_log: LogLike, lgmt_log: LogLike | None = None, by_part: bool = False) -> str:
    """Markdown for `lgmt report`: relations side by side (or lexical alone), the noise floor, and flakiness.

    Args:
        lexical_log: A `lexical` log.
        lgmt_log: An LGMT log of the same model, for the side-by-side table (optional).
        by_part: Split lexical relations by part.

    Returns:
        The report.
    """
    lexical = _load(lexical_log)
    table = (
        side_by_side(lgmt_log, lexical, by_part=by_part)
        if lgmt_log is not None
        else relation_rates(lexical, by_part=by_part).assign(floor=noise_floor(lexical))
    )
    floor = float(table["floor"].iloc[0])
    shown = pd.DataFrame(
        {
            "family": table["family"],
            "relation": table["relation"],
            **({"part": table["part"]} if by_part else {}),
            "kind": table["kind"],
            "expected": table["expected"],
            "groups": table["groups"].astype(int),
            "mvr": [_fmt(v, s) for v, s in zip(table["mvr"], table["mvr_stderr"], strict=True)],
            "hdr": [_fmt(v, s) for v, s in zip(table["hdr"], table["hdr_stderr"], strict=True)],
            "mvr − floor": [_fmt(v - floor) if not math.isnan(floor) else "-" for v in table["mvr"]],
        }
    )
    lines = [f"## Logic-grounded vs lexical relations: {lexical.eval.model}", "", shown.to_markdown(index=False), ""]
    lines.append(
        f"Noise floor (MR-49, the same question twice): MVR {_fmt(floor)}."
        if not math.isnan(floor)
        else "No MR-49 groups in the lexical log: run it with MR-49 (`-T mr=function` includes it) to get the noise "
        "floor."
    )
    if (lexical.eval.config.epochs or 1) > 1:
        flaky = flakiness_table(lexical)
        lines += [
            "",
            f"### Flakiness over {lexical.eval.config.epochs} epochs of every group (Table XI's shape, our protocol)",
            "",
            flaky.to_markdown(index=False, floatfmt=".2f"),
        ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------- the suite's report for --out


def _with_run(table: pd.DataFrame, log: EvalLog) -> pd.DataFrame:
    table = table.copy()
    table.insert(0, "log", Path(str(log.location)).name)
    table.insert(0, "model", log.eval.model)
    return table


def comparison_tables(lgmt_logs: Sequence[EvalLog], lexical_logs: Sequence[EvalLog]) -> pd.DataFrame:
    """Per lexical log: `side_by_side` with the first LGMT log of the same model, else its `relation_rates` alone.

    Every row carries `model`, `log` (the lexical log's file name), `floor` (MR-49's MVR in that log) and
    `mvr_above_floor`; counts are integers when no epoch averaging made them fractions, and the `part` column (empty
    without a by-part split) is left out.
    """
    parts = []
    for lexical in lexical_logs:
        partner = next((log for log in lgmt_logs if log.eval.model == lexical.eval.model), None)
        if partner is not None:
            table = side_by_side(partner, lexical)
        else:
            table = relation_rates(lexical)
            table["floor"] = noise_floor(lexical)
            table["mvr_above_floor"] = table["mvr"] - table["floor"]
        parts.append(_with_run(table, lexical))
    out = pd.concat(parts, ignore_index=True)
    if (out["part"] == "").all():
        out = out.drop(columns="part")
    for column in ("groups", "compared"):
        if (out[column] % 1 == 0).all():
            out[column] = out[column].astype(int)
    return out


def flakiness_tables(logs: Sequence[EvalLog]) -> pd.DataFrame:
    """`flakiness_table` of every log run with two or more epochs (either family), stacked; empty if none."""
    parts = []
    for log in logs:
        if (log.eval.config.epochs or 1) > 1:
            table = flakiness_table(log)
            table.insert(0, "family", FAMILIES[scorer_of(log)])
            parts.append(_with_run(table, log))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


FAMILY_COLOURS = {"logic-grounded": "tab:blue", "lexical": "tab:orange"}


def comparison_plots(table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """MVR per relation with 95% normal intervals (± 1.96 stderr, clipped to [0, 1]) and MR-49's floor, per log."""
    from lgmt_tasks.report.suite_tools import interval_bars, save_png, slug

    written = []
    for (model, log), part in table.groupby(["model", "log"], sort=False):
        part = part[part["relation"] != "all"]
        values = part["mvr"].tolist()
        errors = [1.96 * s if not math.isnan(s) else math.nan for s in part["mvr_stderr"]]
        floor = float(part["floor"].iloc[0]) if len(part) else math.nan
        fig = interval_bars(
            [str(r) for r in part["relation"]],
            values,
            [max(0.0, v - e) for v, e in zip(values, errors, strict=True)],
            [min(1.0, v + e) for v, e in zip(values, errors, strict=True)],
            title=f"Violation rate per relation: {model}",
            xlabel="MVR (violations / compared groups), 95% interval",
            colors=[FAMILY_COLOURS.get(str(f), "tab:gray") for f in part["family"]],
            reference=floor,
            reference_label="noise floor (MR-49)",
            legend={f: FAMILY_COLOURS[f] for f in FAMILY_COLOURS if f in set(part["family"])},
        )
        written.append(save_png(fig, out_dir / f"relations_{slug(str(model))}_{slug(Path(str(log)).stem)}.png"))
    return written


def suite_report(paths: Iterable[LogLike], out_dir: Path | None = None) -> SuiteReport:
    """The lexical-vs-logic comparison from Inspect logs (for `lgmt report LOG... --out DIR`).

    Tables (stems): `relations` (per lexical log: MVR and HDR with standard errors per relation, logic-grounded
    relations first when an LGMT log of the same model is given, MR-49's noise floor and MVR − floor on every row)
    and `flakiness` (LLMorph Table XI, for logs run with `--epochs 2` or more). Plot: `relations_<model>_<log>.png`,
    MVR per relation with 95% intervals and the noise floor.

    Args:
        paths: Log files or folders, or loaded logs; LGMT logs are used only next to a lexical log of their model,
            other logs are skipped.
        out_dir: The report folder; plots go to `out_dir/lexical/` (None: no plots).

    Returns:
        A `SuiteReport` (no tables when no lexical log is among `paths`).
    """
    from lgmt_tasks.report.suite_tools import load_logs

    lgmt_logs, lexical_logs = split_logs(load_logs(paths))
    if not lexical_logs:
        return SuiteReport("lexical")
    tables = {"relations": comparison_tables(lgmt_logs, lexical_logs)}
    titles = {
        "relations": "Logic-grounded vs lexical relations (LGMT §2.3.2): MVR and HDR per relation, with MR-49's "
        "noise floor (MVR is LLMorph Table V's failure rate λ)"
    }
    paired = {log.eval.model for log in lexical_logs}
    flaky = flakiness_tables([*lexical_logs, *(log for log in lgmt_logs if log.eval.model in paired)])
    if not flaky.empty:
        tables["flakiness"] = flaky
        titles["flakiness"] = (
            "LLMorph Table XI: among groups that violated at least once, the share violating in k of N epochs"
        )
    plots = comparison_plots(tables["relations"], Path(out_dir) / "lexical") if out_dir is not None else []
    return SuiteReport("lexical", tables=tables, plots=plots, titles=titles)
