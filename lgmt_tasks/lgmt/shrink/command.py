"""`lgmt shrink LOG --out DIR`: minimal counterexamples from the violating groups of an LGMT eval log."""

from __future__ import annotations

import asyncio
import shlex
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import click

from lgmt_tasks.logic.limits import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS

DEFAULT_MAX_CALLS = 40
"""Model calls per group by default: the confirming re-ask and up to 19 candidates."""


async def _shrink_all(run: Any, limit: int | None, max_calls: int, timeout_ms: int, rlimit: int | None) -> list[Any]:
    from lgmt_tasks.lgmt.shrink.asker import Asker
    from lgmt_tasks.lgmt.shrink.derive import Original, relation_of, replay
    from lgmt_tasks.lgmt.shrink.logs import ShrinkInputError, case_of
    from lgmt_tasks.lgmt.shrink.output import summary
    from lgmt_tasks.lgmt.shrink.search import shrink_group

    asker = Asker(run.ask)
    outcomes = []
    for row in run.groups[:limit]:
        where = f"{run.path}, group {row['id']}"
        try:
            relation = relation_of(str(row["mr"]))
        except ValueError as exc:
            raise ShrinkInputError(f"{where}: {exc}") from None
        if row.get("extra_followups"):
            raise ShrinkInputError(f"{where}: groups with several follow-ups (--followups k) are not shrunk")
        case = case_of(row, where)
        site, options = replay(relation, case, row, run.options, run.seed)
        original = Original(row, case, relation, site, options)
        outcome = await shrink_group(
            original, asker, max_calls=max_calls, seed=run.seed, timeout_ms=timeout_ms, rlimit=rlimit
        )
        done = summary(outcome)
        click.echo(
            f"{done['group']} ({done['mr']}): {done['calls']} calls, size {done['original_size']} -> "
            f"{done['minimal_size'] or outcome.ended}",
            err=True,
        )
        outcomes.append(outcome)
    return outcomes


def shrink_log(
    log: str,
    out: str,
    *,
    model: str | None = None,
    limit: int | None = None,
    max_calls: int = DEFAULT_MAX_CALLS,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    rlimit: int | None = DEFAULT_RLIMIT,
    argv: Sequence[str] = (),
) -> tuple[Path, list[Any]]:
    """Shrink the violating groups of `log` and write the folder `out`; the Python face of `lgmt shrink`.

    Returns:
        The folder and the per-group outcomes (`search.Outcome`).

    Raises:
        ShrinkInputError: The log is not an LGMT log, or a group cannot be shrunk (a chain, several follow-ups).
        OutputFolderError: `out` is not a new or empty folder.
    """
    from lgmt_tasks.hub.output import check_output_folder
    from lgmt_tasks.lgmt.shrink.logs import read_run
    from lgmt_tasks.lgmt.shrink.output import write_shrink_folder

    check_output_folder(out)  # before any model call: a bad --out must not cost an evaluation
    run = read_run(log, model=model)
    outcomes = asyncio.run(_shrink_all(run, limit, max_calls, timeout_ms, rlimit))
    settings = {
        "log": run.path,
        "task": run.task,
        "model": run.ask.model,
        "prompting": run.ask.prompting,
        "prefill": run.ask.prefill,
        "max_calls": max_calls,
        "limit": limit,
        "timeout_ms": timeout_ms,
        "rlimit": rlimit,
        "log_samples": run.samples,
        "violating_groups": len(run.groups),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": shlex.join(["lgmt", "shrink", *argv]) if argv else f"lgmt shrink {shlex.quote(log)} --out DIR",
    }
    return write_shrink_folder(out, outcomes, settings), outcomes


@click.command("shrink")
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False))
@click.option("--model", default=None, help="Model to ask (default: the log's model, with its -M arguments).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Shrink only the first N violating groups.")
@click.option(
    "--max-calls",
    type=click.IntRange(min=2),
    default=DEFAULT_MAX_CALLS,
    show_default=True,
    help="Model calls allowed per group (2 per asked group: source and follow-up), the confirming re-ask included.",
)
@click.option("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS, show_default=True, help="Z3 limit per query.")
@click.option(
    "--rlimit",
    type=click.IntRange(min=1),
    default=DEFAULT_RLIMIT,
    show_default=True,
    help="Z3 resource limit of each candidate's source-label proof (deterministic).",
)
@click.option("--out", type=click.Path(), required=True, help="New or empty output folder.")
def shrink_command(
    log: str, model: str | None, limit: int | None, max_calls: int, timeout_ms: int, rlimit: int, out: str
) -> None:
    """Shrink each violating group of an LGMT eval LOG to a smallest group that still makes the model violate.

    Drops premises, replaces sub-formulas by simpler ones and renames symbols to shorter ones, smallest candidate
    first; every candidate is re-proven by Z3 (its label becomes its gold; its follow-up is re-derived by the same
    relation and proven) and asked to the model with the log's prompts and settings. Writes an LGMT dataset folder
    (re-run it with `inspect eval lgmt_tasks/lgmt -T dataset=DIR`), DIR/trace.json and DIR/digest.md.

    \b
    Example:
      lgmt shrink logs/mr-e.eval --limit 2 --max-calls 15 --out shrunk/
    """  # noqa: D301  (click's no-rewrap marker is the backspace character, so the docstring is not raw)
    from lgmt_tasks.lgmt.shrink.logs import ShrinkInputError

    try:
        folder, outcomes = shrink_log(
            log,
            out,
            model=model,
            limit=limit,
            max_calls=max_calls,
            timeout_ms=timeout_ms,
            rlimit=rlimit,
            argv=sys.argv[2:] if len(sys.argv) > 2 and sys.argv[1] == "shrink" else (),
        )
    except ShrinkInputError as exc:
        raise click.ClickException(str(exc)) from None
    kept = sum(1 for o in outcomes if o.kept)
    unshrunk = sum(1 for o in outcomes if o.ended == "not shrunk (budget)")
    budget = f", {unshrunk} not shrunk (budget: raise --max-calls)" if unshrunk else ""
    click.echo(
        f"{len(outcomes)} violating groups, {kept} minimal groups{budget}, {sum(o.calls for o in outcomes)} model "
        f"calls: {folder} (digest: {folder / 'digest.md'})"
    )
