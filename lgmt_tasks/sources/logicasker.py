"""The `logicasker` source: LogicAsker's inference chains of a chosen length as LGMT (and lexical) source cases.

LogicAsker (Wan et al., 2024; `lgmt_tasks/logicasker/`) builds yes/no tests of one rule of logic each, grown into
a chain of `length` rule applications (1–7) whose **effective depth** (the fewest rule applications that reach the
conclusion) is measured back and must equal the length. The chain length is a known difficulty, so with this
source LGMT's reliability metrics can be read per depth (`lgmt_tasks.lgmt.difficulty`). This module reuses that
construction unchanged, reached through the suite registry (`suite("logicasker").module(...)`, ARCHITECTURE.md
rule 3), and turns each test into a `Case`:

- **Which skills.** LogicAsker's **predicate-logic** skills only (65 of its 92: quantifier rules, the ∀ / ∃
  extensions of the propositional rules, and the syllogistic fallacies). LGMT's relations are laws of first-order
  logic, and a propositional test would be accepted by its syntax and prover (a proposition is a 0-ary predicate;
  predicate chains already carry some), but it gives the quantifier relations (MR-E3 quantifier laws, MR-S2
  variable renaming, ...) no site, so it would only dilute a difficulty axis meant for first-order problems.
- **Which tests.** Depth d has `per_cell` tests; test `n` is of skill `order[n % 65]`, with `order` the predicate
  skills shuffled by a generator seeded from (seed, d), and of problem type `valid`, `contradiction`, `unrelated`
  for `n % 3` = 0, 1, 2 (a fallacy skill, which has only `valid` and `fallacy`, takes `fallacy` for 1 and 2). So
  each depth mixes the skills evenly and aims at one third of each label. The test is LogicAsker's
  `build.fill_slot` for slot `n` (its attempts seeded from (seed, skill, length, slot, attempt)); an `unrelated`
  slot no attempt fills falls back to `contradiction`, as in LogicAsker's own build (short chains may decide every
  literal of their words).
- **Labels.** LogicAsker's answer is yes/no; LGMT's label is three-valued. Nothing is guessed from the problem
  type: Z3 decides the label on the test's FOL (True, False or Unknown), and it must agree with LogicAsker's gold
  (yes ⇔ True); a disagreement is dropped under bucket `source` with its reason. The source stage then proves the
  label again (`pipeline.prove_sources`), as for every source.
- **English and symbols.** LogicAsker's sentences are the case's English, sentence for sentence. Its FOL names
  (`PlaysSquash`, `john`, `it_is_sunny`) are words already, which LGMT's template realiser splits and speaks, so
  they are kept.
- **Ids.** `source_id` is `d<depth>/<LogicAsker test id>`, e.g. `d3/universal_modus_ponens-1a2b3c4d5e6f`: the depth
  rides in the id (as QMFOL's `d<depth>-w<width>/` does) without a new column. There is no width: LogicAsker
  varies one axis only. `difficulty_of` is the one reader of the format.

Every choice is seeded, so the same depths and seed give the same cases, byte for byte, whatever the number of
processes (one depth is one unit of work).
"""

from __future__ import annotations

import random
import re
from typing import Any

from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import derived_seed
from lgmt_tasks.sources.case import Case
from lgmt_tasks.sources.qmfol import grid_values
from lgmt_tasks.suites import suite

SOURCE = "logicasker"
"""The source's name (`source_dataset` of its cases; `-T source=logicasker`, `lgmt build lgmt --source logicasker`)."""

DEPTH_RANGE: tuple[int, int] = (1, 7)
"""Allowed depths (chain lengths), inclusive: LogicAsker's length experiment (its Table 3) uses 1–7."""

DEFAULT_DEPTHS: tuple[int, ...] = (1, 2, 3)
"""The default depths, QMFOL's default ones (LGMT's config has one depth default for both sources)."""

LOGIC = "predicate"
"""LogicAsker's logic used here (see the module docstring for why not the propositional one)."""

TYPE_CYCLE: tuple[str, ...] = ("valid", "contradiction", "unrelated")
"""Problem type of test `n` of a depth: `TYPE_CYCLE[n % 3]` (`fallacy` for a fallacy skill's no slots)."""

ATTEMPTS = 30
"""Generation attempts per test (LogicAsker's default; `unrelated` tests take its `UNRELATED_ATTEMPTS`)."""

_ID = re.compile(r"d(\d+)/")


def depth_values(given: Any) -> tuple[int, ...]:
    """The depths (chain lengths) of a task or CLI argument: sorted, without repeats, each in 1–7.

    Raises:
        ValueError: Naming `depth`, the bad value and the range.
    """
    return grid_values("depth", given, DEFAULT_DEPTHS, bounds=DEPTH_RANGE)


def difficulty_of(source_id: str) -> int | None:
    """The depth a `logicasker` source id carries (`d3/universal_modus_ponens-…` → 3); None for another format."""
    match = _ID.match(source_id)
    return int(match.group(1)) if match else None


def skills() -> tuple[Any, ...]:
    """LogicAsker's predicate-logic skills, in catalogue order."""
    return tuple(suite("logicasker").module("catalogue").select(LOGIC))


def slot(depth: int, n: int, seed: int) -> tuple[Any, str]:
    """The skill and problem type of test `n` of a depth (see the module docstring)."""
    pool = list(skills())
    random.Random(derived_seed(seed, SOURCE, "skills", depth)).shuffle(pool)
    skill = pool[n % len(pool)]
    wanted = TYPE_CYCLE[n % len(TYPE_CYCLE)]
    return skill, wanted if wanted in skill.problem_types else ("valid" if wanted == "valid" else "fallacy")


def depth_cases(job: tuple[int, int, int, int]) -> tuple[list[Case], BuildStats]:
    """The proven cases of one depth (one unit of work of the source stage).

    Args:
        job: `(depth, per_cell, seed, timeout_ms)`.

    Returns:
        The cases, in test order, and the depth's counts under bucket `source` (`records`, `loaded`,
        `unrelated_as_contradiction`, and drops by reason).
    """
    # Z3 here, not at import: LGMT's config imports this module, and `lgmt build lgmt --help` needs no prover
    from lgmt_tasks.logic.prover import Contradictory, Label, Undecided, entailment

    depth, per_cell, seed, timeout_ms = job
    build = suite("logicasker").module("build")
    stats = BuildStats()
    cases: list[Case] = []
    taken: set[str] = set()
    for n in range(per_cell):
        skill, problem_type = slot(depth, n, seed)
        stats.count("source", "records")
        attempts = BuildStats()  # LogicAsker's per-attempt counts: not part of the LGMT build's statistics
        tries = build.UNRELATED_ATTEMPTS if problem_type == "unrelated" else ATTEMPTS
        problem = build.fill_slot(
            skill, problem_type, depth, seed, n, attempts, attempts=tries, timeout_ms=timeout_ms, taken=taken
        )
        if problem is None and problem_type == "unrelated":
            stats.count("source", "unrelated_as_contradiction")
            problem = build.fill_slot(
                skill, "contradiction", depth, seed, n, attempts, attempts=ATTEMPTS, timeout_ms=timeout_ms, taken=taken
            )
        if problem is None:
            stats.drop("source", "logicasker: no attempt gave a test", ids=[f"d{depth}/{skill.id}/{n}"])
            continue
        source_id = f"d{depth}/{problem.id}"
        result = entailment(problem.premises_fol, problem.conclusion_fol, timeout_ms=timeout_ms)
        if isinstance(result, (Contradictory, Undecided)):
            stats.drop("source", "logicasker: no three-valued label", ids=[source_id])
            continue
        if (result == Label.TRUE) != (problem.answer == "yes"):
            stats.drop("source", f"logicasker: gold {problem.answer} disagrees with Z3 {result.value}", ids=[source_id])
            continue
        cases.append(
            Case(
                premises_fol=tuple(problem.premises_fol),
                conclusion_fol=problem.conclusion_fol,
                premises=tuple(problem.premises),
                conclusion=problem.conclusion,
                label=result.value,
                source_dataset=SOURCE,
                source_id=source_id,
            )
        )
        stats.count("source", "loaded")
    return cases, stats


__all__ = [
    "ATTEMPTS",
    "DEFAULT_DEPTHS",
    "DEPTH_RANGE",
    "LOGIC",
    "SOURCE",
    "TYPE_CYCLE",
    "depth_cases",
    "depth_values",
    "difficulty_of",
    "skills",
    "slot",
]
