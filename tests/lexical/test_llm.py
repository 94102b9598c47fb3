"""The LLM-based transformations with a scripted `mockllm/model` transformer: prompts, chains, clean-up, failures."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.lexical.catalogue import LLM_BASED
from lgmt_tasks.lexical.llm import (
    PROMPTS,
    clean_output,
    plan_sites,
    transform_followup,
    transform_sentence,
)


def output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return out


class Scripted:
    """A transformer that answers from the quoted text of the last user message; records every conversation."""

    def __init__(self, rewrite: Callable[[str, str], str]) -> None:
        self.rewrite = rewrite
        self.conversations: list[list[ChatMessage]] = []

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.conversations.append(messages)
        request = messages[-1].text
        quoted = request.split('"')[1]
        return output(self.rewrite(request, quoted))


def model(rewrite: Callable[[str, str], str]) -> tuple[Any, Scripted]:
    script = Scripted(rewrite)
    return get_model("mockllm/model", custom_outputs=script), script


def test_every_llm_relation_has_a_prompt_in_llmorph_shape():
    assert set(PROMPTS) == set(LLM_BASED)
    for steps in PROMPTS.values():
        for step in steps:
            assert "{text}" in step.instruction and "Only output the" in step.instruction
            assert len(step.examples) == 2


def test_messages_give_the_examples_as_turns():
    [step] = PROMPTS["MR-51"]
    messages = step.messages("Alice is a poet.")
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert (
        messages[-1].text
        == 'Paraphrase the following text:\n"Alice is a poet."\nOnly output the changed text, nothing else.'
    )
    assert messages[1].text == step.examples[0][1]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Alice writes verse.  ", "Alice writes verse."),
        ('"Alice writes verse."', "Alice writes verse."),
        ("“Alice writes verse.”", "Alice writes verse."),
        ("Here is the paraphrased text:\n\nAlice writes verse.", "Alice writes verse."),
        ("Alice writes verse.\nI replaced 'poet' with a phrase.", "Alice writes verse."),
        ("", ""),
        ('""', ""),
    ],
)
def test_clean_output(raw, clean):
    assert clean_output(raw) == clean


async def test_back_translation_makes_two_calls_there_and_back():
    def rewrite(request: str, text: str) -> str:
        return "Alice ist eine Dichterin." if "German" in request else "Alice is a poetess."

    transformer, script = model(rewrite)
    calls: list[Any] = []
    result = await transform_sentence(transformer, "MR-120", "Alice is a poet.", calls=calls)
    assert result == "Alice is a poetess."
    assert [c.input for c in calls] == ["Alice is a poet.", "Alice ist eine Dichterin."]
    assert "into German" in script.conversations[0][-1].text
    assert "into English" in script.conversations[1][-1].text


async def test_followup_transforms_the_planned_sentences_only():
    transformer, script = model(lambda request, text: text.replace("is", "is not", 1))
    premises = ["Alice is a poet.", "Bob is tall.", "Carol is kind."]
    result = await transform_followup(transformer, "MR-152", premises, "Alice is kind.", [1], True)
    assert result.ok and result.reason == ""
    assert result.premises == ("Alice is a poet.", "Bob is not tall.", "Carol is kind.")
    assert result.conclusion == "Alice is not kind."
    assert len(script.conversations) == 2
    assert [c.output for c in result.calls] == ["Bob is not tall.", "Alice is not kind."]


@pytest.mark.parametrize(
    ("rewrite", "reason"),
    [
        (lambda request, text: "", "empty transformer output"),
        (lambda request, text: text, "conclusion unchanged"),
        (lambda request, text: "word " * 200, "transformer output too long"),
    ],
)
async def test_failures_are_reported_not_raised(rewrite, reason):
    transformer, _ = model(rewrite)
    result = await transform_followup(transformer, "MR-51", ["A is b."], "C is d.", [], True)
    assert not result.ok and result.reason == reason
    assert result.premises == ("A is b.",) and result.conclusion == "C is d."
    assert result.to_dict()["ok"] is False


async def test_premises_that_all_stay_the_same_fail():
    transformer, _ = model(lambda request, text: text)
    result = await transform_followup(transformer, "MR-8", ["A is b.", "C is d."], "E.", [0, 1], False)
    assert (result.ok, result.reason) == (False, "premises unchanged")


async def test_unknown_relation_is_refused():
    transformer, _ = model(lambda request, text: text)
    with pytest.raises(ValueError, match="not an LLM-based relation"):
        await transform_sentence(transformer, "MR-1", "A.")


def test_plan_sites():
    assert plan_sites("MR-51", 3, "premises", 7) == ((0, 1, 2), False)
    assert plan_sites("MR-51", 3, "both", 7) == ((0, 1, 2), True)
    assert plan_sites("MR-51", 3, "conclusion", 7) == ((), True)
    assert plan_sites("MR-152", 3, "premises", 7) == ((1,), False)
    with pytest.raises(ValueError, match="part="):
        plan_sites("MR-51", 3, "none", 0)
