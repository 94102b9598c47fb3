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
