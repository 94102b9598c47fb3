"""The Hub repository of an LGMT build: data files, the dataset card, and the build statistics."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lgmt_tasks import __version__
from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.hub.card_text import repo_folder, usage_section
from lgmt_tasks.hub.repo import CardSpec, write_build_repo
from lgmt_tasks.lgmt.build import LgmtBuild
from lgmt_tasks.lgmt.config import LgmtConfig
from lgmt_tasks.sources.licences import SOURCE_LICENCES, licence_name
from lgmt_tasks.suites import suite

CITATION = suite("lgmt").bibtex

COLUMNS = """| column | meaning |
|---|---|
| `id` | stable, content-derived group id |
| `mr` | relation id (`MR-E1.1`; composed chains `MR-E1.1+MR-C3`) |
| `category` | `MR-E`, `MR-S`, `MR-P`, `MR-C` (or `composed`) |
| `direction` | which direction of the law was applied (`forward`, `introduction`, `extended`) |
| `variant` | `paper` when the site is in the paper's reading of the law, else its direction (`introduction`, \
`extended`) |
| `law` | the specific rule applied (`De Morgan (∧)`, `premise fusion (add)`, ...) |
| `source_dataset`, `source_id` | where the source case comes from |
| `premises`, `premises_fol`, `conclusion`, `conclusion_fol` | the source case (English; FOL in canonical notation) |
| `label` | the Z3-proven entailment label of the source (and of every follow-up): `True`, `False`, `Unknown` |
| `followup_*` | the follow-up case |
| `changed` | what the relation changed (`premise 2`, `conclusion`, `premises`) |
| `site` | where in the formula the rewrite applied |
| `translator` | how changed formulas were put into English (`template`: each written sentence reads back to its \
formula; `model`: an LLM, each sentence's round trip proven by Z3) |
| `realised_premises`, `realised_conclusion` | follow-up sentences written by the translator |
| `spliced_premises`, `spliced_conclusion` | of those, the sentences that keep a source sentence's own wording for \
an unchanged sub-formula ("Both ⟨premise 2⟩, and it is logically true.") |
| `extra_followups` | further follow-ups of the same source (when built with `--followups k`) |"""


def translation_args(translation: Mapping[str, Any] | None) -> list[str]:
    """The reproduce command's arguments of a model translation (a step after the build, not in its config)."""
    if not translation:
        return []
    return [
        "--translator",
        "model",
        "--translator-model",
        str(translation["model"]),
        "--translation-attempts",
        str(translation["attempts"]),
    ]


def translation_text(stats: BuildStats) -> str:
    """A paragraph on the model translation (`builders.translate`), empty for a template build.

    Rows `translation` of the statistics count groups, rows `translation attempts` count round trips.
    """
    notes = stats.notes.get("translation")
    if not notes:
        return ""
    attempts: Mapping[str, int] = stats.counts.get("translation attempts", {})
    failures = (
        ", ".join(
            f"{reason}: {attempts[reason]}"
            for reason in sorted(attempts)
            if reason not in ("candidates", "tried", "proven", "model calls")
        )
        or "none"
    )
    return (
        f"English of transformed formulas: model `{notes['model']}` with the paper's translation prompt "
        f"(Appendix C.2), every sentence checked by a round trip (back to FOL, proven equivalent by Z3), at most "
        f"{notes['attempts']} attempts per sentence; groups with a sentence that never passed were dropped "
        f"(rows `translation` and `translation attempts` below). Failed attempts by reason: {failures}."
    )


def source_names(config: LgmtConfig) -> list[str]:
    """The build's source datasets, each once, in the order given."""
    return list(dict.fromkeys(source for source, _ in config.sources()))


def licence_of(config: LgmtConfig) -> tuple[str, str, dict[str, str]]:
    """The card's licence id, its text and its extra front matter (`license_name`).

    A pool of several sources whose licences differ is `other`: every source's terms apply to the groups built
    from it, and the text lists them all (FOLIO's share-alike among them).
    """
    names = source_names(config)
    if len(names) == 1:
        return SOURCE_LICENCES[names[0]][0], SOURCE_LICENCES[names[0]][1], licence_name(names[0])
    ids = {SOURCE_LICENCES[n][0] for n in names}
    text = "Each group carries its source case's terms (column `source_dataset`):\n\n" + "\n".join(
        f"- `{n}`: {SOURCE_LICENCES[n][1]}" for n in names
    )
    if len(ids) == 1 and "other" not in ids:
        return ids.pop(), text, {}
    return "other", text, {"license_name": "mixed-source-licences"}


def pool_by_source_table(stats: BuildStats) -> str:
    """A multi-source build's candidate pool and groups per source and relation (empty for one source)."""
    pools: Mapping[str, Mapping[str, int]] = stats.notes.get("pool_by_source") or {}
    if not pools:
        return ""
    groups: Mapping[str, Mapping[str, int]] = stats.notes.get("groups_by_source") or {}
    proven: Mapping[str, int] = stats.notes.get("proven_by_source") or {}
    sources = sorted(pools)
    mrs = sorted({mr for by_mr in pools.values() for mr in by_mr})
    lines = [
        "### Pool per source",
        "",
        "Candidate pool / groups per relation and source (0 / 0: the relation does not apply to that source).",
        "",
        "| relation | " + " | ".join(sources) + " |",
        "|---" * (len(sources) + 1) + "|",
        "| proven source cases | " + " | ".join(str(proven.get(s, 0)) for s in sources) + " |",
    ]
    for mr in mrs:
        cells = [f"{pools[s].get(mr, 0)} / {groups.get(s, {}).get(mr, 0)}" for s in sources]
        lines.append(f"| {mr} | " + " | ".join(cells) + " |")
    totals = [f"{sum(pools[s].values())} / {sum(groups.get(s, {}).values())}" for s in sources]
    lines.append("| all | " + " | ".join(totals) + " |")
    return "\n" + "\n".join(lines) + "\n"


def repairs_table(stats: BuildStats, single_source: str) -> str:
    """The source annotation slips the build repaired, per source and kind (empty when none was).

    Listed on the card because a repaired formula is not the source's text: a reader must be able to see that, and
    how often (the repairs themselves, before and after, are in `build_stats.json`, notes `source_repairs`). A
    single-source build's notes are not prefixed with the source: `single_source` names it.
    """
    rows: list[str] = []
    for key in sorted(k for k in stats.notes if k.endswith("source_repairs")):
        source = key[: -len("source_repairs")].rstrip(": ") or single_source
        repairs: list[Mapping[str, str]] = stats.notes[key]
        for kind in sorted({r["kind"] for r in repairs}):
            formulas = len({r["before"] for r in repairs if r["kind"] == kind})  # distinct texts: stories repeat them
            records = len({r["id"] for r in repairs if r["kind"] == kind})
            rows.append(f"| {source} | {kind} | {formulas} | {records} |")
    if not rows:
        return ""
    head = [
        "### Annotation slips repaired",
        "",
        "Source formulas repaired because the repair was their only reading (every candidate reading proven "
        "equivalent by Z3; `lgmt_tasks/sources/repair.py`); the repaired cases' labels are proven like all others.",
        "",
        "| source | slip | formulas | records |",
        "|---|---|---:|---:|",
    ]
    return "\n" + "\n".join(head + rows) + "\n"


def card_body(build: LgmtBuild, out: str) -> str:
    """The Markdown body of the card."""
    cfg = build.config
    licence_text = licence_of(cfg)[1]
    stats = build.stats
    pool = stats.notes.get("candidate_pool", 0)
    return f"""# LGMT metamorphic groups ({" + ".join(source_names(cfg))})

Logic-grounded metamorphic test groups for LLM reasoning, built by
[lgmt-tasks](https://pypi.org/project/lgmt-tasks/) {__version__}. Each row is one metamorphic group: a source
entailment problem (premises, conclusion) and a follow-up obtained by one of LGMT's 20 FOL-grounded relations
(logical-equivalence rewrites, symbol renaming, premise and conclusion transformations). A model that reasons
reliably gives the same True/False/Unknown answer to both; a difference is a metamorphic violation.

Every label and every follow-up is proven by the Z3 prover: formula rewrites by equivalence of the rewritten
formula with the original, all other relations by an unchanged entailment label. Items the prover could not
decide in {cfg.timeout_ms} ms were dropped and are counted below.

## How it was built

```
{reproduce_command("lgmt", cfg, out, translation_args(stats.notes.get("translation")))}
```

{translation_text(stats)}

Version {__version__}, seed {cfg.seed}. {stats.notes.get("groups", 0)} groups from a candidate pool of {pool}
applicable (source case, relation) pairs.

### Build statistics

{stats.to_markdown(["candidates", "tried", "proven"])}
{pool_by_source_table(stats)}{repairs_table(stats, cfg.source)}
## Columns

{COLUMNS}

{
        usage_section(
            ["lgmt", "mr_e", "mr_e1", "mr_e2", "mr_s", "mr_p", "mr_c"],
            ["lgmt", "lgmt_mr_e", "lgmt_mr_s", "lgmt_mr_p", "lgmt_mr_c", "lgmt_loglik"],
            out,
            "Each Inspect task keeps the rows of its relations; `-T prompting=` picks the paper's prompting.",
        )
    }

## Licence

{licence_text}

## Citation

```bibtex
{CITATION}
```
"""


def write_lgmt_repo(build: LgmtBuild, out_dir: str | Path) -> Path:
    """Write the build as a Hub dataset repository (`datasets.load_dataset(out_dir)` reads it back).

    The card names `datasets/lgmt`, not `out_dir`, so the folder's bytes do not depend on where it was written.
    """
    out = repo_folder("lgmt")
    licence, _, licence_extra = licence_of(build.config)
    names = source_names(build.config)
    card = CardSpec(
        pretty_name=f"LGMT metamorphic groups ({' + '.join(names)})",
        license=licence,
        body=card_body(build, out),
        extra={"source_datasets": names, **licence_extra},
    )
    return write_build_repo(out_dir, build.dataset, card, build.config.key(), build.stats.to_dict())
