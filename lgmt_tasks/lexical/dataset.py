"""Rows for the `lexical` task: a cached on-the-fly build, or a built / published dataset repository."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from lgmt_tasks.builders.load import BuildRecipe, Loaded, given_build_parameters, load_selected, rows_only, where
from lgmt_tasks.builders.order import Strata
from lgmt_tasks.lexical.catalogue import DEFAULT_STYLE, LEXICAL_RELATIONS, NO_PART, resolve_mrs, resolve_parts
from lgmt_tasks.lexical.config import SCHEMA, LexicalConfig
from lgmt_tasks.solvers.prompts import render_user_prompt

STRATA = Strata(("mr",))
"""Groups are ordered round-robin over their relation (as lm-eval's `load_docs` orders them), so `--limit N` covers
min(N, relations) relations."""


def load_lexical(
    mr: str | Sequence[str] = "function",
    part: str | Sequence[str] = "all",
    source: str = "generated",
    source_path: str | None = None,
    per_mr: int = 100,
    seed: int = 0,
    style: str = DEFAULT_STYLE,
    dataset: str | None = None,
    revision: str | None = None,
) -> Loaded:
    """The rows of the relations `mr` in the parts `part` (MR-49's groups, part `none`, come with any part).

    `mr` is relation ids (a list, or comma-separated) or `function` / `llm` / `all` (`catalogue.resolve_mrs`);
    `part` is `premises`, `conclusion`, `both` (several: a list or comma-separated) or `all` (`resolve_parts`). The
    rows come round-robin over relations, with their metadata for the log.

    With `dataset` (a folder written by `lgmt build lexical`, or a Hub id), that dataset is read with
    `datasets.load_dataset` at `revision` and the build parameters are ignored. Otherwise the groups are built for
    the parameters and cached on disk (the same parameters give the same bytes); LLM-based relations are then left
    pending, for the solver's transformer.

    Raises:
        ValueError: On an invalid selection, or when no row is left (the message names the selection and where it
            was looked for).
    """
    mrs, parts = resolve_mrs(mr), resolve_parts(part)
    wanted_mrs, wanted_parts = set(mrs), {*parts, NO_PART}

    def build() -> BuildRecipe:
        from lgmt_tasks.lexical.build import BUILD_REVISION, build_lexical
        from lgmt_tasks.lexical.card import write_lexical_repo

        config = LexicalConfig(
            source=source,
            source_path=_absolute(source_path),
            mrs=mrs,
            parts=parts,
            per_mr=per_mr,
            seed=seed,
            style=style,
        )

        def write(out: Path) -> None:
            build = build_lexical(config, progress=True)
            if len(build.dataset) == 0:  # nothing to cache: say why instead of writing an empty repository
                raise ValueError(f"no lexical groups could be built for {config.key()}: {build.stats.to_dict()}")
            write_lexical_repo(build, out)

        return BuildRecipe(config.key(), write, BUILD_REVISION)

    ids = [m for m in LEXICAL_RELATIONS if m in wanted_mrs]
    return load_selected(
        "lexical",
        dataset=dataset,
        revision=revision,
        build=build,
        select=where(("mr", "part"), lambda mr, part: mr in wanted_mrs and part in wanted_parts),
        selection=f"lexical groups for relations {ids} and parts {sorted(parts)}",
        strata=STRATA,
        expected=ids,
        unit="groups",
        build_only=given_build_parameters(
            {"source": source, "source_path": source_path, "per_mr": per_mr, "seed": seed, "style": style},
            SCHEMA.task_defaults(),
            SCHEMA.lm_eval_defaults(),
        ),
    )


load_lexical_rows = rows_only(load_lexical)


def _absolute(path: str | None) -> str | None:
    return str(Path(path).resolve()) if path else None


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One lexical group → one Sample: the source prompt as input, the members' prompts in metadata.

    A pending row (an LLM follow-up still to be made) has only the source prompt among its members; the solver adds
    the follow-up's once the transformer has written it.
    """
    source = render_user_prompt(list(record["premises"]), record["conclusion"])
    members = [source]
    if not record["pending"]:
        members.append(render_user_prompt(list(record["followup_premises"]), record["followup_conclusion"]))
    metadata = {k: v for k, v in record.items() if k not in ("id", "label")}
    # builds made before expectations were recorded (build revision 1) state none: LLMorph's claim, unproven for
    # a difference relation, assumed otherwise
    metadata.setdefault("followup_label", "")
    metadata.setdefault("expectation", "unproven" if record.get("expected") == "difference" else "assumed")
    metadata["members"] = members
    return Sample(id=record["id"], input=source, target=record["label"], metadata=metadata)
