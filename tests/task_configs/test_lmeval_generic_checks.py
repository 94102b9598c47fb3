"""lm-eval's own generic task checks, run on every lm-eval task of ours.

lm-eval tests a task with the class `TestBaseTasks` of its `tests/test_tasks.py` (not shipped in the wheel, so its
checks are restated here, each under the name of the lm-eval test it comes from): splits declared, `doc_to_text`
a string that does not end in whitespace when the target delimiter is whitespace, targets, `build_all_requests`,
and `construct_requests(doc, ctx=task.doc_to_text(doc))` with the single string context it passes (our multi-request
tasks take it as the first unit's context). Each suite's tasks read a small build of it (`slices`), so nothing is
built on first use.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from lm_eval.tasks import TaskManager

import lgmt_tasks.task_configs as task_configs
from lgmt_tasks.suites import SUITE_NAMES, suite

CONFIGS = Path(task_configs.__file__).parent
LIMIT = 10


@pytest.fixture(scope="module")
def loaded(slices: dict[str, Path]) -> dict[str, list[Any]]:
    """Every lm-eval task of every suite, loaded on the suite's slice."""
    out: dict[str, list[Any]] = {}
    for name in SUITE_NAMES:
        tm = TaskManager(
            include_path=str(CONFIGS / name), include_defaults=False, metadata={"dataset": str(slices[name])}
        )
        tasks = tm.load(list(suite(name).lm_eval_tasks))["tasks"]
        assert sorted(tasks) == sorted(suite(name).lm_eval_tasks)
        out[name] = list(tasks.values())
    return out


def docs(task: Any) -> list[Any]:
    return list(islice(task.test_docs() if task.has_test_docs() else task.validation_docs(), LIMIT))


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_splits_as_lm_eval_checks_them(loaded: dict[str, list[Any]], name: str) -> None:
    for task in loaded[name]:
        assert task.has_test_docs() and task._config["test_split"] is not None  # test_check_test_docs
        assert task.has_training_docs() in (True, False) and task.has_validation_docs() in (True, False)
        assert task.should_decontaminate() in (True, False)  # test_should_decontaminate


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_doc_to_text_as_lm_eval_checks_it(loaded: dict[str, list[Any]], name: str) -> None:
    for task in loaded[name]:
        delimiter: str = task.config.target_delimiter
        for doc in docs(task):
            text = task.doc_to_text(doc)
            assert isinstance(text, str) and text
            if delimiter.isspace():  # "doc_to_text ends in a whitespace and target delimiter also a whitespace"
                assert not text[-1].isspace(), (task.config.task, text[-20:])


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_requests_as_lm_eval_builds_them(loaded: dict[str, list[Any]], name: str) -> None:
    for task in loaded[name]:
        sample = docs(task)
        assert [task.doc_to_target(doc) for doc in sample]  # test_doc_to_target
        task.build_all_requests(rank=0, limit=LIMIT, world_size=1)  # test_build_all_requests
        assert task.instances
        # test_construct_requests: one string context, as lm-eval's check passes it
        requests = [task.construct_requests(doc=doc, ctx=task.doc_to_text(doc)) for doc in sample]
        assert len(requests) == len(sample)
        for doc, made in zip(sample, requests, strict=True):
            made = made if isinstance(made, list) else [made]
            assert made and made[0].arguments[0] == task.doc_to_text(doc)  # the string is the first context
