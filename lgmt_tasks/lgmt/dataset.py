"""Rows for the LGMT tasks: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import BuildRecipe, Loaded, given_build_parameters, load_selected, rows_only, where
from lgmt_tasks.builders.order import Strata
from lgmt_tasks.lgmt.relations import RELATIONS
from lgmt_tasks.solvers.prompts import render_user_prompt

if TYPE_CHECKING:  # annotations only: the tasks import this module, and Inspect imports every plugin at start-up
    import datasets

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


STRATA = Strata(("mr",), first_relation)
"""Groups are ordered round-robin over their (first) relation, so `--limit N` covers min(N, relations) relations."""

SHIPPED_SUBSETS: dict[str, str] = {"mrs": "mr"}
"""A build for some of the shipped default build's relations is exactly its groups of those relations (each group is
seeded from seed, relation and source id; with one follow-up and no composition it depends on its relation only), so
`mr_e`, `mr_s`, ... read the shipped build and keep their relations (`lgmt_tasks.builders.shipped`)."""


def load_lgmt(
    mrs: tuple[str, ...],
    source: str = "generated",
    source_path: str | None = None,
    per_mr: int | str = 200,
    seed: int = 0,
    followups: int = 1,
    compose: int = 0,
    translator: str = "template",
    names: str = "abstract",
    direction: str = "paper",
    p4: str = "add",
    p5: str = "add",
    dataset: str | None = None,
    revision: str | None = None,
    depth: int | str | Sequence[int] | None = None,
    width: int | str | Sequence[int] | None = None,
) -> Loaded:
    """The rows of the relations `mrs`, round-robin over relations, and their metadata for the log.

    With `dataset` (a folder written by `lgmt build`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and the build parameters are ignored. Otherwise the groups are built
    for the parameters (cached on disk: the same parameters give the same bytes).

    `depth` and `width` set the difficulty grid of `source="qmfol"` (`lgmt_tasks.sources.qmfol`; None: its default
    grid); `depth` alone sets the chain lengths of `source="logicasker"` (`lgmt_tasks.sources.logicasker`, 1–7,
    which has no width); they are refused with another source or with `dataset`.

    `direction` (which MR-E sites count), `p4` and `p5` (MR-P4 / MR-P5 add or replace) are relation options of the build
    (`LgmtConfig`); they are checked even with `dataset`, whose rows are read as built. Rows of a dataset built before
    the `variant` and `law` columns get them here: `variant` is the row's `direction`, `law` is empty.

    Raises:
        ValueError: On an unknown translator, direction, p4 or p5, a bad or misplaced depth / width, or when no row is
            left.
    """
    from lgmt_tasks.lgmt.config import DIRECTIONS, P4_CHOICES, P5_CHOICES, SCHEMA

    if translator not in TRANSLATORS:
        raise ValueError(f"translator={translator!r}: expected one of {', '.join(TRANSLATORS)}")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction={direction!r}: expected one of {', '.join(DIRECTIONS)}")
    if p4 not in P4_CHOICES:
        raise ValueError(f"p4={p4!r}: expected one of {', '.join(P4_CHOICES)}")
    if p5 not in P5_CHOICES:
        raise ValueError(f"p5={p5!r}: expected one of {', '.join(P5_CHOICES)}")
    grid = _difficulty_grid(source, depth, width, dataset)
    wanted = set(mrs)

    def build() -> BuildRecipe:
        from lgmt_tasks.lgmt.build import BUILD_REVISION, build_lgmt
        from lgmt_tasks.lgmt.card import write_lgmt_repo
        from lgmt_tasks.lgmt.config import LgmtConfig

        config = LgmtConfig(
            source=source,
            source_path=_absolute(source_path),
            mrs=mrs,
            per_mr=per_mr,
            seed=seed,
            followups=followups,
            compose=compose,
            names=names,
            direction=direction,
            p4=p4,
            p5=p5,
            **grid,
        )
        if translator == "model":
            raise ValueError(
                "translator='model' needs a model: build with `lgmt build lgmt --translator model "
                "--translator-model M` and pass the folder as -T dataset=..."
            )
        return BuildRecipe(
            config.key(), lambda out: write_lgmt_repo(build_lgmt(config, progress=True), out), BUILD_REVISION
        )

    loaded = load_selected(
        "lgmt",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("mr",), lambda mr: first_relation(mr) in wanted),
        selection=f"LGMT groups for relations {sorted(wanted)}",
        strata=STRATA,
        expected=mrs,
        unit="groups",
        build_only=given_build_parameters(
            {
                "source": source,
                "source_path": source_path,
                "per_mr": per_mr,
                "seed": seed,
                "followups": followups,
                "compose": compose,
                "translator": translator,
                "names": names,
                "direction": direction,
                "p4": p4,
                "p5": p5,
            },
            SCHEMA.task_defaults(),
            SCHEMA.lm_eval_defaults(),
        ),
    )
    return Loaded(with_provenance(loaded.rows), loaded.metadata)


load_lgmt_rows = rows_only(load_lgmt)


def with_provenance(rows: datasets.Dataset) -> datasets.Dataset:
    """The rows with the `variant`, `law` and `spliced_*` columns, added to the rows of a dataset built before them.

    Such a dataset's sites were chosen by direction alone, so its `variant` is its `direction`; its `law` is empty.
    """
    if "variant" not in rows.column_names:
        rows = rows.add_column("variant", list(rows["direction"]))
    if "law" not in rows.column_names:
        rows = rows.add_column("law", [""] * len(rows))
    if "spliced_premises" not in rows.column_names:  # built before task version 5-A: nothing was marked spliced
        rows = rows.add_column("spliced_premises", [[] for _ in range(len(rows))])
        rows = rows.add_column("spliced_conclusion", [False] * len(rows))
    return rows


def _difficulty_grid(source: str, depth: Any, width: Any, dataset: str | None) -> dict[str, Any]:
    """The `LgmtConfig` grid arguments of `depth` / `width` (only those given), checked against the source."""
    from lgmt_tasks.sources.qmfol import grid_values

    given = {name: value for name, value in (("depth", depth), ("width", width)) if value is not None}
    if not given:
        return {}
    if dataset is not None:
        raise ValueError(
            f"{', '.join(given)}: the difficulty grid of source=qmfol is a build parameter; with dataset= the rows "
            "are read as built (drop it, or build with `lgmt build lgmt --source qmfol --depth ... --width ...`)"
        )
    if source == "logicasker":
        from lgmt_tasks.sources.logicasker import depth_values

        if "width" in given:
            raise ValueError(
                f"width={given['width']!r}: source=logicasker has no width (LogicAsker varies the chain length "
                "only); drop width and set depth (1-7)"
            )
        return {"depths": depth_values(given["depth"])}
    if source != "qmfol":
        raise ValueError(
            f"{', '.join(given)}: only used with source=qmfol (QMFOL's difficulty grid) or, depth alone, with "
            f"source=logicasker, not {source!r}"
        )
    return {f"{name}s": grid_values(name, value, ()) for name, value in given.items()}


def _absolute(path: str | None) -> str | None:
    return str(Path(path).resolve()) if path else None


def member_prompts(record: Mapping[str, Any]) -> list[str]:
    """The user prompt of every member of a group row: the source, the follow-up, then any extra follow-ups."""
    return [
        render_user_prompt(list(record["premises"]), record["conclusion"]),
        render_user_prompt(list(record["followup_premises"]), record["followup_conclusion"]),
        *(render_user_prompt(list(e["premises"]), e["conclusion"]) for e in record.get("extra_followups") or ()),
    ]


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One metamorphic group → one Sample: the source prompt as input, every member's prompt in metadata."""
    members = member_prompts(record)
    metadata = {k: v for k, v in record.items() if k not in ("id", "label")}
    metadata.setdefault("variant", record.get("direction", ""))  # a row of a dataset built before the column
    metadata.setdefault("law", "")
    metadata["members"] = members
    return Sample(id=record["id"], input=members[0], target=record["label"], metadata=metadata)
