"""What "assumed" hides: the drift of lexical follow-ups from their sources, measured on the shipped build."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from lgmt_tasks.lexical.drift import (
    DRIFT_NOTE,
    content_words,
    drift_frame,
    drift_note,
    drift_table,
    keywords_match,
    row_drift,
)

SHIPPED = Path(__file__).resolve().parents[2] / "datasets" / "lexical" / "data" / "default" / "test.jsonl.gz"

ROW = {
    "mr": "MR-1",
    "expectation": "assumed",
    "premises": ["For all x, if x is calm, then x is wise.", "Yuri is calm."],
    "premises_fol": ["∀x (Calm(x) → Wise(x))", "Calm(yuri)"],
    "conclusion": "Yuri is wise.",
    "conclusion_fol": "Wise(yuri)",
    "followup_premises": ["For all x, if x is calm, then x is wise.", "Yuri is calm."],
    "followup_conclusion": "Yuri is wise.",
    "followup_premises_fol": [],
    "followup_conclusion_fol": "",
}


def test_content_words_drop_the_template_grammar():
    assert content_words("For all x, if x is calm, then x is wise.") == {"calm", "wise"}
    assert content_words("It is not the case that Yuri is afraid of spiders.") == {"yuri", "afraid", "spiders"}


def test_keywords_match_needs_every_conclusion_word_in_a_premise():
    assert keywords_match(["Yuri is calm.", "Iris is wise."], "Yuri is wise.")
    assert not keywords_match(["Yuri is calm.", "Iris is wise."], "Yuri iz wise.")


def test_row_drift_of_an_unchanged_and_a_typo_follow_up():
    assert row_drift(ROW) == {"template": True, "reading_drift": False, "keyword_source": True, "keyword_drift": False}
    typo = {**ROW, "followup_conclusion": "Yuri is wiqe."}
    assert row_drift(typo) == {"template": True, "reading_drift": True, "keyword_source": True, "keyword_drift": True}
    # a typo in a premise breaks the reading but not the conclusion's key words ("calm" is still in the other)
    premise_typo = {**ROW, "followup_premises": ["For all x, if x is calk, then x is wise.", "Yuri is calm."]}
    assert row_drift(premise_typo)["reading_drift"] is True and row_drift(premise_typo)["keyword_drift"] is False


def test_a_source_outside_the_template_language_is_not_measured_by_reading():
    loose = {**ROW, "premises": ["Everything calm is wise.", "Yuri is calm."]}
    assert row_drift(loose)["template"] is False and row_drift(loose)["reading_drift"] is None
    unreadable = {**ROW, "conclusion_fol": "Wise(yuri"}  # a FOL the parser refuses: measured by key words only
    assert row_drift(unreadable) == {
        "template": False,
        "reading_drift": None,
        "keyword_source": True,
        "keyword_drift": False,
    }


@pytest.fixture(scope="module")
def shipped() -> list[dict[str, object]]:
    with gzip.open(SHIPPED, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_drift_on_the_shipped_build(shipped):
    table = drift_table(shipped).set_index("relation")
    # every shipped source is generated template English, and its key words match
    assert (table["template"] == table["rows"]).all() and (table["keyword_sources"] == table["rows"]).all()
    assert table.loc["all", "rows"] == len(shipped) == 3300
    # proven follow-ups (MR-19's reordering, MR-84's irrelevant premise) read back exactly; MR-49 changes nothing
    for relation in ("MR-19", "MR-84", "MR-49", "proven"):
        assert table.loc[relation, ["reading_drift", "keyword_drift"]].tolist() == [0.0, 0.0]
    # the assumed function-transformed follow-ups: almost none still reads back, most break the key words
    assert table.loc["assumed", "rows"] == 3100
    assert table.loc["assumed", "reading_drift"] == pytest.approx(2998 / 3100)
    assert table.loc["assumed", "keyword_drift"] == pytest.approx(2112 / 3100)
    assert table.loc["MR-5", "reading_drift"] == pytest.approx(298 / 300)
    assert table.loc["MR-102", "keyword_drift"] == 0.0


def test_the_shipped_build_stats_record_the_drift_of_its_rows(shipped):
    """`datasets/lexical/build_stats.json` carries `notes.drift`: drift.py's figures on the shipped rows."""
    stats = json.loads((SHIPPED.parents[2] / "build_stats.json").read_text(encoding="utf-8"))
    note = stats["notes"][DRIFT_NOTE]
    assert note == drift_note(shipped)
    relations = {str(row["mr"]) for row in shipped}
    assert set(note) == relations | {"assumed", "proven", "all"}
    for figures in note.values():
        assert 0.0 <= figures["reading_drift"] <= 1.0 and 0.0 <= figures["keyword_drift"] <= 1.0
    assert note["assumed"]["rows"] == 3100 and note["assumed"]["reading_drift"] == pytest.approx(2998 / 3100)
    assert note["MR-5"]["reading_drift"] == pytest.approx(298 / 300) and note["MR-102"]["keyword_drift"] == 0.0
    pd.testing.assert_frame_equal(drift_frame(note), drift_table(shipped))
