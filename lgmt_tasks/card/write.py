"""`write_cards`: logs in, one folder of four files per model out (and the compare page).

Layout of `out`:

    <model-slug>/card.md                          the card as Markdown (a model-card section for the Hub)
    <model-slug>/card.html                        one self-contained page (inline SVG and CSS, no script)
    <model-slug>/card.json                        every number, schema `lgmt_tasks/card/card.schema.json`
    <model-slug>/.eval_results/lgmt-tasks.yaml    the suite headlines in the Hub's eval-results format
    compare.md, compare.html                      with `compare` and two or more models: side by side, paired tests

Everything is read before anything is written, so bad input (a path that does not exist, no run of our tasks, an
lm-eval file that is not one, `compare` with one model) fails with one line and writes nothing. A card folder's four
files are rewritten on every call; nothing else in `out` is touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from lgmt_tasks.card.assemble import build_card
from lgmt_tasks.card.collect import CardInputError, collect
from lgmt_tasks.card.compare_page import write_compare
from lgmt_tasks.card.eval_results import write_eval_results
from lgmt_tasks.card.html_card import write_html
from lgmt_tasks.card.json_card import write_json
from lgmt_tasks.card.markdown_card import write_markdown


def write_cards(
    logs: Sequence[str | Path],
    out: Path,
    *,
    lm_eval_results: Sequence[str | Path] = (),
    compare: bool = False,
    dataset_ids: Mapping[str, str] | None = None,
) -> list[Path]:
    """Write one reliability card per model found among the logs and lm-eval results.

    Args:
        logs: Inspect log files and folders (searched recursively).
        out: The output folder; each model's card goes to `out/<model-slug>/`.
        lm_eval_results: lm-eval results JSON files.
        compare: Also write `out/compare.md` and `out/compare.html` (needs two or more models).
        dataset_ids: Suite → the Hub dataset id its entries in `.eval_results/lgmt-tasks.yaml` name, for runs of
            data that the logs do not record a Hub id for (see `lgmt_tasks.card.eval_results`).

    Returns:
        The model folders written, in the order the models were found.

    Raises:
        FileNotFoundError: If a path does not exist.
        CardInputError: If no run of our tasks is found, an lm-eval file is not a results file, or `compare` is asked
            with fewer than two models.
    """
    out = Path(out)
    found = collect(logs, lm_eval_results)
    if compare and len(found.models) < 2:
        names = ", ".join(runs.model for runs in found.models)
        raise CardInputError(f"--compare needs runs of two or more models; found {len(found.models)} ({names})")
    cards = [build_card(runs, out, found.left_out) for runs in found.models]
    folders = []
    for card in cards:
        folder = out / card.slug
        folder.mkdir(parents=True, exist_ok=True)
        write_markdown(card, folder)
        write_html(card, folder)
        write_json(card, folder)
        write_eval_results(card, folder, dict(dataset_ids or {}))
        folders.append(folder)
    if compare:
        write_compare(cards, out)
    return folders
