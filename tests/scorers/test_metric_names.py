"""The metric names every suite's scorer reports: registered names and the names in an eval log, exactly.

Logs, the README, `lgmt report` and the leaderboard read metrics by these names (`lgmt_tasks/mvr` in the registry,
`mvr`, `mvr_MR-E`, ... in `log.results`), so a refactoring of the scorers must leave every one of them as it is.
Each suite's scorer runs once on a few scripted samples (no model is called: the solver writes the answers) and the
log's metric names are compared with the full list.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai._util.registry import registry_info, registry_params
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from lgmt_tasks.scorers.divlogiceval import circular_choice
from lgmt_tasks.scorers.lexical import lexical_consistency
from lgmt_tasks.scorers.lgmt import metamorphic_consistency
from lgmt_tasks.scorers.logicasker import yes_no_answer
from lgmt_tasks.scorers.qmfol import qmfol_scorer
from lgmt_tasks.vocabulary import RESPONSES_KEY, TRANSFORM_KEY

SCRIPT = "scripted"
"""Sample metadata key of the answers the scripted solver writes (and of an eval-time transformation)."""


@solver
def scripted() -> Solver:
    """Write the sample's scripted answers where the suites' solvers write theirs: the store and the output."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        script = state.metadata[SCRIPT]
        state.store.set(RESPONSES_KEY, list(script["responses"]))
        if "transform" in script:
            state.store.set(TRANSFORM_KEY, dict(script["transform"]))
        state.output = ModelOutput.from_content(model="mockllm/model", content=script["responses"][0])
        return state

    return solve


def sample(id: str, target: str, responses: list[str], **metadata: Any) -> Sample:
    script: dict[str, Any] = {"responses": responses}
    if "transform" in metadata:
        script["transform"] = metadata.pop("transform")
    return Sample(id=id, input="scripted", target=target, metadata={**metadata, SCRIPT: script})


E, S, C = ({"mr": mr, "category": mr[:4]} for mr in ("MR-E1.1", "MR-S1", "MR-C3"))
"""LGMT metadata: the relation and its category (each group's source case is `source_dataset`, `source_id`)."""
LGMT = [
    sample("g1", "True", ['{"label": "True"}', '{"label": "True"}'], **E, source_dataset="generated", source_id="c1"),
    sample(
        "g2", "False", ['{"label": "True"}', "The answer is False."], **S, source_dataset="generated", source_id="c2"
    ),
    sample("g3", "Unknown", ["maybe", "True", "False"], **C, source_dataset="generated", source_id="c2"),
]
LEXICAL = [
    sample(
        "l1",
        "True",
        ["True", "True"],
        mr="MR-49",
        part="premises",
        expected="equivalence",
        name="noise",
        expectation="assumed",
    ),
    sample(
        "l2",
        "False",
        ["False", "True"],
        mr="MR-152",
        part="conclusion",
        expected="difference",
        name="negate",
        expectation="proven",
        followup_label="True",
    ),
    sample(
        "l3",
        "True",
        ["True", "hmm"],
        mr="MR-1",
        part="both",
        expected="equivalence",
        name="characters",
        expectation="assumed",
    ),
    sample(
        "l4",
        "True",
        ["", ""],
        mr="MR-60",
        part="none",
        expected="equivalence",
        name="paraphrase",
        expectation="unproven",
        transform={"ok": False, "reason": "empty transformer output"},
    ),
]
ATTRIBUTES = ("logic", "category", "problem_type", "length", "skill", "rule")
LOGICASKER = [
    sample("a1", "yes", ["Yes."], **dict(zip(ATTRIBUTES, ("propositional", "inference", "infer", 1, "mp", "mp")))),
    sample("a2", "no", ["yes"], **dict(zip(ATTRIBUTES, ("predicate", "fallacy", "judge", 2, "ac", "ac")))),
    sample("a3", "no", ["I cannot tell."], **dict(zip(ATTRIBUTES, ("predicate", "inference", "infer", 2, "mt", "mt")))),
]
QMFOL = [
    sample(
        "q1", "True", ['{"label": "True"}'], depth_width="d1_w2", distractor_level="D0", topic="Animals", label="True"
    ),
    sample("q2", "False", ["Unknown"], depth_width="d3_w2", distractor_level="D5", topic="Jobs", label="False"),
    sample("q3", "Unknown", ["no idea"], depth_width="d1_w2", distractor_level="D5", topic="Jobs", label="Unknown"),
]
OPTIONS = ["A dog barks.", "A cat sleeps.", "Nobody sings.", "It rains."]
DIVLOGICEVAL = [
    sample("d1", "A", ["Answer: A", "Answer: D", "Answer: C", "Answer: B"], options=OPTIONS, question_type="3e1c"),
    sample("d2", "B", ["Answer: B", "?", "Answer: A", "Answer: A"], options=OPTIONS, question_type="missing"),
]

SUITES: dict[str, tuple[Callable[[], Scorer], list[Sample]]] = {
    "lgmt": (metamorphic_consistency, LGMT),
    "lexical": (lexical_consistency, LEXICAL),
    "logicasker": (yes_no_answer, LOGICASKER),
    "qmfol": (qmfol_scorer, QMFOL),
    "divlogiceval": (circular_choice, DIVLOGICEVAL),
}

LGMT_RATES = (
    "mvr",
    "acc_static",
    "acc_cons",
    "hdr",
    "fur",
    "unparsed_rate",
    "acc_static_parsed",
    "acc_cons_parsed",
)
DIVLOGICEVAL_METRICS = ("acc", "circular", "partial_circular", "rotation_acc", "unparsed_rate")
LOGICASKER_BREAKDOWNS = {
    "logic": "response_accuracy_logic_{group_name}",
    "category": "response_accuracy_category_{group_name}",
    "problem_type": "response_accuracy_problem_type_{group_name}",
    "length": "response_accuracy_length_{group_name}",
    "skill": "response_accuracy_rule_{group_name}",
}


def grouped(name: str, key: str, template: str) -> tuple[str, str, str]:
    return (f"lgmt_tasks/{name}", key, template)


REGISTERED: dict[str, list[str | tuple[str, str, str]]] = {
    "lgmt": [
        *(f"lgmt_tasks/{rate}" for rate in LGMT_RATES),
        *(f"lgmt_tasks/{rate}_stderr" for rate in LGMT_RATES),
        "lgmt_tasks/acc_static_per_case",
        "lgmt_tasks/acc_static_per_case_stderr",
        *(grouped(rate, "category", f"{rate}_{{group_name}}") for rate in LGMT_RATES),
        grouped("mvr", "mr", "mvr_{group_name}"),
    ],
    "lexical": [
        *(f"lgmt_tasks/{rate}" for rate in LGMT_RATES),
        *(f"lgmt_tasks/{rate}_stderr" for rate in LGMT_RATES),
        "lgmt_tasks/cm_pass_correct",
        "lgmt_tasks/cm_pass_wrong",
        "lgmt_tasks/cm_fail_correct",
        "lgmt_tasks/cm_fail_wrong",
        "lgmt_tasks/discarded_rate",
        grouped("mvr", "mr", "mvr_{group_name}"),
        grouped("hdr", "mr", "hdr_{group_name}"),
        grouped("mvr", "part", "mvr_{group_name}"),
        grouped("mvr", "expectation", "mvr_{group_name}"),
    ],
    "logicasker": [
        "lgmt_tasks/accuracy",
        "lgmt_tasks/accuracy_stderr",
        "lgmt_tasks/response_accuracy",
        "lgmt_tasks/response_accuracy_stderr",
        "lgmt_tasks/instruction_following_rate",
        *(grouped("response_accuracy", key, template) for key, template in LOGICASKER_BREAKDOWNS.items()),
    ],
    "qmfol": [
        "lgmt_tasks/accuracy",
        "lgmt_tasks/accuracy_stderr",
        "lgmt_tasks/accuracy_parsed",
        "lgmt_tasks/accuracy_parsed_stderr",
        "lgmt_tasks/f1",
        "lgmt_tasks/answer_distribution",
        "lgmt_tasks/unparsed_rate",
        *(
            grouped("accuracy", key, "accuracy_{group_name}")
            for key in ("depth_width", "distractor_level", "topic", "label")
        ),
        grouped("unparsed_rate", "label", "unparsed_rate_{group_name}"),
    ],
    "divlogiceval": [
        *(f"lgmt_tasks/{name}" for name in DIVLOGICEVAL_METRICS),
        *(f"lgmt_tasks/{name}_stderr" for name in DIVLOGICEVAL_METRICS),
        "lgmt_tasks/acc_parsed",
        "lgmt_tasks/acc_parsed_stderr",
        *(grouped(name, "question_type", f"{name}_{{group_name}}") for name in DIVLOGICEVAL_METRICS),
    ],
}
"""Per suite, every metric its scorer lists: a registered name, or (inner metric, metadata key, name template)."""

LABELS = ("True", "False", "Unknown")
LOGGED: dict[str, set[str]] = {
    "lgmt": {
        *LGMT_RATES,
        *(f"{rate}_stderr" for rate in LGMT_RATES),
        "acc_static_per_case",
        "acc_static_per_case_stderr",
        *(f"{rate}_{category}" for rate in LGMT_RATES for category in ("MR-E", "MR-S", "MR-C")),
        "mvr_MR-E1.1",
        "mvr_MR-S1",
        "mvr_MR-C3",
    },
    "lexical": {
        *LGMT_RATES,
        *(f"{rate}_stderr" for rate in LGMT_RATES),
        "cm_pass_correct",
        "cm_pass_wrong",
        "cm_fail_correct",
        "cm_fail_wrong",
        "discarded_rate",
        *(f"{rate}_{mr}" for rate in ("mvr", "hdr") for mr in ("MR-49", "MR-152", "MR-1", "MR-60")),
        *(f"mvr_{part}" for part in ("premises", "conclusion", "both", "none")),
        *(f"mvr_{basis}" for basis in ("proven", "assumed", "unproven")),
    },
    "logicasker": {
        "accuracy",
        "accuracy_stderr",
        "response_accuracy",
        "response_accuracy_stderr",
        "instruction_following_rate",
        "response_accuracy_logic_propositional",
        "response_accuracy_logic_predicate",
        "response_accuracy_category_inference",
        "response_accuracy_category_fallacy",
        "response_accuracy_problem_type_infer",
        "response_accuracy_problem_type_judge",
        "response_accuracy_length_1",
        "response_accuracy_length_2",
        *(f"response_accuracy_rule_{skill}" for skill in ("mp", "ac", "mt")),
    },
    "qmfol": {
        "accuracy",
        "accuracy_stderr",
        "accuracy_parsed",
        "accuracy_parsed_stderr",
        *(f"f1_{label}{parsed}" for label in LABELS for parsed in ("", "_parsed")),
        "macro_f1",
        "macro_f1_parsed",
        *(f"dist_{gold}_{answer}" for gold in LABELS for answer in (*LABELS, "unparsed")),
        "unparsed_rate",
        *(f"accuracy_{value}" for value in ("d1_w2", "d3_w2", "D0", "D5", "Animals", "Jobs", *LABELS)),
        *(f"unparsed_rate_{label}" for label in LABELS),
    },
    "divlogiceval": {
        *DIVLOGICEVAL_METRICS,
        *(f"{name}_stderr" for name in DIVLOGICEVAL_METRICS),
        "acc_parsed",
        "acc_parsed_stderr",
        *(f"{name}_{kind}" for name in DIVLOGICEVAL_METRICS for kind in ("3e1c", "missing")),
    },
}
"""Per suite, every metric name in the log of a run on its scripted samples."""


def registered(scorer: Scorer) -> list[str | tuple[str, str, str]]:
    """The metrics a scorer lists, by registered name (grouped ones by inner name, key and template)."""
    out: list[str | tuple[str, str, str]] = []
    for item in registry_info(scorer).metadata["metrics"]:
        name = registry_info(item).name
        if name == "inspect_ai/grouped":
            params = registry_params(item)
            out.append((params["metric"]["name"], params["group_key"], params["name_template"]))
        else:
            out.append(name)
    return out


@pytest.mark.parametrize("suite", SUITES)
def test_registered_metric_names(suite: str) -> None:
    make, _ = SUITES[suite]
    assert registered(make()) == REGISTERED[suite]


@pytest.mark.parametrize("suite", SUITES)
def test_logged_metric_names(suite: str, tmp_path: Path) -> None:
    make, samples = SUITES[suite]
    task = Task(dataset=MemoryDataset(samples), solver=scripted(), scorer=make())
    [log] = eval(task, model="mockllm/model", log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.results is not None
    [scores] = log.results.scores
    assert set(scores.metrics) == LOGGED[suite]
    # a metric of one number is logged under its registered name; a dict or grouped one under each key
    plain = {name for name in REGISTERED[suite] if isinstance(name, str)}
    expected = {key: f"lgmt_tasks/{key}" if f"lgmt_tasks/{key}" in plain else key for key in LOGGED[suite]}
    assert {key: metric.name for key, metric in scores.metrics.items()} == expected
