"""The papers' own headline figures per model, for the card's "paper, not re-run" column.

A card row shows the paper's figure for the same model family beside ours, so a reader sees whether a run lands where
the paper did, and never mistakes it for one of ours: every figure is marked "paper, not re-run", with its table.

Where the figures come from. The suites' READMEs' "Paper tables" sections show what `lgmt report` writes (our
tables in the papers' shapes, on scripted runs), not the papers' figures, so the figures below are copied from the
papers themselves (the plain-text copies the project works from), one table per suite, at the paper's default
setting. Values are fractions (the papers print percentages). The setting says what differs from a default run of
ours: the papers' datasets, sample sizes and prompts are theirs, which is why the figure is context, not a check.

Matching a model: `MATCHERS` maps each paper's model name to a regular expression over our model name (lower case,
the provider prefix kept), written so that one family does not match its neighbours (`gpt-4` is not `gpt-4o`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lgmt_tasks.card.content import PaperFigure


@dataclass(frozen=True)
class PaperTable:
    """One paper table's figures: the metric (our name for it), the setting and source, and value per paper model."""

    suite: str
    metric: str
    setting: str
    source: str
    values: dict[str, float]


TABLES: tuple[PaperTable, ...] = (
    PaperTable(
        "lgmt",
        "mvr",
        "zero-shot CoT, the paper's pooled set (up to 200 groups per relation, 20 relations)",
        "Zhou et al., 2026, Table 4",
        {
            "GPT-5.2": 0.2676,
            "Claude 4.5 Sonnet": 0.2084,
            "Llama 3.3": 0.2543,
            "DeepSeek Chat": 0.2472,
            "o4-mini": 0.2206,
            "DeepSeek Reasoner": 0.2944,
        },
    ),
    PaperTable(
        "logicasker",
        "response_accuracy",
        "inference length 1, 100 tests of randomly selected rules (response accuracy: correct / answered)",
        "Wan et al., EMNLP 2024, Table 3",
        {"GPT-4": 0.92, "ChatGPT": 0.79, "Bard": 0.80, "Vicuna 13b": 0.63, "GPT-3": 0.68, "Guanaco 33b": 0.57},
    ),
    PaperTable(
        "divlogiceval",
        "acc",
        "0-shot, the paper's 900-question test set",
        "Chung et al., EMNLP 2025, Table 9 (Test, ACC)",
        {
            "Mixtral (mixtral-8x7B-instruct-v0.1)": 0.299,
            "LLaMA3.3 (llama-3.3-70b-instruct)": 0.299,
            "Qwen2.5 (qwen2.5-72b-instruct)": 0.335,
            "Gemini (gemini-1.5-pro)": 0.308,
            "GPT-3.5 (gpt-3.5-turbo)": 0.296,
            "GPT-4 (gpt-4-1106-preview)": 0.322,
            "GPT-4o (gpt-4o-2024-05-13)": 0.340,
            "OpenAI o1-preview (o1-preview-2024-09-12)": 0.513,
        },
    ),
    PaperTable(
        "qmfol",
        "accuracy",
        "QMFOLBench (2,880 tasks: depth and width 5-20, 0-20 distractors), the paper's prompt and decoding",
        "Zheng et al., 2026, §4.1.1 (Figure 4's overall accuracy)",
        {
            "Gemini-3.1-Pro": 0.9903,
            "GPT-5.4-High": 0.9740,
            "Claude-S-4-6": 0.8003,
            "DS-V3.2": 0.7622,
            "GPT-5.4-None": 0.6031,
            "Qwen3-32B": 0.6347,
        },
    ),
    PaperTable(
        "lexical",
        "mvr",
        "failure rate λ over LLMorph's 36 relations and four NLP tasks (not our logic source cases)",
        "Cho et al., ICSME 2025, Table VII",
        {"GPT-4": 0.14, "LLAMA3": 0.18, "HERMES 2": 0.21},
    ),
)
"""Every paper figure the cards can show, one table per suite."""

MATCHERS: dict[str, str] = {
    "GPT-5.2": r"gpt-5\.2(?![\d])",
    "Claude 4.5 Sonnet": r"claude-(?:sonnet-4[.-]5|4[.-]5-sonnet)(?![\d])",
    "Llama 3.3": r"llama-?3\.3(?![\d])",
    "DeepSeek Chat": r"deepseek-chat|deepseek-v3(?![.\d])",
    "o4-mini": r"(?<![\w])o4-mini",
    "DeepSeek Reasoner": r"deepseek-reasoner|deepseek-r1(?![\d])",
    "GPT-4": r"(?<![\w.])gpt-?4(?![o.\d]|-turbo|-1106|-0125|-vision)",
    "ChatGPT": r"gpt-3\.5-turbo",
    "Bard": r"(?<![\w])bard(?![\w])",
    "Vicuna 13b": r"vicuna-13b",
    "GPT-3": r"text-davinci-003",
    "Guanaco 33b": r"guanaco-33b",
    "Mixtral (mixtral-8x7B-instruct-v0.1)": r"mixtral-8x7b-instruct",
    "LLaMA3.3 (llama-3.3-70b-instruct)": r"llama-?3\.3-70b-instruct",
    "Qwen2.5 (qwen2.5-72b-instruct)": r"qwen2\.5-72b-instruct",
    "Gemini (gemini-1.5-pro)": r"gemini-1\.5-pro",
    "GPT-3.5 (gpt-3.5-turbo)": r"gpt-3\.5-turbo",
    "GPT-4 (gpt-4-1106-preview)": r"gpt-4-1106-preview",
    "GPT-4o (gpt-4o-2024-05-13)": r"gpt-4o(?:-2024-05-13)?$",
    "OpenAI o1-preview (o1-preview-2024-09-12)": r"(?<![\w])o1-preview",
    "Gemini-3.1-Pro": r"gemini-3\.1-pro",
    "GPT-5.4-High": r"gpt-5\.4(?![\d])",
    "Claude-S-4-6": r"claude-(?:sonnet-4[.-]6|4[.-]6-sonnet)(?![\d])",
    "DS-V3.2": r"deepseek-v3\.2(?![\d])",
    "GPT-5.4-None": r"^$",  # the same model as GPT-5.4-High with reasoning off: a run's name cannot tell them apart
    "Qwen3-32B": r"qwen3-32b",
    "LLAMA3": r"llama-?3(?![.\d])",
    "HERMES 2": r"hermes-2",
}
"""Paper model name → the pattern of our model names it matches (searched in the lower-case name)."""


def paper_figure(suite: str, model: str) -> PaperFigure | None:
    """The suite's paper figure for the model's family, or None when the paper reports none for it."""
    name = model.lower()
    for table in TABLES:
        if table.suite != suite:
            continue
        for paper_model, value in table.values.items():
            if re.search(MATCHERS[paper_model], name):
                return PaperFigure(paper_model, table.metric, value, table.setting, table.source)
    return None
