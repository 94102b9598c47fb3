"""LGMT: logic-grounded metamorphic testing of LLM reasoning (Zhou et al., 2026).

Each sample is one metamorphic group: a source entailment problem and a follow-up made by a relation grounded
in a first-order-logic law and proven by Z3. The model answers every member; the scorer reports the
metamorphic violation rate (MVR), static and consistent accuracy, hidden-defect and false-unreported rates.

Examples:
    inspect eval lgmt_tasks/mr_e --model openai/gpt-4o-mini
    inspect eval lgmt_tasks/lgmt --model lgmt/smollm2 -T prompting=few_shot_cot -T per_mr=20 --limit 40
    inspect eval lgmt_tasks/mr_e --model openai/gpt-4o-mini -T direction=forward -T p4=replace -T p5=replace
    inspect eval lgmt_tasks/lgmt --model openai/gpt-4o-mini -T adaptive=threshold -T tau=0.1 -T per_mr=all

The seven tasks differ only in their relation set, so they share one signature: each is a plain `@task` function
(so that Inspect's source scanner, `inspect list tasks`, finds it) whose name is its relation set and whose docstring
is its summary, and `relation_set_task` gives it the parameters and the body (the alternative, seven copies of the
same parameters, drifts).

Only what the signature needs is imported at module level; the loader, solver and scorer are imported when a task is
created (Inspect imports this module, through the plugin entry point, before every eval, ours or not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.model import Model

from lgmt_tasks.adaptive.design import DEFAULT_ALPHA, DEFAULT_MARGIN, DEFAULT_TAU, Design
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import validated_args
from lgmt_tasks.vocabulary import Control, LgmtSource, Prompting, control_kind

VERSION = suite("lgmt").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""

TEMPERATURE = 0.0
"""The tasks' temperature (`Task.config`): the paper decodes at temperature 0, as the lm-eval configs do. Inspect merges
a run's own settings over a task's, so `inspect eval --temperature 0.7` (or `eval(..., temperature=0.7)`) wins; without
it an API provider would sample at its own default (1.0 for OpenAI's)."""


ARGS_DOC = """
    Args:
        prompting: One of the paper's four prompting strategies (Appendix C.1); default zero_shot_cot.
        source: Source cases: our generated problems, folio / proverqa / logicnli read from `source_path`, qmfol
            (QMFOL problems of a depth × width grid, `depth` and `width`) or logicasker (LogicAsker's
            predicate-logic chains of length `depth`), or paper (the paper's evaluation set: FOLIO v2 train,
            LogicNLI dev+test and ProverQA dev, from the `folio/`, `logicnli/` and `proverqa/` subfolders of
            `source_path`).
        source_path: File or folder of the source records (required unless source=generated, qmfol or logicasker).
        depth: With source=qmfol: reasoning depths, 1–20, one value or a comma list (default 1,2,3); with
            source=logicasker: chain lengths, 1–7 (default 1,2,3; no width).
        width: With source=qmfol: reasoning widths, 0–20, one value or a comma list (default 1,2).
        per_mr: Groups per relation (the paper: up to 200), or `all`: every applicable group (the whole pool).
        seed: Build seed (the same seed gives the same groups, byte for byte).
        followups: Follow-ups per group; k > 1 adds follow-ups from other relations (violation if any differs).
        compose: 0, or 2 / 3 for chains of relations proven end to end.
        translator: `template` (the realiser whose sentences read back to their formula); model translations
            are built with `lgmt build`.
        names: Fresh symbols for MR-S: `abstract` (Con1, Pre1) or `natural` (words).
        direction: Which sites the ten MR-E relations rewrite: `paper` (default: each law as the paper reads it, with
            no fallback, so a relation may have no group), `forward` (the law as written), `introduction` (only its
            converse and extended variants), `any` (forward where a case has a site, else the other variants; the
            default before version 4-A) or `counts` (issue #25's reading fitted to Table 9's counts: `paper` plus
            MR-E1.2's negated →/↔/⊕, MR-E1.6's permuted canonical blocks, MR-E2.4's ⊕ step; ours).
        p4: MR-P4: `add` (default, the paper: the fused conjunction φ ∧ ψ joins the premises) or `replace` (it takes
            the place of φ and ψ; the behaviour before version 4-A).
        p5: MR-P5: `add` (default, the paper: the conjuncts of φ ∧ ψ join the premises, φ ∧ ψ stays) or `replace`
            (they take its place; the behaviour before issue #36).
        dataset: A folder written by `lgmt build`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        prefill: Open the assistant turn with the JSON the prompt asks for (helps small local models answer in
            format; not in the paper).
        control: A control member beside every group, scored against the source like a follow-up and reported beside
            every relation's MVR (nothing is subtracted from it): `none` (default; `false`), `repeat` (`true`: the
            source asked a second time, unchanged: the noise floor, `control_rate`; greedy decoding makes it 0) or
            `render` (the source with every premise and the conclusion re-rendered from its FOL by the template
            realiser, no logical change: the style control, `render_rate`).
        grader: A grader model that reads only the replies the rules leave unparsed, reported apart as the
            `grader_read` scorer (see `lgmt_tasks.scorers.grader`); default none; not with a control.
        adaptive: `none` (default: every group runs), `threshold` (stop sampling a relation once its anytime-valid
            interval puts its violation rate above tau − margin or below tau + margin) or `weakest` (eliminate
            relations until the one that violates most often is known within margin). Groups are served round-robin
            over the relations and a decided relation's groups are skipped at no model call; the log's
            `results.early_stopping` holds each relation's interval and decision and the calls saved
            (`lgmt_tasks.adaptive`). Use per_mr=all for the largest pool.
        tau: With adaptive=threshold: the violation rate the question is about (default 0.1).
        margin: With an adaptive design: how far from tau (threshold) or from the highest rate (weakest) a decision
            may err (default 0.05).
        alpha: With an adaptive design: the error level, simultaneous over the task's relations and valid at every
            stop (default 0.05).

    The model decodes at temperature 0, as in the paper (`--temperature` overrides it).

    Returns:
        The task.
"""


def lgmt_task(
    relation_set: str,
    prompting: str = "zero_shot_cot",
    prefill: bool = False,
    control: bool | str = False,
    grader: str | Model | None = None,
    adaptive: str = "none",
    tau: float = DEFAULT_TAU,
    margin: float = DEFAULT_MARGIN,
    alpha: float = DEFAULT_ALPHA,
    **params: Any,
) -> Task:
    """The task every LGMT variant builds: the rows of one relation set, the group solver, the pairwise scorer.

    Args:
        relation_set: Which relations (a key of `MR_SETS`; each variant's task name, e.g. `mr_e`).
        prompting: The prompting strategy.
        prefill: Open the assistant turn with the requested JSON.
        control: Add a control member and its metrics (`lgmt_tasks.lgmt.control`): `True` / `"repeat"` the source
            asked again (the solver and scorer get `control=True`, as before `render` existed), `"render"` the
            source re-rendered by the template realiser (`control="render"`; the samples' metadata gain the
            rendered source). `False` / `"none"`: the solver, scorer and metrics are exactly those of a run before
            the option existed.
        grader: A grader model for the replies the rules leave unparsed (`lgmt_tasks.scorers.grader`); not with a
            control, whose metrics Inspect would also apply to the grader's scorer.
        adaptive: `none` (a uniform run: the Task is exactly that of a run before the option existed), `threshold`
            or `weakest`: the samples are served round-robin over relations, `AdaptiveStopping` skips the groups of
            decided relations, and the task metadata gains the settings (`lgmt_tasks.adaptive.stopping`).
        tau: The threshold design's rate.
        margin: The designs' margin.
        alpha: The error level, simultaneous over the relations.
        **params: The build-or-load parameters of `load_lgmt_rows`.

    Returns:
        The task.
    """
    # imported here (see the module docstring): `tests/test_import_graph.py`, `benchmarks/bench_import.py`
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.model import GenerateConfig

    from lgmt_tasks.adaptive.stopping import (
        METADATA_KEY,
        AdaptiveStopping,
        adaptive_samples,
        adaptive_settings,
        settings_metadata,
    )
    from lgmt_tasks.lgmt.control import render_member, suggest_control
    from lgmt_tasks.lgmt.dataset import MR_SETS, load_lgmt, record_to_sample
    from lgmt_tasks.scorers.grader import with_grader
    from lgmt_tasks.scorers.lgmt import lgmt_metrics, metamorphic_consistency
    from lgmt_tasks.solvers.group import group_generate

    kind = control_kind(control)
    if grader is not None and kind != "none":
        raise ValueError(
            f"grader={grader!r} with control={kind!r}: Inspect applies a task's control metrics to every scorer, the "
            "grader's too; run the grader and the control in separate runs"
        )
    settings = adaptive_settings(adaptive, tau, margin, alpha)  # before the build: a bad value fails at once
    suggest_control(kind)
    # none: the log's solver and scorer arguments stay as they were; repeat: as they were with -T control=true
    controlled: dict[str, bool | str] = {} if kind == "none" else {"control": True if kind == "repeat" else kind}
    loaded = load_lgmt(MR_SETS[relation_set], **params)
    samples = [record_to_sample(r) for r in loaded.rows.to_list()]
    if kind == "render":
        samples = [render_member(sample) for sample in samples]
    stopping, metadata = None, loaded.task_metadata
    if settings is not None:  # only then: a uniform run's Task stays byte for byte what it was
        samples = adaptive_samples(samples)
        extra = 0 if kind == "none" else 1  # the control member's call
        stopping = AdaptiveStopping(settings, "metamorphic_consistency", MR_SETS[relation_set], extra_calls=extra)
        metadata = {**metadata, METADATA_KEY: settings_metadata(settings)}
    return Task(
        dataset=MemoryDataset(samples, name=f"lgmt_{relation_set}"),
        solver=group_generate(prompting, prefill=prefill, **controlled),
        scorer=with_grader(metamorphic_consistency(**controlled), grader, "truth"),
        metrics=lgmt_metrics(control=kind) if kind != "none" else None,
        config=GenerateConfig(temperature=TEMPERATURE),
        version=VERSION,
        metadata=metadata,
        early_stopping=stopping,
    )


def relation_set_task(stub: Callable[[], Task]) -> Callable[..., Task]:
    """Make the task of the relation set named like `stub`: the shared signature and body, `stub`'s docstring.

    Stacked under `@task`, so that each task is a module-level function Inspect's scanner lists; the stub's own body
    is never called.
    """
    relation_set, summary = stub.__name__, (stub.__doc__ or "").strip()

    def lgmt_variant(
        prompting: Prompting = "zero_shot_cot",
        source: LgmtSource = "generated",
        source_path: str | None = None,
        per_mr: int | Literal["all"] = 200,
        seed: int = 0,
        followups: int = 1,
        compose: int = 0,
        translator: str = "template",
        names: str = "abstract",
        direction: str = "paper",
        p4: str = "add",
        p5: str = "add",
        dataset: str | None = None,
        revision: str | None = None,
        prefill: bool = False,
        control: bool | Control = False,
        depth: int | str | list[int] | None = None,
        width: int | str | list[int] | None = None,
        grader: str | Model | None = None,
        adaptive: Design = "none",
        tau: float = DEFAULT_TAU,
        margin: float = DEFAULT_MARGIN,
        alpha: float = DEFAULT_ALPHA,
    ) -> Task:
        return lgmt_task(
            relation_set,
            prompting=prompting,
            prefill=prefill,
            control=control,
            grader=grader,
            adaptive=adaptive,
            tau=tau,
            margin=margin,
            alpha=alpha,
            source=source,
            source_path=source_path,
            per_mr=per_mr,
            seed=seed,
            followups=followups,
            compose=compose,
            translator=translator,
            names=names,
            direction=direction,
            p4=p4,
            p5=p5,
            dataset=dataset,
            revision=revision,
            depth=depth,
            width=width,
        )

    lgmt_variant.__name__ = lgmt_variant.__qualname__ = relation_set
    lgmt_variant.__doc__ = summary + "\n" + ARGS_DOC
    return validated_args(lgmt_variant)


@task
@relation_set_task
def mr_e() -> Task:
    """All formula-level relations (MR-E1.1–E1.6, MR-E2.1–E2.4)."""
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def mr_e1() -> Task:
    """The canonical equivalence relations MR-E1.1–E1.6 (a complete basis for PNNF)."""
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def mr_e2() -> Task:
    """The non-canonical equivalence relations MR-E2.1–E2.4, as the paper reads them.

    `-T direction=introduction`: their converses, which introduce the structure the laws remove; `-T direction=any`:
    the law where a case has a site, the converse elsewhere.
    """
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def mr_s() -> Task:
    """Symbol renaming: MR-S1 (constants) and MR-S2 (predicates)."""
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def mr_p() -> Task:
    """Premise transformations MR-P1–P5."""
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def mr_c() -> Task:
    """Conclusion transformations MR-C1–C3."""
    raise NotImplementedError  # replaced by relation_set_task


@task
@relation_set_task
def lgmt() -> Task:
    """All 20 LGMT relations."""
    raise NotImplementedError  # replaced by relation_set_task


__all__ = ["lgmt", "lgmt_task", "mr_c", "mr_e", "mr_e1", "mr_e2", "mr_p", "mr_s"]
