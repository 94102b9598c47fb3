"""Rows for the LGMT tasks: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from pathlib import Path

import datasets

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.relations import RELATIONS

_E1 = tuple(m for m in RELATIONS if m.startswith("MR-E1."))
_E2 = tuple(m for m in RELATIONS if m.startswith("MR-E2."))

MR_SETS: dict[str, tuple[str, ...]] = {
    "mr_e": _E1 + _E2,
    "mr_e1": _E1,
    "mr_e2": _E2,
    "mr_s": tuple(m for m in RELATIONS if m.startswith("MR-S")),
    "mr_p": tuple(m for m in RELATIONS if m.startswith("MR-P")),
    "mr_c": tuple(m for m in RELATIONS if m.startswith("MR-C")),
    "lgmt": tuple(RELATIONS),
}

TRANSLATORS = ("template", "model")


def first_relation(mr: str) -> str:
    """The relation a group belongs to (the first link of a composed chain `MR-E1.1+MR-C3`)."""
    return mr.split("+", 1)[0]


def load_lgmt_rows(
    mrs: tuple[str, ...],
    source: str = "generated",
    source_path: str | None = None,
    per_mr: int = 200,
    seed: int = 0,
    followups: int = 1,
    compose: int = 0,
    translator: str = "template",
    names: str = "abstract",
    dataset: str | None = None,
    revision: str | None = None,
) -> datasets.Dataset:
    """The rows of the relations `mrs`.

    With `dataset` (a folder written by `lgmt build`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and the build parameters are ignored. Otherwise the groups are built
    for the parameters (cached on disk: the same parameters give the same bytes).

    Raises:
        ValueError: On an unknown translator or when no row is left.
    """
    if translator not in TRANSLATORS:
        raise ValueError(f"translator={translator!r}: expected one of {', '.join(TRANSLATORS)}")
    if dataset is not None:
        rows = load_dataset_repo(dataset, revision=revision)
        origin = f"dataset {dataset!r}"
    else:
        from lgmt_tasks.builders.lgmt import BUILD_REVISION, LgmtConfig, build_lgmt
        from lgmt_tasks.builders.lgmt_card import write_lgmt_repo

        config = LgmtConfig(source=source, source_path=_absolute(source_path), mrs=mrs, per_mr=per_mr, seed=seed,
                            followups=followups, compose=compose, names=names)
        if translator == "model":
            raise ValueError("translator='model' needs a model: build with `lgmt build lgmt --translator model "
                             "--translator-model M` and pass the folder as -T dataset=...")
        folder = cached_repo(
            "lgmt", config.key(), lambda out: write_lgmt_repo(build_lgmt(config), out), build_revision=BUILD_REVISION
        )
        rows = load_dataset_repo(folder)
        origin = f"build {config.key()}"
    wanted = set(mrs)
    keep = [i for i, mr in enumerate(rows["mr"]) if first_relation(mr) in wanted]
    rows = rows.select(keep)
    if len(rows) == 0:
        raise ValueError(f"no LGMT groups for relations {sorted(wanted)} in {origin}")
    return rows


def _absolute(path: str | None) -> str | None:
    return str(Path(path).resolve()) if path else None
