"""A scripted model with planted violation rates: the proven label everywhere, a wrong one on some follow-ups.

Issue #37 checks the adaptive designs against a model whose per-relation violation rates are known: it answers every
member of a group with the group's proven label, except that on a follow-up of relation r it answers a wrong label
with probability p_r. The model reads a call's user prompt and looks it up among the task's members (the prompts
`record_to_sample` puts in `metadata["members"]`, which the group solver asks verbatim). Whether a follow-up is
answered wrongly is drawn from a generator seeded with (seed, prompt), not from one shared generator: Inspect runs
samples concurrently, so the order of calls varies between runs, and the answers must not.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from inspect_ai.dataset import Sample

from tests.scripted_api import register_scripted_api

LABELS = ("True", "False", "Unknown")


@dataclass(frozen=True)
class Member:
    """What a member's prompt is: its group's gold label, its relation, and whether it is a follow-up."""

    gold: str
    relation: str
    followup: bool


def members_by_prompt(samples: Iterable[Sample]) -> dict[str, Member]:
    """Every member prompt of the samples (source first, then the follow-ups), with what it is.

    A source prompt is shared by the groups of many relations (its relation is then any of theirs: a source is
    always answered right). A follow-up whose prompt is also a source (lexical MR-49 changes nothing) is read as the
    source: a model that answers a prompt one way cannot violate that relation.

    Raises:
        ValueError: If a prompt has two gold labels, or is a follow-up of two relations (which rate would apply?).
    """
    found: dict[str, Member] = {}
    for sample in samples:
        metadata = sample.metadata or {}
        for index, prompt in enumerate(metadata["members"]):
            member = Member(str(sample.target), str(metadata["mr"]), index > 0)
            seen = found.setdefault(prompt, member)
            if seen.gold != member.gold or (seen.followup and member.followup and seen.relation != member.relation):
                raise ValueError(f"prompt of sample {sample.id} is {member} here and {seen} elsewhere")
            if seen.followup and not member.followup:
                found[prompt] = member
    return found


@dataclass
class PlantedModel:
    """The scripted model: `respond` answers a user prompt; `calls` records every prompt asked."""

    members: Mapping[str, Member]
    rates: Mapping[str, float]
    seed: int = 0
    calls: list[str] = field(default_factory=list)

    def label(self, prompt: str) -> str:
        """The label the model answers to a member's prompt."""
        member = self.members[prompt]
        rate = self.rates.get(member.relation, 0.0) if member.followup else 0.0
        if rate and random.Random(f"{self.seed}\0{prompt}").random() < rate:
            return LABELS[(LABELS.index(member.gold) + 1) % len(LABELS)]
        return member.gold

    def respond(self, prompt: str) -> str:
        """The completion: the JSON the zero-shot CoT prompt asks for."""
        return json.dumps({"reasoning": "scripted", "label": self.label(prompt)})

    def register(self) -> str:
        """Register the model under a fresh provider name; return its model name for `eval(model=...)`."""
        name = f"planted{uuid.uuid4().hex[:8]}"
        register_scripted_api(name, self.respond, self.calls)
        return f"{name}/model"
