"""Ask the log's model about a candidate group, exactly as the group solver asked it during the eval.

Each member (source, follow-up) is its own conversation: the prompting's system prompt and the paper's user
template (`solvers.prompts`), with the assistant turn opened by the same prefill when the run used one
(`solvers.group.PREFILLS`, `solvers.prefill`), through the log's model with its arguments and generate config.
The replies are parsed by the scorer's label parser and compared by the scorer's `group_outcome`, so "still
violates" means exactly what the scorer counted as a violation.

Every `generate` call is counted: the search stops before it would exceed its budget of calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessageSystem, ChatMessageUser, Model, get_model

from lgmt_tasks.lgmt.dataset import member_prompts
from lgmt_tasks.lgmt.shrink.logs import AskSettings
from lgmt_tasks.scorers.answers import parse_label
from lgmt_tasks.scorers.pairwise import group_outcome
from lgmt_tasks.solvers.group import PREFILLS
from lgmt_tasks.solvers.prefill import open_answer, prefilled_response
from lgmt_tasks.solvers.prompts import system_prompt


@dataclass(frozen=True)
class Answers:
    """The model's replies to a group, their parsed labels, and whether they make a violation."""

    responses: tuple[str, ...]
    labels: tuple[str | None, ...]
    violation: bool


class Asker:
    """The log's model and prompt settings; `ask(row)` asks every member of a group concurrently."""

    def __init__(self, settings: AskSettings, model: Model | None = None) -> None:
        self.settings = settings
        self.model = model or get_model(settings.model, config=settings.config, **dict(settings.model_args))
        self.system = system_prompt(settings.prompting)
        self.opening = PREFILLS[settings.prompting] if settings.prefill else ""

    async def _one(self, prompt: str) -> str:
        messages = open_answer([ChatMessageSystem(content=self.system), ChatMessageUser(content=prompt)], self.opening)
        output = await self.model.generate(messages)
        return prefilled_response(self.opening, output)

    async def ask(self, row: Mapping[str, Any], gold: str) -> Answers:
        """Ask the source and the follow-up (two model calls) and score them as the LGMT scorer does."""
        prompts: Sequence[str] = member_prompts(row)
        responses = await asyncio.gather(*(self._one(p) for p in prompts))
        labels = tuple(parse_label(r).label for r in responses)
        outcome = group_outcome(gold, labels[0], list(labels[1:]))
        return Answers(tuple(responses), labels, bool(outcome["violation"]))

    @staticmethod
    def calls_per_group() -> int:
        """Model calls one group costs: one per member."""
        return 2
