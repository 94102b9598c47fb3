"""LLMorph's transformer prompts, as data: each relation's instruction templates and few-shot examples.

The templates and examples are LLMorph's own (Apache-2.0), from `src/config/templates/it_prompt_templates.json`
(keys named below) and the keyword classes of `src/relations/func_it.py` (`GPTKeywordBase`, `ReplaceKeyword`,
`ITReplaceKeywordSynonym`, `ITReplaceKeywordAntonym`, `ITReplaceKeywordRandom`, `ITRemoveKeyword`,
`ITReplaceKeywordCategory`, `ITNegate`), because a prompt is part of what a relation is. They are rendered as
LLMorph's `llm_handler.run_template_llm` does: a system message "You are a helpful assistant.", each example as a
user turn (the template filled with the example's inputs) and an assistant turn, then the request; `{INPUT_0}`,
`{INPUT_1}` are the slots. MR-120's prompts are ours: LLMorph ran back-translation with nlpaug's default models
(facebook/wmt19-en-de and wmt19-de-en), which we replace by the transformer with the same German pivot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser

SYSTEM_MESSAGE = "You are a helpful assistant."
"""LLMorph's system message for every transformer call (`llm_handler.run_template_llm`)."""


def fill(template: str, inputs: Sequence[str]) -> str:
    """LLMorph's `use_template`: replace `{INPUT_i}` by the i-th input."""
    text = template
    for i, value in enumerate(inputs):
        text = text.replace(f"{{INPUT_{i}}}", value)
    return text


@dataclass(frozen=True)
class TransformPrompt:
    """One transformer step: a template with `{INPUT_i}` slots and worked examples `((inputs...), answer)`."""

    template: str
    examples: tuple[tuple[tuple[str, ...], str], ...]

    def messages(self, *inputs: str) -> list[ChatMessage]:
        """The conversation for `inputs`: the system message, the examples as turns, then the request."""
        turns: list[ChatMessage] = [ChatMessageSystem(content=SYSTEM_MESSAGE)]
        for given, answer in self.examples:
            turns += [ChatMessageUser(content=fill(self.template, given)), ChatMessageAssistant(content=answer)]
        return [*turns, ChatMessageUser(content=fill(self.template, inputs))]


def _prompt(template: str, *examples: tuple[tuple[str, ...], str]) -> TransformPrompt:
    return TransformPrompt(template, tuple(examples))


REWRITE: Mapping[str, TransformPrompt] = MappingProxyType(
    {
        # it_prompt_templates.json: word_insertion
        "MR-9": _prompt(
            'Insert random words or phrases throughout the following text:\n"{INPUT_0}"\nDo this randomly. Do not '
            "change any words from the text iteself. Only output the changed text, nothing else.",
            (
                ("He went to the doctor yesterday and got a diagnosis.",),
                "He went to the doctor yesterday with an armful of cheese and got a diagnosis.",
            ),
            (
                ("She sang beautifully, even though she was nervous.",),
                "She sang beautifully, even though she was blisteringly nervous.",
            ),
        ),
        # paraphrasing
        "MR-51": _prompt(
            'Paraphrase the following text:\n"{INPUT_0}"\nOnly output the changed text, nothing else.',
            (("I ate a cabbage yesterday!",), "Yesterday, I ate a cabbage."),
            (
                ("There is nothing in the world more sweet than love.",),
                "Love is the sweetest thing in the world.",
            ),
        ),
        # misspell
        "MR-127": _prompt(
            'Misspell the following text:\n"{INPUT_0}"\nOnly output the changed text, nothing else.',
            (("I ate a cabbage yesterday!",), "i atte a cabbbagae yestedy."),
            (
                ("There is nothing in the world more sweet than love.",),
                "Thiere is nnothinsg in tkhis world m,ore swefte thn lvov.",
            ),
        ),
        # passive_active
        "MR-136": _prompt(
            'If the following is in active voice, rewrite it to passive voice, and vice versa.\n"{INPUT_0}"\nOnly '
            "output the raw changed text, nothing else.",
            (("Penicillin was discovered by Alex.",), "Alex discovered penicillin."),
            (("The cat ate the cabbage.",), "The cabbage was eaten by the cat."),
        ),
        # func_it.ITNegate
        "MR-152": _prompt(
            'Negate the following text with minimal change:\n"{INPUT_0}"\nOnly output the changed text, nothing else.',
            (("Who was the leader of Norway?",), "Who wasn't the leader of Norway?"),
            (("The President ate a cabbage.",), "The President didn't eat a cabbage."),
        ),
        # tense_change
        "MR-155": _prompt(
            'Rewrite the following in a different tense:\n"{INPUT_0}"\nOnly output the changed text, nothing else. '
            "If there is no tense to be changed, just copy the input.",
            (("There were people there.",), "There will be people there."),
            (("I want a cat!",), "I wanted a cat!"),
        ),
    }
)
"""Relations that rewrite one text with one prompt (LLMorph's `ITGPT` with a template)."""

BACK_TRANSLATION: tuple[TransformPrompt, TransformPrompt] = (
    _prompt(
        'Translate the following text into German:\n"{INPUT_0}"\nOnly output the translated text, nothing else.',
        (("The library opens at nine.",), "Die Bibliothek öffnet um neun."),
        (("If a shop is closed, nobody works there.",), "Wenn ein Geschäft geschlossen ist, arbeitet dort niemand."),
    ),
    _prompt(
        'Translate the following text into English:\n"{INPUT_0}"\nOnly output the translated text, nothing else.',
        (("Alle Katzen schlafen gern.",), "All cats like to sleep."),
        (("Es gibt einen Hund, der schwimmt.",), "There is a dog that swims."),
    ),
)
"""MR-120 (ours; see the module docstring): into German, then back into English."""

_HYPOTHESIS_FROM_PREMISE = _prompt(
    'Generate a hypothesis based on the following premesis:\n"{INPUT_0}"\nOnly output the text, nothing else.',
    (("I went to the beach this morning.", ""), "I was outside today."),
    (("She thinks cats are super cute and lovely.", ""), "She likes cats."),
)

GENERATE: Mapping[str, TransformPrompt] = MappingProxyType(
    {
        # generate_premesis_from_hypothesis (INPUT_1 = the hypothesis)
        "MR-77": _prompt(
            'Generate a premesis based on the following hypothesis:\n"{INPUT_1}"\nOnly output the text, nothing else.',
            (("", "I was outside today."), "I was walking the dog just now."),
            (("", "She likes cats."), "She takes care of five cats."),
        ),
        # generate_hypothesis_from_premesis (INPUT_0 = the premise): appended to the hypothesis (MR-78), or used as
        # the premise (MR-80)
        "MR-78": _HYPOTHESIS_FROM_PREMISE,
        "MR-80": _HYPOTHESIS_FROM_PREMISE,
        # generate_hypothesis_from_hypothesis (INPUT_1 = the hypothesis)
        "MR-79": _prompt(
            'Generate a hypothesis based on the following premesis:\n"{INPUT_1}"\nOnly output the text, nothing else.',
            (("", "I went to the beach this morning."), "I was outside today."),
            (("", "She thinks cats are super cute and lovely."), "She likes cats."),
        ),
    }
)
"""Relations that generate a new sentence from the premises or the hypothesis (LLMorph's NLI relations)."""

KEYWORDS = _prompt(
    'Identify names, pronouns, country names, occupations, and similar keywords in the following text:\n"{INPUT_0}"\n'
    "Only output the list of words, nothing else.",
    (
        ("Sarah is an American software engineer. She works for Microsoft.",),
        "Sarah\nAmerican\nsoftware engineer\nMicrosoft",
    ),
    (("My brother will travel to Japan next month to study Japanese.",), "brother\nJapan\nJapanese"),
)
"""`GPTKeywordBase.get_keywords_gpt`: the keywords of a text, one per line."""

_REPLACE_TEMPLATE = (
    'Look at this text:\n"{INPUT_0}"\nReplace words using the following rules:\n{INPUT_1}\nOnly replace any words that '
    "are there. Ignore any rules that are not used. Only output the modified text."
)

REPLACE: Mapping[str, TransformPrompt] = MappingProxyType(
    {
        "MR-8": _prompt(
            _REPLACE_TEMPLATE,
            (
                (
                    "Sam walked to the store to buy an apple.",
                    "walked -> travelled\nslowly -> unhurriedly\nbuy -> purchase\nstore -> shop",
                ),
                "I travelled to the shop to purchase an apple.",
            ),
            (
                (
                    "I wonder why clothes are so expensive.",
                    "buy -> purachase\nclothes -> garments\nexpensive -> pricy\nwhy -> for what reason\nfull -> "
                    "complete",
                ),
                "I wonder for what reason garments are so pricy.",
            ),
        ),
        "MR-10": _prompt(
            _REPLACE_TEMPLATE,
            (
                (
                    "She walked to the store to buy an apple.",
                    "walked -> ran\nslowly -> quickly\nbuy -> sell\nstore -> home\nshe -> he",
                ),
                "He ran to the home to sell an apple.",
            ),
            (
                (
                    "In 1993, I broke my arm while cleaning my electric car.",
                    "noisy -> silent\nmy -> your\nfull -> empty\nelectric -> petrol\ncleaning -> dirtying\nbroke -> "
                    "fixed",
                ),
                "In 1993, I fixed your arm while dirtying your petrol car.",
            ),
        ),
        "MR-25": _prompt(
            _REPLACE_TEMPLATE,
            (
                (
                    "He walked to the store to buy an apple.",
                    "walked -> cut\nslowly -> break\nbuy -> run\napple -> play\nstore -> fall",
                ),
                "He cut to the fall to run an play.",
            ),
            (
                (
                    "Sarah is an American software engineer. She works for Microsoft.",
                    "software engineer -> carry\nSarah -> give\nAmerican -> light\nsandwich -> clear\nMicrosoft -> "
                    "call",
                ),
                "Give is a light carry. She works for call.",
            ),
        ),
        "MR-137": _prompt(
            _REPLACE_TEMPLATE,
            (
                (
                    "Sarah is an American software engineer. She works for Microsoft.",
                    "software engineer -> farmer\nSarah -> John\nAmerican -> Swedish\napple -> pear\nMicrosoft -> "
                    "Nvidea",
                ),
                "John is a Swedish farmer. He works for Nvidea.",
            ),
            (
                (
                    "My brother will travel to Japan next month to study Japanese.",
                    "sweater -> shirt\nJapanese -> Irish\nmonth -> year\nEurope -> Asia\nbrother -> sister\nJapan -> "
                    "Italy",
                ),
                "My sister will travel to Italy next year to study Irish.",
            ),
        ),
    }
)
"""`ReplaceKeyword.replace_words_gpt` with each relation's own examples: apply `keyword -> word` rules to a text."""

WORD_FOR_KEYWORD: Mapping[str, TransformPrompt] = MappingProxyType(
    {
        "MR-8": _prompt(
            'Context:\n"{INPUT_0}"\nMaking sense in this context, give a synonym for "{INPUT_1}". If the word has no '
            "synonym, simply output the word itself.",
            (("Sam walked to the store to buy an apple.", "walked"), "travelled"),
            (("I wonder why clothes are so expensive.", "expensive"), "pricey"),
        ),
        "MR-10": _prompt(
            "You are given a context and a word. Produce an antonym of the word. Make sure the antonym makes sense in "
            "the context. If the word has no antonym, simply output the word itself. \n<context>{INPUT_0}</context>\n"
            "<word>{INPUT_1}</word>",
            (("She walked to the store to buy an apple.", "buy"), "sell"),
            (("In 1993, I broke my arm while cleaning my electric car.", "electric"), "petrol"),
        ),
        "MR-137": _prompt(
            'Give a word or phrase in the same category as "{INPUT_0}".',
            (("Sarah",), "John"),
            (("software engineer",), "farmer"),
        ),
    }
)
"""The word each keyword is replaced by: a synonym in context (MR-8), an antonym in context (MR-10), a word of the
same category (MR-137). MR-25 draws random words instead (`llm.random_words()`)."""

REMOVE = _prompt(
    'Look at this text:\n"{INPUT_0}"\nRemove the following words:\n{INPUT_1}\nOnly remove the words. Only output the '
    "modified text.",
    (
        (
            "Sarah is an American software engineer. She works for Microsoft.",
            "Sarah\nAmerica\nsoftware engineer\nMicrosoft",
        ),
        "is an. She works for.",
    ),
    (
        ("My brothers will travel to Japan next month to study Japanese.", "brother\nJapan"),
        "My will travel to next to study.",
    ),
)
"""`ITRemoveKeyword.get_gpt_prompt` (MR-34): remove the keywords from one sentence."""
