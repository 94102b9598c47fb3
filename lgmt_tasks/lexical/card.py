"""The Hub repository of a lexical (LLMorph) build: data files, the dataset card, and the build statistics."""

from __future__ import annotations

from pathlib import Path

from lgmt_tasks import __version__
from lgmt_tasks.builders.schema import reproduce_command
from lgmt_tasks.hub.card_text import repo_folder, usage_section
from lgmt_tasks.hub.repo import CardSpec, write_build_repo
from lgmt_tasks.lexical.build import LexicalBuild
from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS, PARTS
from lgmt_tasks.lexical.config import LexicalConfig
from lgmt_tasks.sources.licences import SOURCE_LICENCES, licence_name
from lgmt_tasks.suites import suite

LLMORPH_CITATION = suite("lexical").bibtex
LGMT_CITATION = suite("lgmt").bibtex

COLUMNS = """| column | meaning |
|---|---|
| `id` | stable, content-derived group id |
| `mr`, `name` | LLMorph catalogue id (Table II) and name, e.g. `MR-126`, `keyboard mistakes` |
| `kind` | `function` (seeded text function) or `llm` (made by a transformer model) |
| `expected` | expected output relation: `equivalence`, `difference` (MR-10/25/34/152), `not_inverse` (MR-79/80) |
| `part` | what was transformed: `premises`, `conclusion`, `both` (`none` for MR-49) |
| `source_dataset`, `source_id` | the source case; the same ids as an LGMT build with the same source and seed |
| `premises`, `premises_fol`, `conclusion`, `conclusion_fol` | the source case (English; FOL in canonical notation) |
| `label` | the Z3-proven entailment label of the source case (`True`, `False`, `Unknown`) |
| `followup_label` | the follow-up's expected gold label where known; empty where only a relation is claimed |
| `expectation` | `proven` (Z3 on the follow-up's FOL), `assumed` (meaning kept, LLMorph's claim), `unproven` |
| `followup_premises`, `followup_conclusion` | the follow-up's English |
| `changed_premises`, `changed_conclusion` | which premises (0-based) and whether the conclusion changed |
| `followup_premises_fol`, `followup_conclusion_fol` | the follow-up's FOL where its label is proven, else empty |
| `transformer` | `function`, or the model that wrote the follow-up |
| `pending` | true if the follow-up is still to be made by a transformer at eval time |"""


def _relations_table(config: LexicalConfig) -> str:
    lines = ["| id | name | kind | expected | what it does |", "|---|---|---|---|---|"]
    for mr in config.mrs:
        r = LEXICAL_RELATIONS[mr]
        lines.append(f"| {r.id} | {r.name} | {r.kind} | {r.expected} | {r.description} |")
    return "\n".join(lines)


def card_body(build: LexicalBuild, out: str) -> str:
    """The Markdown body of the card."""
    cfg = build.config
    stats = build.stats
    pending = sum(counter["pending"] for counter in stats.counts.values())
    transformer = (
        f"LLM-based follow-ups were written by `{cfg.transformer}` (greedy decoding) with LLMorph's prompts; "
        "failed transformations were dropped and are counted below."
        if cfg.transformer
        else "LLM-based relations, if any, are *pending*: the `lexical` task makes their follow-ups at eval time "
        "with `-T transformer_model=...`."
    )
    return f"""# Lexical metamorphic groups: the LLMorph baseline ({cfg.source})

Text-level metamorphic test groups for LLM reasoning, built by [lgmt-tasks](https://pypi.org/project/lgmt-tasks/)
{__version__}: the relations of LLMorph (Cho, Ruberto and Terragni, ICSME 2025) applied to the same source cases as
the logic-grounded LGMT groups, so the two families can be compared group for group. Each row is one group: a source
entailment problem and a follow-up whose premises, conclusion or both were changed by one relation (typos, leet,
capitalisation, an irrelevant sentence, a paraphrase, ...). Every relation but MR-152 expects the model's answer to
stay the same; MR-152 (add negation) expects it to change. Unlike LGMT's, these follow-ups are not proven to keep
(or change) the label: that assumption is what the baseline tests.

Source labels are proven by Z3, exactly as in LGMT. {transformer}

## Relations

{_relations_table(cfg)}

Parts: {", ".join(p for p in PARTS if p in cfg.parts)} (MR-49 transforms nothing and has one variant, `none`).

## How it was built

```
{reproduce_command("lexical", cfg, out)}
```

Version {__version__}, seed {cfg.seed}. {stats.notes.get("groups", 0)} groups ({pending} pending) from
{stats.notes.get("source_cases", 0)} proven source cases.

### Build statistics

{stats.to_markdown(["proven", "candidates", "tried", "built", "pending"])}

## Columns

{COLUMNS}

{
        usage_section(
            ["lexical"],
            ["lgmt_lexical", "lgmt_lexical_loglik"],
            out,
            "lm-eval runs the function-based relations; pending LLM-based follow-ups need Inspect's "
            "`-T transformer_model=`.",
        )
    }

## Licence

{SOURCE_LICENCES[cfg.source][1]}

## Citation

```bibtex
{LLMORPH_CITATION}

{LGMT_CITATION}
```
"""


def write_lexical_repo(build: LexicalBuild, out_dir: str | Path) -> Path:
    """Write the build as a Hub dataset repository (`datasets.load_dataset(out_dir)` reads it back).

    The card names `datasets/lexical`, not `out_dir`, so the folder's bytes do not depend on where it was written.
    """
    out = repo_folder("lexical")
    card = CardSpec(
        pretty_name=f"Lexical metamorphic groups, LLMorph baseline ({build.config.source})",
        license=SOURCE_LICENCES[build.config.source][0],
        body=card_body(build, out),
        tags=("logic", "reasoning", "metamorphic-testing", "lgmt-tasks", "llmorph"),
        extra={"source_datasets": [build.config.source], **licence_name(build.config.source)},
    )
    return write_build_repo(out_dir, build.dataset, card, build.config.key(), build.stats.to_dict())
