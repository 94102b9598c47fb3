"""The prover's per-process clock (issue #36: benchmarks read it to compare a build's wall time with its proof time)."""

from __future__ import annotations

from lgmt_tasks.logic import prover
from lgmt_tasks.logic.parse import parse


def test_every_entry_point_call_is_counted_once_with_its_time():
    before = (prover.CLOCK.seconds, prover.CLOCK.cpu_seconds, prover.CLOCK.calls)
    p, q = parse("P(a)"), parse("P(a) | Q(a)")
    assert prover.entailment([p], q) == prover.Label.TRUE
    assert prover.entails([p], q) is True
    assert prover.equivalent(q, parse("Q(a) | P(a)")) is True
    assert prover.satisfiable([p, q]) is True
    seconds, cpu, calls = prover.CLOCK.seconds, prover.CLOCK.cpu_seconds, prover.CLOCK.calls
    assert calls - before[2] == 4
    assert seconds > before[0] and cpu >= before[1]
