r"""LLMorph baseline: lexical metamorphic relations on LGMT's source cases (Cho, Ruberto and Terragni, ICSME 2025).

Each sample is one group: a source entailment problem (the same source cases as the LGMT tasks) and a follow-up
whose English was changed by one of the 28 relations LLMorph runs on NLI (Table II ids: typos, leet, capitalisation,
an irrelevant premise, reordered premises, or an LLM's synonym or antonym substitution, paraphrase, back-translation,
voice or tense change, negation, generated premises and hypotheses). The model answers both with LGMT's prompts;
the scorer reports LGMT's metrics (MVR, Acc_static, Acc_cons, HDR, FUR) and LLMorph's confusion matrix, per
relation, with MR-49 (no change) as the noise floor.

Examples:
    inspect eval lgmt_tasks/lexical --model openai/gpt-4o-mini -T mr=function -T part=premises
    inspect eval lgmt_tasks/lexical --model lgmt/smollm2 -T mr=MR-51,MR-152 -T part=conclusion \
        -T transformer_model=lgmt/smollm2 -T per_mr=5
    inspect eval lgmt_tasks/lexical --model lgmt/smollm2 -T prompting=zero_shot -T prefill=true --max-tokens 8
    inspect eval lgmt_tasks/lexical --model openai/gpt-4o-mini -T adaptive=threshold -T tau=0.1
"""

from __future__ import annotations

from typing import Literal

from inspect_ai import Task, task
from inspect_ai.model import Model

from lgmt_tasks.adaptive.design import DEFAULT_ALPHA, DEFAULT_MARGIN, DEFAULT_TAU, Design
from lgmt_tasks.lexical.catalogue import DEFAULT_STYLE, STYLES
from lgmt_tasks.scorers.lexical_text_relation import DEFAULT_THRESHOLD_MODE
from lgmt_tasks.suites import suite
from lgmt_tasks.task_params import validated_args
from lgmt_tasks.vocabulary import SOURCES, Prompting, Source

VERSION = suite("lexical").version
"""Declared once, in the suite registry (`lgmt_tasks.suites`); the lm-eval YAMLs carry the same value."""

TEMPERATURE = 0.0
"""The model under test decodes at temperature 0 (`Task.config`), as in LGMT and the lm-eval configs; a run's
`--temperature` wins (Inspect merges the run's settings over the task's). The transformer model has its own greedy
config (`lexical.llm.TRANSFORMER_CONFIG`)."""

Output = Literal["label", "text"]


@task
@validated_args
def lexical(
    mr: str | list[str] = "function",
    part: str | list[str] = "all",
    source: Source = "generated",
    source_path: str | None = None,
    prompting: Prompting = "zero_shot_cot",
    output: Output = "label",
    transformer_model: str | Model | None = None,
    transformer_cache: bool = True,
    seed: int = 0,
    per_mr: int = 100,
    style: str = DEFAULT_STYLE,
    thresholds: str = DEFAULT_THRESHOLD_MODE,
    equivalent_threshold: float | None = None,
    different_threshold: float | None = None,
    embedding_model: str | None = None,
    dataset: str | None = None,
    revision: str | None = None,
    prefill: bool = False,
    grader: str | Model | None = None,
    adaptive: Design = "none",
    tau: float = DEFAULT_TAU,
    margin: float = DEFAULT_MARGIN,
    alpha: float = DEFAULT_ALPHA,
) -> Task:
    """LLMorph's lexical relations on LGMT's source cases, scored with LGMT's metrics and LLMorph's confusion matrix.

    Args:
        mr: Relation ids (Table II), comma-separated or a list (`MR-1,MR-84`, `1,84`), or `function` (the default:
            every function-based relation), `llm` or `all`.
        part: What the relations transform: `premises`, `conclusion`, `both`, several (comma-separated), or `all`
            (the default: each as its own variant). MR-49 has no part and is included whatever this says.
        source: Source cases, as for LGMT: our generated problems, or folio / proverqa / logicnli from `source_path`.
        source_path: File or folder of the source records (required unless source=generated).
        prompting: One of LGMT's four prompting strategies (default zero_shot_cot, as in LGMT).
        output: `label` (compare the parsed labels) or `text` (compare the completions by sentence-embedding
            similarity, as LLMorph's QA and RE tasks do).
        transformer_model: The Inspect model that makes the LLM-based follow-ups (`-T mr=llm`) at eval time; needed
            only for those relations when `dataset` does not already hold their follow-ups.
        transformer_cache: Cache transformer calls across epochs and runs, so that every epoch sees the same
            follow-ups (default true).
        seed: Build seed (the same seed gives the same groups, and the same source cases as LGMT).
        per_mr: Groups per relation and part.
        style: The function-based transformations: `llmorph` (LLMorph's own algorithms and nlpaug, the default) or
            `clean` (ours: only characters a relation can change are drawn, original spacing kept).
        thresholds: With output=text, `code` (LLMorph's code, the default: equivalence iff similarity ≥ 0.4 or one
            text contains the other, difference iff < 0.8 and neither contains the other) or `paper` (its §IV
            wording: equivalence iff ≥ 0.8, difference iff < 0.4).
        equivalent_threshold: With output=text, override the mode's equivalence threshold (similarity ≥ it).
        different_threshold: With output=text, override the mode's difference threshold (similarity < it).
        embedding_model: With output=text, a sentence-transformers folder or Hub id (default: the packaged
            all-MiniLM-L6-v2; LLMorph used paraphrase-MiniLM-L6-v2).
        dataset: A folder written by `lgmt build lexical`, or a Hub dataset id, to evaluate instead of building.
        revision: Hub revision of `dataset`.
        prefill: Open the answers of the model under test with the JSON the prompting asks for (`{"label": "` or
            `{"reasoning": "`), as LGMT's `prefill`, so that a small local model answers in format. Not in either
            paper; off by default. Only with output=label: with output=text the completions are compared as text,
            and an opening common to both would raise their similarity, so that combination is refused.
        grader: A grader model that reads only the replies the rules leave unparsed, reported apart as the
            `grader_read` scorer (see `lgmt_tasks.scorers.grader`); default none; output=label only.
        adaptive: `none` (default: every group runs), `threshold` (stop sampling a relation once its anytime-valid
            interval puts its violation rate above tau − margin or below tau + margin) or `weakest` (eliminate
            relations until the one that violates most often is known within margin), as in LGMT: groups served
            round-robin over the relations (`mr`; a relation's parts pooled), a decided relation's groups skipped,
            each relation's interval and decision in the log's `results.early_stopping` (`lgmt_tasks.adaptive`).
        tau: With adaptive=threshold: the violation rate the question is about (default 0.1).
        margin: With an adaptive design: how far from tau (threshold) or from the highest rate (weakest) a decision
            may err (default 0.05).
        alpha: With an adaptive design: the error level, simultaneous over the task's relations and valid at every
            stop (default 0.05).

    The model under test decodes at temperature 0 (`--temperature` overrides it).

    Returns:
        The task.

    Raises:
        ValueError: On an invalid value (the message lists the valid ones), on prefill with output=text, on
            LLM-based relations without a transformer, or on tau, margin or alpha without an adaptive design.
    """
    # imported here, not at module level: Inspect imports every installed plugin (this module among them) before any
    # eval (`tests/test_import_graph.py`, `benchmarks/bench_import.py`)
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.model import GenerateConfig

    from lgmt_tasks.adaptive.stopping import (
        METADATA_KEY,
        AdaptiveStopping,
        adaptive_samples,
        adaptive_settings,
        settings_metadata,
    )
    from lgmt_tasks.lexical.catalogue import LEXICAL_RELATIONS
    from lgmt_tasks.lexical.dataset import load_lexical, record_to_sample
    from lgmt_tasks.lexical.llm import pending_transform
    from lgmt_tasks.scorers.grader import with_grader
    from lgmt_tasks.scorers.lexical import OUTPUTS, lexical_consistency
    from lgmt_tasks.solvers.lexical import lexical_generate
    from lgmt_tasks.solvers.prompts import check_prompting

    if source not in SOURCES:
        raise ValueError(f"source={source!r}: expected one of {', '.join(SOURCES)}")
    if output not in OUTPUTS:
        raise ValueError(f"output={output!r}: expected one of {', '.join(OUTPUTS)}")
    if prefill and output != "label":
        raise ValueError(
            f"prefill=true with output={output!r}: prefill is for output=label only (with output=text the completions "
            "are compared by similarity, and the prefilled opening common to both would inflate it); use "
            "output=label with prefill=true (any prompting), or prefill=false with any output"
        )
    if grader is not None and output != "label":
        raise ValueError(
            f"grader={grader!r} with output={output!r}: a grader model reads labels, which output=text does not "
            "compare; use output=label with a grader"
        )
    if style not in STYLES:
        raise ValueError(f"style={style!r}: expected one of {', '.join(STYLES)}")
    check_prompting(prompting)
    settings = adaptive_settings(adaptive, tau, margin, alpha)
    scorer = lexical_consistency(output, thresholds, equivalent_threshold, different_threshold, embedding_model)
    loaded = load_lexical(
        mr,
        part,
        source=source,
        source_path=source_path,
        per_mr=per_mr,
        seed=seed,
        style=style,
        dataset=dataset,
        revision=revision,
    )
    rows = loaded.rows.to_list()  # plain dicts: iterating a Dataset row by row is slow
    pending = sorted({r["mr"] for r in rows if r["pending"]})
    if pending and transformer_model is None:
        raise ValueError(
            f"relations {', '.join(pending)} are LLM-based: pass -T transformer_model=<any Inspect model> (e.g. "
            "lgmt/smollm2), or evaluate a dataset built with `lgmt build lexical --transformer-model M`"
        )
    # Pending rows are transformed at eval time; the task, not the solver, knows how (solvers sit below the suites).
    transform = (
        pending_transform(transformer_model, transformer_cache) if pending and transformer_model is not None else None
    )
    samples = [record_to_sample(r) for r in rows]
    stopping, metadata = None, loaded.task_metadata
    if settings is not None:  # only then: a uniform run's Task stays byte for byte what it was
        samples = adaptive_samples(samples)
        stopping = AdaptiveStopping(settings, "lexical_consistency", list(LEXICAL_RELATIONS))
        metadata = {**metadata, METADATA_KEY: settings_metadata(settings)}
    return Task(
        dataset=MemoryDataset(samples, name="lexical"),
        solver=lexical_generate(prompting, transform=transform, prefill=prefill),
        scorer=with_grader(scorer, grader, "truth"),
        config=GenerateConfig(temperature=TEMPERATURE),
        version=VERSION,
        metadata=metadata,
        early_stopping=stopping,
    )


__all__ = ["lexical"]
