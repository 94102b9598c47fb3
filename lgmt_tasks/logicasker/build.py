"""The LogicAsker builder: skills × lengths × balanced problem types → proven yes/no tests (LogicAsker §3.2).

For every selected skill (`logicasker.catalogue`) and chain length, `per_skill` slots are planned, each with a
problem type. Balanced (the default): half the slots are `valid` (answer yes) and half are the skill's false
kinds (answer no), cycling through `contradiction` and `unrelated` for a non-fallacy rule, `fallacy` for a
fallacy; with an odd `per_skill` the extra slot is yes for every other skill of the catalogue, so the build as a
whole stays balanced. Unbalanced (`balanced=False`, the paper's sampling) draws each slot's type uniformly from the
skill's problem types, which gives a non-fallacy rule one yes in three (the authors' data is 30% yes).

Each slot is filled by `logicasker.generate.generate` with a generator seeded from (seed, skill, length, slot,
attempt): the proven answer must equal the slot's intended answer, or the attempt is rejected with its reason and
the next attempt is made. Rejected attempts are counted per skill (`BuildStats.dropped`); a slot left empty after
`attempts` tries is counted as `unfilled`. Per-item seeds make every test independent of the others, so a build
restricted to some skills gives exactly the rows of the full build for those skills, and the same seed gives
byte-identical rows.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import datasets

from lgmt_tasks.builders.parallel import process_pool
from lgmt_tasks.builders.result import Build
from lgmt_tasks.builders.rows import dataset_from_rows
from lgmt_tasks.builders.stats import BuildStats
from lgmt_tasks.ids import derived_seed
from lgmt_tasks.logic.printer import show
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.logicasker.catalogue import YES_TYPE, Skill, answer_of, catalogue, counts
from lgmt_tasks.logicasker.config import DEFAULT_PER_SKILL, LogicAskerConfig, parse_lengths
from lgmt_tasks.logicasker.english import question
from lgmt_tasks.logicasker.generate import Problem, Rejected, generate

BUILD_REVISION = 3
"""Bumped whenever the builder's output changes for the same config (part of the build-cache key)."""

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "logic": datasets.Value("string"),
        "category": datasets.Value("string"),
        "rule": datasets.Value("string"),
        "problem_type": datasets.Value("string"),
        "length": datasets.Value("int32"),
        "effective_depth": datasets.Value("int32"),
        "premises": datasets.List(datasets.Value("string")),
        "premises_fol": datasets.List(datasets.Value("string")),
        "conclusion": datasets.Value("string"),
        "conclusion_fol": datasets.Value("string"),
        "question": datasets.Value("string"),
        "answer": datasets.Value("string"),
    }
)

UNRELATED_ATTEMPTS = 10
"""Attempts for an `unrelated` slot before it is filled by a contradiction instead.

A short chain often decides every literal in its own words (`generate.independent`), and then every attempt of the
same skill and length fails alike; trying all `attempts` would only cost Z3 time.
"""


class LogicAskerBuild(Build[LogicAskerConfig]):
    """A finished LogicAsker build: its rows, statistics and config."""


def plan(skill: Skill, length: int, per_skill: int, seed: int, balanced: bool = True) -> list[str]:
    """The problem type of each slot of one skill and length (see the module docstring).

    Args:
        skill: The skill.
        length: The chain length.
        per_skill: Number of slots.
        seed: Build seed (used only when not balanced).
        balanced: Equal yes and no (the extra slot of an odd count alternating over the catalogue).

    Returns:
        One problem type per slot, yes slots first.
    """
    if not balanced:
        return [
            random.Random(derived_seed(seed, "type", skill.id, length, i)).choice(skill.problem_types)
            for i in range(per_skill)
        ]
    position = [s.id for s in catalogue()].index(skill.id) + length
    n_yes = per_skill // 2 + (per_skill % 2 if position % 2 == 0 else 0)
    no_types = skill.no_types
    return [YES_TYPE] * n_yes + [no_types[(position + k) % len(no_types)] for k in range(per_skill - n_yes)]


def make_row(problem: Problem) -> dict[str, Any]:
    """One dataset row from a proven test."""
    return {
        "id": problem.id,
        "logic": problem.skill.logic,
        "category": problem.skill.category,
        "rule": problem.skill.name,
        "problem_type": problem.problem_type,
        "length": problem.length,
        "effective_depth": problem.effective_depth,
        "premises": list(problem.premises),
        "premises_fol": [show(p) for p in problem.premises_fol],
        "conclusion": problem.conclusion,
        "conclusion_fol": show(problem.conclusion_fol),
        "question": question(problem.premises, problem.conclusion),
        "answer": problem.answer,
    }


def fill_slot(
    skill: Skill,
    problem_type: str,
    length: int,
    seed: int,
    slot: int,
    stats: BuildStats,
    *,
    attempts: int = 30,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    taken: set[str] | None = None,
) -> Problem | None:
    """Generate the test of one slot: attempts seeded from (seed, skill, length, slot, attempt) until one is proven.

    Args:
        skill: The skill.
        problem_type: The slot's problem type.
        length: Chain length.
        seed: Build seed.
        slot: Index of the slot within (skill, length).
        stats: Where rejected attempts are counted (bucket: the skill id).
        attempts: Maximum attempts.
        timeout_ms: Z3 limit per check.
        taken: Row ids already built; a duplicate counts as a rejected attempt.

    Returns:
        The test, or None when every attempt was rejected.
    """
    for attempt in range(attempts):
        rng = random.Random(derived_seed(seed, skill.id, length, slot, attempt))
        result = generate(skill, problem_type, length, rng, timeout_ms=timeout_ms)
        stats.count(skill.id, "attempts")
        if isinstance(result, Rejected):
            # Named by its seed coordinates: the attempt can be regenerated and re-proven from them.
            stats.drop(skill.id, result.reason, ids=[f"{skill.id}/{length}/{slot}/{attempt}"])
            continue
        if taken is not None:
            if result.id in taken:
                stats.drop(skill.id, "duplicate test")
                continue
            taken.add(result.id)
        return result
    return None


def build_skill(job: tuple[str, LogicAskerConfig]) -> tuple[list[dict[str, Any]], BuildStats]:
    """Every test of one skill, at every length of the config (one unit of work of a build).

    Args:
        job: The skill id and the build config.

    Returns:
        The skill's rows in slot order, and its counts. A duplicate test can only repeat a test of the same skill
        (ids start with the skill id), so checking duplicates within the skill is the same as within the build.
    """
    skill_id, config = job
    skill = next(s for s in config.skills() if s.id == skill_id)
    stats = BuildStats()
    rows: list[dict[str, Any]] = []
    taken: set[str] = set()
    for length in config.lengths:
        for slot, problem_type in enumerate(plan(skill, length, config.per_skill, config.seed, config.balanced)):
            problem = fill_slot(
                skill,
                problem_type,
                length,
                config.seed,
                slot,
                stats,
                attempts=config.attempts if problem_type != "unrelated" else min(config.attempts, UNRELATED_ATTEMPTS),
                timeout_ms=config.timeout_ms,
                taken=taken,
            )
            if problem is None and problem_type == "unrelated":
                # Short chains may decide every literal in their words: the slot stays a no, as a contradiction.
                stats.count(skill.id, "unrelated_as_contradiction")
                problem = fill_slot(
                    skill,
                    "contradiction",
                    length,
                    config.seed,
                    slot,
                    stats,
                    attempts=config.attempts,
                    timeout_ms=config.timeout_ms,
                    taken=taken,
                )
            if problem is None:
                stats.count(skill.id, "unfilled")
                continue
            rows.append(make_row(problem))
            stats.count(skill.id, "tests")
            stats.count(skill.id, problem.answer)
    return rows, stats


def build_logicasker(config: LogicAskerConfig, progress: bool = False, num_proc: int = 1) -> LogicAskerBuild:
    """Build the tests of a config (see the module docstring).

    Args:
        config: What to build.
        progress: Show a progress bar over skills.
        num_proc: Processes to build with, one skill at a time each (the rows and statistics do not depend on it;
            it is not part of the config, so not of the cache key either).

    Returns:
        The rows (sorted by the hash part of their id, which mixes skills so that `--limit` samples many) and the
        statistics.
    """
    from tqdm import tqdm

    stats = BuildStats()
    rows: list[dict[str, Any]] = []
    skills = config.skills()
    with process_pool(num_proc) as workers, tqdm(total=len(skills), desc="skills", disable=not progress) as bar:
        built = workers.map(build_skill, [(skill.id, config) for skill in skills], progress=bar)
    for skill_rows, skill_stats in built:
        rows.extend(skill_rows)
        stats.merge(skill_stats)
    answers = Counter(r["answer"] for r in rows)
    stats.notes["tests"] = len(rows)
    stats.notes["yes"] = answers["yes"]
    stats.notes["no"] = answers["no"]
    stats.notes["skills"] = len(config.skills())
    stats.notes["catalogue"] = {f"{lg}/{cat}": c for (lg, cat), c in counts(config.skills()).items()}
    stats.notes["tests_by_problem_type"] = dict(sorted(Counter(r["problem_type"] for r in rows).items()))
    stats.notes["tests_by_length"] = {str(k): v for k, v in sorted(Counter(r["length"] for r in rows).items())}
    stats.notes["tests_by_effective_depth"] = {
        str(k): v for k, v in sorted(Counter(r["effective_depth"] for r in rows).items())
    }
    rows.sort(key=lambda r: (r["id"].rsplit("-", 1)[1], r["id"]))  # hash order mixes skills for `--limit`
    return LogicAskerBuild(dataset_from_rows(rows, FEATURES), stats, config)


def summary(build: LogicAskerBuild) -> str:
    """What `lgmt build logicasker` prints: tests, yes/no, rejected attempts and unfilled slots."""
    s = build.stats
    unfilled = sum(c.get("unfilled", 0) for c in s.counts.values())
    attempts = sum(c.get("attempts", 0) for c in s.counts.values())
    reasons = Counter[str]()
    for counter in s.dropped.values():
        reasons.update(counter)
    lines = [
        f"{s.notes['tests']} tests ({s.notes['yes']} yes, {s.notes['no']} no) for {s.notes['skills']} skills at "
        f"lengths {', '.join(map(str, build.config.lengths))}; {attempts} attempts, {s.total_dropped()} rejected, "
        f"{unfilled} slots unfilled.",
    ]
    depths = ", ".join(f"{d}: {n}" for d, n in s.notes.get("tests_by_effective_depth", {}).items())
    lines.append(f"Tests by effective depth: {depths or 'none'} (attempts shallower than their length are rejected).")
    if reasons:
        lines.append("Rejected attempts by reason: " + "; ".join(f"{r}: {n}" for r, n in reasons.most_common()))
    return "\n".join(lines)


__all__ = [
    "DEFAULT_PER_SKILL",
    "FEATURES",
    "LogicAskerBuild",
    "LogicAskerConfig",
    "answer_of",
    "build_logicasker",
    "build_skill",
    "fill_slot",
    "make_row",
    "parse_lengths",
    "plan",
    "summary",
]
