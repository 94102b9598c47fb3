"""The Hub repository of a QMFOL build: data files, the dataset card, and the build statistics."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from lgmt_tasks import __version__
from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.hub.card_text import repo_folder, usage_section
from lgmt_tasks.hub.repo import CardSpec, write_build_repo
from lgmt_tasks.qmfol.build import QmfolBuild, stats_events
from lgmt_tasks.qmfol.config import PAPER_DEPTHS, PAPER_DISTRACTORS, PAPER_WIDTHS
from lgmt_tasks.suites import suite

CITATION = suite("qmfol").bibtex

COLUMNS = """| column | meaning |
|---|---|
| `id` | the paper's id: `<Topic>_d<D>_w<W>_<seed>_<label index>_distract<n>` (True 0, False 1, Unknown 2) |
| `depth`, `width`, `distractors`, `topic`, `seed` | the configuration |
| `label` | the Z3-proven label: `True`, `False`, `Unknown` |
| `construction` | how facts and conclusion were made (Eqs. 2–4): `True`, `False`, `Unknown1`, `Unknown2` |
| `variant` | top connective `implication`/`and`/`or`/`literal` (one per rule set); `+fact`: R_in (or C_U1) stated |
| `form` | `quantified` (facts and conclusion over every entity, ∀/∃; the paper's default) or `ground` (constant `a`) |
| `entity`, `object` | the domain of discourse and the name of the object the facts and conclusion are about |
| `rules_fol`, `distractors_fol`, `facts_fol`, `conclusion_fol` | the task in FOL (canonical notation; constant `a`) |
| `premises`, `premises_fol` | the premises in presentation (shuffled) order, English and FOL, aligned |
| `conclusion` | the conclusion in English |
| `predicates` | the mapping list: `P3(x): x <meaning>`, and `a: <object>` |
| `translator` | `template` (read back exactly) or `model` (round trip proven by Z3) |
| `attempts` | model translations tried before one passed (0 for templates) |"""


ROUND_TRIP_TEXT = {
    "sentence": "every back-translated formula proven equivalent by Z3",
    "label": "the back-translated task's label equal to the ground truth, by Z3 and E",
    "both": "every formula equivalent, and the back-translated task's label equal to the ground truth",
}
"""How the card says which round-trip check accepted a model translation."""


def _breakdown(build: QmfolBuild) -> str:
    ds = build.dataset
    rows = [
        ("depth", Counter(ds["depth"])),
        ("width", Counter(ds["width"])),
        ("distractors", Counter(ds["distractors"])),
        ("label", Counter(ds["label"])),
        ("construction", Counter(ds["construction"])),
        ("variant", Counter(ds["variant"])),
        ("topic", Counter(ds["topic"])),
    ]
    return "\n".join(f"| {name} | " + ", ".join(f"{k}: {v}" for k, v in sorted(c.items())) + " |" for name, c in rows)


def card_body(build: QmfolBuild, out: str) -> str:
    """The Markdown body of the card."""
    cfg = build.config
    stats = build.stats
    paper = (cfg.depths, cfg.widths, cfg.distractors) == (PAPER_DEPTHS, PAPER_WIDTHS, PAPER_DISTRACTORS)
    grid = "the paper's grid (QMFOLBench)" if paper and cfg.seeds == 3 and len(cfg.topics) == 4 else "a sub-grid"
    translation = (
        "English is written by deterministic templates from topic lexicons, and every sentence is read "
        "back to its formula.\n"
    )
    if cfg.translator == "model":
        t = stats.counts.get("translation", Counter())
        translation = (
            f"English by `{cfg.translator_model}` with the paper's FOL2NL prompt; each task's round trip "
            f"(NL2FOL by the same model) passed the `{cfg.round_trip}` check ({ROUND_TRIP_TEXT[cfg.round_trip]}): "
            f"{t.get('attempts', 0)} attempts, {t.get('passes', 0)} passes, {t.get('discards', 0)} "
            f"tasks discarded after {cfg.max_attempts} attempts.\n"
        )
    return f"""# QMFOL tasks

Monadic first-order logic reasoning tasks with controlled depth, width, label, distractors and topic, after QMFOL
(Zheng et al., 2026), built by [lgmt-tasks](https://pypi.org/project/lgmt-tasks/) {__version__}. Each row asks
whether a conclusion is True, False or Unknown given the premises (rules, distractor rules and facts, shuffled).

Every label is proven by Z3 (three-valued entailment), for the basic task and again with its distractors (the
distractor property: the label and the consistency of the premises are unchanged). The depth and width of every
rule set are measured from its rules and equal its parameters. {translation}
## How it was built

```
{reproduce_command("qmfol", cfg, out)}
```

Version {__version__}, form `{cfg.form}`, task seeds {cfg.seed}–{cfg.seed + cfg.seeds - 1}; {grid}:
{stats.notes.get("tasks", 0)} tasks of {stats.notes.get("requested", 0)} requested
({stats.notes.get("logical_tasks", 0)} logical tasks, each in {len(cfg.topics)} topic(s)).

| dimension | tasks |
|---|---|
{_breakdown(build)}

### Build statistics

{stats.to_markdown(stats_events(stats))}

## Columns

{COLUMNS}

{
        usage_section(
            ["qmfol"],
            ["lgmt_qmfol"],
            out,
            "`-T depth=`, `-T width=`, `-T distractors=`, `-T topic=` and `-T label=` select rows of the dataset.",
        )
    }

## Licence

Generated by lgmt-tasks (MIT).

## Citation

```bibtex
{CITATION}
```
"""


def write_qmfol_repo(build: QmfolBuild, out_dir: str | Path) -> Path:
    """Write the build as a Hub dataset repository (`datasets.load_dataset(out_dir)` reads it back).

    The card names `datasets/qmfol`, not `out_dir`, so the folder's bytes do not depend on where it was written.
    """
    out = repo_folder("qmfol")
    card = CardSpec(
        pretty_name="QMFOL tasks",
        license="mit",
        body=card_body(build, out),
        tags=("logic", "reasoning", "first-order-logic", "qmfol", "lgmt-tasks"),
    )
    return write_build_repo(out_dir, build.dataset, card, build.config.key(), build.stats.to_dict())
