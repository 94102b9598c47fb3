"""The Inspect side: prompts, the answer reader, the scorer, and a scripted end-to-end run with exact metrics."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelName, ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState

from lgmt_tasks.divlogiceval.dataset import record_to_sample
from lgmt_tasks.divlogiceval.task import divlogiceval
from lgmt_tasks.hub.repo import load_dataset_repo
from lgmt_tasks.scorers.divlogiceval import circular_choice, predictions_of, read_choice
from lgmt_tasks.solvers.divlogiceval import INSTRUCTION, render_prompt, rotation_prompts
from lgmt_tasks.vocabulary import RESPONSES_KEY

OPTIONS = ["The cat sleeps.", "It rains.", "Maria sings.", "A bus is late."]

# ------------------------------------------------------------------------------------------------------ prompts


def test_prompt_is_appendix_i():
    prompt = render_prompt("Some content.", "Which follows?", OPTIONS)
    assert prompt == (
        "You need to answer in the form of 'Answer: <A/B/C/D>' without explanation.\n"
        "Some content.\nWhich follows?\n"
        "A. The cat sleeps.\nB. It rains.\nC. Maria sings.\nD. A bus is late."
    )


def test_rotations_are_circular_and_shots_are_solved_examples():
    row = {"content": "C.", "question": "Q?", "options": OPTIONS, "answer": 2}
    prompts = rotation_prompts(row)
    assert [p.splitlines()[3] for p in prompts] == [f"A. {OPTIONS[r]}" for r in range(4)]
    shot = {"content": "Shot content.", "question": "Shot?", "options": OPTIONS, "answer": 1}
    with_shots = rotation_prompts(row, [shot, shot, shot])[0]
    assert with_shots.startswith(INSTRUCTION + "\n\nShot content.")
    assert with_shots.count("Answer: B\n\n") == 3 and with_shots.endswith("D. A bus is late.")


# ------------------------------------------------------------------------------------------------------ reading


@pytest.mark.parametrize(
    ("text", "position", "how"),
    [
        ("Answer: C", 2, "lenient"),
        ('{"answer": "B"}', 1, "strict"),
        ("(D)", 3, "lenient"),
        ("The answer is A.", 0, "lenient"),
        ("Maria sings.", 2, "option_text"),
        ("Answer: it rains", 1, "option_text"),
        ("C. Maria sings", 2, "option_text"),
        ("I think so.\n**A bus is late**", 3, "option_text"),
        ("Answer: A bus is late.", 3, "option_text"),  # not the letter A: the text of option D
        ("Answer: A", 0, "lenient"),
        ("A. The cat sleeps.\nB. It rains.\nC. Maria sings.\nD. A bus is late.", None, "unparsed"),  # a listing
        ("A. The cat sleeps.\nB. It rains.\nAnswer: B", 1, "lenient"),
        ("Maria\nsings.", 2, "option_text"),
        ("A. Maria sings.", None, "unparsed"),  # letter and text disagree
        ("It rains and Maria sings.", None, "unparsed"),  # containment is not an answer
        ("Answer: A or B", None, "unparsed"),
        ("", None, "unparsed"),
    ],
)
def test_read_choice(text, position, how):
    choice = read_choice(text, OPTIONS)
    assert (choice.position, choice.how) == (position, how)


def test_predictions_are_mapped_back_to_the_original_options():
    # gold = original option 2 ("Maria sings."), answered right in every rotation by letter or text
    responses = ["Answer: C", "Answer: B", "Answer: A", "Maria sings."]
    predictions, _ = predictions_of(responses, OPTIONS)
    assert predictions == [2, 2, 2, 2]
    predictions, _ = predictions_of(["Answer: A"] * 4, OPTIONS)
    assert predictions == [0, 1, 2, 3]  # always "A" is a different original option in every rotation


async def test_scorer_unit():
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id="s1",
        epoch=1,
        input="x",
        messages=[],
        target=Target("A"),
        metadata={"options": OPTIONS},
        store={RESPONSES_KEY: ["Answer: A", "Answer: D", "nonsense", "Answer: D"]},
    )
    score = await circular_choice()(state, state.target)
    # rotations: A→0 (right), D→(1+3)%4=0 (right), unparsed, D→(3+3)%4=2 (wrong): c = 2, p = (1/2, 1/4, 1/4)
    assert score.value == {
        "acc": 1.0,
        "circular": 0.0,
        "partial_circular": 0.125,
        "rotation_acc": 0.5,
        "unparsed": 0.25,
        "original_parsed": 1.0,
    }
    assert score.answer == "A" and score.metadata["predictions"] == [0, 0, -1, 2]
    assert score.explanation is not None and "Rotation 2 (CDAB): unparsed" in score.explanation


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"question_type": "4c0e"}, "question_type='4c0e': expected one of 3c1e, 3e1c, missing, all"),
        ({"shots": 2}, "shots=2: expected one of 0, 3"),
        ({"alpha": 1.5}, "alpha=1.5: must lie in"),
    ],
)
def test_task_parameters_are_checked(params, message, small_repo):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        divlogiceval(dataset=str(small_repo), **params)


def test_readme_documents_every_task_parameter():
    import inspect as pyinspect

    readme = (Path(__file__).parents[2] / "lgmt_tasks" / "divlogiceval" / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(\w+)`(?:, `(\w+)`)? \|", readme, flags=re.MULTILINE))
    names = {name for pair in documented for name in pair if name}
    assert set(pyinspect.signature(divlogiceval).parameters) <= names


def test_record_to_sample(small_repo):
    row = dict(load_dataset_repo(small_repo)[0])
    sample = record_to_sample(row)
    assert sample.id == row["id"] and sample.target == "ABCD"[row["answer"]]
    assert sample.input == sample.metadata["members"][0] and len(sample.metadata["members"]) == 4
    assert sample.metadata["question_type"] == row["question_type"] and "answer" not in sample.metadata


def test_task_builds_on_the_fly_and_filters_by_type():
    task = divlogiceval(question_type="missing", per_type=1, seed=5)
    assert [s.metadata["question_type"] for s in task.dataset] == ["missing"]


def test_three_shot_prompts_hold_one_example_per_type(small_repo):
    task = divlogiceval(dataset=str(small_repo), shots=3)
    prompt = task.dataset[0].metadata["members"][0]
    assert prompt.count("\nAnswer: ") == 3 and prompt.startswith(INSTRUCTION + "\n\n")


# -------------------------------------------------------------------------------------------------- end to end

# Per row (in dataset order), the answer to each rotation, as an original option index relative to the gold:
# "g" = gold, "w1"/"w2" = two different wrong options, None = an unreadable answer, "text" = the gold by its text.
PLANS: list[list[Any]] = [
    ["g", "g", "g", "g"],  # all right: ACC 1, CIR 1, PC 1
    ["g", "g", "w1", "w2"],  # the paper's example: ACC 1, CIR 0, PC 0.125
    ["w1", "g", "g", "g"],  # c = 3, p = (3/4, 1/4): ACC 0
    ["w1", "w1", "w1", "w1"],  # consistently wrong: 0, 0, 0
    [None, "g", "g", "g"],  # unread original order: c = 3, p = (3/4, 1/4 "no answer"): ACC 0, unparsed 1/4
    ["text", "g", "text", "g"],  # all right, two answered by the option's text: 1, 1, 1
]
PC_3_OF_4 = 3 / 4 * (1 + 3 / 4 * math.log(3 / 4, 4) + 1 / 4 * math.log(1 / 4, 4))
EXPECTED = [  # per row: acc, circular, partial_circular, rotation_acc, unparsed (worked out by hand above)
    (1, 1, 1.0, 1.0, 0.0),
    (1, 0, 0.125, 0.5, 0.0),
    (0, 0, PC_3_OF_4, 0.75, 0.0),
    (0, 0, 0.0, 0.0, 0.0),
    (0, 0, PC_3_OF_4, 0.75, 0.25),
    (1, 1, 1.0, 1.0, 0.0),
]


class ScriptedModel:
    """Answers by recognising the instance (its content) and the rotation (the order of its options)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = {row["content"]: (row, plan) for row, plan in zip(rows, PLANS, strict=True)}
        self.calls: Counter[str] = Counter()

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        [user] = messages
        lines = user.text.splitlines()
        row, plan = self.rows[lines[1]]
        shown = [line[3:] for line in lines[-4:]]
        rotation = (-shown.index(row["options"][0])) % 4
        self.calls[row["id"]] += 1
        gold = row["answer"]
        wrong = [i for i in range(4) if i != gold]
        step = plan[rotation]
        target = {"g": gold, "text": gold, "w1": wrong[0], "w2": wrong[1]}.get(step)
        if step is None:
            text = "I cannot tell."
        elif step == "text":
            text = row["options"][target]
        else:
            text = f"Answer: {'ABCD'[shown.index(row['options'][target])]}"
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=10, output_tokens=3, total_tokens=13)  # no tokenizer download
        return output


def run(small_repo: Path, tmp_path: Path, **params: Any) -> tuple[EvalLog, list[dict[str, Any]], ScriptedModel]:
    rows = [dict(r) for r in load_dataset_repo(small_repo)]
    model = ScriptedModel(rows)
    task = divlogiceval(dataset=str(small_repo), **params)
    [log] = eval(task, model=get_model("mockllm/model", custom_outputs=model), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    return log, rows, model


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: m.value for name, m in scores.metrics.items()}


NAMES = ("acc", "circular", "partial_circular", "rotation_acc", "unparsed_rate")


def expected_means(rows: list[dict[str, Any]], alpha: float = 1.0) -> dict[str, float]:
    def value(k: int, i: int) -> float:
        acc, cir, pc, rot, unparsed = EXPECTED[k]
        pc_alpha = rot * (1 - alpha) + alpha * pc  # PC_α = (1 − α) c/4 + α PC
        return (acc, cir, pc_alpha, rot, unparsed)[i]

    out: dict[str, float] = {}
    for i, name in enumerate(NAMES):
        out[name] = sum(value(k, i) for k in range(len(rows))) / len(rows)
        for question_type in ("3c1e", "3e1c", "missing"):
            ks = [k for k, row in enumerate(rows) if row["question_type"] == question_type]
            out[f"{name}_{question_type}"] = sum(value(k, i) for k in ks) / len(ks)
    return out


def test_end_to_end_metrics_are_exact(small_repo: Path, tmp_path: Path):
    log, rows, model = run(small_repo, tmp_path)
    values = metrics(log)
    expected = expected_means(rows)
    assert {name: values[name] for name in expected} == pytest.approx(expected, abs=1e-12)
    assert values["acc"] == 3 / 6 and values["circular"] == 2 / 6 and values["unparsed_rate"] == 1 / 24
    assert values["partial_circular"] == pytest.approx((1 + 0.125 + 2 * PC_3_OF_4 + 0 + 1) / 6, abs=1e-12)
    # ACC over the instances whose original order was read: rows 0-3 and 5 (row 4's is unreadable), 3 of them right
    assert values["acc_parsed"] == pytest.approx(3 / 5, abs=1e-12)
    assert sorted(values) == sorted([*expected, *(f"{n}_stderr" for n in (*NAMES, "acc_parsed")), "acc_parsed"])
    assert set(model.calls.values()) == {4}  # every instance: four rotations, each asked once
    assert log.samples is not None
    sample = next(s for s in log.samples if s.id == rows[4]["id"])
    assert sample.scores is not None
    [score] = sample.scores.values()
    assert score.answer == "unparsed" and score.metadata is not None and score.metadata["predictions"][0] == -1
    assert [m.role for m in sample.messages] == ["user", "assistant"]
    assert len([e for e in sample.events if e.event == "model"]) == 4


def test_end_to_end_alpha(small_repo: Path, tmp_path: Path):
    log, rows, _ = run(small_repo, tmp_path, alpha=0.5)
    values = metrics(log)
    assert values["partial_circular"] == pytest.approx(expected_means(rows, 0.5)["partial_circular"], abs=1e-12)
