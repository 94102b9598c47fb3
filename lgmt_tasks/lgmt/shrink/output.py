"""Write a shrink run: the minimal groups as an LGMT dataset folder, the step-by-step trace, and a digest.

The folder is an LGMT repository like a build's (`lgmt build lgmt --out`): the minimal groups with the builder's
`FEATURES` (made by `build.checked_row`), a dataset card, and `build_stats.json`, written through the same safe,
atomic writer (`hub.repo.write_dataset_repo`), so `inspect eval lgmt_tasks/lgmt -T dataset=DIR` re-runs them. Two
more files sit beside them:

* `trace.json`: every step of every group (candidate, prover verdict and reason, the model's answers, the
  decision) and each group's summary;
* `digest.md`: per relation, the original and the minimal group side by side, with the calls spent.

Which group a row came from. No column is added (the loaders, lm-eval configs and `lgmt verify` know the builder's
columns): the row's `id` is the original group's id with the suffix `:min:<calls>` (the model calls spent on it),
e.g. `lgmt-MR-E1.1-3f2a…:min:14`; `source_dataset` and `source_id` are the original source case's. Groups whose
violation did not reproduce, and groups whose call budget ran out before any smaller group was found (`not shrunk
(budget)`: the original is not a minimal group), are in the trace and the digest, not in the dataset.

Because `trace.json` and `digest.md` are files a plain build does not write, `--out` must be a new or empty folder
(the safe writer never replaces a folder holding files it did not write).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lgmt_tasks import __version__
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.hub.card_text import usage_section
from lgmt_tasks.hub.repo import CardSpec, write_dataset_repo
from lgmt_tasks.lgmt.build import FEATURES
from lgmt_tasks.lgmt.card import CITATION, COLUMNS
from lgmt_tasks.lgmt.shrink.search import Outcome
from lgmt_tasks.sources.licences import SOURCE_LICENCES

TRACE_FILE = "trace.json"
DIGEST_FILE = "digest.md"
ID_SUFFIX = ":min:"
"""Joins the original group id and the model calls spent, in the `id` of a minimal group's row."""


def minimal_id(original_id: str, calls: int) -> str:
    """The id of a minimal group's row: the original group's id and the calls spent."""
    return f"{original_id}{ID_SUFFIX}{calls}"


def rows(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """The dataset rows: the minimal group of every reproduced violation, in log order."""
    out = []
    for o in outcomes:
        if not o.kept or o.minimal is None:
            continue
        row = {name: o.minimal.row[name] for name in FEATURES}
        row["id"] = minimal_id(str(o.original.row["id"]), o.calls)
        out.append(row)
    return out


def summary(o: Outcome) -> dict[str, Any]:
    """One group's result as plain data (for `trace.json` and `build_stats.json`)."""
    minimal = o.minimal.row if o.minimal is not None and o.kept else None
    original = o.original.row
    return {
        "group": str(original["id"]),
        "mr": original["mr"],
        "reproduced": o.reproduced,
        "ended": o.ended,
        "calls": o.calls,
        "budget_exhausted": o.exhausted,
        "accepted_steps": o.count("accepted"),
        "asked_rejected": o.count("rejected"),
        "refuted_candidates": o.count("refuted"),
        "undecided_candidates": o.count("undecided"),
        "original_size": list(o.steps[0].size),
        "minimal_size": list(_size(o)) if minimal is not None else None,
        "minimal_id": minimal_id(str(original["id"]), o.calls) if minimal is not None else None,
    }


def _size(o: Outcome) -> tuple[int, int, int]:
    accepted = [s for s in o.steps if s.decision == "accepted"]
    return accepted[-1].size if accepted else o.steps[0].size


def trace(outcomes: Sequence[Outcome], settings: Mapping[str, Any]) -> dict[str, Any]:
    """`trace.json`: the run's settings, each group's summary, and every step."""
    return {
        "settings": dict(settings),
        "groups": [summary(o) for o in outcomes],
        "steps": [s.to_json() for o in outcomes for s in o.steps],
    }


def _case_lines(row: Mapping[str, Any], prefix: str = "") -> list[str]:
    lines = [f"  - {english} `{fol}`" for english, fol in zip(row[prefix + "premises"], row[prefix + "premises_fol"])]
    lines.append(f"  - ⊢ {row[prefix + 'conclusion']} `{row[prefix + 'conclusion_fol']}`")
    return lines


def _group_md(o: Outcome) -> list[str]:
    s = summary(o)
    head = f"#### `{s['group']}`: {s['calls']} model calls"
    if not o.reproduced:
        return [head, "", "The violation did not reproduce when the original group was asked again; not shrunk.", ""]
    if not o.kept:
        why = "the call budget ran out before any smaller group was found; the original group is not a minimal one"
        return [f"{head} (not shrunk (budget))", "", f"Reproduced, but {why}.", ""]
    first = o.steps[0]
    last = next((st for st in reversed(o.steps) if st.decision == "accepted"), first)
    budget = " (stopped: call budget spent)" if o.exhausted else " (1-minimal: no single step keeps the violation)"
    lines = [
        head + budget,
        "",
        f"Size (premises, nodes, characters) {tuple(first.size)} → {tuple(last.size)}; "
        f"{s['accepted_steps']} steps accepted, {s['asked_rejected']} asked and rejected, "
        f"{s['refuted_candidates']} refuted and {s['undecided_candidates']} undecided by the prover (never asked).",
        "",
        f"- Original (gold {o.original.row['label']}; answers {first.answers}):",
        *_case_lines(o.original.row),
        "  - follow-up:",
        *("  " + line for line in _case_lines(o.original.row, "followup_")),
    ]
    assert o.minimal is not None
    minimal = o.minimal.row
    lines += [
        f"- Minimal (gold {minimal['label']}; answers {last.answers}):",
        *_case_lines(minimal),
        "  - follow-up:",
        *("  " + line for line in _case_lines(minimal, "followup_")),
        "",
    ]
    return lines


def digest(outcomes: Sequence[Outcome], settings: Mapping[str, Any]) -> str:
    """`digest.md`: per relation, each group's original and minimal version and the calls spent."""
    total = sum(o.calls for o in outcomes)
    lines = [
        "# Minimal counterexamples (`lgmt shrink`)",
        "",
        f"Log `{settings['log']}`, model `{settings['model']}`, prompting `{settings['prompting']}`; at most "
        f"{settings['max_calls']} model calls per group; {len(outcomes)} violating groups, "
        f"{sum(o.kept for o in outcomes)} minimal groups, {total} calls in all.",
        "",
    ]
    for mr in sorted({str(o.original.row["mr"]) for o in outcomes}):
        lines += [f"### {mr}", ""]
        for o in outcomes:
            if o.original.row["mr"] == mr:
                lines += _group_md(o)
    return "\n".join(lines).rstrip() + "\n"


def _card(count: int, settings: Mapping[str, Any], sources: Sequence[str]) -> CardSpec:
    licences = {SOURCE_LICENCES[s][0] if s in SOURCE_LICENCES else "other" for s in sources}
    licence = licences.pop() if len(licences) == 1 else "other"
    texts = [f"- `{s}`: {SOURCE_LICENCES[s][1]}" for s in sources if s in SOURCE_LICENCES]
    body = f"""# LGMT minimal counterexamples

Minimal metamorphic groups found by `lgmt shrink` ([lgmt-tasks](https://pypi.org/project/lgmt-tasks/) {__version__})
from the violating groups of an Inspect log: {count} groups, each the smallest version of a violating group that
still made model `{settings["model"]}` violate. Every source label was re-proven by Z3 and every follow-up re-derived
by the group's own relation and proven, as in an `lgmt build`. The row `id` is the original group's id followed by
`:min:<model calls spent>`; `trace.json` records every step and `digest.md` summarises them.

```
{settings["command"]}
```

## Columns

{COLUMNS}

{usage_section(["lgmt"], ["lgmt"], "DIR")}

## Licence

Each group carries its source case's terms (column `source_dataset`):

{chr(10).join(texts) or "- unknown sources: see the original dataset"}

## Citation

```bibtex
{CITATION}
```
"""
    return CardSpec(
        pretty_name="LGMT minimal counterexamples",
        license=licence,
        body=body,
        extra={"source_datasets": list(sources)},
    )


def write_shrink_folder(out: str | Path, outcomes: Sequence[Outcome], settings: Mapping[str, Any]) -> Path:
    """Write the dataset folder, `trace.json` and `digest.md` (atomically, into a new or empty folder)."""
    found = rows(outcomes)
    dataset = dataset_from_rows(found, FEATURES)
    sources = sorted({str(r["source_dataset"]) for r in found})
    stats = BuildStats()
    for o in outcomes:
        mr = str(o.original.row["mr"])
        stats.count(mr, "violating groups")
        stats.count(mr, "model calls", o.calls)
        stats.count(mr, "undecided candidates", o.count("undecided"))
        if not o.kept:
            reason = {"not reproduced": "violation not reproduced"}.get(o.ended, o.ended)
            stats.drop(mr, reason, ids=[o.steps[0].group])
        else:
            stats.count(mr, "shrunk")
    stats.notes["groups"] = len(found)
    stats.notes["shrink"] = [summary(o) for o in outcomes]
    record = {"config": {"shrink": dict(settings)}, **stats.to_dict()}
    extra = {
        "build_stats.json": json.dumps(record, indent=2, sort_keys=True, default=str) + "\n",
        TRACE_FILE: json.dumps(trace(outcomes, settings), indent=2, ensure_ascii=False, default=str) + "\n",
        DIGEST_FILE: digest(outcomes, settings),
    }
    return write_dataset_repo(out, {"default": {"test": dataset}}, _card(len(found), settings, sources), extra)
