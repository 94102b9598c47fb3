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
from inspect_ai.dataset import MemoryDataset, Sample

from lgmt_tasks.loaders.lgmt import MR_SETS, load_lgmt_rows
from lgmt_tasks.scorers.lgmt import metamorphic_consistency
from lgmt_tasks.solvers.group import group_generate
from lgmt_tasks.solvers.prompts import render_user_prompt

VERSION = "1-A"

Prompting = Literal["zero_shot", "zero_shot_cot", "few_shot", "few_shot_cot"]
Source = Literal["generated", "folio", "proverqa", "logicnli"]

ARGS_DOC = """
    Args:
        prompting: One of the paper's four prompting strategies (Appendix C.1); default zero_shot_cot.
        source: Source cases: our generated problems, or folio / proverqa / logicnli read from `source_path`.
        source_path: File or folder of the source records (required unless source=generated).
        per_mr: Groups per relation (the paper: up to 200).
        seed: Build seed (the same seed gives the same groups, byte for byte).
        followups: Follow-ups per group; k > 1 adds follow-ups from other relations (violation if any differs).
        compose: 0, or 2 / 3 for chains of relations proven end to end.
        translator: `template` (drift-free realiser); model translations are built with `lgmt build`.
        names: Fresh symbols for MR-S: `abstract` (Con1, Pre1) or `natural` (words).
        dataset: A folder written by `lgmt build`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        prefill: Open the assistant turn with the JSON the prompt asks for (helps small local models answer in
            format; not in the paper).

    Returns:
        The task.
"""


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One metamorphic group → one Sample: the source prompt as input, every member's prompt in metadata."""
    members = [
        render_user_prompt(list(record["premises"]), record["conclusion"]),
        render_user_prompt(list(record["followup_premises"]), record["followup_conclusion"]),
        *(render_user_prompt(list(e["premises"]), e["conclusion"]) for e in record["extra_followups"]),
    ]
    metadata = {k: v for k, v in record.items() if k not in ("id", "label")}
    metadata["members"] = members
    return Sample(id=record["id"], input=members[0], target=record["label"], metadata=metadata)


def lgmt_task(suite: str, prompting: str = "zero_shot_cot", prefill: bool = False, **params: Any) -> Task:
    """The task shared by every LGMT variant: `suite`'s relations, the group solver, the pairwise scorer."""
    rows = load_lgmt_rows(MR_SETS[suite], **params)
    return Task(
        dataset=MemoryDataset([record_to_sample(dict(r)) for r in rows], name=f"lgmt_{suite}"),
        solver=group_generate(prompting, prefill=prefill),
        scorer=metamorphic_consistency(),
        version=VERSION,
    )


def _define(suite: str, summary: str) -> Callable[..., Task]:
    def lgmt_variant(
        prompting: Prompting = "zero_shot_cot",
        source: Source = "generated",
        source_path: str | None = None,
        per_mr: int = 200,
        seed: int = 0,
        followups: int = 1,
        compose: int = 0,
        translator: str = "template",
        names: str = "abstract",
        dataset: str | None = None,
        revision: str | None = None,
        prefill: bool = False,
    ) -> Task:
        return lgmt_task(
            suite, prompting=prompting, prefill=prefill, source=source, source_path=source_path, per_mr=per_mr,
            seed=seed, followups=followups, compose=compose, translator=translator, names=names, dataset=dataset,
            revision=revision,
        )

    lgmt_variant.__name__ = lgmt_variant.__qualname__ = suite
    lgmt_variant.__doc__ = summary + "\n" + ARGS_DOC
    return task(name=suite)(lgmt_variant)


mr_e = _define("mr_e", "All formula-level relations (MR-E1.1–E1.6, MR-E2.1–E2.4).")
mr_e1 = _define("mr_e1", "The canonical equivalence relations MR-E1.1–E1.6 (a complete basis for PNNF).")
mr_e2 = _define("mr_e2", "The non-canonical equivalence relations MR-E2.1–E2.4, in both directions.")
mr_s = _define("mr_s", "Symbol renaming: MR-S1 (constants) and MR-S2 (predicates).")
mr_p = _define("mr_p", "Premise transformations MR-P1–P5.")
mr_c = _define("mr_c", "Conclusion transformations MR-C1–C3.")
lgmt = _define("lgmt", "All 20 LGMT relations.")
