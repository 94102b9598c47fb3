"""In-context demonstrations for LogicAsker (§3.4, Appendix E): worked tests with their answer and the rule.

A demonstration is a test generated like any other (`generate.generate`, with its own seeds so that it never
coincides with a test of the evaluation), followed by its answer and a one-line explanation that names the rule:

    Consider the following premises: ... Can we infer the following from them? Answer yes or no: ...
    Answer: no. This is the logical fallacy of affirming the consequent.

The paper's improvement experiment (Table 6) compares four demonstrations drawn from the weakest skills of an
earlier run, two answered yes and two no, with four drawn at random. `demonstrations_for` builds either set from
a list of (skill, problem type) leaves; `random_leaves` draws the random set (also two yes and two no, so that the
two conditions differ only in which skills they show). Choosing the weakest leaves from a log is the report's job
(`lgmt_tasks.logicasker.report.weakest_leaves`).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from lgmt_tasks.ids import derived_seed
from lgmt_tasks.logic.prover import DEFAULT_TIMEOUT_MS
from lgmt_tasks.logicasker.catalogue import YES_TYPE, Skill
from lgmt_tasks.logicasker.english import question
from lgmt_tasks.logicasker.generate import Problem, Rejected, generate

DEMONSTRATIONS = 4
"""Demonstrations per prompt (the paper's Table 6 uses four: two yes, two no)."""

ATTEMPTS = 30
"""Generation attempts per demonstration."""


def demonstration_text(problem: Problem) -> str:
    """A worked test: the question, then "Answer: yes/no." and the one-line explanation naming the rule.

    Args:
        problem: A generated, proven test.

    Returns:
        The demonstration text.
    """
    explanation = problem.skill.explanation(problem.problem_type, problem.form_name)
    return f"{question(problem.premises, problem.conclusion)}\nAnswer: {problem.answer}. {explanation}"


def demonstrations_for(
    leaves: Sequence[tuple[Skill, str]],
    *,
    seed: int,
    length: int = 1,
    avoid: Collection[str] = (),
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> list[str]:
    """One demonstration per (skill, problem type) leaf, in the given order.

    Args:
        leaves: The skills and problem types to demonstrate.
        seed: Seed of the demonstrations (derived seeds never meet those of a build).
        length: Chain length of the demonstrations.
        avoid: Row ids of the evaluation's tests; a demonstration equal to one is regenerated.
        timeout_ms: Z3 limit per check.

    Returns:
        The demonstration texts.

    Raises:
        ValueError: If a leaf's problem type is not one of its skill's, or no attempt succeeds.
    """
    texts: list[str] = []
    for slot, (skill, problem_type) in enumerate(leaves):
        # An unrelated leaf whose chains decide every literal in their own words is shown as a contradiction, as
        # the builder does (`build.UNRELATED_ATTEMPTS`).
        kinds = (problem_type, "contradiction") if problem_type == "unrelated" else (problem_type,)
        text = next(
            (t for kind in kinds if (t := _demonstration(skill, kind, seed, length, slot, avoid, timeout_ms))), None
        )
        if text is None:
            raise ValueError(f"no demonstration of {skill.name} ({problem_type}) after {ATTEMPTS} attempts")
        texts.append(text)
    return texts


def _demonstration(
    skill: Skill, problem_type: str, seed: int, length: int, slot: int, avoid: Collection[str], timeout_ms: int
) -> str | None:
    """The first demonstration of one leaf that generates and is not an evaluation test, or None."""
    for attempt in range(ATTEMPTS):
        rng = random.Random(derived_seed(seed, "demonstration", skill.id, problem_type, length, slot, attempt))
        result = generate(skill, problem_type, length, rng, timeout_ms=timeout_ms)
        if isinstance(result, Rejected) or result.id in avoid:
            continue
        return demonstration_text(result)
    return None


def random_leaves(skills: Sequence[Skill], seed: int, n: int = DEMONSTRATIONS) -> list[tuple[Skill, str]]:
    """Draw `n` leaves of distinct skills at random: half answered yes, half no (yes first, then no, shuffled).

    Args:
        skills: The skills to draw from (at least `n`).
        seed: Seed of the draw.
        n: Number of leaves.

    Returns:
        The leaves, in a seeded order.

    Raises:
        ValueError: If there are fewer skills than `n`.
    """
    if len(skills) < n:
        raise ValueError(f"{n} random demonstrations need {n} skills; only {len(skills)} are selected")
    rng = random.Random(derived_seed(seed, "random demonstrations"))
    chosen = rng.sample(list(skills), n)
    leaves = [(s, YES_TYPE if i < n // 2 else rng.choice(s.no_types)) for i, s in enumerate(chosen)]
    rng.shuffle(leaves)
    return leaves
