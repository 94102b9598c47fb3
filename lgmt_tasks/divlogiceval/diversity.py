"""Lexical diversity of a DivLogicEval build: vocabulary size and the KL statistic of §3.2 / Table 5.

The paper measures distribution bias by (1) the number of distinct words of the test set, "determined using the
nltk tokenizer" (§2.1, after Table 5), and (2) the KL divergence between the word-frequency distribution of the test
set and that of a Wikipedia sample ("20220301.simple") holding about as many tokens as the smallest benchmark
compared (§3.2). The paper gives no formula, smoothing or direction; we use

    D_KL(P ‖ Q) = Σ_w P(w) · ln(P(w) / Q(w))

with P the build's word distribution and Q the reference's, both smoothed by adding one to every count over the
union of their vocabularies (a word missing from one side would make the divergence infinite), and the reference
scaled to the expected counts of a sample as large as the build (words expected less than once left out), as the
paper's same-size wiki sample is. Without Wikipedia offline, the reference
is given by the caller: a word → frequency mapping (`wordfreq_reference` reads one from the optional `wordfreq`
package). The figures are therefore comparable between our builds, not to Table 5's numbers digit for digit.

Tokens: each text field (content, question, options) is cut into sentences and split by NLTK's word tokenizer
(`NLTKWordTokenizer`, what `nltk.word_tokenize` applies to each sentence; it needs no data download), lower-cased,
and only tokens with a letter are words (punctuation and numbers are not word types).
A type count alone says little about a generated build (random slot fillers inflate it), so two more views:
`vocabulary_sources` splits the word types into those of the build's fixed text (templates, questions, frame words)
and those of its variable material, and `skeleton_statistics` counts syntactic shapes as function-word skeletons
(`skeleton`; no part-of-speech tagger runs offline here). `rarefied_types` compares counts at a common sample size.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

TEXT_FIELDS: tuple[str, ...] = ("content", "question", "options")
"""The row fields whose text is counted (options is a list of strings)."""

_LETTER = re.compile(r"[^\W\d_]")


@cache
def _tokenizer() -> Any:
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def words(text: str) -> list[str]:
    """The words of a text: NLTK word tokens, lower-cased, that contain a letter.

    The tokenizer splits off only a text's last full stop (`word_tokenize` first splits sentences with Punkt, whose
    model is a download), so the text is cut after every `.`, `!` or `?` followed by a space first: otherwise
    "mat." inside a paragraph would be a word type of its own.
    """
    tokenizer = _tokenizer()
    return [
        token.lower()
        for sentence in _SENTENCE_END.split(text)
        for token in tokenizer.tokenize(sentence)
        if _LETTER.search(token)
    ]


def row_texts(row: Mapping[str, Any], fields: Sequence[str] = TEXT_FIELDS) -> list[str]:
    """The texts of a row that a model reads (the content, the question and each option)."""
    texts: list[str] = []
    for name in fields:
        value = row.get(name)
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, (list, tuple)):
            texts += [v for v in value if isinstance(v, str)]
    return texts


def word_counts(rows: Iterable[Mapping[str, Any]], fields: Sequence[str] = TEXT_FIELDS) -> Counter[str]:
    """How often each word occurs in the rows' texts."""
    counts: Counter[str] = Counter()
    for row in rows:
        for text in row_texts(row, fields):
            counts.update(words(text))
    return counts


def kl_divergence(p_counts: Mapping[str, float], q_counts: Mapping[str, float], alpha: float = 1.0) -> float:
    """D_KL(P ‖ Q) in nats between two word distributions given by counts, add-`alpha` smoothed.

    Both sides get `alpha` added to every word of the union of their vocabularies, so the divergence is finite.

    Raises:
        ValueError: If P is empty or `alpha` is not positive.
    """
    if alpha <= 0:
        raise ValueError(f"alpha={alpha}: must be positive")
    if not p_counts or sum(p_counts.values()) <= 0:
        raise ValueError("kl_divergence: P has no words")
    vocabulary = set(p_counts) | set(q_counts)
    p_total = sum(p_counts.values()) + alpha * len(vocabulary)
    q_total = sum(q_counts.values()) + alpha * len(vocabulary)
    divergence = 0.0
    for word in vocabulary:
        p = (p_counts.get(word, 0.0) + alpha) / p_total
        q = (q_counts.get(word, 0.0) + alpha) / q_total
        divergence += p * math.log(p / q)
    return divergence


def scaled_reference(reference: Mapping[str, float], tokens: int) -> dict[str, float]:
    """A reference distribution as the expected counts of a sample of `tokens` words (the paper's same-size sample).

    Words expected less than once in such a sample are left out, as a real sample of that size would mostly miss
    them; otherwise the smoothing of a 100,000-word reference list would swamp a build of a few thousand words.
    """
    total = sum(reference.values())
    if total <= 0:
        raise ValueError("reference: no positive frequencies")
    scaled = {word: tokens * freq / total for word, freq in reference.items() if freq > 0}
    return {word: count for word, count in scaled.items() if count >= 1}


def lexical_statistics(
    rows: Iterable[Mapping[str, Any]], reference: Mapping[str, float] | None = None
) -> dict[str, float | int]:
    """Vocabulary size and, given a reference, the KL statistic of §3.2 for a set of rows.

    Args:
        rows: Dataset rows (the fields of `TEXT_FIELDS` are read).
        reference: Optional word → frequency (or count) mapping of general text, e.g. `wordfreq_reference()`.

    Returns:
        `rows`, `tokens` (words counted), `vocabulary_size` (distinct words; Table 5's "vocabulary size"),
        `type_token_ratio`, `hapax` (words seen once), and with a reference `kl_to_reference` (D_KL(build ‖
        reference), nats).
    """
    materialised = list(rows)
    counts = word_counts(materialised)
    tokens = sum(counts.values())
    stats: dict[str, float | int] = {
        "rows": len(materialised),
        "tokens": tokens,
        "vocabulary_size": len(counts),
        "type_token_ratio": round(len(counts) / tokens, 4) if tokens else 0.0,
        "hapax": sum(1 for c in counts.values() if c == 1),
    }
    if reference is not None and tokens:
        stats["kl_to_reference"] = round(kl_divergence(counts, scaled_reference(reference, tokens)), 4)
    return stats


def renderings_per_variable(rows: Iterable[Mapping[str, Any]], forms: Mapping[str, Sequence[str]]) -> float:
    """The mean number of distinct sentences that render one variable within its instance.

    Args:
        rows: Rows with `variables` (each with its base `sentence`).
        forms: Base sentence → every rendering of the variable, positive and negative (from the pool).

    Returns:
        Over every variable of every row, how many of its renderings occur in the row's texts, on average.
    """
    found: list[int] = []
    for row in rows:
        text = " ".join(row_texts(row)).lower()
        for variable in row.get("variables") or []:
            renderings = forms.get(variable["sentence"], (variable["sentence"], variable["negation"]))
            found.append(sum(1 for s in renderings if _clause_key(s) in text))
    return round(sum(found) / len(found), 3) if found else 0.0


def _clause_key(sentence: str) -> str:
    """A sentence as it appears inside a longer one: lower-cased, without its final full stop."""
    return sentence.rstrip(".!").lower()


def wordfreq_reference(top_n: int = 100_000, language: str = "en") -> dict[str, float]:
    """General-English word frequencies from the optional `wordfreq` package (its data ship in its wheel).

    wordfreq blends Wikipedia with subtitles, news, books and web text; the paper's reference is Simple English
    Wikipedia alone, which cannot be read offline.

    Raises:
        ImportError: If `wordfreq` is not installed (a clear message naming the package).
    """
    try:
        from wordfreq import top_n_list, word_frequency
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("wordfreq_reference needs the optional package `wordfreq` (pip install wordfreq)") from error
    return {word: word_frequency(word, language) for word in top_n_list(language, top_n)}


# ------------------------------------------------------------------------------------ fixed text vs variable material
#
# A build's vocabulary has two sources. The *fixed text* is written once and repeats across the build: the connective
# templates (`templates.json`), the question wordings (`english.QUESTIONS`), the conclusion lead
# (`english.CONCLUSION_LEAD`), the words of the rule negation of user pools ("It is not the case that", "not"), and, for
# rows of our frame pool, the frame's own words and its small hand-written slot lists (the 2 generic subjects and 147
# people nouns, the 5 verbs with their participles and 54 work nouns, "not true"/"false"). The *variable material* is
# everything else: for a pool of natural sentences (SNLI), the sentences themselves; for the frame pool, the slot
# fillers drawn from the big word lists (the two compared nouns and the title's adjective and noun, about 8,000
# wonderwords words), which make a type count high without making the sentences differ in anything but those words.
# A word that occurs in any fixed text counts as fixed, even where it also fills a slot.

_TEMPLATE_SLOT = re.compile(r"\{(?:not_)?[a-z]\}")

RULE_NEGATION_TEXTS: tuple[str, ...] = ("It is not the case that", "not", "does not", "do not", "did not")
"""The words a negation rule adds to a pool sentence: `english.negate` for user pools ("not" after an auxiliary, or
"It is not the case that ..."), and the SNLI pool's "does/do/did not" before the verb's lemma."""

_FRAME_TITLE = re.compile(r'titled "([^"]*)"')
_FRAME_COMPARED = re.compile(r"\bcompar(?:es|ing) the ([\w'-]+) to the ([\w'-]+)")


def template_texts() -> list[str]:
    """The fixed texts of every DivLogicEval build: connective templates (slots removed), questions, conclusion lead.

    Imported lazily: `build` imports this module inside a function, and the benchmark script needs no build machinery
    for the other benchmarks.
    """
    from lgmt_tasks.divlogiceval.english import CONCLUSION_LEAD, QUESTIONS, templates

    texts = [_TEMPLATE_SLOT.sub(" ", t.text) for group in templates().values() for t in group]
    texts += [q for wordings in QUESTIONS.values() for q in wordings]
    texts += [CONCLUSION_LEAD, *RULE_NEGATION_TEXTS]
    return texts


def variable_renderings(variable: Mapping[str, Any]) -> list[str]:
    """Every sentence a build row stores for one variable: base sentence, negation, paraphrases, contradictions."""
    texts = [variable.get("sentence"), variable.get("negation")]
    texts += list(variable.get("paraphrases") or []) + list(variable.get("contradictions") or [])
    return [t for t in texts if isinstance(t, str) and t]


def frame_slot_fillers(sentence: str) -> set[str] | None:
    """The slot fillers of a frame-pool sentence, or None if the sentence is not one of the frame's renderings.

    The frame ("[agent] [made] a [work] titled "[Adj Noun]" that compares the [N1] to the [N2]",
    `english.entry_sentences`) has four open slots filled from the wonderwords lists: the title's words (adjective and
    noun; its "The" is frame text) and the two compared nouns. Subject, verb and work come from short hand-written
    lists that repeat across the pool, so they count as frame text, as the frame's fixed words do. Read from the
    sentence itself, so a build is analysed as it was written, whatever the generator now produces.
    """
    title = _FRAME_TITLE.search(sentence)
    compared = _FRAME_COMPARED.search(sentence)
    if title is None or compared is None:
        return None
    fillers = {w for w in words(title.group(1)) if w != "the"}
    return fillers | {compared.group(1).lower(), compared.group(2).lower()}


def frame_fixed_words(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """The words of frame-pool variables outside their slot fillers (the frame's words and hand-written lists)."""
    fixed: set[str] = set()
    for row in rows:
        for variable in row.get("variables") or []:
            for sentence in variable_renderings(variable):
                fillers = frame_slot_fillers(sentence)
                if fillers is not None:
                    fixed.update(w for w in words(sentence) if w not in fillers)
    return fixed


def fixed_text_words(rows: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every word of a DivLogicEval build's fixed text: the template texts and, for frame-pool rows, the frame words."""
    fixed = {w for text in template_texts() for w in words(text)}
    return fixed | frame_fixed_words(rows)


def vocabulary_sources(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Where a DivLogicEval build's word types come from: fixed text or variable material (see above).

    Returns:
        `vocabulary_size`, `types_from_fixed_text` (word types that occur in some fixed text) and
        `types_from_variable_material` (the rest: the types outside any template, frame or hand-written slot list).
    """
    vocabulary = set(word_counts(rows))
    fixed = fixed_text_words(rows)
    return {
        "vocabulary_size": len(vocabulary),
        "types_from_fixed_text": len(vocabulary & fixed),
        "types_from_variable_material": len(vocabulary - fixed),
    }


def rarefied_types(counts: Mapping[str, int], sample: int) -> float | None:
    """The expected number of distinct types in a random sample of `sample` items drawn without replacement.

    Distinct counts grow with the amount of text, so benchmarks of different size are compared at a common size
    (rarefaction: Σ_t 1 − C(N − n_t, sample) / C(N, sample), exact, no random draw). None if there are fewer than
    `sample` items.
    """
    total = sum(counts.values())
    if sample <= 0 or total < sample:
        return None
    log_all = _log_choose(total, sample)
    expected = 0.0
    for count in counts.values():
        if total - count >= sample:
            expected += 1.0 - math.exp(_log_choose(total - count, sample) - log_all)
        else:
            expected += 1.0
    return round(expected, 1)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


# ------------------------------------------------------------------------------------------ function-word skeletons
#
# No part-of-speech tagger runs offline here (NLTK's tagger models and spaCy's are downloads; lemminflect has a
# lexicon but no tagger), so a sentence's syntactic shape is approximated by its function-word skeleton: every word
# outside a fixed closed-class list becomes the placeholder X, runs of X merge into one, clause punctuation stays.
# "The cat sat on the mat." and "The dog slept on the sofa." share the skeleton "the X on the X"; "If it rains, the
# match is cancelled." ("if X , the X is X") does not. Words of both classes ("that", "to", "one") count as
# function words, so a noun spelled like one ("the mine", "the outside", "the being") makes a skeleton of its own:
# without a tagger the count errs towards more shapes, in favour of template-made text.

CLOSED_CLASS: dict[str, frozenset[str]] = {
    "determiners": frozenset(
        "a an the this that these those some any no every each all both either neither another other such what "
        "which whose my your his her its our their much many more most few fewer less least several enough".split()
    ),
    "prepositions": frozenset(
        "about above across after against along among around as at before behind below beneath beside besides "
        "between beyond by despite down during except for from in inside into like near of off on onto out outside "
        "over past per since through throughout till to toward towards under underneath unlike until up upon via "
        "with within without".split()
    ),
    "pronouns": frozenset(
        "i me mine myself you yours yourself yourselves he him himself she hers herself it itself we us ours "
        "ourselves they them theirs themselves one someone somebody something anyone anybody anything everyone "
        "everybody everything nobody nothing none who whom whoever whatever there here".split()
    ),
    "auxiliaries_and_modals": frozenset(
        "be am is are was were been being have has had having do does did can could may might must shall should "
        "will would ought 's 're 've 'd 'll 'm ca wo".split()
    ),
    "conjunctions": frozenset(
        "and or but nor so yet if then than because although though while whereas unless whether once whenever "
        "wherever when where why how provided given".split()
    ),
    "particles": frozenset("only also even just too very still already".split()),
    "negation": frozenset("not n't never".split()),
}
"""The closed-class words kept in a skeleton, by class (lower case; NLTK splits "can't" into "ca" + "n't")."""

FUNCTION_WORDS: frozenset[str] = frozenset().union(*CLOSED_CLASS.values())
"""Every word of `CLOSED_CLASS`."""

PLACEHOLDER = "X"
"""What a content word (or a run of them) becomes in a skeleton."""

_CLAUSE_PUNCTUATION = frozenset(",;:")
_ARTICLE_FORMS = {"an": "a"}


def sentences_of(text: str) -> list[str]:
    """A text cut into sentences after every `.`, `!` or `?` followed by a space (as `words` cuts it)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def skeleton(sentence: str) -> str:
    """A sentence's function-word skeleton: closed-class words and `, ; :` kept, every other word made X, X-runs merged.

    Tokens are NLTK word tokens, lower-cased; numbers count as content words; quotes, brackets and final
    punctuation are dropped (they do not change the construction); "an" is written "a" (the article's form follows
    the next word's sound, not the syntax).
    """
    out: list[str] = []
    for token in _tokenizer().tokenize(sentence):
        lowered = _ARTICLE_FORMS.get(token.lower(), token.lower())
        if lowered in FUNCTION_WORDS or lowered in _CLAUSE_PUNCTUATION:
            out.append(lowered)
        elif any(ch.isalnum() for ch in token) and (not out or out[-1] != PLACEHOLDER):
            out.append(PLACEHOLDER)
    return " ".join(out)


def read_sentences(rows: Iterable[Mapping[str, Any]], fields: Sequence[str] = TEXT_FIELDS) -> list[str]:
    """The distinct sentences a model reads in the rows (content, question and options, each cut into sentences).

    Distinct: a FOLIO story's premises, shared by several of its questions, count once, so a benchmark's many
    questions over one passage do not weigh its skeletons.
    """
    seen: dict[str, None] = {}
    for row in rows:
        for text in row_texts(row, fields):
            for sentence in sentences_of(text):
                seen.setdefault(" ".join(sentence.split()), None)
    return list(seen)


def variable_sentences(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The distinct variable sentences of DivLogicEval rows: each variable's `sentence` and `negation`."""
    seen: dict[str, None] = {}
    for row in rows:
        for variable in row.get("variables") or []:
            for key in ("sentence", "negation"):
                value = variable.get(key)
                if isinstance(value, str) and value.strip():
                    seen.setdefault(" ".join(value.split()), None)
    return list(seen)


SKELETON_SAMPLE = 500
"""The common size at which skeleton counts are compared (`rarefied_types`): FOLIO v0 validation has about 600
distinct sentences, the smallest set compared."""


def skeleton_statistics(sentences: Sequence[str], top: int = 10, sample: int = SKELETON_SAMPLE) -> dict[str, Any]:
    """How many syntactic shapes (function-word skeletons) a set of sentences has, and how concentrated they are.

    Returns:
        `sentences` (how many the counts are over), `skeletons` (distinct), `skeletons_per_1000_sentences`,
        `top{top}_share` (the share of sentences whose skeleton is one of the `top` most common),
        `skeletons_in_{sample}` (expected distinct skeletons in a random `sample` of the sentences; None if fewer),
        and `most_common` (the five commonest skeletons with their counts).
    """
    counts = Counter(skeleton(s) for s in sentences)
    n = len(sentences)
    return {
        "sentences": n,
        "skeletons": len(counts),
        "skeletons_per_1000_sentences": round(1000 * len(counts) / n, 1) if n else 0.0,
        f"top{top}_share": round(sum(c for _, c in counts.most_common(top)) / n, 4) if n else 0.0,
        f"skeletons_in_{sample}": rarefied_types(counts, sample),
        "most_common": [[shape, count] for shape, count in counts.most_common(5)],
    }
