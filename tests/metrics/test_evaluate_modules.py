"""The `evaluate` modules of `lgmt_tasks/metrics`: loading, agreement with the pure functions, cards, Spaces, errors.

The DivLogicEval-specific checks of `circular` and `partial_circular` (the paper's 0.125) live in
tests/divlogiceval/test_metrics.py; this file checks every module the same way.
"""

from __future__ import annotations

import ast
import json
import math
import os
import random
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

evaluate = pytest.importorskip("evaluate")

from huggingface_hub import SpaceCard  # noqa: E402

from lgmt_tasks.metrics import METRIC_NAMES, METRICS_DIR, metric_path  # noqa: E402
from lgmt_tasks.scorers import divlogiceval_arithmetic, lexical_arithmetic, logicasker_arithmetic, pairwise  # noqa: E402
from lgmt_tasks.scorers import qmfol_arithmetic as qm  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PAIRWISE = ("mvr", "acc_static", "acc_cons", "hdr", "fur")
TRUTH = ["True", "False", "Unknown"]

# The worked example of each card, with its value counted by hand (see each README).
LGMT_EXAMPLE = {
    "predictions": ["True", "True", "False", "Unknown", "unparsed"],
    "followup_predictions": [["True"], ["False"], ["False"], ["Unknown", "Unknown"], ["True"]],
    "references": ["True", "True", "True", "False", "True"],
}
# groups: consistent-correct, hidden defect, false unreported, false unreported, unparsed (4 of 5 parsed)
EXAMPLES: dict[str, tuple[dict[str, Any], dict[str, float]]] = {
    "mvr": ({k: v for k, v in LGMT_EXAMPLE.items() if k != "references"}, {"mvr": 1 / 4, "unparsed_rate": 1 / 5}),
    "acc_static": (LGMT_EXAMPLE, {"acc_static": 2 / 5, "acc_static_parsed": 2 / 4, "unparsed_rate": 1 / 5}),
    "acc_cons": (LGMT_EXAMPLE, {"acc_cons": 1 / 5, "acc_cons_parsed": 1 / 4, "unparsed_rate": 1 / 5}),
    "hdr": (LGMT_EXAMPLE, {"hdr": 1 / 4, "unparsed_rate": 1 / 5}),
    "fur": (LGMT_EXAMPLE, {"fur": 2 / 4, "unparsed_rate": 1 / 5}),
    "response_accuracy": (
        {"predictions": ["yes", "no", "no", "unparsed"], "references": ["yes", "yes", "no", "no"]},
        {"accuracy": 2 / 4, "response_accuracy": 2 / 3, "instruction_following_rate": 3 / 4},
    ),
    "macro_f1": (
        {
            "predictions": ["True", "False", "Unknown", "Unknown", "unparsed"],
            "references": ["True", "False", "False", "Unknown", "True"],
        },
        # True: P 1/1, R 1/2 (the unparsed answer to a True task is a miss; over parsed answers R 1/1);
        # False: P 1/1, R 1/2; Unknown: P 1/2, R 1/1
        {
            "f1_True": 2 / 3,
            "f1_False": 2 / 3,
            "f1_Unknown": 2 / 3,
            "macro_f1": 2 / 3,
            "f1_True_parsed": 1.0,
            "macro_f1_parsed": 7 / 9,
            "accuracy": 3 / 5,
            "accuracy_parsed": 3 / 4,
        },
    ),
    "llmorph_confusion": (
        {
            "predictions": ["True", "True", "False", "False", "unparsed"],
            "followup_predictions": ["True", "False", "False", "True", "True"],
            "references": ["True", "True", "True", "True", "True"],
            "expected_relations": ["equivalence", "equivalence", "equivalence", "difference", "equivalence"],
        },
        {"cm_pass_correct": 1 / 4, "cm_pass_wrong": 2 / 4, "cm_fail_correct": 1 / 4, "cm_fail_wrong": 0.0},
    ),
    "partial_circular": ({"predictions": [[0, 0, 2, 3]], "references": [0]}, {"partial_circular": 0.125}),
    "circular": (
        {"predictions": [[0, 0, 0, 0], [0, 0, 2, 3]], "references": [0, 0]},
        {"circular": 0.5, "accuracy": 1.0},
    ),
}


@pytest.fixture(scope="module")
def modules() -> dict[str, Any]:
    return {name: evaluate.load(metric_path(name), keep_in_memory=True) for name in METRIC_NAMES}


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def assert_same(result: dict[str, Any], expected: dict[str, float]) -> None:
    assert result.keys() == expected.keys()
    for key, value in expected.items():
        assert same(result[key], value), (key, result[key], value)


# ------------------------------------------------------------------------------------------------ the examples


def test_every_folder_is_a_module() -> None:
    folders = {p.name for p in METRICS_DIR.iterdir() if p.is_dir() and (p / f"{p.name}.py").exists()}
    assert folders == set(METRIC_NAMES) == set(EXAMPLES)


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_worked_example_counted_by_hand(modules: dict[str, Any], name: str) -> None:
    inputs, expected = EXAMPLES[name]
    result = modules[name].compute(**inputs)
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-15), key


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_card_shows_what_compute_returns(modules: dict[str, Any], name: str) -> None:
    # The card's code block prints the full result of its example: keep the two in step.
    inputs, _ = EXAMPLES[name]
    result = modules[name].compute(**inputs)
    card = (METRICS_DIR / name / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", card, re.S)
    assert code is not None
    flat = " ".join(re.sub(r"^#\s", "", line) for line in code.group(1).splitlines())
    assert " ".join(repr(result).split()) in " ".join(flat.split())


def test_lgmt_identities_hold_on_the_modules(modules: dict[str, Any]) -> None:
    rng = random.Random(11)
    for _ in range(5):
        n = rng.randint(3, 25)
        inputs = random_groups(rng, n)
        results = {name: modules[name].compute(**inputs) for name in PAIRWISE if name != "mvr"}
        r = {name: result[name] for name, result in results.items()}
        r |= {f"{n}_parsed": results[n][f"{n}_parsed"] for n in ("acc_static", "acc_cons")}
        r["mvr"] = modules["mvr"].compute(predictions=inputs["predictions"], **followups_only(inputs))["mvr"]
        if math.isnan(r["mvr"]):
            continue
        assert r["acc_static_parsed"] - r["acc_cons_parsed"] == pytest.approx(r["hdr"], abs=1e-12)
        assert r["mvr"] + r["acc_cons_parsed"] + r["fur"] == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------------------------ same as the pure functions


def random_groups(rng: random.Random, n: int) -> dict[str, list[Any]]:
    answers = [*TRUTH, "unparsed"]
    return {
        "predictions": [rng.choice(answers) for _ in range(n)],
        "followup_predictions": [[rng.choice(answers) for _ in range(rng.randint(1, 3))] for _ in range(n)],
        "references": [rng.choice(TRUTH) for _ in range(n)],
    }


def followups_only(inputs: dict[str, list[Any]]) -> dict[str, list[Any]]:
    return {"followup_predictions": inputs["followup_predictions"]}


def read(answer: str) -> str | None:
    return None if answer == "unparsed" else answer


@pytest.mark.parametrize("seed", range(4))
def test_lgmt_modules_return_what_the_pure_functions_return(modules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    inputs = random_groups(rng, rng.randint(1, 30))
    outcomes = [
        pairwise.group_outcome(gold, read(source), [read(a) for a in followups])
        for source, followups, gold in zip(
            inputs["predictions"], inputs["followup_predictions"], inputs["references"], strict=True
        )
    ]
    unparsed = pairwise.unparsed_rate(outcomes).value
    for name in PAIRWISE:
        given = {"predictions": inputs["predictions"], **followups_only(inputs)}
        if name != "mvr":
            given["references"] = inputs["references"]
        rate = pairwise.RATES[name](outcomes)
        expected = {name: rate.value, f"{name}_stderr": rate.stderr, "unparsed_rate": unparsed}
        if name in ("acc_static", "acc_cons"):
            expected[f"{name}_parsed"] = pairwise.RATES[f"{name}_parsed"](outcomes).value
        assert_same(modules[name].compute(**given), expected)


@pytest.mark.parametrize("seed", range(4))
def test_response_accuracy_returns_what_the_pure_functions_return(modules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    predictions = [rng.choice(["yes", "no", "unparsed"]) for _ in range(n)]
    references = [rng.choice(["yes", "no"]) for _ in range(n)]
    outcomes = [logicasker_arithmetic.yes_no_outcome(g, read(p)) for p, g in zip(predictions, references, strict=True)]
    result = modules["response_accuracy"].compute(predictions=predictions, references=references)
    assert_same(result, logicasker_arithmetic.summarize(outcomes))


@pytest.mark.parametrize("seed", range(4))
def test_macro_f1_returns_what_the_pure_functions_return(modules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    predictions = [rng.choice([*TRUTH, "unparsed"]) for _ in range(n)]
    references = [rng.choice(TRUTH) for _ in range(n)]
    outcomes = [qm.sample_outcome(g, read(p)) for p, g in zip(predictions, references, strict=True)]
    expected = {
        **qm.f1_scores(outcomes),
        "accuracy": qm.accuracy(outcomes).value,
        "accuracy_parsed": qm.accuracy_parsed(outcomes).value,
        "unparsed_rate": qm.unparsed_rate(outcomes).value,
    }
    assert_same(modules["macro_f1"].compute(predictions=predictions, references=references), expected)


@pytest.mark.parametrize("seed", range(4))
def test_llmorph_confusion_returns_what_the_pure_functions_return(modules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    sources = [rng.choice([*TRUTH, "unparsed"]) for _ in range(n)]
    followups = [rng.choice([*TRUTH, "unparsed"]) for _ in range(n)]
    golds = [rng.choice(TRUTH) for _ in range(n)]
    relations = [rng.choice(["equivalence", "difference"]) for _ in range(n)]
    outcomes = []
    for s, f, g, e in zip(sources, followups, golds, relations, strict=True):
        violation = None if "unparsed" in (s, f) else lexical_arithmetic.label_violation(e, s, f)
        outcomes.append(lexical_arithmetic.lexical_outcome(e, g, read(s), read(f), violation))
    expected = {
        **lexical_arithmetic.confusion_matrix(outcomes),
        "mvr": pairwise.mvr(outcomes).value,
        "unparsed_rate": pairwise.unparsed_rate(outcomes).value,
    }
    result = modules["llmorph_confusion"].compute(
        predictions=sources, followup_predictions=followups, references=golds, expected_relations=relations
    )
    assert_same(result, expected)


@pytest.mark.parametrize("seed", range(4))
def test_divlogiceval_modules_return_what_the_pure_functions_return(modules: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    predictions = [[rng.choice([-1, 0, 1, 2, 3]) for _ in range(4)] for _ in range(n)]
    references = [rng.randrange(4) for _ in range(n)]
    alpha = rng.random()
    pc = modules["partial_circular"].compute(predictions=predictions, references=references, alpha=alpha)
    values = [
        divlogiceval_arithmetic.partial_circular(p, g, alpha) for p, g in zip(predictions, references, strict=True)
    ]
    assert pc == {"partial_circular": divlogiceval_arithmetic.mean(values)}
    cir = modules["circular"].compute(predictions=predictions, references=references)
    pairs = list(zip(predictions, references, strict=True))
    assert cir == {
        "circular": divlogiceval_arithmetic.mean([divlogiceval_arithmetic.circular(p, g) for p, g in pairs]),
        "accuracy": divlogiceval_arithmetic.mean([divlogiceval_arithmetic.accuracy(p, g) for p, g in pairs]),
    }


def test_the_lgmt_modules_take_a_custom_label_set(modules: dict[str, Any]) -> None:
    result = modules["acc_cons"].compute(
        predictions=["yes", "no"],
        followup_predictions=[["yes"], ["yes"]],
        references=["yes", "no"],
        labels=["yes", "no"],
    )
    assert result["acc_cons"] == 0.5


# ---------------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("name", "inputs", "message"),
    [
        ("hdr", {**LGMT_EXAMPLE, "references": ["True"]}, "references"),
        ("response_accuracy", {"predictions": ["yes"], "references": ["yes", "no"]}, "references"),
        ("acc_cons", {**LGMT_EXAMPLE, "predictions": ["True", "Maybe", "True", "True", "True"]}, r"predictions\[1\]"),
        ("mvr", {"predictions": ["True"], "followup_predictions": [["Tru"]]}, r"followup_predictions\[0\]\[0\]"),
        ("mvr", {"predictions": ["True"], "followup_predictions": [[]]}, r"followup_predictions\[0\] is empty"),
        ("fur", {**LGMT_EXAMPLE, "references": ["True", "True", "True", "False", "unparsed"]}, r"references\[4\]"),
        ("response_accuracy", {"predictions": ["Yes"], "references": ["yes"]}, r"predictions\[0\] = 'Yes'"),
        ("response_accuracy", {"predictions": ["yes"], "references": ["maybe"]}, r"references\[0\]"),
        ("macro_f1", {"predictions": ["True"], "references": ["Unknown1"]}, r"references\[0\] = 'Unknown1'"),
        ("macro_f1", {"predictions": ["true"], "references": ["True"]}, r"predictions\[0\]"),
        (
            "llmorph_confusion",
            {
                "predictions": ["True"],
                "followup_predictions": ["True"],
                "references": ["True"],
                "expected_relations": ["equal"],
            },
            r"expected_relations\[0\] = 'equal'",
        ),
        ("acc_static", {**LGMT_EXAMPLE, "labels": ["True", "True"]}, "labels"),
        ("circular", {"predictions": [[0, 0, 0, 4]], "references": [0]}, "predictions must be option indices"),
        ("partial_circular", {"predictions": [[0, 0, 0, 0]], "references": [0], "alpha": 2.0}, "alpha"),
    ],
)
def test_bad_input_names_the_argument(modules: dict[str, Any], name: str, inputs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        modules[name].compute(**inputs)


def test_metric_path_lists_the_modules_on_an_unknown_name() -> None:
    with pytest.raises(ValueError, match="mvr, acc_static, acc_cons, hdr, fur"):
        metric_path("f1")


# ----------------------------------------------------------------------------- one implementation: the scorers'


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_compute_only_packs_inputs_for_the_scorers_functions(name: str) -> None:
    # The script imports its arithmetic from lgmt_tasks.scorers and its _compute does none of its own: no binary
    # operator (+, -, *, /, ...) and no sum/len/mean-like builtins. A second implementation would need them.
    # LGMT's five rates share their `_compute` in `pairwise_rates.py` and pass it the scorers' rate function.
    tree = ast.parse((METRICS_DIR / name / f"{name}.py").read_text(encoding="utf-8"))
    sources = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert any(module and module.startswith("lgmt_tasks.scorers.") for module in sources)
    if name in PAIRWISE:
        tree = ast.parse((METRICS_DIR / "pairwise_rates.py").read_text(encoding="utf-8"))
    compute = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_compute")
    body = [node for statement in compute.body for node in ast.walk(statement)]  # not the annotations (`X | None`)
    assert not [n for n in body if isinstance(n, ast.BinOp | ast.AugAssign)]
    called = {n.func.id for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not called & {"sum", "len", "max", "min"}


# ------------------------------------------------------------------------------------------- Spaces and package


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_card_is_a_metric_space_card(name: str) -> None:
    folder = METRICS_DIR / name
    text = (folder / "README.md").read_text(encoding="utf-8")
    data = SpaceCard(text).data.to_dict()
    assert data["sdk"] == "gradio" and data["app_file"] == "app.py" and data["pinned"] is False
    assert {"evaluate", "metric"} <= set(data["tags"])
    assert data["title"] and data["description"] and data["emoji"] and data["colorFrom"] and data["colorTo"]
    # evaluate's widget strips the front matter with this pattern and shows the rest
    assert evaluate.utils.gradio.REGEX_YAML_BLOCK.search(text) is not None
    assert {"app.py", "requirements.txt", "README.md", f"{name}.py"} <= {p.name for p in folder.iterdir()}
    assert "lgmt-tasks" in (folder / "requirements.txt").read_text().split()


@pytest.mark.parametrize("name", ["mvr", "partial_circular"])
def test_space_app_loads_its_script_from_a_folder_named_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # A Space clones its repository into a folder of another name (e.g. `app`): app.py must still find the script.
    space = tmp_path / "app"
    shutil.copytree(METRICS_DIR / name, space)
    launched: list[Any] = []
    monkeypatch.setattr(evaluate.utils, "launch_gradio_widget", launched.append)
    runpy.run_path(str(space / "app.py"))
    assert len(launched) == 1 and launched[0].name == name
    inputs, expected = EXAMPLES[name]
    assert launched[0].compute(**inputs)[name] == pytest.approx(expected[name], abs=1e-15)


def test_pyproject_ships_every_module_folder() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    packages = set(config["tool"]["setuptools"]["packages"])
    assert {f"lgmt_tasks.metrics.{name}" for name in METRIC_NAMES} <= packages
    shipped = config["tool"]["setuptools"]["package-data"]["*"]
    assert "*.md" in shipped and "*.txt" in shipped  # the cards and requirements.txt


def test_modules_load_offline_in_a_fresh_process(tmp_path: Path) -> None:
    # Both offline switches set and an empty module cache: loading from the local paths needs nothing else.
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_EVALUATE_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_MODULES_CACHE": str(tmp_path / "modules"),
        "HF_HOME": str(tmp_path / "hf"),
    }
    shapes = ("mvr", "macro_f1", "partial_circular")  # one per input shape (every module loads in-process above)
    examples = {name: EXAMPLES[name][0] for name in shapes}
    script = (
        "import json, sys, evaluate\n"
        "from lgmt_tasks.metrics import metric_path\n"
        "examples = json.loads(sys.argv[1])\n"
        "print(json.dumps({n: evaluate.load(metric_path(n)).compute(**kw) for n, kw in examples.items()}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(examples)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for name in shapes:
        for key, value in EXAMPLES[name][1].items():
            assert results[name][key] == pytest.approx(value, abs=1e-15), (name, key)
