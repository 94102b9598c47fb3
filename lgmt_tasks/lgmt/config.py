"""`LgmtConfig`: everything that determines an LGMT build, and the one list of its dataset parameters.

Each field carries its `Param` (`lgmt_tasks.builders.schema`): the `lgmt build lgmt` options, the card's reproduce
command, the tasks' and lm-eval's parameters and the README's parameter table are all derived from it. The sources
are the one exception on the command line: `--source` and `--source-path` repeat in pairs (`lgmt.cli`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, get_args

import click

from lgmt_tasks.builders.command import source_args
from lgmt_tasks.builders.schema import (
    DATASET,
    GENERATED_CASES,
    REVISION,
    SEED,
    SOURCE,
    SOURCE_PATH,
    TIMEOUT_MS,
    TRANSLATOR,
    SuiteSchema,
    no_args,
    param,
    selection,
)
from lgmt_tasks.lgmt.relations.base import Direction as RelationDirection
from lgmt_tasks.lgmt.relations.catalogue import RELATIONS
from lgmt_tasks.logic.limits import DEFAULT_TIMEOUT_MS
from lgmt_tasks.sources import logicasker as logicasker_source
from lgmt_tasks.sources import qmfol as qmfol_source
from lgmt_tasks.sources.paper import PAPER, expand_paper, paper_folder

if TYPE_CHECKING:
    from lgmt_tasks.sources.pipeline import SourceConfig

_DIRECTION_ORDER = ("paper", "forward", "introduction", "extended", "any", "counts")

DIRECTIONS: tuple[str, ...] = tuple(
    sorted(get_args(RelationDirection), key=lambda d: _DIRECTION_ORDER.index(d) if d in _DIRECTION_ORDER else 99)
)
"""`direction` values: the relations' own (`relations.base.Options.direction`), `paper` (the default) first."""

P4_CHOICES: tuple[str, ...] = ("add", "replace")
"""`p4` values: MR-P4's fused conjunction added to the premises (the paper) or replacing the two fused premises."""

P5_CHOICES: tuple[str, ...] = ("add", "replace")
"""`p5` values: MR-P5's conjuncts added to the premises (the paper) or replacing the conjunction they come from."""

ALL = "all"
"""`per_mr` value meaning no cap: every applicable (source case, relation) pair is tried (the paper's pool)."""


class PerMr(click.ParamType):
    """`--per-mr`: a positive integer, or `all` (no cap: every applicable source case and relation)."""

    name = "N|all"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        """`N|all` (click would upper-case the name)."""
        return self.name

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        """The integer, or `"all"`; anything else fails with click's usage error."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().lower() == ALL:
            return ALL
        elif isinstance(value, str) and value.strip().isdigit():
            number = int(value)
        else:
            self.fail(f"{value!r}: expected a positive integer or 'all'", param, ctx)
        if number < 1:
            self.fail(f"{value!r}: expected a positive integer or 'all'", param, ctx)
        return number


def lgmt_source_args(config: LgmtConfig) -> list[str]:
    """The reproduce command's sources: `--source paper --source-path F` for the paper's set in F, else every pair."""
    folder = paper_folder(config.sources())
    return ["--source", PAPER, "--source-path", folder] if folder is not None else source_args(config)


def difficulty_args(config: LgmtConfig) -> list[str]:
    """The difficulty grid of a qmfol or logicasker source, always spelt out (nothing for other sources)."""
    if config.uses_qmfol:
        return ["--depth", ",".join(map(str, config.depths)), "--width", ",".join(map(str, config.widths)),
                "--per-cell", str(config.per_cell)]  # fmt: skip
    if config.uses_logicasker:  # LogicAsker chains have a depth (chain length) and no width
        return ["--depth", ",".join(map(str, config.depths)), "--per-cell", str(config.per_cell)]
    return []


@dataclass(frozen=True)
class LgmtConfig:
    """Everything that determines an LGMT build (and so its cache key); see each field's `Param`.

    `extra_sources` holds further `(source, source_path)` pairs pooled with the first (left out of `key()` when
    empty). A `paper` source (the paper's evaluation set, `lgmt_tasks.sources.paper`) is replaced here by its pairs,
    file by file, so the config, the key and the build are those of the explicit multi-source build. `depths`,
    `widths` and `per_cell` set the difficulty grid of a `qmfol` source (with a `logicasker` source,
    `depths` are its chain lengths and `per_cell` its tests per depth; it has no width); they are stored sorted and
    without repeats, left out of `key()` for other sources (so their keys are unchanged), and refused there.
    """

    source: str = param("generated", SOURCE, cli=False, args=lgmt_source_args)
    source_path: str | None = param(None, SOURCE_PATH, cli=False)
    extra_sources: tuple[tuple[str, str | None], ...] = ()
    mrs: tuple[str, ...] = param(
        tuple(RELATIONS), name="mr", task=False, many="repeat", default_text="all 20",
        help="Relation ids (repeatable), e.g. MR-E1.1; all 20 when none given. A task's relations are its own.",
    )  # fmt: skip
    per_mr: int | str = param(
        200, cli_type=PerMr(),
        help="Groups per relation (the paper: up to 200), or `all`: every applicable (source case, relation) pair "
        "(the paper-scale pool).",
    )  # fmt: skip
    followups: int = param(1, help="Follow-ups per group; k > 1 adds follow-ups from other relations.")
    compose: int = param(
        0, help="Chain length of composed relations (0: single relations; 2 or 3: chains proven end to end).",
        cli_type=click.Choice(["0", "2", "3"]), parse=int,
    )  # fmt: skip
    names: str = param(
        "abstract", choices=("abstract", "natural"), help="Fresh symbols for MR-S: abstract (Con1, Pre1) or words."
    )
    direction: str = param(
        "paper", choices=DIRECTIONS,
        help="Which sites the ten MR-E relations (MR-E1.1–E1.6, MR-E2.1–E2.4) rewrite: `paper`, the law as the paper "
        "writes it (§3.3's laws and side conditions, oriented toward the canonical form as App. A.3 says), with no "
        "fallback, "
        "so a relation may have no group; `forward`, the law as written, left to right; `introduction`, "
        "only its converse and extended variants; `any`, forward where a case has a site, else the other variants "
        "(the default before task version 4-A); `counts`, issue #25's reading fitted to Table 9's group counts "
        "(`paper` plus MR-E1.2's negated →/↔/⊕, MR-E1.6's permuted canonical blocks and MR-E2.4's ⊕ step, ours: "
        "the `paper` default before issue #36).",
    )  # fmt: skip
    p4: str = param(
        "add", choices=P4_CHOICES,
        help="MR-P4 (premise fusion): `add` puts φ ∧ ψ into the premise set beside φ and ψ (the paper, §3.3.3: "
        "\"which is added to the premise set\"); `replace` puts it in their place (before task version 4-A).",
    )  # fmt: skip
    p5: str = param(
        "add", choices=P5_CHOICES,
        help="MR-P5 (premise decomposition): `add` puts the conjuncts of φ ∧ ψ into the premise set beside it (the "
        "paper, §3.3.3: \"which are added to the premise set\"); `replace` puts them in its place (before issue #36).",
    )  # fmt: skip
    check_fidelity: bool = param(
        False, flags=("--check-fidelity",), switch=True, task=False,
        help="Flag the groups whose follow-up re-says, by the realiser, a source sentence whose English its own FOL "
        "may not say (embedding similarity, `lgmt_tasks/lgmt/source_fidelity.py`; needs the embeddings extra), in "
        "the build statistics. Off by default since issue #36: on the paper's set it cost a fifth of the build's CPU "
        "to flag 3 of 2,545 groups, at precision 0.67 and recall 0.25.",
    )  # fmt: skip
    drop_unfaithful: bool = param(
        False, flags=("--drop-unfaithful",), switch=True, task=False,
        help="Drop the groups whose follow-up re-says, by the realiser, a source sentence whose English its own FOL "
        "may not say (flagged by embedding similarity, `lgmt_tasks/lgmt/source_fidelity.py`); they are counted as "
        "dropped and the next candidate is tried (implies --check-fidelity). Off: such groups are kept.",
    )  # fmt: skip
    generated_cases: int = param(300, GENERATED_CASES)
    timeout_ms: int = param(DEFAULT_TIMEOUT_MS, TIMEOUT_MS)
    depths: tuple[int, ...] = param(
        qmfol_source.DEFAULT_DEPTHS, name="depth", many="comma", task_default=None,
        parse=partial(qmfol_source.grid_values, "depth", default=()),
        metavar="D[,D...]", args=difficulty_args,
        help="Reasoning depths of source qmfol, 1-20 (default 1,2,3): the QMFOL rule-chain length; of source "
        "logicasker, 1-7 (default 1,2,3): the LogicAsker chain length.",
    )  # fmt: skip
    widths: tuple[int, ...] = param(
        qmfol_source.DEFAULT_WIDTHS, name="width", many="comma", task_default=None,
        parse=partial(qmfol_source.grid_values, "width", default=()),
        metavar="W[,W...]", args=no_args,
        help="Reasoning widths of source qmfol, 0-20 (default 1,2): the number of and/or connectives in the rules.",
    )  # fmt: skip
    per_cell: int = param(
        qmfol_source.DEFAULT_PER_CELL, task=False, args=no_args,
        help="Source problems per (depth, width) cell of source qmfol (8 seeds x 3 labels), per depth of source "
        "logicasker.",
    )  # fmt: skip
    seed: int = param(0, SEED)

    def __post_init__(self) -> None:
        if any(source == PAPER for source, _ in self.sources()):  # the paper's set: the pairs of its files
            (source, path), *rest = expand_paper(self.sources())
            object.__setattr__(self, "source", source)
            object.__setattr__(self, "source_path", path)
            object.__setattr__(self, "extra_sources", tuple(rest))
        if isinstance(self.per_mr, str) and self.per_mr.strip().lower() == ALL:  # `-T per_mr=ALL`, lm-eval's "All"
            object.__setattr__(self, "per_mr", ALL)
        if self.uses_qmfol:
            object.__setattr__(self, "depths", qmfol_source.grid_values("depth", self.depths, ()))
            object.__setattr__(self, "widths", qmfol_source.grid_values("width", self.widths, ()))
            qmfol_source.check_per_cell(self.per_cell)
        elif self.uses_logicasker:
            if tuple(self.widths) != qmfol_source.DEFAULT_WIDTHS:
                raise ValueError(
                    f"width={','.join(map(str, self.widths))}: source=logicasker has no width (LogicAsker varies the "
                    "chain length only); drop width and set depth"
                )
            object.__setattr__(self, "depths", logicasker_source.depth_values(self.depths))
            qmfol_source.check_per_cell(self.per_cell)
        else:
            given = [
                f"{name}={','.join(map(str, value)) if isinstance(value, (list, tuple)) else value}"
                for name, value, default in (
                    ("depth", self.depths, qmfol_source.DEFAULT_DEPTHS),
                    ("width", self.widths, qmfol_source.DEFAULT_WIDTHS),
                    ("per_cell", self.per_cell, qmfol_source.DEFAULT_PER_CELL),
                )
                if (tuple(value) if isinstance(value, (list, tuple)) else value) != default
            ]
            if given:
                raise ValueError(
                    f"{', '.join(given)}: depth, width and per_cell set the difficulty grid of source=qmfol "
                    "(depth and per_cell: of source=logicasker); "
                    f"the sources here are {', '.join(s for s, _ in self.sources())}"
                )
        self.source_configs()  # validates the sources and their paths
        pairs = self.sources()
        repeated = sorted({f"{s} {p or ''}".strip() for s, p in pairs if pairs.count((s, p)) > 1})
        if repeated:
            raise ValueError(f"sources: {', '.join(repeated)} given more than once")
        unknown = [m for m in self.mrs if m not in RELATIONS]
        if unknown:
            raise ValueError(f"mrs: unknown relation(s) {unknown}; expected ids among {', '.join(RELATIONS)}")
        if not self.mrs:
            raise ValueError("mrs: at least one relation is needed")
        if self.per_mr != ALL and (
            isinstance(self.per_mr, bool) or not isinstance(self.per_mr, int) or self.per_mr < 1
        ):
            raise ValueError(f"per_mr={self.per_mr!r}: expected an integer of at least 1, or {ALL!r} (no cap)")
        if self.followups < 1:
            raise ValueError(f"followups={self.followups}: must be at least 1")
        if self.compose not in (0, 2, 3):
            raise ValueError(f"compose={self.compose}: expected 0, 2 or 3")
        if self.names not in ("abstract", "natural"):
            raise ValueError(f"names={self.names!r}: expected 'abstract' or 'natural'")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction={self.direction!r}: expected one of {', '.join(DIRECTIONS)}")
        if self.p4 not in P4_CHOICES:
            raise ValueError(f"p4={self.p4!r}: expected one of {', '.join(P4_CHOICES)}")
        if self.p5 not in P5_CHOICES:
            raise ValueError(f"p5={self.p5!r}: expected one of {', '.join(P5_CHOICES)}")

    def key(self) -> dict[str, Any]:
        """The config as plain data (for cache keys and the dataset card); `per_mr` may be `"all"`."""
        key = asdict(self)
        if not self.extra_sources:
            del key["extra_sources"]
        for option in ("check_fidelity", "drop_unfaithful"):  # off: keys of builds before the options unchanged
            if not key[option]:
                del key[option]
        if not self.uses_qmfol:
            for name in ("depths", "widths", "per_cell") if not self.uses_logicasker else ("widths",):
                del key[name]
        return key

    @classmethod
    def from_key(cls, key: dict[str, Any]) -> LgmtConfig:
        """The config a `key()` was made from (as read back from JSON: lists become tuples)."""
        values = dict(key)
        values["mrs"] = tuple(values.get("mrs", tuple(RELATIONS)))
        values["extra_sources"] = tuple(
            (str(source), None if path is None else str(path)) for source, path in values.get("extra_sources", ())
        )
        for name in ("depths", "widths"):
            if name in values:
                values[name] = tuple(values[name])
        return cls(**values)

    @property
    def uses_qmfol(self) -> bool:
        """Whether a source of the build is `qmfol` (then the difficulty grid is part of the config)."""
        return any(source == qmfol_source.SOURCE for source, _ in self.sources())

    @property
    def uses_logicasker(self) -> bool:
        """Whether a source of the build is `logicasker` (then its depths and per_cell are part of the config)."""
        return any(source == logicasker_source.SOURCE for source, _ in self.sources())

    @property
    def cap(self) -> int | None:
        """Groups per relation, or None for `per_mr="all"`."""
        return None if self.per_mr == ALL else int(self.per_mr)

    def sources(self) -> list[tuple[str, str | None]]:
        """Every `(source, source_path)` pair of the build, the first one first."""
        return [(self.source, self.source_path), *self.extra_sources]

    def source_config(self) -> SourceConfig:
        """Where this build's (first) source cases come from (the shared source stage's config)."""
        return self.source_configs()[0]

    def source_configs(self) -> list[SourceConfig]:
        """The shared source stage's config of every source of the build."""
        from lgmt_tasks.sources.pipeline import SourceConfig  # the source stage imports datasets: only when used

        return [
            SourceConfig(
                source,
                path,
                self.seed,
                self.generated_cases,
                self.timeout_ms,
                self.depths,
                self.widths,
                self.per_cell,
            )
            for source, path in self.sources()
        ]


TRANSLATORS = ("template", "model")

SCHEMA = SuiteSchema(
    "lgmt",
    LgmtConfig,
    loader=(
        selection("translator", "template", TRANSLATOR.but(help="English of the transformed formulas: `template` "
                  "(the realiser); model translations are built with `lgmt build lgmt --translator model`.")),
        selection("dataset", None, DATASET),
        selection("revision", None, REVISION),
    ),
)  # fmt: skip
"""LGMT's dataset parameters (the relation set is each task's own)."""
