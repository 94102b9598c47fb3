"""QMFOL: monadic first-order logic reasoning with controlled depth, width, label and distractors (Zheng et al., 2026).

Each sample is one task: shuffled premises (rules, distractor rules, facts) and a conclusion the model labels True,
False or Unknown. Every label is proven by Z3; the English is read back to its formulas. The scorer reports
accuracy, label-wise F1 and macro-F1, the answer distribution per gold label, the unparsed rate, and accuracy by
depth × width, distractors, topic and label.

Examples:
    inspect eval lgmt_tasks/qmfol --model openai/gpt-4o-mini
    inspect eval lgmt_tasks/qmfol --model lgmt/smollm2 -T depth=5 -T width=5 -T distractors=[0,20] --limit 24
    inspect eval lgmt_tasks/qmfol --model openai/gpt-4o -T dataset=datasets/qmfol
    inspect eval lgmt_tasks/qmfol --model openai/gpt-4o -T distractors=0 -T padding_tokens=600
    inspect eval lgmt_tasks/qmfol --model lgmt/smollm2 -T prefill=true --max-tokens 8 --limit 20
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import Model

from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import Values, validated_args

VERSION = suite("qmfol").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""

TEMPERATURE = 1.0
"""The tasks' temperature (`Task.config`): QMFOL §4 ("Model Configuration") runs GPT, Gemini and Claude at their
default configuration with temperature 1, "as lower values may lead to unexpected behavior, such as looping or
degraded performance", and Qwen at its official recommended settings. A run's own `--temperature` wins (e.g.
`--temperature 0.6` for Qwen3's thinking mode, or 0 for a reproducible local run); the lm-eval config decodes
greedily."""


@task
@validated_args
def qmfol(
    depth: Values = None,
    width: Values = None,
    distractors: Values = None,
    topic: Values = None,
    label: Values = None,
    seed: int | None = None,
    per_config: int | None = None,
    padding_tokens: int = 0,
    dataset: str | None = None,
    revision: str | None = None,
    prefill: bool = False,
    form: str | None = None,
    grader: str | Model | None = None,
) -> Task:
    """QMFOL tasks of a (sub-)grid, built on the fly or read from a built dataset.

    Multi-valued parameters take one value (`-T depth=5`), a list (`-T depth=[5,10]`) or a string
    (`-T depth="5,10"`). Without `dataset`, the default grid is depth 5 and 10, width 5 and 10, 0 and 10
    distractors, all labels and topics, one seed (96 tasks); with `dataset`, the default is every row.

    Args:
        depth: Reasoning depths D (the paper: 5, 10, 15, 20).
        width: Reasoning widths W (the paper: 5, 10, 15, 20).
        distractors: Numbers of distractor rules (the paper: 0, 5, 10, 15, 20).
        topic: Topics: Food, Animal, University, Mathematics.
        label: Gold labels: True, False, Unknown.
        seed: First task seed (default 0).
        per_config: Seeds per configuration (the paper: 3; default 1).
        padding_tokens: Neutral filler words appended after the premises, for the length ablation of §4.2.2; only
            for tasks without distractors (pass `-T distractors=0`).
        dataset: A folder written by `lgmt build qmfol`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        prefill: Open the assistant turn with `{"label": "` (the JSON the prompt asks for), so that a small local
            model answers in format; the model then answers without reasoning first. Not in the paper; off by
            default. Needs a provider that continues a trailing assistant message (e.g. `lgmt/smollm2`).
        form: `quantified` (facts and conclusion over every entity, the paper's default when building) or `ground`
            (about one object); with `dataset`, selects the rows of that form.
        grader: A grader model that reads only the replies the rules leave unparsed, reported apart as the
            `grader_read` scorer (see `lgmt_tasks.scorers.grader`); default none.

    Returns:
        The task.
    """
    # imported here, not at module level: Inspect imports every installed plugin (this module among them) before any
    # eval (`tests/test_import_graph.py`, `benchmarks/bench_import.py`)
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.model import GenerateConfig

    from lgmt_tasks.qmfol.dataset import load_qmfol, record_to_sample
    from lgmt_tasks.scorers.grader import with_grader
    from lgmt_tasks.scorers.qmfol import qmfol_scorer
    from lgmt_tasks.solvers.qmfol import qmfol_generate

    loaded = load_qmfol(
        depth=depth,
        width=width,
        distractors=distractors,
        topic=topic,
        label=label,
        seed=seed,
        per_config=per_config,
        dataset=dataset,
        revision=revision,
        form=form,
        padding_tokens=padding_tokens,
    )
    rows = loaded.rows
    return Task(
        dataset=MemoryDataset([record_to_sample(r, padding_tokens) for r in rows.to_list()], name="qmfol"),
        solver=qmfol_generate(prefill),
        scorer=with_grader(qmfol_scorer(), grader, "truth"),
        config=GenerateConfig(temperature=TEMPERATURE),
        version=VERSION,
        metadata=loaded.task_metadata,
    )


__all__ = ["qmfol"]
