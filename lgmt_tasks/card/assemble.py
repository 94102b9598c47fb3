"""One model's `Card` from its runs: provenance, then each suite's rows and section, then the caveats.

The order is the card's: provenance first (a reader checks what was run before reading a number), the suite table
with every suite of the registry (a suite not run gets a row saying so, never silence), the suites' sections, and the
"not comparable" box.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.log import read_eval_log

from lgmt_tasks.card.caveats import caveats
from lgmt_tasks.card.collect import ModelRuns
from lgmt_tasks.card.content import Card, Provenance, RunRecord, SuiteRow
from lgmt_tasks.card.json_card import CARD_SCHEMA_VERSION
from lgmt_tasks.card.provenance import GENERATED_BY, full_model_name, inspect_run, lm_eval_run, relative
from lgmt_tasks.card.sections import SECTION_BUILDERS, lm_eval_row, not_run
from lgmt_tasks.suites import SUITE_NAMES


def build_card(runs: ModelRuns, out: Path, left_out: Sequence[tuple[str, str]] = ()) -> Card:
    """The card of one model.

    Args:
        runs: The model's logs and lm-eval rows, by suite (`lgmt_tasks.card.collect`).
        out: The `--out` folder (paths on the card are relative to it).
        left_out: (file, why) of the files found but not used (named, relative to `out`, in the provenance and the
            "not comparable" box).
    """
    records: dict[str, RunRecord] = {
        path: inspect_run(path, read_eval_log(path, header_only=True), out) for path in runs.all_logs()
    }
    rows: list[SuiteRow] = []
    blocks: dict[str, list[object]] = {}
    lm_eval_records: list[RunRecord] = []
    for suite in SUITE_NAMES:
        paths = runs.logs.get(suite, [])
        content = SECTION_BUILDERS[suite](paths, records, runs.model) if paths else None
        suite_rows = list(content.rows) if content is not None else []
        for record in runs.lm_eval.get(suite, []):
            run = lm_eval_run(record, out)
            lm_eval_records.append(run)
            suite_rows.append(lm_eval_row(suite, record, run, runs.model))
        rows += suite_rows or [not_run(suite)]
        blocks[suite] = list(content.blocks) if content is not None else []
    all_runs = [*records.values(), *lm_eval_records]
    left = [f"{relative(path, out)}: {why}" for path, why in left_out]
    return Card(
        schema_version=CARD_SCHEMA_VERSION,
        model=runs.model,
        slug=runs.slug,
        provenance=Provenance(
            generated_by=GENERATED_BY,
            model=runs.model,
            model_full_name=full_model_name(runs.model),
            runs=all_runs,
            left_out=left,
        ),
        suites=rows,
        not_comparable=caveats(all_runs, rows, left),
        **{suite: blocks[suite] for suite in SUITE_NAMES},  # type: ignore[arg-type]
    )
