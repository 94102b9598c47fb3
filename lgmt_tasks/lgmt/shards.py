"""A shard of an LGMT build on disk (`lgmt build lgmt --shard i/n --out DIR`), and reading it back to merge.

A shard folder is written like any build (so `--out` and `--overwrite` treat it the same way), but it is not a
dataset to publish: its rows are in unit-of-work order, not the build's order, and its `build_stats.json` keeps,
under `notes.shard`, what `merge_shards` needs to rebuild the unsharded build byte for byte: the shard's place,
the number of units, the source stage's statistics, and each unit's row count and statistics.
`lgmt build lgmt --merge-shards DIR --merge-shards DIR ... --out OUT` reads them back (`read_lgmt_shard`).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from lgmt_tasks.builders.parallel import Shard
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.hub.repo import CardSpec, data_file, read_data_file, write_build_repo
from lgmt_tasks.lgmt.build import FEATURES, LgmtShard
from lgmt_tasks.lgmt.card import licence_of, source_names
from lgmt_tasks.lgmt.config import LgmtConfig

SHARD_NOTE = "shard"
"""The `build_stats.json` notes key holding a shard's merge data."""


def write_lgmt_shard(shard: LgmtShard, out_dir: str | Path) -> Path:
    """Write one shard as a build folder (rows in unit order; merge data in `notes.shard`)."""
    stats = BuildStats()
    stats.merge(shard.base)
    rows: list[dict[str, Any]] = []
    units = []
    for index in sorted(shard.results):
        unit_rows, unit_stats = shard.results[index]
        rows.extend(unit_rows)
        stats.merge(unit_stats)
        units.append({"unit": index, "rows": len(unit_rows), "stats": unit_stats.to_dict()})
    stats.notes[SHARD_NOTE] = {
        "index": shard.shard.index,
        "count": shard.shard.count,
        "units": shard.jobs,
        "base": shard.base.to_dict(),
        "results": units,
    }
    names = source_names(shard.config)
    licence, licence_text, licence_extra = licence_of(shard.config)
    body = (
        f"# LGMT build shard {shard.shard} ({' + '.join(names)})\n\n"
        f"Shard {shard.shard} of the build below: {len(rows)} groups from {len(units)} of its {shard.jobs} units of "
        "work, in unit order. Not a dataset to publish: merge all shards with `lgmt build lgmt --merge-shards DIR "
        "... --out OUT` (see lgmt_tasks/lgmt/README.md).\n\n"
        f"```\n{reproduce_command('lgmt', shard.config, 'OUT')} --shard {shard.shard}\n```\n\n"
        f"## Licence\n\n{licence_text}\n"
    )
    card = CardSpec(
        pretty_name=f"LGMT build shard {shard.shard} ({' + '.join(names)})",
        license=licence,
        body=body,
        extra={"source_datasets": names, **licence_extra},
    )
    return write_build_repo(out_dir, dataset_from_rows(rows, FEATURES), card, shard.config.key(), stats.to_dict())


def read_lgmt_shard(folder: str | Path) -> LgmtShard:
    """A shard folder written by `write_lgmt_shard`.

    Raises:
        ValueError: The folder has no `build_stats.json`, is a build but not a shard, or its rows do not add up
            to the unit row counts it records (named by folder).
    """
    path = Path(folder)
    stats_file = path / "build_stats.json"
    if not stats_file.is_file():
        raise ValueError(f"{folder}: no build_stats.json, so not a shard written by `lgmt build lgmt --shard`")
    saved = json.loads(stats_file.read_text(encoding="utf-8"))
    note = (saved.get("notes") or {}).get(SHARD_NOTE)
    if not isinstance(note, dict):
        raise ValueError(f"{folder}: a build, but not a shard (its build_stats.json has no notes.{SHARD_NOTE})")
    lines = read_data_file(path / data_file("default", "test")).decode("utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line]
    expected = sum(unit["rows"] for unit in note["results"])
    if len(rows) != expected:
        raise ValueError(f"{folder}: {len(rows)} rows, but its units record {expected}: the shard is incomplete")
    results = {}
    start = 0
    for unit in note["results"]:
        results[int(unit["unit"])] = (rows[start : start + unit["rows"]], stats_from_dict(unit["stats"]))
        start += unit["rows"]
    return LgmtShard(
        config=LgmtConfig.from_key(saved["config"]),
        shard=Shard(int(note["index"]), int(note["count"])),
        base=stats_from_dict(note["base"]),
        jobs=int(note["units"]),
        results=results,
    )


def stats_from_dict(data: dict[str, Any]) -> BuildStats:
    """`BuildStats` from its `to_dict()` form (what `to_dict` sorts, it gives back sorted)."""
    return BuildStats(
        counts={b: Counter(c) for b, c in data.get("counts", {}).items()},
        dropped={b: Counter(c) for b, c in data.get("dropped", {}).items()},
        notes=dict(data.get("notes", {})),
        dropped_ids={b: {r: list(ids) for r, ids in named.items()} for b, named in data.get("dropped_ids", {}).items()},
    )
