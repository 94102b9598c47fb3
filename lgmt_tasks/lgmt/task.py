"""LGMT: logic-grounded metamorphic testing of LLM reasoning (Zhou et al., 2026).

Each sample is one metamorphic group: a source entailment problem and a follow-up made by a relation grounded
in a first-order-logic law and proven by Z3. The model answers every member; the scorer reports the
metamorphic violation rate (MVR), static and consistent accuracy, hidden-defect and false-unreported rates.

Examples:
    inspect eval lgmt_tasks/mr_e --model openai/gpt-4o-mini
    inspect eval lgmt_tasks/lgmt --model lgmt/smollm2 -T prompting=few_shot_cot -T per_mr=20 --limit 40

The seven tasks differ only in their relation set, so they are made by one factory with one signature (the
alternative, seven copies of the same eleven parameters, drifts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset

from lgmt_tasks.lgmt.control import suggest_control
from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt, record_to_sample
from lgmt_tasks.scorers.lgmt import lgmt_metrics, metamorphic_consistency
from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import validated_args
from lgmt_tasks.vocabulary import Prompting, Source

VERSION = suite("lgmt").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""


ARGS_DOC = """
    Args:
        prompting: One of the paper's four prompting strategies (Appendix C.1); default zero_shot_cot.
        source: Source cases: our generated problems, folio / proverqa / logicnli read from `source_path`, qmfol
            (QMFOL problems of a depth × width grid, `depth` and `width`) or logicasker (LogicAsker's
            predicate-logic chains of length `depth`).
        source_path: File or folder of the source records (required unless source=generated, qmfol or logicasker).
        depth: With source=qmfol: reasoning depths, 1–20, one value or a comma list (default 1,2,3); with
            source=logicasker: chain lengths, 1–7 (default 1,2,3; no width).
        width: With source=qmfol: reasoning widths, 0–20, one value or a comma list (default 1,2).
        per_mr: Groups per relation (the paper: up to 200), or `all`: every applicable group (the whole pool).
        seed: Build seed (the same seed gives the same groups, byte for byte).
        followups: Follow-ups per group; k > 1 adds follow-ups from other relations (violation if any differs).
        compose: 0, or 2 / 3 for chains of relations proven end to end.
        translator: `template` (drift-free realiser); model translations are built with `lgmt build`.
        names: Fresh symbols for MR-S: `abstract` (Con1, Pre1) or `natural` (words).
        dataset: A folder written by `lgmt build`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        prefill: Open the assistant turn with the JSON the prompt asks for (helps small local models answer in
            format; not in the paper).
        control: Ask each group's source a second time, unchanged, and report the control rate and MVR above it
            per relation (the noise floor; off by default: greedy decoding makes it 0).

    Returns:
        The task.
"""


def lgmt_task(
    relation_set: str, prompting: str = "zero_shot_cot", prefill: bool = False, control: bool = False, **params: Any
) -> Task:
    """The task every LGMT variant builds: the rows of one relation set, the group solver, the pairwise scorer.

    Args:
        relation_set: Which relations (a key of `MR_SETS`; each variant's task name, e.g. `mr_e`).
        prompting: The prompting strategy.
        prefill: Open the assistant turn with the requested JSON.
        control: Add the control member (the source asked again) and its metrics (`lgmt_tasks.lgmt.control`);
            without it the solver, scorer and metrics are exactly those of a run before the option existed.
        **params: The build-or-load parameters of `load_lgmt_rows`.

    Returns:
        The task.
    """
    suggest_control(control)
    controlled = {"control": True} if control else {}  # off: the log's solver and scorer arguments stay as they were
    loaded = load_lgmt(MR_SETS[relation_set], **params)
    return Task(
        dataset=MemoryDataset([record_to_sample(r) for r in loaded.rows.to_list()], name=f"lgmt_{relation_set}"),
        solver=group_generate(prompting, prefill=prefill, **controlled),
        scorer=metamorphic_consistency(**controlled),
        metrics=lgmt_metrics(control=True) if control else None,
        version=VERSION,
        metadata=loaded.task_metadata,
    )


def _define(relation_set: str, summary: str) -> Callable[..., Task]:
    def lgmt_variant(
        prompting: Prompting = "zero_shot_cot",
        source: Source = "generated",
        source_path: str | None = None,
        per_mr: int | Literal["all"] = 200,
        seed: int = 0,
        followups: int = 1,
        compose: int = 0,
        translator: str = "template",
        names: str = "abstract",
        dataset: str | None = None,
        revision: str | None = None,
        prefill: bool = False,
        control: bool = False,
        depth: int | str | list[int] | None = None,
        width: int | str | list[int] | None = None,
    ) -> Task:
        return lgmt_task(
            relation_set,
            prompting=prompting,
            prefill=prefill,
            control=control,
            source=source,
            source_path=source_path,
            per_mr=per_mr,
            seed=seed,
            followups=followups,
            compose=compose,
            translator=translator,
            names=names,
            dataset=dataset,
            revision=revision,
            depth=depth,
            width=width,
        )

    lgmt_variant.__name__ = lgmt_variant.__qualname__ = relation_set
    lgmt_variant.__doc__ = summary + "\n" + ARGS_DOC
    return task(name=relation_set)(validated_args(lgmt_variant))


mr_e = _define("mr_e", "All formula-level relations (MR-E1.1–E1.6, MR-E2.1–E2.4).")
mr_e1 = _define("mr_e1", "The canonical equivalence relations MR-E1.1–E1.6 (a complete basis for PNNF).")
mr_e2 = _define("mr_e2", "The non-canonical equivalence relations MR-E2.1–E2.4, in both directions.")
mr_s = _define("mr_s", "Symbol renaming: MR-S1 (constants) and MR-S2 (predicates).")
mr_p = _define("mr_p", "Premise transformations MR-P1–P5.")
mr_c = _define("mr_c", "Conclusion transformations MR-C1–C3.")
lgmt = _define("lgmt", "All 20 LGMT relations.")

__all__ = ["lgmt", "lgmt_task", "mr_c", "mr_e", "mr_e1", "mr_e2", "mr_p", "mr_s"]
