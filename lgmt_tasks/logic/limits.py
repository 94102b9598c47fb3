"""The prover's default limits, in a module that imports nothing (not even Z3).

Build configs declare these defaults (`timeout_ms: int = DEFAULT_TIMEOUT_MS`), and the task modules import their
suite's config for the signature's types and defaults; the task modules are imported by Inspect's plugin entry point
before every eval, so taking the constants from `prover` would load Z3 for everyone who has lgmt-tasks installed.
`lgmt_tasks.logic.prover` re-exports both, so `from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS` still works.
"""

from __future__ import annotations

DEFAULT_RLIMIT: int = 2_000_000
"""Z3 resource limit per solver check: the primary limit, deterministic across machines for one Z3 version.

Calibrated with z3-solver 5.4: the costliest check over FOLIO v0/v2 validation and ProverQA dev spends about 22,000
units (the median a few hundred to 1,600), so this leaves a margin of about 100x. Z3 spends roughly 3 million units
per second, so a check that exhausts it costs about 0.6-0.7 s on a current CPU.
"""

DEFAULT_TIMEOUT_MS: int = 10_000
"""Wall-clock limit per solver check in milliseconds: a backstop, about 15x the time `DEFAULT_RLIMIT` takes here.

It is deliberately loose so that the deterministic rlimit, not the machine's speed, decides what is undecided;
it only guards against code paths of Z3 that do not count resources.
"""
