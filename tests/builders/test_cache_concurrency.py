"""Two processes that need the same build at once: both succeed, one builds, and the entry is whole.

This is a user's case (two `inspect eval` runs started together on a cold cache) and the test suite's own (its
parallel workers share one build cache). The first test races two real evaluations; whether they overlap depends on
timing, so what it asserts holds either way. The second makes the overlap certain: the test holds the entry's lock,
so the other process must wait for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from lgmt_tasks.builders.cache import BUILDS_DIR, cache_digest, entry_lock, entry_problem
from lgmt_tasks.logicasker.build import BUILD_REVISION, build_logicasker
from lgmt_tasks.logicasker.card import write_logicasker_repo
from lgmt_tasks.logicasker.config import LogicAskerConfig
from tests.hub.repo_contents import repo_contents

BIN = Path(sys.executable).parent
CATEGORY = "inference"
PER_SKILL = 4
"""A build that is not shipped (so it must be built) and takes a few seconds (so two runs can overlap)."""
CONFIG = LogicAskerConfig(category=(CATEGORY,), per_skill=PER_SKILL)


def offline_env(cache: Path) -> dict[str, str]:
    return {
        **os.environ,
        "LGMT_CACHE_DIR": str(cache),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "INSPECT_CACHE_DIR": str(cache / "inspect"),
    }


def entries(cache: Path) -> list[Path]:
    return sorted((cache / BUILDS_DIR).iterdir())


def expected_repo(tmp_path: Path) -> dict[str, bytes]:
    """The same build written directly by the builder, in this process, outside any cache."""
    return repo_contents(write_logicasker_repo(build_logicasker(CONFIG), tmp_path / "direct"))


EVALUATION = """
import sys
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from lgmt_tasks.logicasker.task import logicasker

def reply(*_):
    output = ModelOutput.from_content(model="mockllm/model", content="Answer: yes")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return output

[log] = eval(
    logicasker(category={category!r}, per_skill={per_skill}),
    model=get_model("mockllm/model", custom_outputs=reply),
    limit=4,
    log_dir=sys.argv[1],
    display="none",
)
"""


def test_two_evaluations_on_a_cold_cache_both_succeed_with_identical_data(tmp_path: Path) -> None:
    """Two Inspect evaluations of the same non-shipped build, started together, each in its own process."""
    cache = tmp_path / "cache"
    code = EVALUATION.format(category=CATEGORY, per_skill=PER_SKILL)
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(tmp_path / name)],
            env=offline_env(cache),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (_, err) in zip(runs, outputs):
        assert run.returncode == 0, err[-2000:]
    stderr = "".join(err for _, err in outputs)
    assert stderr.count("building logicasker dataset") == 1, stderr  # one built; the other waited or found it
    [entry, record, lock] = entries(cache)  # no temporary or damaged folder left behind
    assert record.name == entry.name + ".fingerprint" and lock.name == entry.name + ".lock"
    assert entry_problem(entry) is None
    assert repo_contents(entry) == expected_repo(tmp_path)
    logs = [read_eval_log(list_eval_logs(str(tmp_path / name))[0].name) for name in ("a", "b")]
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    assert len({log.eval.metadata["dataset"]["fingerprint"] for log in logs if log.eval.metadata}) == 1
    ids = [[(s.id, s.target) for s in log.samples or []] for log in logs]
    assert ids[0] == ids[1] and len(ids[0]) == 4


WAITER = """
from lgmt_tasks.logicasker.dataset import load_logicasker
loaded = load_logicasker(category={category!r}, per_skill={per_skill})
print("rows", len(loaded.rows), loaded.metadata["fingerprint"])
"""


def test_a_second_process_waits_for_the_build_in_progress_and_reads_it(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    target = cache / BUILDS_DIR / cache_digest("logicasker", CONFIG.key(), BUILD_REVISION)
    target.parent.mkdir(parents=True)
    code = WAITER.format(category=CATEGORY, per_skill=PER_SKILL)
    with entry_lock(target, "logicasker"):  # this process "is building"
        waiter = subprocess.Popen(
            [sys.executable, "-c", code],
            env=offline_env(cache),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert waiter.stderr is not None
        said = ""
        while not any(word in said for word in ("waiting", "building")) and waiter.poll() is None:
            said += waiter.stderr.readline()  # blocks until the waiter says something
        assert "waiting for another process that is building this logicasker dataset" in said, said
        assert "building logicasker dataset" not in said
        time.sleep(0.5)
        assert waiter.poll() is None  # still waiting while the lock is held
        write_logicasker_repo(build_logicasker(CONFIG), target)  # the build "finishes" (written in place)
    out, err = waiter.communicate(timeout=300)
    assert waiter.returncode == 0, err
    assert "building logicasker dataset" not in err  # it read the finished entry instead of building again
    assert out.startswith("rows ")
    assert repo_contents(target) == expected_repo(tmp_path)
