"""Each suite's deviations from its paper, as the short bullet list that ends an evaluation report.

Condensed from the "Deviations from the paper" subsections of README.md; when a deviation changes there, change it
here too (the README has the reasons, this list only names them).
"""

from __future__ import annotations

DEVIATIONS: dict[str, tuple[str, ...]] = {
    "lgmt": (
        "Source cases are our generated problems unless `-T source=folio|proverqa|logicnli` is given "
        "(the paper: FOLIO, LogicNLI, ProverQA).",
        "Follow-up English is template-realised from FOL by default (the paper: LLM translation).",
        "Every follow-up is proven label-preserving by Z3 before it is used.",
        "Rates exclude groups with an unparsed answer (reported as `unparsed_rate`); the paper counts all groups.",
        "FRR needs a manual review (`lgmt report --sample-violations`) and is not computed here.",
    ),
    "logicasker": (
        "Answers are proven by Z3; yes and no are balanced per skill and length; replies are parsed strictly.",
        "Fallacy skills have yes-tests (instances of the valid form they imitate).",
        "Quantifier transposition is not a skill; universal generalization reads its free variable as universal.",
        "Chains never use addition or commutation as supporting steps; English groups sub-formulas explicitly.",
        "Demonstrations end with `Answer: yes.` / `Answer: no.` and an explanation.",
        "Defaults are small (4 tests per skill, length 1); the paper used 10 per leaf.",
    ),
    "divlogiceval": (
        "Our own 580 sentences with hand-written negations (the paper: SNLI/MNLI, polished by GPT-3.5 and people).",
        "n = 3 propositions per instance (not stated in the paper); Algorithm 1's weights are renormalised.",
        "Options are drawn so that the answer's form also occurs among the distractors.",
        "The answer set is split with truth tables and every answer key is proven by Z3.",
        "Unparsed answers count as wrong and as a \"no answer\" outcome in PartialCircular.",
    ),
    "qmfol": (
        "Facts and conclusions are about an object constant (the paper's examples quantify over the domain).",
        "English by templates by default; the optional LLM path is checked sentence by sentence.",
        "Z3 instead of Vampire, in process, for every label.",
        "Accuracy, F1 and the answer distribution are over parsed answers; the unparsed rate is reported apart.",
        "Unstated choices (polarity, ∧/∨, Unknown1/Unknown2, seeds) are fixed and documented.",
    ),
    "lexical": (
        "Entailment (True/False/Unknown) on LGMT's sources, not LLMorph's QA/NLI/SA/RE datasets.",
        "all-MiniLM-L6-v2 (packaged, offline) instead of paraphrase-MiniLM-L6-v2; no substring equivalence.",
        "The transformer is any Inspect model with greedy decoding; our own few-shot examples.",
        "Keyboard, OCR and random-sentence relations use our own tables and sentences.",
        "Unreadable outputs are never a satisfied relation; discarded follow-ups are counted.",
        "Flakiness re-runs every group `--epochs N` times (LLMorph re-ran failing groups only).",
    ),
}
"""Suite → its deviations from the paper, one short sentence each."""


def deviations_markdown(suite: str) -> str:
    """The deviations of a suite as a Markdown bullet list.

    Raises:
        ValueError: For an unknown suite (lists the suites).
    """
    if suite not in DEVIATIONS:
        raise ValueError(f"unknown suite {suite!r}; expected one of {', '.join(DEVIATIONS)}")
    return "\n".join(f"- {item}" for item in DEVIATIONS[suite])
