"""The shared lm-eval code (`task_configs/_requests.py`): one task class for several requests per document, one
reader of the run-time parameters, one aggregation helper, and no suite's configs reaching into another suite's."""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import re
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from lm_eval.api.model import LM
from lm_eval.api.task import ConfigurableTask

import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.scorers.pairwise import RATE_NAMES, group_outcome
from lgmt_tasks.suites import SUITE_NAMES
from lgmt_tasks.task_configs import _aggregation, _label_groups, _params, _requests
from lgmt_tasks.task_configs._aggregation import RATE_AGGREGATIONS, aggregation
from lgmt_tasks.task_configs._label_groups import LabelGroupTask, interleave_by
from lgmt_tasks.task_configs._params import Parameters, check_metadata_keys, dataset_params
from lgmt_tasks.task_configs._requests import FewshotRefusingTask, MultiRequestTask, argmax, choices, completions
from lgmt_tasks.task_configs.divlogiceval.utils import DivLogicEvalTask
from lgmt_tasks.task_configs.lexical.utils import LexicalTask
from lgmt_tasks.task_configs.lgmt.utils import LgmtTask

CONFIGS = Path(task_configs.__file__).parent
MULTI_REQUEST_SUITES = {"lgmt": LgmtTask, "lexical": LexicalTask, "divlogiceval": DivLogicEvalTask}
SHARED_BEHAVIOUR = (
    "__init__",
    "prepare",
    "download",
    "unit_context",
    "doc_to_text",
    "fewshot_context",
    "construct_requests",
)
"""What `MultiRequestTask` does once for every suite: a suite class must not do it again."""


def utils_of(name: str) -> ModuleType:
    return importlib.import_module(f"lgmt_tasks.task_configs.{name}.utils")


def function_tags(path: Path) -> list[str]:
    """The dotted paths of every `!function` tag of a YAML file."""

    class Loader(yaml.SafeLoader):
        pass

    found: list[str] = []
    Loader.add_constructor("!function", lambda loader, node: found.append(loader.construct_scalar(node)))
    yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    return found


# --- (a) one shared class ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_every_task_class_of_a_suite_is_the_shared_multi_request_task(name: str) -> None:
    module = utils_of(name)
    classes = [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and issubclass(cls, ConfigurableTask)
    ]
    expected = [MULTI_REQUEST_SUITES[name]] if name in MULTI_REQUEST_SUITES else []
    if name in MULTI_REQUEST_SUITES:
        assert classes == expected
    else:  # LogicAsker and QMFOL make one request per document: lm-eval's YAML task, refusing --num_fewshot only
        [cls] = classes
        assert issubclass(cls, FewshotRefusingTask) and not issubclass(cls, MultiRequestTask)
        assert {key for key in vars(cls) if not key.startswith("_")} == {"FEWSHOT_HINT"}  # nothing else of its own
    for cls in classes:
        again = [attribute for attribute in SHARED_BEHAVIOUR if attribute in vars(cls)]
        assert not again, f"{cls.__name__} redefines {again}; extend the shared task class instead"


def test_the_label_group_suites_share_one_class_and_one_set_of_aggregations() -> None:
    assert LgmtTask.__mro__[1] is LabelGroupTask and LexicalTask.__mro__[1] is LabelGroupTask
    assert DivLogicEvalTask.__mro__[1] is MultiRequestTask
    assert issubclass(LabelGroupTask, MultiRequestTask)
    lgmt, lexical = utils_of("lgmt"), utils_of("lexical")
    for metric in RATE_NAMES:
        shared = RATE_AGGREGATIONS[metric]
        assert getattr(lgmt, f"{metric}_aggregation") is shared is getattr(lexical, f"{metric}_aggregation")


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_yamls_name_only_their_own_suites_code(name: str) -> None:
    tags = [tag for path in sorted((CONFIGS / name).glob("*.yaml")) for tag in function_tags(path)]
    assert tags
    own = f"lgmt_tasks.task_configs.{name}.utils."
    assert [tag for tag in tags if not tag.startswith(own)] == []
    for tag in tags:  # every tag resolves; a `class:` is the shared task class
        module, _, attribute = tag.rpartition(".")
        target = getattr(importlib.import_module(module), attribute)
        assert callable(target)
        if inspect.isclass(target):
            assert issubclass(target, FewshotRefusingTask)  # the shared base (MultiRequestTask is one)


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_no_suite_config_imports_another_suites_config(name: str) -> None:
    others = {f"lgmt_tasks.task_configs.{other}" for other in SUITE_NAMES if other != name}
    for path in sorted((CONFIGS / name).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        offending = [m for m in imported if any(m == o or m.startswith(f"{o}.") for o in others)]
        assert not offending, f"{path.relative_to(CONFIGS)} imports {offending}"


# --- (b) parameters: one reader, unknown keys reported --------------------------------------------------------


PARAMS = Parameters(suite="Demo", dataset=("per_mr", "seed", "dataset"), task=("prompting",), fixed=("relation_set",))


def test_unknown_metadata_keys_are_reported_with_the_valid_keys_and_a_suggestion(caplog) -> None:
    metadata = {
        "per_mrr": 3,  # a typo
        "prompt": "zero_shot",  # another
        "colour": "red",  # nothing close
        "per_mr": 4,
        "version": "1-A",  # lm-eval's own
        "config_source": "x.yaml",
        "pretrained": "gpt2",  # model arguments, which lm-eval merges into the metadata
        "dtype": "float32",
    }
    params = dataset_params(PARAMS, {"relation_set": "mr_e", "seed": 0}, metadata)
    assert params == {"relation_set": "mr_e", "seed": 0, "per_mr": 4}
    messages = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    valid = "Demo parameters: relation_set, per_mr, dataset_seed, dataset, prompting"
    assert messages == [  # each names the task (here the stem of the YAML lm-eval records as config_source)
        f"x: metadata key 'colour' is not a parameter of Demo; it is ignored. {valid}",
        f"x: metadata key 'per_mrr' is not a parameter of Demo (did you mean 'per_mr'?); it is ignored. {valid}",
        f"x: metadata key 'prompt' is not a parameter of Demo (did you mean 'prompting'?); it is ignored. {valid}",
    ]


def test_the_arguments_of_any_imported_model_class_are_not_reported() -> None:
    assert check_metadata_keys(PARAMS, {"max_flux": 3}) == ["max_flux"]

    class FluxLM(LM):  # a model backend: lm-eval builds (so imports) it before it loads the tasks
        def __init__(self, max_flux: int = 1) -> None:
            super().__init__()

    assert check_metadata_keys(PARAMS, {"max_flux": 3}) == []


def test_unknown_dataset_kwargs_are_an_error_naming_the_valid_keys() -> None:
    message = "Demo dataset_kwargs: unknown key(s) 'sed' (did you mean 'seed'?); valid: relation_set, per_mr, seed"
    with pytest.raises(ValueError, match=re.escape(message)):
        dataset_params(PARAMS, {"relation_set": "mr_e", "sed": 1}, {})
    with pytest.raises(ValueError, match=re.escape("unknown key(s) 'prompting'")):  # a task key is no loader key
        dataset_params(PARAMS, {"relation_set": "mr_e", "prompting": "zero_shot"}, {})


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_every_suite_reads_its_parameters_with_the_one_reader(name: str, caplog) -> None:
    params = utils_of(name).PARAMS
    assert isinstance(params, Parameters)
    key = params.dataset[0]
    typo = key[:-1] + "x" + key[-1]
    fixed = dict.fromkeys(params.fixed, "mr_e")
    # every parameter is given to the loader: the run's value, else the schema's lm-eval default
    assert dataset_params(params, fixed, {key: 1, typo: 2}) == {**params.defaults, **fixed, key: 1}
    assert set(params.defaults) == set(params.dataset)
    assert f"metadata key {typo!r} is not a parameter of {params.suite} (did you mean {key!r}?)" in caplog.text


def test_renamed_keys_are_read_with_a_deprecation_warning() -> None:
    renamed = Parameters(suite="Demo", dataset=("per_group",), renamed={"per_mr": "per_group"})
    with pytest.warns(DeprecationWarning, match="Demo metadata: 'per_mr' is deprecated, use 'per_group'"):
        assert dataset_params(renamed, {}, {"per_mr": 3}) == {"per_group": 3}
    with pytest.raises(ValueError, match="both 'per_mr' and 'per_group'"):
        dataset_params(renamed, {"per_mr": 3, "per_group": 3}, {})
    assert check_metadata_keys(renamed, {"per_mr": 3}) == []  # an old name is no unknown key


# --- aggregations and regrouping -------------------------------------------------------------------------------


def test_aggregation_names_documents_and_reads_rates() -> None:
    outcomes = [group_outcome("True", "True", ["False"]), group_outcome("True", "True", ["True"])]
    mvr = RATE_AGGREGATIONS["mvr"]
    assert tuple(RATE_AGGREGATIONS) == RATE_NAMES
    assert mvr.__name__ == "mvr_aggregation" and "violation" in (mvr.__doc__ or "")
    assert mvr(outcomes) == 0.5
    assert math.isnan(mvr([]))
    count = aggregation("count_a", lambda items: len(items), "How many.", where={"kind": "a"})
    assert count.__name__ == count.__qualname__ == "count_a_aggregation" and count.__doc__ == "How many."
    assert count([{"kind": "a"}, {"kind": "b"}, {"kind": "a"}]) == 2.0


def test_completions_and_choices_undo_the_request_numbering() -> None:
    doc = {"id": "d1"}
    assert completions(doc, ["x", "y"], 2, "member") == ["x", "y"]
    # two units, three continuations each: unit 0 prefers continuation 2, unit 1 ties between 0 and 1 (first wins)
    results = [(-3.0, False), (-2.0, False), (-1.0, False), (-1.0, False), (-1.0, False), (-5.0, False)]
    assert choices(doc, results, 2, 3, "rotation") == [2, 0]
    assert argmax([0.0, 1.0, 1.0]) == 1
    with pytest.raises(ValueError, match=re.escape("document 'd1': 5 results for 2 rotations (3 per rotation)")):
        choices(doc, results[:5], 2, 3, "rotation")
    with pytest.raises(ValueError, match=re.escape("document 'd1': 1 results for 2 members (1 per member)")):
        completions(doc, ["x"], 2, "member")


def test_interleave_by_is_round_robin() -> None:
    import datasets

    rows = datasets.Dataset.from_dict({"mr": ["a", "a", "b", "c", "c", "c"], "n": [0, 1, 2, 3, 4, 5]})
    assert interleave_by(rows, "mr")["n"] == [0, 2, 3, 1, 4, 5]
    assert interleave_by(rows, "mr", lambda mr: "x")["n"] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("module", [_aggregation, _label_groups, _params, _requests])
def test_the_shared_modules_import_no_suite(module: ModuleType) -> None:
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    suites = [m for m in imported if m.split(".")[1:2] and m.split(".")[1] in SUITE_NAMES]
    assert not suites
    assert not [m for m in imported if m.startswith("lgmt_tasks.task_configs.") and m.count(".") > 2]
