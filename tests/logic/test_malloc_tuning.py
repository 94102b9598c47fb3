"""The glibc tuning that keeps Z3's freed memory for the next query: applied where it can be, and only there."""

from __future__ import annotations

import ctypes.util
import subprocess
import sys

import pytest

from lgmt_tasks.logic.malloc_tuning import tune_malloc_for_z3

GLIBC = sys.platform == "linux" and ctypes.util.find_library("c") is not None


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_the_thresholds_are_set_on_linux_with_glibc() -> None:
    assert tune_malloc_for_z3() is True


def test_the_tuning_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LGMT_MALLOC_TUNING", "0")
    assert tune_malloc_for_z3() is False


def test_labels_are_the_same_with_and_without_the_tuning() -> None:
    # The tuning changes where memory comes from, never what Z3 decides: the same queries, in fresh processes.
    script = (
        "from lgmt_tasks.logic.parse import parse; from lgmt_tasks.logic.prover import entailment;"
        "qs = [(['∀x (P(x) → Q(x))', 'P(a)'], 'Q(a)'), (['P(a) ∨ Q(a)'], 'P(a)'), (['¬P(a)'], 'P(a)'),"
        " (['∀x ∃y R(x, y)', '∀x ∀y (R(x, y) → ¬R(y, x))'], '∃x ∃y R(x, y)')];"
        "print([str(entailment([parse(p) for p in ps], parse(c))) for ps, c in qs])"
    )
    outputs = {
        flag: subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={"LGMT_MALLOC_TUNING": flag, "PATH": ""},
        ).stdout
        for flag in ("0", "1")
    }
    assert outputs["0"] == outputs["1"]
    assert "True" in outputs["1"] and "False" in outputs["1"] and "Unknown" in outputs["1"]


def test_importing_the_entry_point_leaves_the_allocator_alone_until_the_first_query() -> None:
    # Loading the Inspect entry point (every `inspect` process does) must not retune glibc; the first proof does.
    script = (
        "import lgmt_tasks._registry; from lgmt_tasks.logic import malloc_tuning as m; before = m.tuned();"
        "from lgmt_tasks.logic.parse import parse; from lgmt_tasks.logic.prover import entailment;"
        "entailment([parse('P(a)')], parse('P(a)')); print(before, m.tuned())"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "None"
    assert out[1] == ("True" if GLIBC else "False")
