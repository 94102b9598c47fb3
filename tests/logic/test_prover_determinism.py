"""The prover's outcomes do not depend on its mode, on the order of the queries, or on the process asking them.

The default mode reuses one Z3 context per thread, where Z3's term ids, and so its search, depend on what was asked
before; these tests ask 150 real FOLIO/ProverQA label queries in two orders, in this process and in two fresh
processes, and compare the outcomes with those of the original path (a fresh context through z3's Python layer).
The ``"fresh"`` mode is meant to make exactly the same Z3 calls as ``"python"``, which Z3's own statistics (its
resource count, decisions, conflicts, instantiations) show check by check.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from lgmt_tasks.logic import prover
from lgmt_tasks.logic.prover import PROVER_MODES, Label, entailment, equivalent, satisfiable
from lgmt_tasks.logic.syntax import Atom, Formula
from lgmt_tasks.logic.z3_context import shared_context
from lgmt_tasks.sources.common import SourceRecordError, parse_problem
from lgmt_tasks.sources.load import iter_problems

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
FILES = [
    ("folio", "folio/folio_v2_validation.jsonl"),
    ("folio", "folio/folio_v0_validation.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_easy.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_medium.jsonl"),
    ("proverqa", "proverqa/proverqa_dev_hard.jsonl"),
]
PER_FILE = 30

needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"needs the shared source data in {DATA}")


def load_queries(per_file: int = PER_FILE) -> list[tuple[tuple[Formula, ...], Formula]]:
    """The first `per_file` parsable problems of each file, as (premises, conclusion)."""
    queries = []
    for source, rel in FILES:
        taken = 0
        for problem in iter_problems(source, DATA / rel):  # type: ignore[arg-type]
            try:
                queries.append(parse_problem(problem))
            except SourceRecordError:
                continue
            taken += 1
            if taken == per_file:
                break
    return queries


def outcomes(queries: list[tuple[tuple[Formula, ...], Formula]], order: list[int], mode: str) -> list[str]:
    """The outcome of every query, by query index, asked in `order`."""
    found: dict[int, str] = {}
    for i in order:
        found[i] = str(entailment(*queries[i], mode=mode))  # type: ignore[arg-type]
    return [found[i] for i in range(len(queries))]


def shuffled(n: int) -> list[int]:
    """A fixed order unlike both the file order and its reverse (a stride coprime to `n`)."""
    stride = next(s for s in range(n // 2 + 1, 2 * n + 2) if math.gcd(s, n) == 1)
    return [(i * stride) % n for i in range(n)]


CHILD = """
import json, sys
from tests.logic.test_prover_determinism import load_queries, outcomes, shuffled
queries = load_queries()
order = list(range(len(queries)))
order = order[::-1] if sys.argv[1] == "reverse" else shuffled(len(order))
print(json.dumps(outcomes(queries, order, "shared")))
"""


@pytest.fixture(scope="module")
def queries() -> list[tuple[tuple[Formula, ...], Formula]]:
    return load_queries()


@pytest.fixture(scope="module")
def original(queries: list[tuple[tuple[Formula, ...], Formula]]) -> list[str]:
    """Outcomes of the original path: a fresh context per query through z3's Python layer."""
    return outcomes(queries, list(range(len(queries))), "python")


@needs_data
def test_the_queries_cover_every_label(queries: list[Any], original: list[str]) -> None:
    assert len(queries) == PER_FILE * len(FILES)
    assert {Label.TRUE.value, Label.FALSE.value, Label.UNKNOWN.value} <= set(original)


@needs_data
@pytest.mark.parametrize("mode", ["shared", "fresh"])
def test_two_orders_in_one_process_agree_with_the_original_path(
    queries: list[Any], original: list[str], mode: str
) -> None:
    n = len(queries)
    assert outcomes(queries, list(range(n)), mode) == original
    assert outcomes(queries, list(range(n))[::-1], mode) == original
    assert outcomes(queries, shuffled(n), mode) == original


@needs_data
def test_two_processes_in_two_orders_agree_with_the_original_path(original: list[str]) -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    env.pop("LGMT_PROVER", None)
    runs = []
    for order in ("reverse", "shuffled"):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, order], cwd=ROOT, env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert runs[0] == original
    assert runs[1] == original


@needs_data
def test_fresh_mode_makes_the_same_z3_calls_as_the_python_layer(
    queries: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every check's result and Z3 statistics (resource count, decisions, conflicts...) are equal in both modes."""
    log: list[tuple[str, str, tuple[tuple[str, Any], ...]]] = []
    check = prover._Session.check

    def recording_check(self: Any, what: str, *extra: Any) -> Any:
        result = check(self, what, *extra)
        stats = self.solver.statistics()
        volatile = {"time", "memory", "max memory", "num allocs"}
        log.append((what, str(result), tuple((k, stats.get_key_value(k)) for k in stats.keys() if k not in volatile)))
        return result

    monkeypatch.setattr(prover._Session, "check", recording_check)
    compared = 0
    for premises, conclusion in queries[::5]:
        runs = []
        for mode in ("python", "fresh"):
            log.clear()
            entailment(premises, conclusion, mode=mode)  # type: ignore[arg-type]
            runs.append(list(log))
        assert runs[0] == runs[1]
        assert any(key == "rlimit count" for _, _, stats in runs[0] for key, _ in stats)
        compared += len(runs[0])
    assert compared >= 2 * len(queries[::5])


@needs_data
def test_equivalence_and_satisfiability_agree_across_modes(queries: list[Any]) -> None:
    for premises, conclusion in queries[:40]:
        answers = {mode: equivalent(premises[0], conclusion, mode=mode) for mode in PROVER_MODES}  # type: ignore[arg-type]
        assert len(set(answers.values())) == 1, answers
        sat = {mode: satisfiable(premises, mode=mode) for mode in PROVER_MODES}  # type: ignore[arg-type]
        assert len(set(sat.values())) == 1, sat


def test_each_thread_has_its_own_shared_context() -> None:
    seen: list[int] = []

    def remember() -> None:
        seen.append(id(shared_context()))

    here = shared_context()
    threads = [threading.Thread(target=remember) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert shared_context() is here
    assert id(here) not in seen


def test_an_unknown_mode_is_an_error_naming_where_it_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    problem: tuple[list[Formula], Formula] = ([], Atom("P"))
    with pytest.raises(ValueError, match="mode must be one of shared, fresh, python, got 'fast'"):
        entailment(*problem, mode="fast")  # type: ignore[arg-type]
    monkeypatch.setenv("LGMT_PROVER", "warm")
    with pytest.raises(ValueError, match="environment variable LGMT_PROVER must be one of .* got 'warm'"):
        entailment(*problem)
    monkeypatch.setenv("LGMT_PROVER", "python")
    assert entailment(*problem) == Label.UNKNOWN
