"""DivLogicEval: logic questions in diverse, counter-intuitive English, with circular evaluation (Chung et al., 2025).

Each sample is one four-option question (3c1e: which option follows; 3e1c: which does not; missing: which option is
the missing premise) whose answer key is proven by Z3. The model answers all four circular rotations of the options;
the scorer reports Accuracy (original order), Circular (all four right) and PartialCircular (Eq. 2, or PC_α).
`form=symbolic` shows the formulas instead of the English (s-DivLogicEval, Table 7), `instruction=no_reasoning`
adds the NoLR sentence of §3.1, and `dataset=ttchungc/DivLogicEval` runs the authors' released questions.

Examples:
    inspect eval lgmt_tasks/divlogiceval --model openai/gpt-4o-mini
    inspect eval lgmt_tasks/divlogiceval --model lgmt/smollm2 -T question_type=3e1c -T shots=3 -T per_type=50
    inspect eval lgmt_tasks/divlogiceval --model openai/gpt-4o -T dataset=ttchungc/DivLogicEval -T form=symbolic
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import Model

from lgmt_tasks.divlogiceval.config import (
    DEFAULT_N,
    DEFAULT_PER_TYPE,
    FormChoice,
    QuestionTypeChoice,
    VariantChoice,
)
from lgmt_tasks.solvers.divlogiceval import InstructionChoice
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import validated_args

VERSION = suite("divlogiceval").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""


@task
@validated_args
def divlogiceval(
    question_type: QuestionTypeChoice = "all",
    shots: int = 0,
    alpha: float = 1.0,
    form: FormChoice = "natural",
    instruction: InstructionChoice = "standard",
    per_type: int = DEFAULT_PER_TYPE,
    seed: int = 0,
    n: int = DEFAULT_N,
    pool: str | None = None,
    dataset: str | None = None,
    variant: VariantChoice = "polished",
    revision: str | None = None,
    grader: str | Model | None = None,
) -> Task:
    """DivLogicEval with circular evaluation: ACC, Circular, PartialCircular, per question type.

    Args:
        question_type: `3c1e`, `3e1c`, `missing`, or `all` (default).
        shots: 0 (default) or 3: three solved examples, one per question type, from a seed stream disjoint from the
            evaluated instances (§4.1); from the unpolished file for the authors' released data.
        alpha: PC_α's weight of the entropy penalty in [0, 1]; 1 (default) is the paper's PartialCircular.
        form: `natural` (default) or `symbolic`: content, conclusion and options shown as formulas in the authors'
            notation (s-DivLogicEval, Table 7); the question wording stays.
        instruction: `standard` (default, Appendix I) or `no_reasoning`: Appendix I's instruction followed by the
            NoLR sentence of §3.1 (Table 4).
        per_type: Instances per question type of the on-the-fly build (the paper's test set: 300).
        seed: Build seed (the same seed gives the same instances, byte for byte).
        n: The paper's n: 2..n + 1 propositions per instance.
        pool: A sentence pool to instantiate variables with: `snli+coco` (the default: SNLI premises and hypotheses
            and COCO captions), `snli` (SNLI only), `frames` (our generated sentences; alias `builtin`), a `.txt` /
            `.jsonl` file or a dataset with a `sentence` column.
        dataset: A folder written by `lgmt build divlogiceval`, a Hub dataset id, or the authors' released data (a
            folder with `polished.parquet` / `unpolished.parquet`, or `ttchungc/DivLogicEval`), to evaluate instead
            of building.
        variant: `polished` (default; the paper's 900-question test set) or `unpolished`: which file of the
            authors' released data to evaluate.
        revision: Hub revision of `dataset`.
        grader: A grader model that reads only the replies the rules leave unparsed, reported apart as the
            `grader_read` scorer (see `lgmt_tasks.scorers.grader`); default none.

    Returns:
        The task.
    """
    # imported here, not at module level: Inspect imports every installed plugin (this module among them) before any
    # eval (`tests/test_import_graph.py`, `benchmarks/bench_import.py`)
    from inspect_ai.dataset import MemoryDataset

    from lgmt_tasks.divlogiceval.dataset import load_divlogiceval, record_to_sample, shot_rows, shown_row
    from lgmt_tasks.scorers.divlogiceval import circular_choice, rules_read
    from lgmt_tasks.scorers.divlogiceval_arithmetic import check_alpha
    from lgmt_tasks.scorers.grader import with_grader
    from lgmt_tasks.solvers.divlogiceval import check_instruction, check_shots, rotations_generate

    check_shots(shots)
    check_alpha(alpha)
    check_instruction(instruction)
    loaded = load_divlogiceval(
        question_type,
        per_type=per_type,
        seed=seed,
        n=n,
        pool=pool,
        dataset=dataset,
        revision=revision,
        variant=variant,
        form=form,
        used_elsewhere=("per_type", "seed", "n", "pool") if shots else (),
    )
    rows = loaded.rows  # in `form` already
    examples = (
        shot_rows(
            exclude_ids=rows["id"], per_type=per_type, seed=seed, n=n, pool=pool, dataset=dataset, revision=revision
        )
        if shots
        else []
    )
    shown_examples = [shown_row(e, form) for e in examples]
    samples = [record_to_sample(r, shown_examples, instruction) for r in rows.to_list()]
    return Task(
        dataset=MemoryDataset(samples, name="divlogiceval"),
        solver=rotations_generate(),
        scorer=with_grader(circular_choice(alpha), grader, "choice", rules_read),
        version=VERSION,
        metadata=loaded.task_metadata,
    )


__all__ = ["divlogiceval"]
