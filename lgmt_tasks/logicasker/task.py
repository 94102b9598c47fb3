"""LogicAsker: atomic and extended logic skills as proven yes/no tests (Wan et al., EMNLP 2024).

Each sample applies one rule of propositional or predicate logic (92 skills: equivalence laws, inference rules,
fallacies, and the ∀ / ∃ extensions of every propositional rule), possibly at the end of a chain of 1-7 inferences,
and asks the paper's question (Appendix G): "Consider the following premises: ... Can we infer the following from
them? Answer yes or no: ...". Answers are proven by Z3 and balanced per skill and length. The scorer reports
response accuracy (correct / answers that follow the instruction), the instruction-following rate, and response
accuracy per logic, category, problem type, length and rule.

Examples:
    inspect eval lgmt_tasks/logicasker --model openai/gpt-4o-mini
    inspect eval lgmt_tasks/logicasker --model lgmt/smollm2 -T logic=propositional -T length=1..7 -T per_skill=2
    inspect eval lgmt_tasks/logicasker --model openai/gpt-4o-mini -T demonstrations=weakness -T weakness_log=logs/x.eval

The improvement experiment of the paper's Table 6 is: run once (zero-shot), then run again with
`-T demonstrations=weakness -T weakness_log=<the first log>` (and `-T demonstrations=random` for the baseline).
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import Model

from lgmt_tasks.logicasker.config import DEFAULT_PER_SKILL
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import validated_args

VERSION = suite("logicasker").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""

TEMPERATURE = 0.0
"""The tasks' temperature (`Task.config`). The paper does not give one; the authors' code queries every model at
temperature 0 (yxwan123/LogicAsker `script/apis.py` lines 68, 88 and 133), as our lm-eval configs do. A run's own
`--temperature` wins (Inspect merges it over the task's)."""

Demonstrations = Literal["none", "random", "weakness"]
DEMONSTRATION_MODES: tuple[str, ...] = ("none", "random", "weakness")


def build_demonstrations(
    mode: str,
    *,
    weakness_log: str | None,
    logic: str | None,
    category: str | None,
    rule: str | None,
    length: int,
    seed: int,
    avoid: set[str],
) -> list[str]:
    """The demonstrations of a run: none, four at random, or four from the weakest leaves of an earlier log.

    Raises:
        ValueError: On an unknown mode, `weakness` without `weakness_log`, or `weakness_log` with another mode.
    """
    if mode not in DEMONSTRATION_MODES:
        raise ValueError(f"demonstrations={mode!r}: expected one of {', '.join(DEMONSTRATION_MODES)}")
    if mode != "weakness" and weakness_log is not None:
        raise ValueError("weakness_log is only used with demonstrations=weakness")
    if mode == "none":
        return []
    from lgmt_tasks.logicasker.catalogue import select
    from lgmt_tasks.logicasker.demonstrations import demonstrations_for, random_leaves

    if mode == "random":
        leaves = random_leaves(select(logic, category, rule), seed)
    else:
        if weakness_log is None:
            raise ValueError("demonstrations=weakness needs -T weakness_log=<an earlier logicasker log>")
        from lgmt_tasks.logicasker.report import weakest_leaves

        leaves = weakest_leaves([weakness_log])
    return demonstrations_for(leaves, seed=seed, length=length, avoid=avoid)


@task
@validated_args
def logicasker(
    logic: str | None = None,
    category: str | None = None,
    rule: str | None = None,
    length: str | int | None = None,
    per_skill: int = DEFAULT_PER_SKILL,
    demonstrations: Demonstrations = "none",
    weakness_log: str | None = None,
    seed: int = 0,
    dataset: str | None = None,
    revision: str | None = None,
    grader: str | Model | None = None,
) -> Task:
    """LogicAsker skills as yes/no questions, scored by response accuracy (§3.3).

    Args:
        logic: `propositional` or `predicate` (comma-separated for several); default both.
        category: `inference`, `equivalence` or `fallacy` (comma-separated for several); default all.
        rule: Rule names or ids, comma-separated (`modus ponens,universal_modus_tollens`); default all 92.
        length: Chain lengths: `1` (default when building), `3`, `1..7`, `1,3,5,7`.
        per_skill: Tests per skill and length, half answered yes (default 4; the paper used 10 per leaf).
        demonstrations: `none` (zero-shot, the paper's default), `random` (four random worked tests, two yes and two
            no) or `weakness` (four from the weakest leaves of `weakness_log`), as in Table 6.
        weakness_log: An earlier LogicAsker Inspect log, for `demonstrations=weakness`.
        seed: Build seed (the same seed gives the same tests, byte for byte; demonstrations use derived seeds).
        dataset: A folder written by `lgmt build logicasker`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        grader: A grader model that reads only the replies the rules leave unparsed, reported apart as the
            `grader_read` scorer (see `lgmt_tasks.scorers.grader`); default none.

    Returns:
        The task.
    """
    # imported here, not at module level: Inspect imports every installed plugin (this module among them) before any
    # eval (`tests/test_import_graph.py`, `benchmarks/bench_import.py`)
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.model import GenerateConfig

    from lgmt_tasks.logicasker.dataset import load_logicasker, record_to_sample
    from lgmt_tasks.scorers.grader import with_grader
    from lgmt_tasks.scorers.logicasker import yes_no_answer
    from lgmt_tasks.solvers.logicasker import logicasker_generate

    loaded = load_logicasker(
        logic=logic,
        category=category,
        rule=rule,
        length=length,
        per_skill=per_skill,
        seed=seed,
        dataset=dataset,
        revision=revision,
        used_elsewhere=("seed",) if demonstrations != "none" else (),
    )
    rows = loaded.rows
    samples = [record_to_sample(r) for r in rows.to_list()]
    shown = build_demonstrations(
        demonstrations,
        weakness_log=weakness_log,
        logic=logic,
        category=category,
        rule=rule,
        length=min(rows["length"]),
        seed=seed,
        avoid={str(s.id) for s in samples},
    )
    return Task(
        dataset=MemoryDataset(samples, name="logicasker"),
        solver=logicasker_generate(shown),
        scorer=with_grader(yes_no_answer(), grader, "yes_no"),
        config=GenerateConfig(temperature=TEMPERATURE),
        version=VERSION,
        metadata={"demonstrations": shown, **loaded.task_metadata},
    )


__all__ = ["logicasker"]
