r"""The LLM-based input transformations of LLMorph (§IV), run through any Inspect model (the *transformer*).

The prompts are LLMorph's own templates and few-shot examples (`llm_prompts`, with the file and key of each), sent
as LLMorph's `llm_handler.run_template_llm` sends them: the system message "You are a helpful assistant.", each
example as a user turn (the template filled with the example's inputs) and an assistant turn, then the request.
The generation prompts are LLMorph's NLI `multi_input` templates: `{INPUT_0}` is the premise text (the premises
joined with a space), `{INPUT_1}` the hypothesis (the conclusion).

What LLMorph does for each relation (its NLI configuration, `list_relations.json` "general" and "inference"):

- one template on the text (`ITGPT`): MR-9 `word_insertion`, MR-51 `paraphrasing`, MR-127 `misspell`, MR-136
  `passive_active`, MR-155 `tense_change`; MR-152 `ITNegate`'s own prompt;
- keyword relations (`GPTKeywordBase`, `ReplaceKeyword`): the keywords of the part's text (`get_keywords_gpt`,
  split on commas and new lines, each cleaned), then a word for each keyword (MR-8 `get_synonym` and MR-10
  `get_antonym`, both given the part's text as context; MR-137 `get_word_same_category`; MR-25 random words, no
  call), then the text rewritten by the rules `keyword -> word` (`replace_words_gpt`, with each relation's own
  examples). MR-34 (`ITRemoveKeywordSentence`) instead asks, sentence by sentence, to remove the keywords. MR-137
  (`ITReplaceKeywordCategory`) takes its keywords from all parts joined by blank lines and replaces them in each part;
- generation (NLI only): MR-77 writes a premise from the hypothesis (`generate_premesis_from_hypothesis`) and
  `ITGPTConcatInf` appends it to the premise; MR-78 writes a hypothesis from the premise
  (`generate_hypothesis_from_premesis`) and appends it to the hypothesis; MR-79 writes a hypothesis from the
  hypothesis (`generate_hypothesis_from_hypothesis`) and uses it as the hypothesis; MR-80 writes a hypothesis from
  the premise (`generate_hypothesis_from_premesis`) and uses it as the premise;
- MR-120 is not an LLM call in LLMorph: nlpaug's `BackTranslationAug` with the facebook/wmt19 en-de and de-en
  models. We cannot run those offline, so the transformer translates into German and back (two calls, our prompts).

Our choices, not LLMorph's:

- *Unit.* LLMorph sends a part's whole text in one call (only MR-34's removal goes sentence by sentence). We
  rewrite each planned premise in its own call (and the conclusion in one), for the one-template relations and for
  the replacement and removal steps of the keyword relations, so that the follow-up keeps the premise list and the
  prompt layout of the source. Keywords (and the word for each) are still asked once per part, on the part's text
  (the premises joined with a space, or the conclusion), as LLMorph does. The generation relations make one call
  per group. MR-152 negates one premise, chosen by the builder so that the label provably changes.
- *Clean-up and rejection.* LLMorph keeps whatever comes back. We clean each answer (`clean_output`: the first
  line, without a "Here is ...:" line or quotes; a keyword's word also goes through LLMorph's `clean_text`, and an
  empty one falls back to the keyword itself, as the prompts ask), drop empty and repeated keywords
  (`parse_keywords`), and reject a group, with the reason counted in the build statistics, when an answer is empty,
  much longer than the text it rewrites (`MAX_GROWTH`, almost always a model explaining itself), the part has no
  keywords, or no planned sentence changed.
- *Decoding.* Greedy (temperature 0), so a transformer that supports it gives the same follow-ups on every run;
  LLMorph's Hermes 2 was sampled with the API's defaults. MR-25's words are drawn from our own list
  (`data/random_words.json`) with a per-group seed (`transform_seed`), so the build and the eval-time solver draw
  the same words; LLMorph drew from its own list with one generator seeded 42 for the whole run.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from inspect_ai.model import CachePolicy, GenerateConfig, Model, get_model

from lgmt_tasks.ids import derived_seed
from lgmt_tasks.lexical.llm_prompts import (
    BACK_TRANSLATION,
    GENERATE,
    KEYWORDS,
    REMOVE,
    REPLACE,
    REWRITE,
    SYSTEM_MESSAGE,
    WORD_FOR_KEYWORD,
    TransformPrompt,
)
from lgmt_tasks.scorers.lexical_text_relation import clean_text

__all__ = [
    "CONCLUSION_ONLY",
    "KEYWORD_RELATIONS",
    "LLM_RELATIONS",
    "MAX_GROWTH",
    "PREMISES_ONLY",
    "SYSTEM_MESSAGE",
    "TRANSFORMER_CACHE",
    "TRANSFORMER_CONFIG",
    "LlmFollowUp",
    "StepRecord",
    "TransformFailed",
    "TransformPrompt",
    "clean_output",
    "parse_keywords",
    "pending_transform",
    "plan_sites",
    "random_words",
    "transform_followup",
    "transform_seed",
    "transform_sentence",
]

MAX_GROWTH = 3.0
"""A transformed sentence longer than this many times its input (plus 40 characters) is rejected as chatter."""

TRANSFORMER_CONFIG = GenerateConfig(temperature=0.0, max_tokens=256)
"""Greedy decoding; a sentence never needs more than a few dozen tokens."""

TRANSFORMER_CACHE = CachePolicy(expiry=None, per_epoch=False, scopes={"purpose": "lgmt-lexical-transformer"})
"""The cache policy of eval-time transformer calls: the same follow-up in every epoch and every run."""

KEYWORD_RELATIONS: tuple[str, ...] = ("MR-8", "MR-10", "MR-25", "MR-34", "MR-137")
"""Relations that first ask for the keywords of a text."""

LLM_RELATIONS: tuple[str, ...] = tuple(
    sorted({*REWRITE, "MR-120", *GENERATE, *KEYWORD_RELATIONS}, key=lambda mr: int(mr.removeprefix("MR-")))
)
"""Every relation this module makes follow-ups for, in numeric order."""

PREMISES_ONLY: tuple[str, ...] = ("MR-77", "MR-80")
"""Relations whose follow-up changes the premises only (MR-77 adds one, MR-80 replaces them by one)."""

CONCLUSION_ONLY: tuple[str, ...] = ("MR-78", "MR-79")
"""Relations whose follow-up changes the conclusion only."""

_WORD_STEP = {"MR-8": "synonym", "MR-10": "antonym", "MR-137": "category"}


def transform_seed(pending_id: str) -> int:
    """The seed of a pending group's random choices in the transformer (MR-25's words).

    Derived from the pending row's id, so the build and the eval-time solver make the same follow-up.
    """
    return derived_seed(0, "transform", pending_id)


@functools.cache
def random_words() -> tuple[str, ...]:
    """MR-25's replacement words: our own list of common, concrete, unrelated English words (shipped, offline)."""
    text = resources.files("lgmt_tasks.lexical").joinpath("data/random_words.json").read_text("utf-8")
    words = json.loads(text)["words"]
    if not words or not all(isinstance(w, str) and w.strip() for w in words):
        raise ValueError("random_words.json must hold a non-empty list of words under 'words'")
    return tuple(words)


_QUOTES = (('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’"), ("`", "`"))


def clean_output(raw: str) -> str:
    """Reduce a transformer's completion to the transformed sentence.

    Drops surrounding white space, a first line that only introduces the answer (ends with `:`, e.g. "Here is the
    paraphrased text:"), everything after the first remaining line, and one layer of matching quotes.

    Args:
        raw: The completion.

    Returns:
        The sentence, possibly empty.
    """
    lines = [line.strip() for line in raw.strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        lines = lines[1:]
    text = lines[0] if lines else ""
    for left, right in _QUOTES:
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            text = text[len(left) : -len(right)].strip()
            break
    return text


def parse_keywords(raw: str) -> list[str]:
    """LLMorph's `get_keywords`: split on commas and new lines and clean each (`clean_text`).

    Unlike LLMorph's, drops the items left empty (a trailing new line, a bullet) and repeats: each would cost a call
    and add a rule like ` -> word`.
    """
    seen: list[str] = []
    for item in re.split(r"[,\n]+\s*", raw):
        keyword = clean_text(item)
        if keyword and keyword not in seen:
            seen.append(keyword)
    return seen


@dataclass(frozen=True)
class StepRecord:
    """One transformer call: what was sent, what came back, what was kept.

    Attributes:
        step: The call's position in the group (0, 1, ...).
        input: The text the call works on: the values of the slots its template uses, joined by new lines.
        raw: The completion, as returned.
        output: What was kept of it (the cleaned sentence, the parsed keywords one per line, the cleaned word).
        inputs: Every slot value, `{INPUT_0}` first (a generation prompt's unused slot is kept, empty or not).
        kind: The step: `rewrite`, `to German`, `to English`, `keywords`, `synonym`, `antonym`, `category`,
            `replace`, `remove` or `generate`.
    """

    step: int
    input: str
    raw: str
    output: str
    inputs: tuple[str, ...] = ()
    kind: str = ""


@dataclass
class LlmFollowUp:
    """The result of transforming one group's follow-up with a transformer.

    Attributes:
        ok: Whether a valid follow-up was produced.
        premises: The follow-up premises (the source's where nothing was transformed, and when not `ok`).
        conclusion: The follow-up conclusion.
        reason: Why it failed (empty when `ok`).
        calls: Every transformer call, in order (kept in the log and the build for inspection).
    """

    ok: bool
    premises: tuple[str, ...]
    conclusion: str
    reason: str = ""
    calls: list[StepRecord] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for `state.store` and build statistics)."""
        return {
            "ok": self.ok,
            "premises": list(self.premises),
            "conclusion": self.conclusion,
            "reason": self.reason,
            "calls": [{**vars(call), "inputs": list(call.inputs)} for call in self.calls],
        }


class TransformFailed(Exception):
    """A group could not be transformed; the message is the reason counted in statistics."""


def _check(output: str, given: str) -> str:
    if not output:
        raise TransformFailed("empty transformer output")
    if len(output) > MAX_GROWTH * len(given) + 40:
        raise TransformFailed("transformer output too long")
    return output


class _Transformer:
    """The calls of one group: a model, its cache policy, and the record of every call made."""

    def __init__(self, model: Model, cache: bool | CachePolicy, calls: list[StepRecord]) -> None:
        self.model = model
        self.cache = cache
        self.calls = calls

    async def ask(
        self,
        kind: str,
        prompt: TransformPrompt,
        inputs: Sequence[str],
        clean: Callable[[str], str] = clean_output,
        checked: str | None = None,
    ) -> str:
        """One call, recorded.

        Args:
            kind: The step's name (`StepRecord.kind`).
            prompt: The step's template and examples.
            inputs: The values of its `{INPUT_i}` slots.
            clean: What is kept of the completion.
            checked: The text the kept answer must not be empty or outgrow (None: no check).
        """
        output = await self.model.generate(prompt.messages(*inputs), config=TRANSFORMER_CONFIG, cache=self.cache)
        kept = clean(output.completion)
        used = "\n".join(value for i, value in enumerate(inputs) if f"{{INPUT_{i}}}" in prompt.template)
        self.calls.append(StepRecord(len(self.calls), used, output.completion, kept, tuple(inputs), kind))
        return kept if checked is None else _check(kept, checked)

    async def rewrite(self, mr: str, text: str) -> str:
        """A one-template relation on one sentence (MR-120: there and back)."""
        if mr == "MR-120":
            german = await self.ask("to German", BACK_TRANSLATION[0], [text], checked=text)
            return await self.ask("to English", BACK_TRANSLATION[1], [german], checked=text)
        if mr not in REWRITE:
            raise ValueError(
                f"{mr} is not a sentence-rewriting relation; expected one of {', '.join([*REWRITE, 'MR-120'])}"
            )
        return await self.ask("rewrite", REWRITE[mr], [text], checked=text)

    async def keywords(self, text: str) -> list[str]:
        """`get_keywords`: the keywords of a text (one call)."""
        found = (await self.ask("keywords", KEYWORDS, [text], clean=_keyword_lines)).splitlines()
        if not found:
            raise TransformFailed("no keywords")
        return found

    async def words_for(self, mr: str, context: str, keywords: Sequence[str], rng: random.Random) -> list[str]:
        """The word replacing each keyword: one call per keyword (MR-25: seeded random words, no call)."""
        if mr == "MR-25":
            pool = random_words()
            return rng.sample(pool, min(len(keywords), len(pool)))
        words = []
        for keyword in keywords:
            inputs = [keyword] if mr == "MR-137" else [context, keyword]
            words.append(await self.ask(_WORD_STEP[mr], WORD_FOR_KEYWORD[mr], inputs, clean=_word_or(keyword)))
        return words

    async def replace(self, mr: str, sentence: str, keywords: Sequence[str], words: Sequence[str]) -> str:
        """`replace_words_gpt` on one sentence, with the relation's examples."""
        rules = "\n".join(f"{k} -> {w}" for k, w in zip(keywords, words, strict=False))
        return await self.ask("replace", REPLACE[mr], [sentence, rules], checked=sentence)

    async def remove(self, sentence: str, keywords: Sequence[str]) -> str:
        """`ITRemoveKeywordSentence`'s removal on one sentence."""
        return await self.ask("remove", REMOVE, [sentence, "\n".join(keywords)], checked=sentence)


def _keyword_lines(raw: str) -> str:
    """The keywords kept of a `keywords` answer, one per line."""
    return "\n".join(parse_keywords(raw))


def _word_or(keyword: str) -> Callable[[str], str]:
    """What is kept of a word-for-keyword answer.

    Its first line, cleaned as LLMorph cleans the word (`clean_text`), or the keyword itself if nothing is left (the
    prompts ask for the word itself when it has no synonym or antonym).
    """

    def keep(raw: str) -> str:
        return clean_text(clean_output(raw)) or keyword

    return keep


async def transform_sentence(
    model: Model, mr: str, text: str, cache: bool | CachePolicy = False, calls: list[StepRecord] | None = None
) -> str:
    """Rewrite one sentence with a one-template relation (MR-9, 51, 127, 136, 152, 155) or MR-120's two calls.

    Args:
        model: The transformer.
        mr: The relation.
        text: The sentence.
        cache: Inspect's model cache for the calls.
        calls: Where the calls are recorded (None: not kept).

    Raises:
        TransformFailed: If a call returns an empty or overlong text.
        ValueError: If `mr` is not a sentence-rewriting relation.
    """
    return await _Transformer(model, cache, calls if calls is not None else []).rewrite(mr, text)


async def _generate(run: _Transformer, mr: str, premises: Sequence[str], conclusion: str) -> tuple[list[str], str]:
    """MR-77 to MR-80: one sentence generated from the premise text or the hypothesis, placed as LLMorph does."""
    premise_text = " ".join(premises)
    source = conclusion if mr in ("MR-77", "MR-79") else premise_text
    generated = await run.ask("generate", GENERATE[mr], [premise_text, conclusion], checked=source)
    if mr == "MR-77":
        return [*premises, generated], conclusion
    if mr == "MR-78":
        return list(premises), f"{conclusion} {generated}"
    if mr == "MR-79":
        return list(premises), generated
    return [generated], conclusion  # MR-80


async def _keyword_relation(
    run: _Transformer,
    mr: str,
    premises: Sequence[str],
    conclusion: str,
    changed_premises: Sequence[int],
    changed_conclusion: bool,
    seed: int,
) -> tuple[list[str], str]:
    """MR-8, 10, 25, 34, 137: keywords of each part's text, a word for each, then each planned sentence rewritten."""
    new_premises, new_conclusion = list(premises), conclusion
    premise_text = " ".join(premises)
    if mr == "MR-137":  # one set of keywords and words for the whole case, replaced in each part
        keywords = await run.keywords(f"{premise_text}\n\n{conclusion}")
        words = await run.words_for(mr, "", keywords, random.Random(seed))
        for i in changed_premises:
            new_premises[i] = await run.replace(mr, premises[i], keywords, words)
        if changed_conclusion:
            new_conclusion = await run.replace(mr, conclusion, keywords, words)
        return new_premises, new_conclusion
    rng = random.Random(seed)  # MR-25: one stream for the group, premises first
    parts: list[tuple[str, list[int]]] = []
    if changed_premises:
        parts.append((premise_text, list(changed_premises)))
    if changed_conclusion:
        parts.append((conclusion, [-1]))
    for text, sites in parts:
        keywords = await run.keywords(text)
        words = [] if mr == "MR-34" else await run.words_for(mr, text, keywords, rng)
        for i in sites:
            sentence = conclusion if i < 0 else premises[i]
            if mr == "MR-34":
                changed = await run.remove(sentence, keywords)
            else:
                changed = await run.replace(mr, sentence, keywords, words)
            if i < 0:
                new_conclusion = changed
            else:
                new_premises[i] = changed
    return new_premises, new_conclusion


async def transform_followup(
    model: Model,
    mr: str,
    premises: Sequence[str],
    conclusion: str,
    changed_premises: Sequence[int],
    changed_conclusion: bool,
    cache: bool | CachePolicy = False,
    seed: int = 0,
) -> LlmFollowUp:
    """Make one group's follow-up: carry out the builder's plan with the relation's prompts.

    Args:
        model: The transformer.
        mr: An LLM-based relation id (`LLM_RELATIONS`).
        premises: The source premises.
        conclusion: The source conclusion.
        changed_premises: The premises to transform (the plan, from `plan_sites` or the builder). MR-77:
            `(len(premises),)` (a premise is added); MR-80: every index (the premises are replaced by one).
        changed_conclusion: Whether to transform the conclusion (MR-78, MR-79: True).
        cache: Inspect's model cache for the calls.
        seed: Drives MR-25's random words (the same seed gives the same words).

    Returns:
        The whole follow-up; `ok` is False (with the reason, and the source's text) if a call failed or nothing
        planned changed. `calls` holds every call made, also on failure.

    Raises:
        ValueError: If `mr` is not LLM-based.
    """
    if mr not in LLM_RELATIONS:
        raise ValueError(f"{mr} is not an LLM-based relation; expected one of {', '.join(LLM_RELATIONS)}")
    calls: list[StepRecord] = []
    run = _Transformer(model, cache, calls)
    new_premises, new_conclusion = list(premises), conclusion
    try:
        if mr in GENERATE:
            new_premises, new_conclusion = await _generate(run, mr, premises, conclusion)
        elif mr in KEYWORD_RELATIONS:
            new_premises, new_conclusion = await _keyword_relation(
                run, mr, premises, conclusion, changed_premises, changed_conclusion, seed
            )
        else:
            for index in changed_premises:
                new_premises[index] = await run.rewrite(mr, premises[index])
            if changed_conclusion:
                new_conclusion = await run.rewrite(mr, conclusion)
    except TransformFailed as exc:
        return LlmFollowUp(False, tuple(premises), conclusion, str(exc), calls)
    if changed_conclusion and new_conclusion == conclusion:
        return LlmFollowUp(False, tuple(premises), conclusion, "conclusion unchanged", calls)
    if changed_premises and new_premises == list(premises):
        return LlmFollowUp(False, tuple(premises), conclusion, "premises unchanged", calls)
    return LlmFollowUp(True, tuple(new_premises), new_conclusion, "", calls)


def pending_transform(
    transformer: str | Model, cache: bool = True
) -> Callable[[str, Mapping[str, Any]], Awaitable[LlmFollowUp]]:
    """The eval-time transform of pending rows, which the lexical task hands to `solvers.lexical.lexical_generate`.

    Transformer calls are ordinary Inspect model calls: they appear in the sample's transcript, and they go through
    Inspect's model cache with a policy that ignores the epoch (`TRANSFORMER_CACHE`: `per_epoch=False`, no expiry),
    so that every epoch of a run, and every later run with the same transformer, sees the same follow-up. Without
    that, `--epochs N` would mix the transformer's randomness into the flakiness it is meant to measure (LLMorph
    re-ran "exactly the same groups").

    Args:
        transformer: The transformer model (an Inspect model name or a `Model`), resolved when a sample is solved.
        cache: Cache transformer calls across epochs and runs; False re-transforms.

    Returns:
        An async function of a pending sample's id (which seeds MR-25's words, `transform_seed`) and metadata (the
        builder's plan: `mr`, `premises`, `conclusion`, `changed_premises`, `changed_conclusion`).
    """
    policy: bool | CachePolicy = TRANSFORMER_CACHE if cache else False

    async def transform_pending(sample_id: str, metadata: Mapping[str, Any]) -> LlmFollowUp:
        return await transform_followup(
            get_model(transformer),
            str(metadata["mr"]),
            list(metadata["premises"]),
            str(metadata["conclusion"]),
            list(metadata["changed_premises"]),
            bool(metadata["changed_conclusion"]),
            cache=policy,
            seed=transform_seed(sample_id),
        )

    return transform_pending


def plan_sites(mr: str, n_premises: int, part: str, rng_choice: int) -> tuple[tuple[int, ...], bool]:
    """Which sentences an LLM-based relation transforms in a part: (premise indices, whether the conclusion).

    MR-77 adds a premise (the plan names the new index, `n_premises`), MR-80 replaces them all (every index); MR-78
    and MR-79 change the conclusion only; MR-152 negates one premise (`rng_choice % n_premises`; the builder may
    replace it by a premise whose negation provably changes the label); the others transform every premise and/or
    the conclusion.

    Raises:
        ValueError: On an unknown part, or a part the relation does not transform (naming the allowed one).
    """
    if part not in ("premises", "conclusion", "both"):
        raise ValueError(f"part={part!r}: expected premises, conclusion or both")
    if (mr in PREMISES_ONLY and part != "premises") or (mr in CONCLUSION_ONLY and part != "conclusion"):
        allowed = "premises" if mr in PREMISES_ONLY else "conclusion"
        raise ValueError(f"{mr} transforms the {allowed} only (part='{allowed}'); got part={part!r}")
    if mr == "MR-77":
        return (n_premises,), False
    premises: tuple[int, ...] = ()
    if part in ("premises", "both") and n_premises:
        premises = (rng_choice % n_premises,) if mr == "MR-152" else tuple(range(n_premises))
    return premises, part in ("conclusion", "both")
