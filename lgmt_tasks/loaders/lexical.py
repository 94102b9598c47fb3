"""Rows for the `lexical` task: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import datasets

from lgmt_tasks.builders.cache import cached_repo
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS, NO_PART


def load_lexical_rows(
    mrs: Sequence[str],
    parts: Sequence[str],
    source: str = "generated",
    source_path: str | None = None,
    per_mr: int = 100,
    seed: int = 0,
    dataset: str | None = None,
    revision: str | None = None,
) -> datasets.Dataset:
    """The rows of the relations `mrs` in the parts `parts` (MR-49's groups, part `none`, come with any part).

    With `dataset` (a folder written by `lgmt build lexical`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and the build parameters are ignored. Otherwise the groups are built for
    the parameters and cached on disk (the same parameters give the same bytes); LLM-based relations are then left
    pending, for the solver's transformer.

    Raises:
        ValueError: When no row is left (the message names the selection and where it was looked for).
    """
    if dataset is not None:
        rows = load_dataset_repo(dataset, revision=revision)
        origin = f"dataset {dataset!r}"
    else:
        from lgmt_tasks.builders.lexical import BUILD_REVISION, LexicalConfig, build_lexical
        from lgmt_tasks.builders.lexical_card import write_lexical_repo

        config = LexicalConfig(
            source=source,
            source_path=_absolute(source_path),
            mrs=tuple(mrs),
            parts=tuple(parts),
            per_mr=per_mr,
            seed=seed,
        )

        def write(out: Path) -> None:
            build = build_lexical(config)
            if len(build.dataset) == 0:  # nothing to cache: say why instead of writing an empty repository
                raise ValueError(f"no lexical groups could be built for {config.key()}: {build.stats.to_dict()}")
            write_lexical_repo(build, out)

        folder = cached_repo("lexical", config.key(), write, build_revision=BUILD_REVISION)
        rows = load_dataset_repo(folder)
        origin = f"build {config.key()}"
    wanted_mrs, wanted_parts = set(mrs), {*parts, NO_PART}
    rows = rows.filter(lambda r: r["mr"] in wanted_mrs and r["part"] in wanted_parts)
    if len(rows) == 0:
        ids = [m for m in LEXICAL_RELATIONS if m in wanted_mrs]
        raise ValueError(f"no lexical groups for relations {ids} and parts {sorted(parts)} in {origin}")
    return rows


def _absolute(path: str | None) -> str | None:
    return str(Path(path).resolve()) if path else None
