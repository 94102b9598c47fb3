"""Lexical statistics (§3.2, Table 5) and the lexical diversity of the builtin pool in built instances."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from lgmt_tasks.divlogiceval.build import DivLogicEvalConfig, build_divlogiceval
from lgmt_tasks.divlogiceval.diversity import (
    kl_divergence,
    lexical_statistics,
    renderings_per_variable,
    scaled_reference,
    words,
)
from lgmt_tasks.divlogiceval.english import builtin_pool


def test_words_are_nltk_tokens_with_a_letter_lower_cased():
    assert words('Nobody wrote a poem titled "The Odd Kettle", didn\'t they? 42. The mat.') == [
        "nobody", "wrote", "a", "poem", "titled", "the", "odd", "kettle", "did", "n't", "they", "the", "mat",
    ]  # fmt: skip
    assert words("The cat sat on the mat. A dog ran.") == ["the", "cat", "sat", "on", "the", "mat", "a", "dog", "ran"]


def test_lexical_statistics_counts_content_question_and_options():
    rows = [
        {"content": "The cat sleeps.", "question": "Which is true?", "options": ["A dog barks.", "The cat sleeps."]},
        {"content": "It rains.", "question": "Which is true?", "options": ["The sun shines."], "id": "ignored words"},
    ]
    stats = lexical_statistics(rows)
    assert stats["rows"] == 2
    assert stats["tokens"] == 3 + 3 + 3 + 3 + 2 + 3 + 3
    assert stats["vocabulary_size"] == len({"the", "cat", "sleeps", "which", "is", "true", "a", "dog", "barks"} | {
        "it", "rains", "sun", "shines"})  # fmt: skip
    assert "kl_to_reference" not in stats
    assert stats["hapax"] == sum(1 for c in Counter(w for r in rows for w in words(
        " ".join([r["content"], r["question"], *r["options"]]))).values() if c == 1)  # fmt: skip


def test_kl_divergence_is_zero_for_equal_distributions_and_grows_with_difference():
    p = {"a": 10, "b": 10}
    assert kl_divergence(p, {"a": 5, "b": 5}) == pytest.approx(0.0)
    near = kl_divergence(p, {"a": 12, "b": 8})
    far = kl_divergence(p, {"a": 19, "b": 1})
    assert 0 < near < far
    # the definition, on smoothed counts: sum of p ln(p / q)
    ps, qs = [11 / 22, 11 / 22], [20 / 22, 2 / 22]
    assert far == pytest.approx(sum(x * math.log(x / y) for x, y in zip(ps, qs)))
    assert math.isfinite(kl_divergence({"a": 1}, {"b": 1}))  # smoothing: disjoint supports stay finite
    with pytest.raises(ValueError, match="alpha"):
        kl_divergence(p, p, alpha=0)
    with pytest.raises(ValueError, match="P has no words"):
        kl_divergence({}, p)


def test_reference_is_scaled_to_a_same_size_sample():
    scaled = scaled_reference({"the": 0.5, "cat": 0.4, "aardvark": 0.0001}, tokens=100)
    assert scaled == pytest.approx({"the": 50.0 / 0.9001, "cat": 40.0 / 0.9001})  # the rare word is left out


def test_a_text_like_its_reference_is_closer_than_a_repetitive_one():
    reference = {"the": 6.0, "a": 3.0, "cat": 1.0, "dog": 1.0, "sat": 1.0, "ran": 1.0, "on": 2.0, "mat": 1.0}
    natural = [{"content": "The cat sat on the mat. A dog ran on the mat."}]
    repetitive = [{"content": "Dog dog dog dog dog dog dog dog dog dog dog dog."}]
    assert (
        lexical_statistics(natural, reference)["kl_to_reference"]
        < lexical_statistics(repetitive, reference)["kl_to_reference"]
    )


@pytest.fixture(scope="module")
def built_rows() -> list[dict[str, object]]:
    """A small build with the builtin pool."""
    return list(build_divlogiceval(DivLogicEvalConfig(per_type=6, seed=11)).dataset)


def test_variables_of_an_instance_never_share_a_topic_word(built_rows):
    topics = {entry.sentence: set(entry.topic_words) for entry in builtin_pool()}
    for row in built_rows:
        seen: set[str] = set()
        for variable in row["variables"]:  # type: ignore[attr-defined]
            mine = topics[variable["sentence"]]
            assert not mine & seen, (row["id"], mine & seen)
            seen |= mine


def test_variables_are_said_in_several_ways_within_an_instance(built_rows):
    forms = {e.sentence: e.positive_forms() + e.negative_forms() for e in builtin_pool()}
    assert renderings_per_variable(built_rows, forms) > 1.5
    # with one rendering per variable (a user pool), the same measure is at most 2 (sentence and negation)
    single = {sentence: rendered[:1] for sentence, rendered in forms.items()}
    assert renderings_per_variable(built_rows, single) <= 1.0


def test_a_small_build_is_already_lexically_rich(built_rows):
    stats = lexical_statistics(built_rows)
    # 18 questions: every variable brings three nouns of its own (about 6 variables an instance)
    assert stats["vocabulary_size"] > 18 * 6 * 3
