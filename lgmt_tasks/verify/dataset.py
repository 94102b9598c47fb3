"""`verify_dataset`: read a built dataset folder through its card, sample rows, re-prove their claims.

The folder is read exactly as tasks read it (`lgmt_tasks.hub.repo.load_dataset_repo`, one call per config and
split the card's `configs` list), so what is verified is what an evaluation would load.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import yaml
from tqdm import tqdm

from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.suites import suite as registry_entry
from lgmt_tasks.verify.check import ClaimChecker, VerifyResult, check_claims, row_id
from lgmt_tasks.verify.claims import check_columns, detect_suite, row_claims
from lgmt_tasks.verify.provers import DEFAULT_TIMEOUT_S, Prover, get_prover
from lgmt_tasks.verify.shortcuts import run_battery


class DatasetError(ValueError):
    """The folder is not a dataset repository, or its columns do not fit the suite."""


def card_splits(folder: str | Path) -> list[tuple[str, str]]:
    """The `(config, split)` pairs a dataset folder's card lists under `configs`.

    Raises:
        DatasetError: The folder has no card, or the card has no YAML front matter with `configs`.
    """
    card = Path(folder) / "README.md"
    if not card.is_file():
        raise DatasetError(f"{folder}: not a dataset repository folder (no README.md card); build one with lgmt build")
    text = card.read_text(encoding="utf-8")
    parts = text.split("---\n", 2)
    if not text.startswith("---\n") or len(parts) < 3:
        raise DatasetError(f"{card}: the card has no YAML front matter")
    meta = yaml.safe_load(parts[1]) or {}
    pairs = [
        (str(config["config_name"]), str(files["split"]))
        for config in meta.get("configs") or []
        for files in config.get("data_files") or []
    ]
    if not pairs:
        raise DatasetError(f"{card}: the card lists no configs with data files")
    return pairs


def read_rows(folder: str | Path) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """Every row of every config and split as `(row id, row)`, and the column names (of the first config).

    Raises:
        DatasetError: The folder has no usable card, or a data file it lists is missing or not what its name says.
    """
    from lgmt_tasks.builders.repo_folder import DataFileError, read_folder

    rows: list[tuple[str, dict[str, Any]]] = []
    columns: list[str] = []
    splits = card_splits(folder)
    try:  # each data file named by the card, checked before `datasets` fails on it without naming it
        read_folder(Path(folder))
    except DataFileError as exc:
        raise DatasetError(str(exc)) from None
    for config, split in splits:
        ds = load_dataset_repo(folder, config, split)
        columns = columns or list(ds.column_names)
        rows += [(row_id(row, f"{config}/{split}/{i}"), dict(row)) for i, row in enumerate(ds)]
    return rows, columns


def sample_indices(n: int, sample: int | None, seed: int) -> list[int]:
    """A seeded sample of `sample` positions out of `n` (all when `sample` is None or at least `n`), in order."""
    if sample is not None and sample < 0:
        raise ValueError(f"sample={sample}: must be non-negative")
    if sample is None or sample >= n:
        return list(range(n))
    return sorted(random.Random(seed).sample(range(n), sample))


def verify_dataset(
    path: str | Path,
    *,
    prover: str | Prover = "eprover",
    suite: str | None = None,
    sample: int | None = None,
    seed: int = 0,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    progress: bool = False,
) -> VerifyResult:
    """Re-prove the claims of a built dataset's rows with a prover, and run the suite's shortcut battery on every row.

    Args:
        path: The dataset folder (as `lgmt build` writes it).
        prover: `eprover`, `z3`, or a `Prover`.
        suite: The suite (default: recognised from the columns).
        sample: Check a seeded sample of this many rows (default: every row).
        seed: The sampling seed.
        timeout_s: The prover's limit per query (ignored when `prover` is a `Prover`).
        progress: Show a progress bar on stderr.

    Returns:
        The `VerifyResult`.

    Raises:
        DatasetError: The folder is not a dataset, or its columns do not fit the suite.
        ProverUnavailable: E was asked for and is not installed.
    """
    engine = prover if isinstance(prover, Prover) else get_prover(prover, timeout_s)
    rows, columns = read_rows(path)
    try:
        name = suite or detect_suite(columns)
        check_columns(name, columns)
    except ValueError as exc:
        raise DatasetError(f"{path}: {exc}") from exc
    chosen = [rows[i] for i in sample_indices(len(rows), sample, seed)]
    result = VerifyResult(
        suite=name,
        prover=engine.name,
        path=str(path),
        rows=len(rows),
        rows_checked=len(chosen),
        sample=sample,
        seed=seed,
        timeout_s=engine.timeout_s,
        note=registry_entry(name).claims_note,
    )
    entry = registry_entry(name)
    if entry.shortcut_battery:
        battery = entry.attr("shortcuts", "BATTERY")
        result.shortcuts = [score.as_dict() for score in run_battery(battery, [row for _, row in rows])]
    checker = ClaimChecker(engine)
    bar = tqdm(chosen, desc=f"verify {name} with {engine.name}", unit="row", file=sys.stderr, disable=not progress)
    claims = (claim for rid, row in bar for claim in row_claims(name, row, rid))
    return check_claims(claims, checker, result)
