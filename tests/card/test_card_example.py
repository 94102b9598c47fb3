"""A card from real logs of the embedded model, all five suites: the logs behind `docs/card_example/` (issue #39).

The mock-model tests (`test_card.py`) check every number against scripted runs; these logs are what a user's runs
look like (unparsed replies, partial runs, real prompts), and the committed example card is made from them
(`docs/README.md`). The card made here must have every section, a headline per suite equal to its log's metric,
validate against the schema, and give `.eval_results` entries `huggingface_hub` parses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from inspect_ai.log import read_eval_log

from lgmt_tasks.card import write_cards
from lgmt_tasks.card.content import SECTION_IDS
from lgmt_tasks.card.json_card import validate
from lgmt_tasks.report.headline import log_metrics
from lgmt_tasks.report.suites import suite_of
from lgmt_tasks.suites import SUITE_NAMES

LOGS = Path(__file__).resolve().parents[2] / "docs" / "card_example" / "logs"


def test_a_card_from_the_embedded_models_logs_of_all_five_suites(tmp_path: Path) -> None:
    logs = sorted(LOGS.glob("*/*.eval"))
    assert len(logs) == len(SUITE_NAMES)
    [folder] = write_cards([str(path) for path in logs], tmp_path)
    data = json.loads((folder / "card.json").read_text(encoding="utf-8"))
    validate(data)
    assert data["model"] == "lgmt/smollm2"
    html = (folder / "card.html").read_text(encoding="utf-8")
    assert all(f'<section id="{section}"' in html for section in SECTION_IDS)
    rows = {row["suite"]: row for row in data["suites"]}
    assert set(rows) == set(SUITE_NAMES) and all(row["status"] == "run" for row in rows.values())
    for path in logs:
        log = read_eval_log(str(path), header_only=True)
        row = rows[suite_of(log.eval.task) or ""]
        assert row["estimate"]["value"] == pytest.approx(log_metrics(log)[row["metric"]])
        assert row["estimate"]["low"] <= row["estimate"]["value"] <= row["estimate"]["high"]
    entries = yaml.safe_load((folder / ".eval_results" / "lgmt-tasks.yaml").read_text(encoding="utf-8"))
    hub = pytest.importorskip("huggingface_hub")
    parse = getattr(hub, "parse_eval_result_entries", None)
    if parse is not None:
        assert [entry.value for entry in parse(entries)] == pytest.approx(
            [row["estimate"]["value"] for row in data["suites"]], abs=1e-6
        )
