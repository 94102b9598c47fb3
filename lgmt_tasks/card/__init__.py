"""Reliability cards: one page per model with every suite, an interval on every number, provenance first (issue #39).

`write_cards(logs, out)` (and `lgmt card LOGS... --out DIR`) writes, per model found among Inspect logs and lm-eval
results, `DIR/<model>/card.md` (a model-card section for the Hub), `card.html` (one self-contained file),
`card.json` (every number, schema `card.schema.json`) and `.eval_results/lgmt-tasks.yaml` (the Hub's eval-results
format); with `compare=True` and two or more models, `DIR/compare.md|.html` side by side with paired tests.

One module per job: `collect` (files → models → runs), `provenance`, `sections` (each suite's rows and section, from
its own report code), `estimates` (the intervals), `caveats` (the "not comparable" box), `assemble` (a `Card`),
`content` (the card as dataclasses), `json_card`, `markdown_card`, `html_card` (with `svg`), `eval_results`,
`compare_page`, and `write` (`write_cards`).
"""

from __future__ import annotations

from lgmt_tasks.card.write import write_cards

__all__ = ["write_cards"]
