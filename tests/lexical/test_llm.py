"""The LLM-based transformations with a scripted `mockllm/model` transformer.

Every relation is driven end to end: the exact conversation sent (LLMorph's system message, its few-shot examples as
turns, the request), the number and order of calls, the follow-up produced, and the failure reasons.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from lgmt_tasks.lexical.catalogue import LLM_BASED
from lgmt_tasks.lexical.llm import (
    LLM_RELATIONS,
    StepRecord,
    TransformPrompt,
    clean_output,
    parse_keywords,
    plan_sites,
    random_words,
    transform_followup,
    transform_sentence,
)
from lgmt_tasks.lexical.llm_prompts import REWRITE, SYSTEM_MESSAGE

TAIL = "Only output the changed text, nothing else."


def output(text: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=text)
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer download
    return out


class Scripted:
    """A transformer answering with `answer(request)` (the last user message); records every conversation."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer
        self.conversations: list[list[ChatMessage]] = []

    def __call__(self, messages: list[ChatMessage], *_: Any) -> ModelOutput:
        self.conversations.append(messages)
        return output(self.answer(messages[-1].text))

    @property
    def requests(self) -> list[str]:
        return [c[-1].text for c in self.conversations]


def model(answer: Callable[[str], str]) -> tuple[Any, Scripted]:
    script = Scripted(answer)
    return get_model("mockllm/model", custom_outputs=script), script


def in_order(*answers: str) -> tuple[Any, Scripted]:
    """A transformer giving `answers` in order, whatever it is asked."""
    queue = list(answers)
    return model(lambda request: queue.pop(0))


def quoted(request: str) -> str:
    return request.split('"')[1]


def examples_of(conversation: list[ChatMessage]) -> list[tuple[str, str]]:
    """The (user, assistant) example turns between the system message and the request."""
    assert conversation[0].role == "system" and conversation[0].text == SYSTEM_MESSAGE
    assert conversation[-1].role == "user"
    turns = conversation[1:-1]
    assert [m.role for m in turns] == ["user", "assistant"] * (len(turns) // 2)
    return [(turns[i].text, turns[i + 1].text) for i in range(0, len(turns), 2)]


# --- the relations and their prompts --------------------------------------------------------------------------------


def test_every_llm_relation_of_the_catalogue_is_made_here():
    assert LLM_RELATIONS == LLM_BASED
    assert LLM_RELATIONS == (
        "MR-8",
        "MR-9",
        "MR-10",
        "MR-25",
        "MR-34",
        "MR-51",
        "MR-77",
        "MR-78",
        "MR-79",
        "MR-80",
        "MR-120",
        "MR-127",
        "MR-136",
        "MR-137",
        "MR-152",
        "MR-155",
    )


def test_messages_are_llmorphs_system_examples_and_request():
    messages = REWRITE["MR-51"].messages("Alice is a poet.")
    assert [m.role for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[0].text == SYSTEM_MESSAGE == "You are a helpful assistant."
    assert messages[1].text == f'Paraphrase the following text:\n"I ate a cabbage yesterday!"\n{TAIL}'
    assert messages[2].text == "Yesterday, I ate a cabbage."
    assert messages[-1].text == f'Paraphrase the following text:\n"Alice is a poet."\n{TAIL}'


def test_a_prompt_fills_every_slot_and_leaves_unused_ones_out():
    prompt = TransformPrompt("A {INPUT_1} and {INPUT_0}.", ((("x", "y"), "done"),))
    messages = prompt.messages("p", "q")
    assert [m.text for m in messages[1:]] == ["A y and x.", "done", "A q and p."]


# LLMorph's request for "Alice is a poet." and its first example (it_prompt_templates.json, func_it.ITNegate).
ONE_TEMPLATE = {
    "MR-9": (
        'Insert random words or phrases throughout the following text:\n"Alice is a poet."\nDo this randomly. Do not '
        f"change any words from the text iteself. {TAIL}",
        "He went to the doctor yesterday with an armful of cheese and got a diagnosis.",
    ),
    "MR-51": (f'Paraphrase the following text:\n"Alice is a poet."\n{TAIL}', "Yesterday, I ate a cabbage."),
    "MR-127": (f'Misspell the following text:\n"Alice is a poet."\n{TAIL}', "i atte a cabbbagae yestedy."),
    "MR-136": (
        'If the following is in active voice, rewrite it to passive voice, and vice versa.\n"Alice is a poet."\n'
        "Only output the raw changed text, nothing else.",
        "Alex discovered penicillin.",
    ),
    "MR-152": (
        f'Negate the following text with minimal change:\n"Alice is a poet."\n{TAIL}',
        "Who wasn't the leader of Norway?",
    ),
    "MR-155": (
        f'Rewrite the following in a different tense:\n"Alice is a poet."\n{TAIL} If there is no tense to be changed, '
        "just copy the input.",
        "There will be people there.",
    ),
}


@pytest.mark.parametrize("mr", sorted(ONE_TEMPLATE))
async def test_one_template_relations_send_llmorphs_prompt(mr):
    transformer, script = in_order("Alice was a poet.")
    result = await transform_followup(transformer, mr, ["Alice is a poet."], "Bob is tall.", [0], False)
    assert result.ok and result.premises == ("Alice was a poet.",) and result.conclusion == "Bob is tall."
    [conversation] = script.conversations
    request, first_answer = ONE_TEMPLATE[mr]
    assert conversation[-1].text == request
    examples = examples_of(conversation)
    assert len(examples) == 2 and examples[0][1] == first_answer
    assert result.calls == [
        StepRecord(0, "Alice is a poet.", "Alice was a poet.", "Alice was a poet.", ("Alice is a poet.",), "rewrite")
    ]


async def test_one_call_per_planned_sentence_keeps_the_premise_list():
    transformer, script = model(lambda request: quoted(request).replace("is", "is not", 1))
    premises = ["Alice is a poet.", "Bob is tall.", "Carol is kind."]
    result = await transform_followup(transformer, "MR-152", premises, "Alice is kind.", [1], True)
    assert result.ok and result.reason == ""
    assert result.premises == ("Alice is a poet.", "Bob is not tall.", "Carol is kind.")
    assert result.conclusion == "Alice is not kind."
    assert [quoted(r) for r in script.requests] == ["Bob is tall.", "Alice is kind."]
    assert [c.output for c in result.calls] == ["Bob is not tall.", "Alice is not kind."]

    paraphrased = await transform_followup(transformer, "MR-51", premises, "Alice is kind.", [0, 1, 2], False)
    assert len(paraphrased.premises) == 3 and len(paraphrased.calls) == 3


async def test_back_translation_makes_two_calls_there_and_back():
    transformer, script = in_order("Alice ist eine Dichterin.", "Alice is a poetess.")
    calls: list[StepRecord] = []
    result = await transform_sentence(transformer, "MR-120", "Alice is a poet.", calls=calls)
    assert result == "Alice is a poetess."
    assert [(c.kind, c.input, c.output) for c in calls] == [
        ("to German", "Alice is a poet.", "Alice ist eine Dichterin."),
        ("to English", "Alice ist eine Dichterin.", "Alice is a poetess."),
    ]
    assert script.requests == [
        'Translate the following text into German:\n"Alice is a poet."\nOnly output the translated text, nothing else.',
        'Translate the following text into English:\n"Alice ist eine Dichterin."\n'
        "Only output the translated text, nothing else.",
    ]


# --- keyword relations ----------------------------------------------------------------------------------------------

KEYWORD_REQUEST = (
    'Identify names, pronouns, country names, occupations, and similar keywords in the following text:\n"{}"\n'
    "Only output the list of words, nothing else."
)
REPLACE_REQUEST = (
    'Look at this text:\n"{}"\nReplace words using the following rules:\n{}\nOnly replace any words that are there. '
    "Ignore any rules that are not used. Only output the modified text."
)
REMOVE_REQUEST = (
    'Look at this text:\n"{}"\nRemove the following words:\n{}\nOnly remove the words. Only output the modified text.'
)
SYNONYM_REQUEST = (
    'Context:\n"{}"\nMaking sense in this context, give a synonym for "{}". If the word has no synonym, simply '
    "output the word itself."
)
ANTONYM_REQUEST = (
    "You are given a context and a word. Produce an antonym of the word. Make sure the antonym makes sense in the "
    "context. If the word has no antonym, simply output the word itself. \n<context>{}</context>\n<word>{}</word>"
)
CATEGORY_REQUEST = 'Give a word or phrase in the same category as "{}".'

NEW_WORD = {"alice": "Alicia", "bob": "Robert", "carol": "Caroline"}


def keyword_script(request: str) -> str:
    """Keywords: the capitalised words; a new word: `NEW_WORD` (with noise to clean); replace/remove: apply."""
    if request.startswith("Identify names"):
        return "\n".join(w.strip(".") for w in quoted(request).split() if w[0].isupper()) + "\n"
    if request.startswith(("Context:", "You are given", "Give a word")):
        keyword = request.split("<word>")[1].split("<")[0] if "<word>" in request else request.split('"')[-2]
        return f'"{NEW_WORD[keyword]}."'
    if "Replace words using the following rules" in request:
        text, rules = quoted(request), request.split("rules:\n")[1].split("\nOnly replace")[0]
        for rule in rules.splitlines():
            old, new = rule.split(" -> ")
            text = re.sub(rf"\b{old}\b", new.capitalize(), text, flags=re.IGNORECASE)
        return text
    if "Remove the following words" in request:
        text = quoted(request)
        for word in request.split("words:\n")[1].split("\nOnly remove")[0].splitlines():
            text = re.sub(rf"\b{word}\b ?", "", text, flags=re.IGNORECASE)
        return text
    raise AssertionError(request)


async def test_synonyms_take_llmorphs_three_steps():
    transformer, script = model(keyword_script)
    premises = ["Alice likes Bob.", "Bob is tall."]
    result = await transform_followup(transformer, "MR-8", premises, "Alice is kind.", [0, 1], False)
    assert result.ok, result.reason
    assert result.premises == ("Alicia likes Robert.", "Robert is tall.") and result.conclusion == "Alice is kind."
    context = "Alice likes Bob. Bob is tall."
    rules = "alice -> alicia\nbob -> robert"
    assert script.requests == [
        KEYWORD_REQUEST.format(context),  # 1. the keywords of the part's text
        SYNONYM_REQUEST.format(context, "alice"),  # 2. a synonym per keyword, in context
        SYNONYM_REQUEST.format(context, "bob"),
        REPLACE_REQUEST.format("Alice likes Bob.", rules),  # 3. the rules applied, one premise per call
        REPLACE_REQUEST.format("Bob is tall.", rules),
    ]
    keywords, synonym, _, replace, _ = (examples_of(c) for c in script.conversations)
    assert keywords[0] == (
        KEYWORD_REQUEST.format("Sarah is an American software engineer. She works for Microsoft."),
        "Sarah\nAmerican\nsoftware engineer\nMicrosoft",
    )
    assert synonym[1] == (SYNONYM_REQUEST.format("I wonder why clothes are so expensive.", "expensive"), "pricey")
    assert replace[0] == (
        REPLACE_REQUEST.format(
            "Sam walked to the store to buy an apple.",
            "walked -> travelled\nslowly -> unhurriedly\nbuy -> purchase\nstore -> shop",
        ),
        "I travelled to the shop to purchase an apple.",
    )
    assert [(c.step, c.kind) for c in result.calls] == [
        (0, "keywords"),
        (1, "synonym"),
        (2, "synonym"),
        (3, "replace"),
        (4, "replace"),
    ]
    assert result.calls[0].output == "alice\nbob"  # parsed: cleaned, the empty last line and the repeat dropped
    assert result.calls[1].raw == '"Alicia."' and result.calls[1].output == "alicia"  # cleaned as LLMorph does
    assert result.calls[1].inputs == (context, "alice") and result.calls[1].input == f"{context}\nalice"
    assert result.calls[3].inputs == ("Alice likes Bob.", rules)


async def test_keywords_of_each_part_are_asked_on_that_part():
    transformer, script = model(keyword_script)
    result = await transform_followup(transformer, "MR-8", ["Alice likes Bob."], "Carol is kind.", [0], True)
    assert result.ok and result.premises == ("Alicia likes Robert.",) and result.conclusion == "Caroline is kind."
    keyword_requests = [r for r in script.requests if r.startswith("Identify names")]
    assert keyword_requests == [KEYWORD_REQUEST.format("Alice likes Bob."), KEYWORD_REQUEST.format("Carol is kind.")]
    assert len(result.calls) == (1 + 2 + 1) + (1 + 1 + 1)


async def test_antonyms_use_llmorphs_antonym_prompt_and_replace_examples():
    transformer, script = model(keyword_script)
    result = await transform_followup(transformer, "MR-10", ["Alice likes Bob."], "Dan.", [0], False)
    assert result.ok and result.premises == ("Alicia likes Robert.",)
    assert script.requests[1:3] == [
        ANTONYM_REQUEST.format("Alice likes Bob.", "alice"),
        ANTONYM_REQUEST.format("Alice likes Bob.", "bob"),
    ]
    assert examples_of(script.conversations[1])[0][1] == "sell"
    assert examples_of(script.conversations[-1])[0][1] == "He ran to the home to sell an apple."


async def test_a_word_left_empty_falls_back_to_its_keyword():
    transformer, _ = in_order("Alice", "...", "Alicia likes poems.")
    result = await transform_followup(transformer, "MR-8", ["Alice likes poems."], "Dan.", [0], False)
    assert result.ok and result.calls[1].output == "alice"
    assert result.calls[2].inputs == ("Alice likes poems.", "alice -> alice")


async def test_random_keyword_replacement_is_seeded_and_asks_no_word():
    transformer, script = model(keyword_script)

    async def run(seed: int) -> Any:
        return await transform_followup(
            transformer, "MR-25", ["Alice likes Bob."], "Carol is kind.", [0], True, seed=seed
        )

    first, again, other = await run(1), await run(1), await run(2)
    assert first.ok and again.ok and other.ok
    assert (first.premises, first.conclusion) == (again.premises, again.conclusion)
    assert (first.premises, first.conclusion) != (other.premises, other.conclusion)
    assert [c.kind for c in first.calls] == ["keywords", "replace", "keywords", "replace"]
    rng = random.Random(1)  # one stream per group: the premises' words, then the conclusion's
    premise_words, conclusion_words = rng.sample(random_words(), 2), rng.sample(random_words(), 1)
    assert first.calls[1].inputs[1] == f"alice -> {premise_words[0]}\nbob -> {premise_words[1]}"
    assert first.calls[3].inputs[1] == f"carol -> {conclusion_words[0]}"
    assert first.conclusion == f"{conclusion_words[0].capitalize()} is kind."
    assert examples_of(script.conversations[1])[0][1] == "He cut to the fall to run an play."


def test_random_words_are_our_own_list():
    words = random_words()
    assert 350 <= len(words) <= 450 and len(set(words)) == len(words)
    assert all(re.fullmatch(r"[a-z]+", w) for w in words)


async def test_keywords_are_removed_sentence_by_sentence():
    transformer, script = model(keyword_script)
    premises = ["Alice likes Bob.", "Carol is tall."]
    result = await transform_followup(transformer, "MR-34", premises, "Dan.", [0, 1], False)
    assert result.ok and result.premises == ("likes .", "is tall.")
    keywords = "alice\nbob\ncarol"
    assert script.requests == [
        KEYWORD_REQUEST.format("Alice likes Bob. Carol is tall."),
        REMOVE_REQUEST.format("Alice likes Bob.", keywords),
        REMOVE_REQUEST.format("Carol is tall.", keywords),
    ]
    assert examples_of(script.conversations[1])[1][1] == "My will travel to next to study."


async def test_same_category_takes_keywords_from_every_part_once():
    transformer, script = model(keyword_script)
    premises = ["Alice likes Bob.", "Bob is tall."]
    result = await transform_followup(transformer, "MR-137", premises, "Carol is kind.", [0, 1], True)
    assert result.ok
    assert result.premises == ("Alicia likes Robert.", "Robert is tall.") and result.conclusion == "Caroline is kind."
    rules = "alice -> alicia\nbob -> robert\ncarol -> caroline"
    assert script.requests == [
        KEYWORD_REQUEST.format("Alice likes Bob. Bob is tall.\n\nCarol is kind."),
        CATEGORY_REQUEST.format("alice"),
        CATEGORY_REQUEST.format("bob"),
        CATEGORY_REQUEST.format("carol"),
        REPLACE_REQUEST.format("Alice likes Bob.", rules),
        REPLACE_REQUEST.format("Bob is tall.", rules),
        REPLACE_REQUEST.format("Carol is kind.", rules),
    ]
    assert examples_of(script.conversations[1]) == [
        (CATEGORY_REQUEST.format("Sarah"), "John"),
        (CATEGORY_REQUEST.format("software engineer"), "farmer"),
    ]
    assert examples_of(script.conversations[-1])[0][1] == "John is a Swedish farmer. He works for Nvidea."

    conclusion_only = await transform_followup(transformer, "MR-137", premises, "Carol is kind.", [], True)
    assert conclusion_only.premises == tuple(premises) and conclusion_only.conclusion == "Caroline is kind."
    assert conclusion_only.calls[0].input == "Alice likes Bob. Bob is tall.\n\nCarol is kind."


# --- generation -----------------------------------------------------------------------------------------------------

PREMISES, CONCLUSION = ["Alice is a poet.", "Bob is tall."], "Alice is kind."


async def test_a_premise_generated_from_the_hypothesis_is_added():
    transformer, script = in_order("Alice helps everyone.")
    result = await transform_followup(transformer, "MR-77", PREMISES, CONCLUSION, [2], False)
    assert result.ok and result.premises == (*PREMISES, "Alice helps everyone.") and result.conclusion == CONCLUSION
    [conversation] = script.conversations
    assert conversation[-1].text == (
        'Generate a premesis based on the following hypothesis:\n"Alice is kind."\nOnly output the text, nothing else.'
    )
    assert examples_of(conversation) == [
        (
            'Generate a premesis based on the following hypothesis:\n"I was outside today."\n'
            "Only output the text, nothing else.",
            "I was walking the dog just now.",
        ),
        (
            'Generate a premesis based on the following hypothesis:\n"She likes cats."\n'
            "Only output the text, nothing else.",
            "She takes care of five cats.",
        ),
    ]
    [call] = result.calls
    assert (call.kind, call.input, call.inputs) == (
        "generate",
        CONCLUSION,
        ("Alice is a poet. Bob is tall.", CONCLUSION),
    )


HYPOTHESIS_FROM_PREMISE = (
    'Generate a hypothesis based on the following premesis:\n"Alice is a poet. Bob is tall."\n'
    "Only output the text, nothing else."
)


async def test_a_hypothesis_generated_from_the_premises_is_appended_to_the_conclusion():
    transformer, script = in_order("Alice writes.")
    result = await transform_followup(transformer, "MR-78", PREMISES, CONCLUSION, [], True)
    assert result.ok and result.premises == tuple(PREMISES) and result.conclusion == "Alice is kind. Alice writes."
    assert script.requests == [HYPOTHESIS_FROM_PREMISE]
    assert examples_of(script.conversations[0])[0][1] == "I was outside today."


async def test_a_hypothesis_generated_from_the_hypothesis_replaces_it():
    transformer, script = in_order("Alice is nice.")
    result = await transform_followup(transformer, "MR-79", PREMISES, CONCLUSION, [], True)
    assert result.ok and result.premises == tuple(PREMISES) and result.conclusion == "Alice is nice."
    assert script.requests == [
        'Generate a hypothesis based on the following premesis:\n"Alice is kind."\nOnly output the text, nothing else.'
    ]
    assert examples_of(script.conversations[0])[1][0] == (
        'Generate a hypothesis based on the following premesis:\n"She thinks cats are super cute and lovely."\n'
        "Only output the text, nothing else."
    )


async def test_a_hypothesis_generated_from_the_premises_replaces_them():
    transformer, script = in_order("Alice writes.")
    result = await transform_followup(transformer, "MR-80", PREMISES, CONCLUSION, [0, 1], False)
    assert result.ok and result.premises == ("Alice writes.",) and result.conclusion == CONCLUSION
    assert script.requests == [HYPOTHESIS_FROM_PREMISE]
    assert len(result.calls) == 1 and result.calls[0].input == "Alice is a poet. Bob is tall."


# --- failures -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("", "empty transformer output"),
        ('""', "empty transformer output"),
        ("C is d.", "conclusion unchanged"),
        ("word " * 200, "transformer output too long"),
    ],
)
async def test_failures_are_reported_not_raised(answer, reason):
    transformer, _ = in_order(answer)
    result = await transform_followup(transformer, "MR-51", ["A is b."], "C is d.", [], True)
    assert not result.ok and result.reason == reason
    assert result.premises == ("A is b.",) and result.conclusion == "C is d."
    assert len(result.calls) == 1 and result.calls[0].raw == answer
    assert result.to_dict()["ok"] is False


async def test_premises_that_all_stay_the_same_fail():
    transformer, _ = in_order("A is b.", "C is d.")
    result = await transform_followup(transformer, "MR-51", ["A is b.", "C is d."], "E.", [0, 1], False)
    assert (result.ok, result.reason) == (False, "premises unchanged") and len(result.calls) == 2


async def test_a_single_premise_regenerated_unchanged_fails():
    transformer, _ = in_order("A is b.")
    result = await transform_followup(transformer, "MR-80", ["A is b."], "E.", [0], False)
    assert (result.ok, result.reason) == (False, "premises unchanged")


async def test_a_part_without_keywords_fails():
    transformer, _ = in_order("...")
    result = await transform_followup(transformer, "MR-10", ["alice likes bob."], "c.", [0], False)
    assert (result.ok, result.reason) == (False, "no keywords") and len(result.calls) == 1


async def test_a_failed_step_keeps_every_call_made_before_it():
    transformer, _ = in_order("Alice", "Alicia", "Alicia likes poems.", "")
    result = await transform_followup(
        transformer, "MR-8", ["Alice likes poems.", "Alice is tall."], "Dan.", [0, 1], False
    )
    assert (result.ok, result.reason) == (False, "empty transformer output")
    assert [c.kind for c in result.calls] == ["keywords", "synonym", "replace", "replace"]
    assert result.premises == ("Alice likes poems.", "Alice is tall.")
    json.dumps(result.to_dict())  # plain data for `state.store`


async def test_unknown_relation_is_refused():
    transformer, _ = in_order()
    with pytest.raises(ValueError, match="not a sentence-rewriting relation"):
        await transform_sentence(transformer, "MR-1", "A.")
    with pytest.raises(ValueError, match="not an LLM-based relation"):
        await transform_followup(transformer, "MR-1", ["A."], "B.", [0], False)


# --- plans and parsing ----------------------------------------------------------------------------------------------


def test_plan_sites():
    assert plan_sites("MR-51", 3, "premises", 7) == ((0, 1, 2), False)
    assert plan_sites("MR-51", 3, "both", 7) == ((0, 1, 2), True)
    assert plan_sites("MR-51", 3, "conclusion", 7) == ((), True)
    assert plan_sites("MR-152", 3, "premises", 7) == ((1,), False)
    assert plan_sites("MR-152", 3, "both", 8) == ((2,), True)
    with pytest.raises(ValueError, match="part="):
        plan_sites("MR-51", 3, "none", 0)
    assert plan_sites("MR-77", 3, "premises", 7) == ((3,), False)  # a new premise
    assert plan_sites("MR-80", 3, "premises", 7) == ((0, 1, 2), False)
    assert plan_sites("MR-78", 3, "conclusion", 7) == ((), True)
    assert plan_sites("MR-79", 3, "conclusion", 7) == ((), True)
    with pytest.raises(ValueError, match="MR-79 transforms the conclusion only"):
        plan_sites("MR-79", 3, "premises", 0)
    with pytest.raises(ValueError, match="MR-77 transforms the premises only"):
        plan_sites("MR-77", 3, "both", 0)


def test_keywords_are_parsed_as_llmorph_does():
    assert parse_keywords("Sarah\nAmerican, software engineer\n\n- Microsoft.\nsarah") == [
        "sarah",
        "american",
        "software engineer",
        "microsoft",
    ]


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
