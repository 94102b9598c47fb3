"""`.eval_results/lgmt-tasks.yaml`: the card's suite headlines in the Hugging Face Hub's eval-results format.

A model repository's `.eval_results/*.yaml` files are read by the Hub into the model page and the benchmark
dataset's leaderboard (https://huggingface.co/docs/hub/eval-results). `huggingface_hub` models an entry as
`EvalResultEntry` and parses a file with `parse_eval_result_entries` (`huggingface_hub/_eval_results.py`, in the
version we install); the file is a YAML list of entries:

```yaml
- dataset: {id: ORG/NAME, task_id: mr_e, revision: v1}
  value: 0.385
  date: '2026-11-29T13:11:30+00:00'
  notes: 'mvr (lower is better), 95% Wilson interval [0.224, 0.575], n=26; ...'
```

Fields we fill, one entry per row of the card's suite table that has a value (each suite's headline, per setting):

- `dataset.id`: the Hub dataset the run read (`-T dataset=ORG/NAME`, recorded in the log), else the one given for the
  suite (`dataset_ids`, `lgmt card --dataset-id SUITE=ORG/NAME`, after `lgmt publish`), else `UNPUBLISHED/<suite>`: a
  build made on the fly is on no Hub repository, and the placeholder says so rather than naming someone's dataset.
- `dataset.task_id`: our Inspect task name (`mr_e`, `logicasker`, ...; the suite's name when a row pools several).
- `dataset.revision`: the Hub revision the run read, when it read one.
- `value`: the headline as a fraction (MVR: lower is better).
- `date`: when the (first) run of the row started.
- `notes`: the metric and its direction, the interval with its method and n, the setting, the harness and the task
  version, and the dataset fingerprint when the id is a placeholder.

Not filled: `verifyToken` (a Hub-signed proof of the run, which only the Hub's own jobs produce) and `source` (its
`url` is required and a local run has none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from lgmt_tasks.card.content import RUN, Card, RunRecord, SuiteRow
from lgmt_tasks.card.text import interval, method_text

FOLDER = ".eval_results"
FILE = "lgmt-tasks.yaml"
UNPUBLISHED = "UNPUBLISHED"
"""The placeholder organisation of a dataset that is on no Hub repository."""


def _runs_of(card: Card, row: SuiteRow) -> list[RunRecord]:
    return [run for run in card.provenance.runs if run.path in row.logs and run.suite == row.suite]


def dataset_id(row: SuiteRow, runs: list[RunRecord], given: dict[str, str]) -> tuple[str, str | None, bool]:
    """The entry's dataset id and revision, and whether the id is the placeholder."""
    hubs = {(run.dataset.hub_id, run.dataset.revision) for run in runs if run.dataset.hub_id}
    if len(hubs) == 1:
        [(hub, revision)] = hubs
        return str(hub), revision, False
    if row.suite in given:
        return given[row.suite], None, False
    return f"{UNPUBLISHED}/{row.suite}", None, True


def entry(card: Card, row: SuiteRow, given: dict[str, str]) -> dict[str, Any]:
    """One eval-results entry of a suite-table row (see the module docstring for the fields)."""
    runs = _runs_of(card, row)
    hub_id, revision, placeholder = dataset_id(row, runs, given)
    dataset: dict[str, Any] = {"id": hub_id, "task_id": row.tasks[0] if len(row.tasks) == 1 else row.suite}
    if revision:
        dataset["revision"] = revision
    estimate = row.estimate
    if estimate is None or estimate.value is None:
        raise ValueError(f"{row.suite} ({row.setting}): no headline value to write")  # `entries` keeps rows with one
    direction = "lower is better" if row.lower_is_better else "higher is better"
    notes = [
        f"{row.metric} ({direction}), {interval(estimate)} ({method_text(estimate)}), n={estimate.n:g}",
        f"setting: {row.setting or 'default'}",
        f"harness: {row.harness}",
        "task version " + ", ".join(sorted({run.task_version for run in runs})),
        "lgmt-tasks reliability card (lgmt card)",
    ]
    prints = sorted({run.dataset.fingerprint for run in runs if run.dataset.fingerprint})
    if placeholder and prints:
        notes.append(f"dataset not on the Hub: fingerprint {', '.join(prints)}")
    data: dict[str, Any] = {"dataset": dataset, "value": round(estimate.value, 6)}
    dates = sorted(run.created for run in runs if run.created)
    if dates:
        data["date"] = dates[0]
    data["notes"] = "; ".join(notes)
    return data


def entries(card: Card, dataset_ids: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every entry of the card: one per suite-table row with a value, in the table's order."""
    given = dict(dataset_ids or {})
    return [
        entry(card, row, given)
        for row in card.suites
        if row.status == RUN and row.estimate is not None and row.estimate.value is not None
    ]


def write_eval_results(card: Card, folder: Path, dataset_ids: dict[str, str] | None = None) -> Path:
    """Write `folder/.eval_results/lgmt-tasks.yaml` and return its path."""
    path = folder / FOLDER / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(entries(card, dataset_ids), sort_keys=False, allow_unicode=True, width=120)
    path.write_text(text, encoding="utf-8")
    return path
