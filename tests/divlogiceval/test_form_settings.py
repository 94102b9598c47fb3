"""`form=symbolic` (s-DivLogicEval, Table 7) and `instruction=no_reasoning` (NoLR, §3.1 / Table 4).

The symbolic form is checked against Z3: the formulas the model is shown, parsed back, are equivalent to the
instance's formulas, and the answer key still holds on them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.divlogiceval.dataset import shown_row, symbolic_formula
from lgmt_tasks.divlogiceval.report import suite_report
from lgmt_tasks.divlogiceval.task import divlogiceval
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.logic.parse import parse
from lgmt_tasks.logic.prover import entails, equivalent
from lgmt_tasks.solvers.divlogiceval import INSTRUCTION, NO_REASONING, render_prompt
from tests.divlogiceval.test_lmeval import manager
from tests.divlogiceval.test_released_data import RELEASED, make_fixture

COMMITTED = Path(__file__).parents[2] / "datasets" / "divlogiceval"


def reply(text: str) -> ModelOutput:
    output = ModelOutput.from_content(model="mockllm/model", content=text)
    output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)
    return output


# ------------------------------------------------------------------------------------------------ symbolic form


@pytest.mark.parametrize(
    ("formula", "shown"),
    [
        ("¬(A ∧ C) → F", "(¬(A∧C)→F)"),  # rule 1b, as make_expression.py writes it
        ("(A ∨ H) → B", "((A∨H)→B)"),  # rule 1c
        ("¬H → ¬A", "(¬H→¬A)"),
        ("(A → B)", "(A→B)"),  # already wrapped: not wrapped twice
        ("(A ∨ B) ∧ (C ∨ D)", "((A∨B)∧(C∨D))"),  # starts and ends with brackets, yet not wrapped
        ("¬F", "¬F"),
        ("C", "C"),
    ],
)
def test_symbolic_formula_uses_the_authors_notation(formula, shown):
    assert symbolic_formula(formula) == shown


def split_content(content: str) -> tuple[list[str], str]:
    premises, _, conclusion = content.partition("|=")
    return premises.split(","), conclusion


@pytest.mark.parametrize("row", [dict(r) for r in load_dataset_repo(COMMITTED)], ids=lambda r: r["id"])
def test_the_symbolic_form_shows_the_same_logic_and_keeps_the_answer(row):
    shown = shown_row(row, "symbolic")
    assert shown["question"] == row["question"] and shown["answer"] == row["answer"]
    assert shown["content_natural"] == row["content"] and shown["options_natural"] == row["options"]
    assert " " not in shown["content"] + "".join(shown["options"])
    premises, conclusion = split_content(shown["content"])
    assert len(premises) == len(row["content_logic"])
    for text, original in zip([*premises, *shown["options"]], [*row["content_logic"], *row["options_logic"]]):
        assert equivalent(parse(text), parse(original)) is True
    gamma = [parse(p) for p in premises]
    answer = parse(shown["options"][row["answer"]])
    if row["question_type"] == "3c1e":
        assert entails(gamma, answer) is True
    elif row["question_type"] == "3e1c":
        assert entails(gamma, answer) is False
    else:  # the missing premise: the shown premises and the answer entail the shown conclusion, the premises alone not
        assert conclusion and equivalent(parse(conclusion), parse(row["conclusion_logic"])) is True
        assert entails([*gamma, answer], parse(conclusion)) is True
        assert entails(gamma, parse(conclusion)) is False


def test_form_is_checked(small_repo):
    with pytest.raises(ValueError, match="form='formal': expected one of natural, symbolic"):
        divlogiceval(dataset=str(small_repo), form="formal")


def test_released_data_without_formulas_refuses_the_symbolic_form():
    with pytest.raises(ValueError, match=r"form='symbolic': instance 'dle-polished-test_11' has no formulas .*exp / "
                                         r"optstmts of the authors' data\); use form='natural'"):  # fmt: skip
        divlogiceval(dataset=str(RELEASED), form="symbolic")


def with_formulas(tmp_path: Path, exp: str, optstmts: list[str]) -> Path:
    records = [dict(r, exp=exp, optstmts=optstmts) for r in make_fixture.POLISHED]
    folder = tmp_path / "with-formulas"
    folder.mkdir()
    pq.write_table(pa.Table.from_pylist(records), folder / "polished.parquet")
    return folder


def test_released_formula_columns_give_the_symbolic_form(tmp_path):
    folder = with_formulas(tmp_path, "['(A→B)', '¬C']|=(¬A→B)", ["(A→C)", "¬C", "(B→A)", "D"])
    sample = divlogiceval(dataset=str(folder), form="symbolic").dataset[0]
    lines = sample.metadata["members"][0].splitlines()
    assert lines[1:] == [
        "(A→B),¬C|=(¬A→B)",
        make_fixture.POLISHED[0]["question"],
        "A. (A→C)",
        "B. ¬C",
        "C. (B→A)",
        "D. D",
    ]


def test_a_released_option_that_is_no_formula_is_named(tmp_path):
    folder = with_formulas(tmp_path, "(A→B),¬C", ["(A→C)", "contradict", "(B→A)", "D"])
    with pytest.raises(ValueError, match="column 'options_logic': 'contradict' is no formula"):
        divlogiceval(dataset=str(folder), form="symbolic")


def answer_by_formula(rows: dict[str, dict[str, Any]]):
    """A model that reads the shown formulas and answers with the gold option's formula text."""

    def model(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        [user] = messages
        content = user.text.split("\n\n")[-1].splitlines()[-6]  # content, question, four options
        row = rows[content]
        return reply(shown_row(row, "symbolic")["options"][row["answer"]])

    return model


def test_end_to_end_symbolic_run(small_repo, tmp_path):
    rows = [dict(r) for r in load_dataset_repo(small_repo)]
    by_content = {shown_row(r, "symbolic")["content"]: r for r in rows}
    [log] = eval(
        divlogiceval(dataset=str(small_repo), form="symbolic", shots=3),
        model=get_model("mockllm/model", custom_outputs=answer_by_formula(by_content)),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.results is not None and log.samples
    values = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert values["acc"] == values["circular"] == values["partial_circular"] == 1.0  # read by formula text
    prompt = log.samples[0].metadata["members"][0]
    assert not re.search(r"[a-z]{3,} [a-z]{3,}", prompt.split("\n\n")[1].splitlines()[0])  # the shots are symbolic
    assert log.eval.task_args["form"] == "symbolic"


def test_lm_eval_symbolic_documents(small_repo):
    task = manager(small_repo, form="symbolic", shots=3).load(["lgmt_divlogiceval"])["tasks"]["lgmt_divlogiceval"]
    rows = {r["id"]: dict(r) for r in load_dataset_repo(small_repo)}
    for doc in task.eval_docs:
        assert doc["content"] == shown_row(rows[doc["id"]], "symbolic")["content"]
    prompt = task.doc_to_text(task.eval_docs[0])
    assert all("→" in line for line in prompt.split("\n\n")[1].splitlines()[:1])  # a symbolic shot
    with pytest.raises(ValueError, match="form='formal'"):
        manager(small_repo, form="formal").load(["lgmt_divlogiceval"])


# ------------------------------------------------------------------------------------------------ NoLR instruction


def test_no_reasoning_adds_the_papers_sentence_to_the_instruction():
    prompt = render_prompt("Content.", "Which?", ["a", "b", "c", "d"], instruction="no_reasoning")
    assert prompt.splitlines()[0] == f"{INSTRUCTION} {NO_REASONING}"
    assert NO_REASONING == "Please try your best to answer correctly without performing any logical reasoning."
    assert prompt.splitlines()[1:] == render_prompt("Content.", "Which?", ["a", "b", "c", "d"]).splitlines()[1:]


def test_instruction_is_checked(small_repo):
    with pytest.raises(ValueError, match="instruction='nolr': expected one of standard, no_reasoning"):
        divlogiceval(dataset=str(small_repo), instruction="nolr")


def test_end_to_end_no_reasoning_run_and_its_report_setting(small_repo, tmp_path):
    seen: list[str] = []

    def model(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        seen.append(messages[0].text.splitlines()[0])
        return reply("Answer: A")

    [log] = eval(
        divlogiceval(dataset=str(small_repo), instruction="no_reasoning", shots=3),
        model=get_model("mockllm/model", custom_outputs=model),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert set(seen) == {f"{INSTRUCTION} {NO_REASONING}"} and len(seen) == 4 * 6
    table = suite_report([str(log.location)], None).tables["table9"]
    assert set(table["setting"]) == {"3-shot, NoLR"}


def test_lm_eval_no_reasoning_instruction(small_repo):
    task = manager(small_repo, instruction="no_reasoning").load(["lgmt_divlogiceval"])["tasks"]["lgmt_divlogiceval"]
    assert task.instruction == "no_reasoning"
    assert task.doc_to_text(task.eval_docs[0]).startswith(f"{INSTRUCTION} {NO_REASONING}\n")
    with pytest.raises(ValueError, match="instruction='nolr'"):
        manager(small_repo, instruction="nolr").load(["lgmt_divlogiceval"])
