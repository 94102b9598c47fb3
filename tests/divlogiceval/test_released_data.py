"""The authors' released layout (`ttchungc/DivLogicEval`: `polished.parquet` / `unpolished.parquet`), read offline.

The fixture folder `tests/fixtures/divlogiceval_released/` holds two tiny parquet files in that layout, written by
its `make_fixture.py` from hand-written records (not the authors' questions).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from lm_eval import simple_evaluate

from lgmt_tasks.divlogiceval.dataset import load_divlogiceval_rows
from lgmt_tasks.divlogiceval.released import (
    AUTHOR_QUESTIONS,
    authors_question_type,
    is_released,
    load_released_rows,
    released_record_to_row,
)
from lgmt_tasks.divlogiceval.task import divlogiceval
from tests.divlogiceval.test_lmeval import ScriptedLM, manager

RELEASED = Path(__file__).parents[1] / "fixtures" / "divlogiceval_released"


def _load_make_fixture() -> ModuleType:
    spec = importlib.util.spec_from_file_location("divlogiceval_released_fixture", RELEASED / "make_fixture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_fixture = _load_make_fixture()


def write_parquet(folder: Path, records: list[dict[str, Any]], name: str = "polished") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(records), folder / f"{name}.parquet")
    return folder


def test_the_committed_fixture_is_what_make_fixture_writes(tmp_path):
    make_fixture.write(tmp_path)
    for name in ("polished", "unpolished"):
        assert (
            pq.read_table(tmp_path / f"{name}.parquet").to_pylist()
            == pq.read_table(RELEASED / f"{name}.parquet").to_pylist()
        )


def test_released_records_map_to_our_rows():
    rows = load_divlogiceval_rows(dataset=str(RELEASED))
    assert len(rows) == len(make_fixture.POLISHED)
    records = {f"dle-polished-{record['id_string']}": record for record in make_fixture.POLISHED}
    assert sorted(rows["id"]) == sorted(records)
    for row in rows:
        record = records[row["id"]]
        assert row["content"] == record["context"] and row["question"] == record["question"]
        assert row["options"] == record["answers"] and row["answer"] == record["label"]
        assert row["source"] == "polished"
        assert row["question_type"] in record["question_label"]  # "missing" in "missing_premise_3"
    # Round-robin over question type (lgmt_tasks.builders.order), so any --limit covers every type.
    assert [r["question_type"] for r in rows] == ["3c1e", "3e1c", "missing", "3c1e", "3e1c", "missing"]


def test_question_type_and_variant_select_rows():
    missing = load_divlogiceval_rows("missing", dataset=str(RELEASED))
    assert missing["id"] == ["dle-polished-test_15", "dle-polished-test_16"]
    unpolished = load_divlogiceval_rows(dataset=str(RELEASED), variant="unpolished")
    assert unpolished["id"] == [f"dle-unpolished-train_{k}" for k in (3, 4, 5)]


def test_variant_is_checked(small_repo):
    with pytest.raises(ValueError, match="variant='edited': expected one of polished, unpolished"):
        load_divlogiceval_rows(dataset=str(RELEASED), variant="edited")
    with pytest.raises(ValueError, match="variant='unpolished' applies only to the authors' released data"):
        load_divlogiceval_rows(dataset=str(small_repo), variant="unpolished")
    with pytest.raises(ValueError, match="variant='edited'"):
        divlogiceval(dataset=str(RELEASED), variant="edited")


def test_a_missing_file_is_named(tmp_path):
    folder = write_parquet(tmp_path / "only-polished", make_fixture.POLISHED)
    with pytest.raises(ValueError, match=r"unpolished\.parquet does not exist .*this folder has polished\.parquet"):
        load_divlogiceval_rows(dataset=str(folder), variant="unpolished")


def test_layout_detection(small_repo):
    assert is_released(str(RELEASED)) and is_released("ttchungc/DivLogicEval") and is_released("TTCHUNGC/divlogiceval")
    assert not is_released(str(small_repo)) and not is_released("someone/divlogiceval")


def test_the_authors_builder_columns_and_letter_answers_are_read_too(tmp_path):
    records = [
        {"psg": r["context"], "question": r["question"], "opts": r["answers"], "ans": "ABCD"[r["label"]],
         "question_label": r["question_label"]}
        for r in make_fixture.POLISHED
    ]  # fmt: skip
    rows = load_released_rows(str(write_parquet(tmp_path / "builder", records)))
    assert rows["answer"] == [r["label"] for r in make_fixture.POLISHED]
    assert len(set(rows["id"])) == len(rows) and all(i.startswith("dle-polished-") for i in rows["id"])


def test_duplicate_records_get_distinct_ids(tmp_path):
    record = {k: v for k, v in make_fixture.POLISHED[0].items() if k != "id_string"}
    rows = load_released_rows(str(write_parquet(tmp_path / "dup", [record, record])))
    assert rows["id"][1] == rows["id"][0] + "-2"


def broken(field: str, value: Any) -> list[dict[str, Any]]:
    records = [dict(r) for r in make_fixture.POLISHED]
    if value is None:
        del records[2][field]
    else:
        records[2][field] = value
    return records


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("question_label", "4c0e", r"row 2, column 'question_label': '4c0e' is no question type; expected a label "
                                   r"containing one of 3c1e, 3e1c, missing"),
        ("label", 7, r"row 2, column 'label': 7 is no answer; expected 0-3 or one of A, B, C, D"),
        ("answers", ["a", "b", "c"], r"row 2, column 'answers': expected a list of 4 option strings"),
        ("context", "  ", r"row 2, column 'context': empty content"),
    ],
)  # fmt: skip
def test_an_unmappable_record_names_file_row_and_column(tmp_path, field, value, message):
    folder = write_parquet(tmp_path / "bad", broken(field, value))
    with pytest.raises(ValueError, match=r"polished\.parquet, " + message):
        load_divlogiceval_rows(dataset=str(folder))


def test_a_missing_column_is_named_with_the_names_looked_for(tmp_path):
    records = [{k: v for k, v in r.items() if k != "answers"} for r in make_fixture.POLISHED]
    message = (
        r"polished\.parquet, row 0: no options column \(looked for answers, opts, options\); "
        r"the record has context, id_string"
    )
    with pytest.raises(ValueError, match=message):
        load_divlogiceval_rows(dataset=str(write_parquet(tmp_path / "noanswers", records)))


# ------------------------------------------------------------------- the layout of to_train_test_val.py

FIVE_COLUMNS = ["context", "question", "answers", "label", "id_string"]
"""The columns, in order, that ILogicEval `to_train_test_val.py` writes (lines 126-128): no `question_label`."""

WORDINGS = {
    "3c1e": [
        "According to the statements above, which is most likely to be true?",
        "If the above statements hold true, which  can be reasonably inferred?",  # their double space
        "Which of the following logically follows from the information presented above?",
    ],
    "3e1c": [
        "Which statements below, if true, casts doubt on the argument?",
        "If we assume the above statements to be true, which is a invalid inference?",
        "Based on the given statements, which conclusions is least justified?",
    ],
    "missing": [
        "Which one of the following is the missing premise leading to the conclusion?",
        "What is the critical assumption necessary for the conclusion to be valid?",
        "Determine the omitted premise that serves as a basis for the conclusion provided.",
    ],
}
"""Three of the authors' wordings per question type (`qe`, `qc`, `qmp`, lines 55-108)."""


def five_column_records() -> tuple[list[dict[str, Any]], list[str]]:
    """Nine records (three per type, our fixture's passages) in exactly that layout, and the type each one has."""
    records: list[dict[str, Any]] = []
    types: list[str] = []
    wordings = {t: iter(w) for t, w in WORDINGS.items()}
    for record in [*make_fixture.POLISHED, *make_fixture.UNPOLISHED]:
        qtype = "missing" if "missing" in record["question_label"] else record["question_label"]
        shown = dict(record, question=next(wordings[qtype]), id_string=f"test_{100 + len(records)}")
        records.append({column: shown[column] for column in FIVE_COLUMNS})
        types.append(qtype)
    return records, types


def test_the_authors_five_column_layout_is_read_by_the_question_wording(tmp_path):
    records, types = five_column_records()
    folder = write_parquet(tmp_path / "five", records)
    assert pq.read_table(folder / "polished.parquet").column_names == FIVE_COLUMNS
    rows = load_released_rows(str(folder))
    assert [(r["id"], r["question_type"]) for r in rows] == [
        (f"dle-polished-{record['id_string']}", qtype) for record, qtype in zip(records, types, strict=True)
    ]
    assert rows["question"] == [r["question"] for r in records] and rows["answer"] == [r["label"] for r in records]
    # the public loader (what -T dataset= reads) orders and selects by the inferred type
    assert load_divlogiceval_rows("3e1c", dataset=str(folder))["id"] == ["dle-polished-test_102",
                                                                         "dle-polished-test_103",
                                                                         "dle-polished-test_107"]  # fmt: skip
    task = divlogiceval(dataset=str(folder))
    assert [s.metadata["question_type"] for s in task.dataset][:3] == ["3c1e", "3e1c", "missing"]
    assert sorted(s.metadata["question_type"] for s in task.dataset) == sorted(types)


def test_the_wording_is_matched_up_to_case_and_spacing_and_a_label_wins():
    assert (
        authors_question_type("  if the above statements hold true, which can be reasonably INFERRED? ", "x") == "3c1e"
    )
    record = dict(make_fixture.POLISHED[0], question=WORDINGS["missing"][0])  # question_label 3c1e
    assert released_record_to_row(record, "x", "polished")["question_type"] == "3c1e"


def test_the_authors_lists_are_complete_and_disjoint():
    assert {t: len(w) for t, w in AUTHOR_QUESTIONS.items()} == {"3c1e": 16, "3e1c": 16, "missing": 13}
    everything = [w.casefold() for wordings in AUTHOR_QUESTIONS.values() for w in wordings]
    assert len(set(everything)) == len(everything)


def test_an_unknown_wording_names_the_row_and_the_wording(tmp_path):
    records, _ = five_column_records()
    records[4]["question"] = "Which of the following must be true?"
    message = (
        r"polished\.parquet, row 4, column 'question': 'Which of the following must be true\?' is none of the "
        r"authors' question wordings \(ILogicEval to_train_test_val\.py lines 55-108: qe for 3c1e, qc for 3e1c, "
        r"qmp for missing\), and the record has no question_label or question_type column"
    )
    with pytest.raises(ValueError, match=message):
        load_divlogiceval_rows(dataset=str(write_parquet(tmp_path / "unknown", records)))


def test_a_hub_id_goes_through_datasets_load_dataset(monkeypatch):
    calls = []

    def fake_load_dataset(path: str, split: str, revision: str | None) -> list[dict[str, Any]]:
        calls.append((path, split, revision))
        return make_fixture.UNPOLISHED

    # `released` imports `datasets` where it calls it (start-up cost: tests/test_import_graph.py)
    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)  # no network in tests
    rows = load_divlogiceval_rows(dataset="ttchungc/DivLogicEval", variant="unpolished", revision="abc")
    assert calls == [("ttchungc/DivLogicEval", "unpolished", "abc")] and len(rows) == 3


# ------------------------------------------------------------------------------------------------ end to end


def gold_by_text(messages: list[ChatMessage], *_: Any) -> ModelOutput:
    """Answers every rotation with the text of the fixture's gold option (read back by the option-text reader)."""
    [user] = messages
    record = next(r for r in make_fixture.POLISHED if r["context"] in user.text.split("\n\n")[-1])
    output = ModelOutput.from_content(model="mockllm/model", content=record["answers"][record["label"]])
    output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
    return output


def test_inspect_runs_the_released_questions(tmp_path):
    [log] = eval(
        divlogiceval(dataset=str(RELEASED)),
        model=get_model("mockllm/model", custom_outputs=gold_by_text),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.results is not None
    values = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert values["acc"] == values["circular"] == values["partial_circular"] == 1.0
    assert values["acc_missing"] == 1.0 and len(log.samples or []) == 6


def test_three_shot_examples_come_from_the_unpolished_file():
    task = divlogiceval(dataset=str(RELEASED), shots=3)
    prompt = task.dataset[0].metadata["members"][0]
    blocks = prompt.split("\n\n")
    assert [b.splitlines()[0] for b in blocks[1:4]] == [r["context"] for r in make_fixture.UNPOLISHED]
    assert [b.splitlines()[-1] for b in blocks[1:4]] == [
        f"Answer: {'ABCD'[r['label']]}" for r in make_fixture.UNPOLISHED
    ]


def test_three_shot_needs_every_type_in_the_unpolished_file(tmp_path):
    folder = write_parquet(tmp_path / "few", make_fixture.POLISHED)
    write_parquet(folder, make_fixture.UNPOLISHED[:2], "unpolished")
    with pytest.raises(ValueError, match="has no missing instance"):
        divlogiceval(dataset=str(folder), shots=3)


def test_lm_eval_runs_the_released_questions():
    lm = ScriptedLM()
    results = simple_evaluate(model=lm, tasks=["lgmt_divlogiceval"], task_manager=manager(RELEASED), limit=6)
    assert results is not None
    values = results["results"]["lgmt_divlogiceval"]
    # the scripted plan: documents 0 and 3 all right, 1 and 4 half (ACC 0), 2 and 5 one unread rotation (ACC 1)
    assert values["acc,none"] == 4 / 6 and values["circular,none"] == 2 / 6
    tm = manager(RELEASED, variant="unpolished")
    task = tm.load(["lgmt_divlogiceval"])["tasks"]["lgmt_divlogiceval"]
    assert [d["id"] for d in task.eval_docs] == [f"dle-unpolished-train_{k}" for k in (3, 4, 5)]
